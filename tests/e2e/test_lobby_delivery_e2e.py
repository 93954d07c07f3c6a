"""A lobby, a table's decision and a reminder behind a refused Discord post (issue 28's "the same
shape elsewhere"), through the real bot process and the fake Discord.

- A ``/play`` or Rematch lobby whose answer and channel post were both refused reached nobody:
  it is closed at once, so the channel is free and trying again works (not held until the
  lobby expires); in a thread, the host is told and the empty thread archived.
- A lobby update (Join) refused both as the answer and as an edit through the channel leaves a
  lobby that still works: the next press shows it as it is.
- A stand-in's move never comes before the notice of the table's decision that explains it,
  even when the notice is refused and the bot restarts meanwhile.
- A reminder that falls due while the turn's board is still refused waits for that board and
  links it (not the lobby message).

Refusals are 4xx answers discord.py does not retry itself, so no story waits out its retries.
"""

from __future__ import annotations

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
    lobby = fake_discord.message(rec.original.id)
    start = await fake_discord.click(alice, lobby, f"brl:{gid}:start")
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


async def test_a_thread_lobby_that_reached_nobody_is_closed_and_its_host_told(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """``/play thread: on``: the answer says the table opens in a thread, but the lobby message
    in the new thread is refused. The lobby is closed, the empty thread archived, the host told
    privately, and the channel (or a new thread) can host a table at once."""
    bot = await bot_process(**NIM)
    table = await seat_users(fake_discord, bot.guild, "Alice")
    (alice,) = table.users
    post = fake_discord.fail_next("POST", "/messages$", **MISSING_PERMISSIONS)
    rec = await fake_discord.slash(alice, table.channel, "play", {"thread": True}, subcommand="nim")
    await rec.wait_response()
    (told,) = await rec.wait_followups(1, timeout=10)
    assert told.ephemeral and "refused its lobby message" in told.content, told.content
    assert post.failed == 1 and statuses(bot) == ["cancelled"]
    (thread,) = fake_discord.threads_of(table.channel)
    await until(lambda: bool(fake_discord.channel(thread.id).archived), 10, "the thread archived")
    assert fake_discord.channel_messages(thread) == []
    again = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await again.wait_response()
    assert again.original is not None and not again.ephemeral, again.content
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


async def off_reminders(driver: FakeDiscordDriver, channel: Any, *users: FakeUser) -> None:
    for user in users:
        rec = await driver.slash(user, channel, "settings", {"how": "off"}, subcommand="reminders")
        await rec.wait_response()


async def clocked(driver: FakeDiscordDriver, channel: Any, host: FakeUser, other: FakeUser) -> Any:
    """``/play cantstop clock: 1h``, joined by ``other``: the lobby message."""
    rec = await driver.slash(host, channel, "play", {"clock": "1h"}, subcommand="cantstop")
    await rec.wait_response()
    assert rec.original is not None
    joined = await driver.click(other, rec.original, f"brl:{lobby_id(rec.original)}:join")
    await joined.wait_response()
    return driver.message(rec.original.id)


async def test_a_stand_in_plays_after_the_notice_that_explains_it(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """Bob votes "A bot plays this turn" for silent Alice; the channel refuses the decision's
    notice, and the bot restarts meanwhile (its start-up looks at every game with a computer
    in it). The stand-in plays only once the notice is in: its board comes after it."""
    bot = await bot_process(
        BOARDROOM_TEST_HOUR_SECONDS="4",  # a 1 h clock runs out after 4 s
        BOARDROOM_TEST_RETRY_SCALE="0.01",  # a refused board is tried again within 3 s
        BOARDROOM_BOT_PAUSE="0",
    )
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    await off_reminders(fake_discord, table.channel, alice, bob)  # reminders are posts too
    lobby = await clocked(fake_discord, table.channel, alice, bob)
    start = await fake_discord.click(alice, lobby, f"brl:{lobby_id(lobby)}:start")
    await start.wait_followups(1, timeout=10)
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=20
    )
    ((version,),) = rows(bot, "SELECT version FROM games")
    refused = fake_discord.fail_next(
        "POST", f"/channels/{table.channel.id}/messages", count=10**6, **MISSING_PERMISSIONS
    )
    ballot = await fake_discord.click(bob, vote, votes_on(vote)["bot_turn"])
    await ballot.wait_response()

    def put_off() -> bool:  # refused, and its next try written down (not just claimed)
        tries = rows(bot, "SELECT attempts FROM timers WHERE kind = 'notice'")
        return bool(tries) and tries[0][0] >= 1

    await until(put_off, 10, "the decision's notice to be refused")
    await bot.kill()
    await bot.start()
    tried = refused.failed
    await until(lambda: refused.failed > tried, 15, "the notice to be tried again")
    assert rows(bot, "SELECT version FROM games") == [(version,)]  # the stand-in waits
    refused.remaining = 0
    said = await fake_discord.wait_for_channel_message(  # the notice's backoff: up to 8 s
        table.channel, lambda m: "A bot plays this turn for Alice" in m.content, timeout=20
    )
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "played this turn for Alice" in m.content, timeout=15
    )
    assert said.id < board.id
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_reminder_waits_for_the_refused_board_of_its_turn(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """The first board of a game with a 1 h clock is refused (as the start's follow-up and in
    the channel) until after its first reminder fell due. Alice, reminded by direct message,
    gets a link to that board once it is in, not to the lobby message."""
    bot = await bot_process(
        BOARDROOM_TEST_HOUR_SECONDS="6",  # reminders at 3 s and 5.4 s, the clock out at 6 s
        BOARDROOM_TEST_RETRY_SCALE="0.001",  # a refused board is tried again every 0.3 s
    )
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    dm = await fake_discord.slash(
        alice, table.channel, "settings", {"how": "dm"}, subcommand="reminders"
    )
    await dm.wait_response()
    lobby = await clocked(fake_discord, table.channel, alice, bob)
    mark = fake_discord.marker()
    fake_discord.fail_next("POST", "/webhooks/", **MISSING_PERMISSIONS)  # the start's follow-up
    refused = fake_discord.fail_next(
        "POST", f"/channels/{table.channel.id}/messages", count=10**6, **MISSING_PERMISSIONS
    )
    start = await fake_discord.click(alice, lobby, f"brl:{lobby_id(lobby)}:start")
    await start.wait_response()
    dues = rows(bot, "SELECT due FROM timers WHERE kind = 'reminder' ORDER BY due")
    assert len(dues) == 2
    first = dues[0][0]

    def first_reminder_due() -> bool:  # sent (and gone), or claimed or put off (due later)
        now = rows(bot, "SELECT due FROM timers WHERE kind = 'reminder' ORDER BY due")
        return len(now) < 2 or now[0][0] > first

    await until(first_reminder_due, 10, "the first reminder to fall due")
    assert not [m for m in fake_discord.channel_messages(table.channel) if m.id > mark]
    refused.remaining = 0
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(action_ids(m)), after=mark, timeout=10
    )
    reminded = await fake_discord.wait_for_dm(alice, after=mark, timeout=10)
    link = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{board.id}"
    assert link in reminded.content, reminded.content
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
