"""Shared steps for the reliability tests: the stored state read from outside the bot, and the
checks made after every hostile or failing input."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from tests.e2e.conftest import BotProcess
from tests.fakediscord import FakeDiscordDriver, InteractionRecord, StoredMessage

State = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def stored_state(bot: BotProcess) -> State:
    """Every games, seats and moves row in the bot's database file (read-only, outside it)."""
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        games = conn.execute(
            "SELECT id, channel_id, status, version, move_count, state_json FROM games ORDER BY id"
        ).fetchall()
        seats = conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()
        moves = conn.execute("SELECT * FROM moves ORDER BY game_id, seq").fetchall()
        return games, seats, moves
    finally:
        conn.close()


def fingerprint(bot: BotProcess) -> tuple[Any, ...]:
    """The stored state in short, for checks after every input of a long run: every games and
    seats row, and the size and end of the append-only move log."""
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        games = conn.execute(
            "SELECT id, channel_id, status, version, move_count, state_json FROM games ORDER BY id"
        ).fetchall()
        seats = conn.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall()
        moves = conn.execute(
            "SELECT COUNT(*), MAX(game_id), MAX(seq) FROM moves"
            " WHERE game_id = (SELECT MAX(game_id) FROM moves)"
        ).fetchone()
        total = conn.execute("SELECT COUNT(*) FROM moves").fetchone()
        return games, seats, moves, total
    finally:
        conn.close()


def posted_versions(bot: BotProcess, game_id: int) -> list[int]:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT version FROM posts WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
        return [r[0] for r in rows]
    finally:
        conn.close()


def game_version(bot: BotProcess, game_id: int) -> int:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    finally:
        conn.close()


async def until(check: Any, timeout: float = 10.0, what: str = "condition") -> None:
    """Poll ``check()`` (for things the fake is not told about, like database rows)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def shown(bot: BotProcess, game_id: int, timeout: float = 10.0) -> None:
    """Wait until the newest version of the game is on a posted message (the bot records the
    message last)."""

    def done() -> bool:
        versions = posted_versions(bot, game_id)
        return bool(versions) and versions[-1] >= game_version(bot, game_id)

    await until(done, timeout, f"game {game_id} to be shown")


async def assert_refused(
    driver: FakeDiscordDriver,
    bot: BotProcess,
    rec: InteractionRecord,
    before: State,
    words: str,
) -> None:
    """A private answer within Discord's deadline that says ``words``; nothing stored changed;
    no traceback."""
    await rec.wait_response()
    assert rec.ephemeral, (rec.response_type, rec.content)
    assert words in (rec.content or ""), rec.content
    assert not rec.late
    assert stored_state(bot) == before
    bot.assert_no_traceback()


def board_messages(driver: FakeDiscordDriver, channel: Any, after: int) -> list[StoredMessage]:
    """Channel messages newer than ``after`` that carry a board."""
    return [
        m
        for m in driver.channel_messages(channel)
        if m.id > after and any(a.filename.startswith("board-1-") for a in m.attachments)
    ]
