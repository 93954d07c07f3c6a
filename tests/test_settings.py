"""Settings come only from the environment (and .env); the token never shows up in logs."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.adapter.client import time_units
from bot.logs import RedactSecrets
from bot.settings import BadSetting, MissingSetting, Settings, read_env_file


def test_env_file_is_read_and_real_variables_win(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text('# comment\nDISCORD_TOKEN="abc.def"\nexport LOG_LEVEL=debug\nBROKEN\n')
    values = read_env_file(env_file)
    assert values == {"DISCORD_TOKEN": "abc.def", "LOG_LEVEL": "debug"}
    settings = Settings.from_env(
        {**values, "BOARDROOM_DB": str(tmp_path / "x.db"), "DEV_GUILD_ID": "42"}
    )
    assert settings.token == "abc.def" and settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 42 and settings.database == tmp_path / "x.db"


def test_missing_token_is_named() -> None:
    with pytest.raises(MissingSetting, match="DISCORD_TOKEN"):
        Settings.from_env({})
    assert Settings.from_env({}, need_token=False).database == Path("./data/boardroom.db")


def test_token_never_in_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "s3cr3t-token"})
    assert "s3cr3t-token" not in repr(settings) and "s3cr3t-token" not in str(settings)


def test_log_lines_are_redacted() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "auth %s ok", ("Bot s3cr3t",), None)
    assert RedactSecrets("s3cr3t").filter(record)
    assert record.getMessage() == "auth Bot <redacted> ok"


def test_render_processes_auto_and_explicit(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import settings as module

    monkeypatch.setattr(module.os, "cpu_count", lambda: 4)
    assert Settings.from_env({}, need_token=False).render_processes == 1
    assert (
        Settings.from_env({"BOARDROOM_RENDER_PROCESSES": "auto"}, need_token=False).render_processes
        == 1
    )
    monkeypatch.setattr(module.os, "cpu_count", lambda: 1)
    assert Settings.from_env({}, need_token=False).render_processes == 0
    assert (
        Settings.from_env({"BOARDROOM_RENDER_PROCESSES": "3"}, need_token=False).render_processes
        == 3
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BOARDROOM_MAX_IN_FLIGHT", "lots"),
        ("BOARDROOM_RENDER_PROCESSES", "-1"),
        ("BOARDROOM_BOT_PAUSE", "soon"),
        ("DEV_GUILD_ID", "my-server"),
        ("BOARDROOM_GAMES", "my games; rm -rf"),
        ("LOG_LEVEL", "verbose"),
        ("BOARDROOM_TEST_CALENDAR_ANCHOR", "friday"),
        ("BOARDROOM_TEST_CALENDAR_ANCHOR", "1796000000=2026-03-06T20:00"),  # no offset
    ],
)
def test_a_malformed_setting_is_named(name: str, value: str) -> None:
    with pytest.raises(BadSetting) as caught:
        Settings.from_env({name: value}, need_token=False)
    assert caught.value.name == name and caught.value.value == value


def test_more_games_are_a_list_of_modules() -> None:
    assert Settings.from_env({}, need_token=False).game_modules == ()
    given = {"BOARDROOM_GAMES": " mygames.chess, tests.games.nim ,"}
    assert Settings.from_env(given, need_token=False).game_modules == (
        "mygames.chess",
        "tests.games.nim",
    )


def test_synchronous_is_full_unless_set() -> None:
    assert Settings.from_env({}, need_token=False).synchronous == "FULL"
    env = {"BOARDROOM_SYNCHRONOUS": "normal"}
    assert Settings.from_env(env, need_token=False).synchronous == "NORMAL"
    with pytest.raises(BadSetting) as bad:
        Settings.from_env({"BOARDROOM_SYNCHRONOUS": "off"}, need_token=False)
    assert bad.value.expected == "synchronous"


def test_the_container_database_must_be_on_the_volume() -> None:
    inside = {"BOARDROOM_IN_CONTAINER": "1"}

    def off(**env: str) -> bool:
        return Settings.from_env({**inside, **env}, need_token=False).database_off_volume()

    assert off()  # the host default ./data/boardroom.db is not /data
    assert not off(BOARDROOM_DB="/data/boardroom.db")
    assert off(BOARDROOM_DB="/data/../home/boardroom.db")
    assert off(BOARDROOM_DB="/database.db")
    assert not off(BOARDROOM_DB="/tmp/x.db", BOARDROOM_ALLOW_DB_OUTSIDE_DATA="1")
    assert not Settings.from_env({}, need_token=False).database_off_volume()  # not in a container


def test_scaled_hours_read_the_calendar_from_the_tests_anchor() -> None:
    env = {
        "BOARDROOM_TEST_HOUR_SECONDS": "2",
        "BOARDROOM_TEST_CALENDAR_ANCHOR": "1796000000=2026-03-06T20:00:00+09:00",
    }
    settings = Settings.from_env(env, need_token=False)
    friday = datetime(2026, 3, 6, 11, 0, tzinfo=UTC).timestamp()
    assert settings.test_calendar_anchor == (1796000000.0, friday)
    game_time = time_units(settings).game_time
    assert game_time.game(1796000000.0) == friday
    assert game_time.game(1796000002.0) == friday + 3600  # one game hour in two seconds
    real = time_units(Settings.from_env({}, need_token=False)).game_time
    assert real.game(1796000000.0) == 1796000000.0  # real hours: the wall clock
    unanchored = Settings.from_env({"BOARDROOM_TEST_HOUR_SECONDS": "2"}, need_token=False)
    assert time_units(unanchored, started=500.0).game_time.game(502.0) == 500.0 + 3600
