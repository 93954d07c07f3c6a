"""A lobby, a table's decision and a reminder behind a refused Discord post (issue 28's "the same
shape elsewhere"), through the real bot process and the fake Discord.

- A ``/play`` or Rematch lobby whose answer and channel post were both refused reached nobody:
  it is closed at once, so the channel is free and trying again works (not held until the
  lobby expires).
- A lobby update (Join) refused both as the answer and as an edit through the channel leaves a
  lobby that still works: the next press shows it as it is.
- A stand-in's move never comes before the notice of the table's decision that explains it,
  even when the notice is refused and the bot restarts meanwhile.
- A reminder that falls due while the turn's board is still refused waits for that board and
  links it (not the lobby message).

Refusals are 4xx answers discord.py does not retry itself, so no story waits out its retries.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

from tests.e2e.conftest import BotProcess
from tests.e2e.helpers import action_ids, lobby_id, seat_users
from tests.e2e.reliability import until
from tests.e2e.test_after_game_e2e import play_nim_out
from tests.e2e.test_turn_clock_e2e import votes_on
from tests.fakediscord import FakeDiscordDriver, FakeUser

NIM = {"BOARDROOM_GAMES": "tests.games.nim"}
#: the interaction's token expired: the answer is refused (discord.py does not retry a 404)
EXPIRED = {"status": 404, "code": 10062}
#: the channel refuses the bot's posts and edits (not retried either)
MISSING_PERMISSIONS = {"status": 403, "code": 50013}


def rows(bot: BotProcess, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def statuses(bot: BotProcess) -> list[str]:
    return [status for (status,) in rows(bot, "SELECT status FROM games ORDER BY id")]


def refuse_both(driver: FakeDiscordDriver, channel_id: int) -> tuple[Any, Any]:
    """The next interaction answer and the next channel post are refused."""
    answer = driver.fail_next("POST", "/callback", **EXPIRED)
    post = driver.fail_next("POST", f"/channels/{channel_id}/messages", **MISSING_PERMISSIONS)
    return answer, post


async def test_a_play_lobby_that_reached_nobody_frees_the_channel(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(**NIM)
    table = await seat_users(fake_discord, bot.guild, "Alice")
    (alice,) = table.users
    answer, post = refuse_both(fake_discord, table.channel.id)
    await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await until(lambda: answer.failed == 1 and post.failed == 1, 10, "both to be refused")
    await until(lambda: statuses(bot) == ["cancelled"], 10, "the unseen lobby to close")
    assert fake_discord.channel_messages(table.channel) == []  # nobody saw a lobby
    again = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await again.wait_response()
    assert again.original is not None and not again.ephemeral, again.content
    assert lobby_id(again.original) == 2 and statuses(bot) == ["cancelled", "lobby"]
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_rematch_lobby_that_reached_nobody_can_be_opened_again(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(**NIM)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await rec.wait_response()
    gid = lobby_id(rec.original)
    joined = await fake_discord.click(bob, rec.original, f"brl:{gid}:join")
    await joined.wait_response()
    start = await fake_discord.click(alice, fake_discord.message(rec.original.id), f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    final = await play_nim_out(fake_discord, [alice, bob], turn)
    mark = fake_discord.marker()
    answer, post = refuse_both(fake_discord, table.channel.id)
    await fake_discord.click(bob, final, f"brr:{gid}")
    await until(lambda: answer.failed == 1 and post.failed == 1, 10, "both to be refused")
    await until(lambda: statuses(bot) == ["finished", "cancelled"], 10, "the rematch to close")
    assert not [m for m in fake_discord.channel_messages(table.channel) if m.id > mark]
    again = await fake_discord.click(bob, final, f"brr:{gid}")
    await again.wait_response()
    assert again.original is not None and not again.ephemeral, again.content
    assert lobby_id(again.original) == 3 and statuses(bot) == ["finished", "cancelled", "lobby"]
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_refused_lobby_update_leaves_a_lobby_that_works(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """Bob's Join is committed but neither its answer nor the edit through the channel got
    through: the lobby message still says Alice alone. His next press shows the lobby as it
    is (he is told he is seated), and Alice starts the game from it."""
    bot = await bot_process(**NIM)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    gid = lobby_id(lobby)
    answer = fake_discord.fail_next("POST", "/callback", **EXPIRED)
    edit = fake_discord.fail_next("PATCH", f"/messages/{lobby.id}", **MISSING_PERMISSIONS)
    await fake_discord.click(bob, lobby, f"brl:{gid}:join")
    await until(lambda: answer.failed == 1 and edit.failed == 1, 10, "both to be refused")
    await until(lambda: len(rows(bot, "SELECT seat FROM seats")) == 2, 10, "Bob's seat")
    assert f"<@{bob.id}>" not in fake_discord.message(lobby.id).content  # stale
    again = await fake_discord.click(bob, fake_discord.message(lobby.id), f"brl:{gid}:join")
    await again.wait_response()
    assert f"<@{bob.id}>" in fake_discord.message(lobby.id).content
    (note,) = await again.wait_followups(1, timeout=10)
    assert note.ephemeral and "already" in note.content, note.content
    start = await fake_discord.click(alice, fake_discord.message(lobby.id), f"brl:{gid}:start")
    await start.wait_response()
    (board,) = await start.wait_followups(1, timeout=10)
    assert action_ids(board) or "<@" in board.content
    assert statuses(bot) == ["active"]
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
