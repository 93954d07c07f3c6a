"""Logging at DEBUG prints neither the token nor a game seed (the driver's statement log is cut
off), and tracebacks are redacted too."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.logs import setup_logging
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore

SEED = 3141592653589793238 % (2**62)
TOKEN = "MTIz.fake.t0ken-for-the-log-test"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    levels = {n: logging.getLogger(n).level for n in ("aiosqlite", "discord.gateway")}
    yield
    root.handlers[:], level = saved
    root.setLevel(level)
    for name, value in levels.items():
        logging.getLogger(name).setLevel(value)


async def test_debug_logging_shows_no_seed_and_no_token(tmp_path, capfd, restore_logging) -> None:
    setup_logging("DEBUG", TOKEN)
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        service = GameService(store, new_seed=lambda: SEED)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=2, host_id=1, host_name="A", game="cantstop"
        )
        await service.join(lobby.id, 2, "B")
        outcome = await service.start(lobby.id, 1)
        await service.act(lobby.id, 1, "roll", outcome.after.version)
        assert await service.seed_of(lobby.id) == SEED
    # even a logger turned back down to DEBUG by someone else prints no statement
    logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        await GameService(store).seed_of(lobby.id)
    log = logging.getLogger("bot.test")
    log.debug("debug lines are shown")
    log.debug("auth header Bot %s", TOKEN)
    try:
        raise RuntimeError(f"a failure that quotes {TOKEN}")
    except RuntimeError:
        log.exception("failed")
    err = capfd.readouterr().err
    assert "debug lines are shown" in err
    assert "game started" in err
    assert str(SEED) not in err and hex(SEED)[2:] not in err
    assert TOKEN not in err and err.count("<redacted>") == 2
    assert "aiosqlite" not in err
