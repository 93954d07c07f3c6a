"""The whole suite sees the test suite's own fourth game, registered the way a plugin is, and any
game ``BOARDROOM_GAMES`` names (so the per-game checks, ``tests/per_game.py``, run for a plugin
too); and, for the tests that ask for it, a real PostgreSQL server beside the SQLite files."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

import tests.games.nim  # noqa: F401 (importing it registers Nim)
from engines.registry import load_game_modules
from tests import per_game
from tests.pg.server import PgServer, start_server

BACKENDS = ("sqlite", "postgres")
TEMPLATE = "boardroom_template"

# imported (so registered) here; their parts are checked by the per-game checks rather than
# refused before any test runs
load_game_modules(per_game.PLUGINS)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--game",
        action="append",
        default=[],
        help="run the per-game checks for this registered game only (repeatable)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{per_game.MARK}: a check every game must pass, built-in or a plugin; it runs for every "
        "registered game, or the ones named with --game",
    )
    per_game.choose(tuple(config.getoption("--game")))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server for the session, with a template database holding the schema.
    Locally the tests that need it skip when none can be started; in CI they fail."""
    server = start_server()
    if isinstance(server, str):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL is required in CI: {server}")
        pytest.skip(server)
    try:
        server.sql(f"CREATE DATABASE {TEMPLATE}")
        from bot.storage.postgres import PostgresStore

        async def migrate() -> None:
            async with PostgresStore(server.url(TEMPLATE), pool_size=1):
                pass

        asyncio.run(migrate())
        yield server
    finally:
        server.remove()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh PostgreSQL database with the current schema, for one test."""
    return pg_server.new_database(TEMPLATE)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    """Where a test's store lives: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "boardroom.db")
    url: str = request.getfixturevalue("pg_url")
    return url
