"""One series of migrations for both backends, and the databases made before it.

A SQLite database at any level of the series opens and migrates on (its numbers are the
series' own). ``tests/data/sqlite-level9.db`` and ``tests/data/postgres-level5.sql`` were made
by the code of the two former series (the same rows, the PostgreSQL one copied from the SQLite
one with ``boardroom copy-db``, then ``pg_dump``): both open with every row as it was, record
the one series, replay and play on; a PostgreSQL database at any former level migrates on.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.cli import unverified_games
from bot.service.games import GameService
from bot.storage import open_store
from bot.storage.copy import copy_database
from bot.storage.dialect import POSTGRES, SQLITE
from bot.storage.migrate import POSTGRES_BEFORE, migration_scripts
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore
from tests.pg.server import PgServer
from tests.storage.test_copy import ALICE, everything

DATA = Path(__file__).parents[1] / "data"
SCRIPTS = migration_scripts()
NAMES = [(number, name) for number, name, _ in SCRIPTS]


async def columns(target: str | Path) -> dict[str, list[str]]:
    """Every table of the store and its columns, in order."""
    tables = [
        "games", "seats", "moves", "posts", "server_settings", "timers", "votes", "ballots",
        "player_settings", "away", "game_outcomes", "game_results", "ratings", "rating_history",
        "meta", "private_steps", "away_periods", "reminded",
    ]
    async with open_store(target) as store:
        return {table: await store.table_columns(table) for table in tables}


async def rows(target: str | Path, tables: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """Every row of these tables (those columns), in the order it was written."""
    async with open_store(target) as store:
        return {table: await store.table_rows(table, names) for table, names in tables.items()}


def recorded(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version, name FROM schema_version ORDER BY 1").fetchall()


@pytest.fixture
def former_sqlite(tmp_path: Path) -> Path:
    """A copy of the database the former SQLite code made (the file itself stays as it is)."""
    path = tmp_path / "former.db"
    shutil.copy(DATA / "sqlite-level9.db", path)
    return path


@pytest.mark.parametrize("level", range(len(SCRIPTS) + 1))
async def test_a_sqlite_database_at_any_level_migrates_on(tmp_path: Path, level: int) -> None:
    fresh, old = tmp_path / "fresh.db", tmp_path / "old.db"
    with sqlite3.connect(old) as conn:  # as the store left it at that level
        conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        )
        for number, name, script in SCRIPTS[:level]:
            conn.executescript(SQLITE.text(script))
            conn.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (number, name))
    assert await columns(old) == await columns(fresh)
    assert recorded(old) == recorded(fresh) == NAMES


async def test_a_sqlite_database_of_the_former_code_opens_as_it_was(
    tmp_path: Path, former_sqlite: Path
) -> None:
    path = former_sqlite
    with sqlite3.connect(path) as conn:
        before_records = conn.execute("SELECT * FROM schema_version ORDER BY 1").fetchall()
    before = await everything(path)
    async with SqliteStore(path) as store:
        assert await unverified_games(store) == []
        service = GameService(store)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=99, host_id=ALICE, host_name="Alice", game="nim"
        )
        assert lobby.id == 9
    with sqlite3.connect(path) as conn:  # the records kept, the newer migrations added
        records = conn.execute("SELECT * FROM schema_version ORDER BY 1").fetchall()
    assert records[: len(before_records)] == before_records
    assert [(number, name) for number, name, _ in records] == NAMES
    after = await everything(path)
    assert after["moves"] == before["moves"] and after["ratings"] == before["ratings"]
    # its five private posts moved to a table of their own (0010), its five public ones kept
    assert len(after["private_steps"]) == 5 and len(after["posts"]) == 5
    assert all(row[-1] == 1 for row in after["posts"])
    assert len(after["games"]) == len(before["games"]) + 1
    assert await columns(path) == await columns(tmp_path / "fresh.db")


async def test_a_postgres_database_of_the_former_series_migrates_on(
    tmp_path: Path, pg_server: PgServer, former_sqlite: Path
) -> None:
    url = pg_server.new_database()
    name = url.rsplit("/", 1)[1]
    pg_server.restore((DATA / "postgres-level5.sql").read_text(), name)
    assert pg_server.sql("SELECT max(version) FROM schema_migrations", name) == "5"
    async with PostgresStore(url) as store:
        assert await unverified_games(store) == []
    assert pg_server.sql("SELECT version, name FROM schema_version ORDER BY 1", name).splitlines() == [
        f"{number}|{file}" for number, file in NAMES
    ]
    assert pg_server.sql("SELECT to_regclass('schema_migrations') IS NULL", name) == "t"
    assert await columns(url) == await columns(pg_server.new_database())  # as a new one's
    # every row as the former code wrote it: the same as the SQLite database it was copied from
    # (PostgreSQL's posts and rating history also have their order of writing as a column)
    copied = await columns(former_sqlite)
    assert await rows(url, copied) == await everything(former_sqlite)
    back = tmp_path / "back.db"
    await copy_database(url, back, unverified_games)
    assert await everything(back) == await everything(former_sqlite)
    async with PostgresStore(url) as store:  # opens again with nothing to do, and plays on
        service = GameService(store)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=99, host_id=ALICE, host_name="Alice", game="nim"
        )
        assert lobby.id == 9
        snap = await service.game(1)
        moved = await service.act(1, snap.seats[snap.to_move].user_id, snap.legal[0], snap.version)
        assert moved.after.version == snap.version + 1


@pytest.mark.parametrize("level", sorted(POSTGRES_BEFORE))
async def test_a_postgres_database_at_any_former_level_migrates_on(
    pg_server: PgServer, pg_url: str, level: int
) -> None:
    url = pg_server.new_database()
    name = url.rsplit("/", 1)[1]
    made = {n for old in range(1, level + 1) for n in POSTGRES_BEFORE[old]}
    pg_server.sql(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        name,
    )
    for number, _, script in SCRIPTS:
        if number in made:
            pg_server.sql(POSTGRES.text(script), name)
    for old in range(1, level + 1):
        pg_server.sql(f"INSERT INTO schema_migrations VALUES ({old}, 'old')", name)  # noqa: S608
    assert await columns(url) == await columns(pg_url)
    recorded_now = pg_server.sql("SELECT version, name FROM schema_version ORDER BY 1", name)
    assert recorded_now.splitlines() == [f"{number}|{file}" for number, file in NAMES]
