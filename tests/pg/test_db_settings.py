"""The settings that choose the database backend, its pool and the gateway shards."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import BadSetting, Settings
from bot.storage.base import Shards

URL = "postgresql://boardroom:secret@db:5432/boardroom"


def settings(**env: str) -> Settings:
    return Settings.from_env(env, need_token=False)


def test_sqlite_stays_the_default() -> None:
    plain = settings()
    assert plain.db_url is None and plain.store_target == Path("data/boardroom.db")
    assert plain.db_pool == 5 and plain.shards is None


def test_a_postgres_url_chooses_postgres_and_its_password_is_never_shown() -> None:
    chosen = settings(BOARDROOM_DB=URL, BOARDROOM_DB_POOL="12", BOARDROOM_IN_CONTAINER="1")
    assert chosen.store_target == URL and chosen.db_pool == 12
    assert chosen.database == Path("/data/boardroom.db")  # heartbeat beside where it would be
    assert not chosen.database_off_volume()
    assert "secret" not in repr(chosen) and "secret" not in str(chosen)
    with pytest.raises(BadSetting):
        settings(BOARDROOM_DB=URL, BOARDROOM_DB_POOL="0")


@pytest.mark.parametrize(
    ("text", "shards"),
    [("0-3/8", Shards((0, 1, 2, 3), 8)), ("5/8", Shards((5,), 8)), (" 2 - 3 / 4 ", Shards((2, 3), 4))],
)
def test_shards_are_a_range_of_a_count(text: str, shards: Shards) -> None:
    assert settings(BOARDROOM_SHARDS=text).shards == shards


@pytest.mark.parametrize("text", ["8/8", "3-1/4", "0-3", "a/4", "0-4/4", "-1/4"])
def test_bad_shards_are_refused_by_name(text: str) -> None:
    with pytest.raises(BadSetting) as bad:
        settings(BOARDROOM_SHARDS=text)
    assert bad.value.name == "BOARDROOM_SHARDS" and bad.value.expected == "shards"


def test_run_says_when_postgres_cannot_be_reached_without_printing_the_password(tmp_path) -> None:
    from tests.pg.server import free_port
    from tests.test_cli import boardroom

    url = f"postgresql://boardroom:hunter22@127.0.0.1:{free_port()}/boardroom"
    done = boardroom(
        "run", cwd=tmp_path, env={"DISCORD_TOKEN": "x.y.z", "BOARDROOM_DB": url,
                                 "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}
    )
    assert done.returncode == 1, done.stderr
    assert "could not be reached" in done.stderr and "BOARDROOM_DB" in done.stderr
    assert "hunter22" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
