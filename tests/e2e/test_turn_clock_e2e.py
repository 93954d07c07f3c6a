"""Whole deadline stories through the real bot process and the fake Discord, with an hour of
game time shortened to seconds (``BOARDROOM_TEST_HOUR_SECONDS``): reminders, the table's vote
on a silent player and each of its outcomes, the server default when nobody votes, a bot
standing in and the player coming back, the non-host abandon vote, lobby expiry, a restart
after a deadline passed, and a move made just as the deadline fires."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time

import pytest

from tests.e2e.helpers import (
    action_ids,
    board_after_click,
    lobby_id,
    open_and_start,
    seat_users,
    sent_at,
)

HOUR = "4"  # seconds per hour of game time: a 1 h clock reminds at 2 s and 3.6 s, ends at 4 s
VOTE = re.compile(r"brv:(\d+):([a-z_]+)")


def votes_on(message) -> dict[str, str]:
    return {m[2]: m[0] for c in message.custom_ids if (m := VOTE.fullmatch(c))}


def timestamp(text: str) -> int | None:
    found = re.search(r"<t:(\d+):R>", text)
    return int(found.group(1)) if found else None


async def started(fake_discord, bot, *names: str, clock: str = "1h", game: str = "cantstop"):
    table = await seat_users(fake_discord, bot.guild, *names)
    turn = await open_and_start(table, game, clock=clock)
    return table, turn


def rows(bot, sql: str, *params) -> list[tuple]:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


#: the reminder story's hour: a reminder due before the first board is recorded waits for it,
#: so a busy machine gets the whole 6 s clock to record it before the reminders and the vote
REMINDER_HOUR = 6.0


async def test_reminders_then_the_vote_and_a_bot_plays_the_turn(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=str(REMINDER_HOUR))
    table, turn = await started(fake_discord, bot, "Alice", "Bob")
    alice, bob = table.users
    assert timestamp(turn.content) is not None  # "runs out <t:…:R>" on the turn message
    ((deadline,),) = rows(bot, "SELECT deadline FROM games")
    since = fake_discord.marker()
    reminded = f"<@{alice.id}>, it is your turn"
    first = await fake_discord.wait_for_channel_message(  # due half a clock (3 s) after the start
        table.channel, lambda m: m.content.startswith(reminded), after=since, timeout=15
    )
    assert "/channels/" in first.content  # a jump link to the board
    second = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: m.content.startswith(reminded), after=first.id
    )
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), after=second.id
    )
    assert vote.content.startswith(f"⏰ <@{alice.id}>'s time")
    # posted at 50 % and 90 % of the clock (seconds left then), not before, and in order
    first_left, second_left = (deadline - sent_at(m) for m in (first, second))
    half, tenth, ms = REMINDER_HOUR * 0.5, REMINDER_HOUR * 0.1, 0.001  # ms: a snowflake's grain
    assert half + ms >= first_left > second_left and second_left <= tenth + ms, (
        first_left,
        second_left,
    )
    assert "ran out" in vote.content and f"<@{bob.id}>" in vote.content
    ballots = votes_on(vote)
    assert set(ballots) == {"wait", "bot_turn", "bot_seat", "end"}
    # the silent player does not vote on themselves
    own = await fake_discord.click(alice, vote, votes_on(vote)["wait"])
    await own.wait_response()
    assert own.ephemeral and "other players" in own.content
    mark = fake_discord.marker()
    rec = await fake_discord.click(bob, vote, votes_on(vote)["bot_turn"])
    await rec.wait_response()
    assert rec.ephemeral and "A bot plays this turn" in rec.content
    said = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "A bot plays this turn for Alice" in m.content, after=mark
    )
    assert not votes_on(fake_discord.message(vote.id))  # the vote's buttons are gone
    board = await fake_discord.wait_for_channel_message(
        table.channel,
        lambda m: f"<@{bob.id}>" in m.content and bool(action_ids(m)),
        after=said.id,
        timeout=15,
    )
    assert "roll" in action_ids(board)
    assert "A bot (medium) played this turn for Alice" in board.content
    # a client that kept the old vote message: the vote is over
    again = await fake_discord.forge_component(bob, vote, ballots["end"])
    await again.wait_response()
    assert again.ephemeral and "over" in again.content
    stood = rows(bot, "SELECT stand_in, stood_in FROM seats WHERE user_id = ?", alice.id)
    assert stood == [(None, 1)]  # the seat is Alice's again, and the game is marked
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_nobody_decides_and_the_default_happens(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=HOUR)
    table, _ = await started(fake_discord, bot, "Alice", "Bob")
    bob = table.users[1]
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=10
    )
    said = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "Nobody decided in time" in m.content, after=vote.id, timeout=10
    )
    assert "A bot plays this turn for Alice" in said.content
    await fake_discord.wait_for_channel_message(
        table.channel,
        lambda m: f"<@{bob.id}>" in m.content and bool(action_ids(m)),
        after=said.id,
        timeout=15,
    )
    bot.assert_no_traceback()


async def test_a_bot_takes_the_seat_and_the_player_comes_back(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="4")
    table, _ = await started(fake_discord, bot, "Alice", "Bob")
    alice, bob = table.users
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=10
    )
    rec = await fake_discord.click(bob, vote, votes_on(vote)["bot_seat"])
    await rec.wait_response()
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: f"<@{bob.id}>" in m.content and bool(action_ids(m)), timeout=15
    )
    assert "until they come back" in board.content
    back = next(c for c in board.custom_ids if c.startswith("brb:"))
    wrong = await fake_discord.click(bob, board, back)  # Bob's seat was never taken
    await wrong.wait_response()
    assert wrong.ephemeral and "nothing to take back" in wrong.content
    # Bob plays his turn to its end; meanwhile Alice comes back with /game reclaim
    reclaim = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="reclaim")
    await reclaim.wait_response()
    assert reclaim.ephemeral and "Welcome back" in reclaim.content
    assert rows(bot, "SELECT stand_in FROM seats WHERE user_id = ?", alice.id) == [(None,)]
    again = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="reclaim")
    await again.wait_response()
    assert again.ephemeral and "nothing to take back" in again.content
    bot.assert_no_traceback()


async def test_the_table_ends_the_game(fake_discord, bot_process) -> None:
    # the vote stays open one clock period: a longer hour, so that on a busy machine the click
    # still lands before the vote closes by default
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=str(REMINDER_HOUR))
    table, turn = await started(fake_discord, bot, "Alice", "Bob")
    bob = table.users[1]
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=20
    )
    rec = await fake_discord.click(bob, vote, votes_on(vote)["end"])
    await rec.wait_response()
    await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "The table ended the game" in m.content, after=vote.id, timeout=15
    )
    await asyncio.sleep(0.5)
    assert not action_ids(fake_discord.message(turn.id))  # the last board lost its buttons
    assert rows(bot, "SELECT status FROM games") == [("abandoned",)]
    assert rows(bot, "SELECT kind FROM timers") == []
    bot.assert_no_traceback()


async def test_a_player_who_is_not_the_host_asks_the_table_to_end(
    fake_discord, bot_process
) -> None:
    bot = await bot_process()
    table, _ = await started(fake_discord, bot, "Alice", "Bob", "Carol", clock="24h")
    alice, bob, carol = table.users
    rec = await fake_discord.slash(bob, table.channel, "game", {}, subcommand="abandon")
    await rec.wait_response()
    assert rec.ephemeral and "the vote is in the channel" in rec.content
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: set(votes_on(m)) == {"yes", "no"}
    )
    ballots = votes_on(vote)
    assert "Bob asks to end" in vote.content or f"<@{bob.id}> asks to end" in vote.content
    twice = await fake_discord.slash(carol, table.channel, "game", {}, subcommand="abandon")
    await twice.wait_response()
    assert twice.ephemeral and "already open" in twice.content
    yes = await fake_discord.click(carol, vote, ballots["yes"])  # Bob + Carol: 2 of 3
    await yes.wait_response()
    await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "The table ended the game" in m.content, after=vote.id
    )
    assert rows(bot, "SELECT status FROM games") == [("abandoned",)]
    outsider = await fake_discord.forge_component(alice, vote, ballots["no"])
    await outsider.wait_response()
    assert outsider.ephemeral and "over" in outsider.content
    bot.assert_no_traceback()


async def test_a_lobby_nobody_starts_closes_by_itself(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="0.1")  # 24 h: 2.4 s
    table = await seat_users(fake_discord, bot.guild, "Alice")
    rec = await fake_discord.slash(table.users[0], table.channel, "play", {}, subcommand="kokeshi")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None and lobby_id(lobby)
    assert "Turn clock" in lobby.content

    async def closed() -> None:
        while "closed" not in fake_discord.message(lobby.id).content:
            await asyncio.sleep(0.1)

    await asyncio.wait_for(closed(), 10)
    assert not fake_discord.message(lobby.id).custom_ids  # its buttons are gone
    assert rows(bot, "SELECT status FROM games") == [("cancelled",)]
    bot.assert_no_traceback()


async def test_restart_after_a_deadline_passed_gives_a_grace_period(
    fake_discord, bot_process
) -> None:
    """SIGKILL while the deadline is pending; back only after the deadline (and both reminders)
    passed: one reminder is sent, not two, and the vote comes after the grace period (a tenth
    of the clock), once."""
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="10")  # 1 h clock: 10 s, grace 1 s
    table, _ = await started(fake_discord, bot, "Alice", "Bob")
    await asyncio.sleep(0.5)  # the first board is recorded as shown
    await bot.kill()
    await asyncio.sleep(11)
    mark = fake_discord.marker()
    await bot.start()
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), after=mark, timeout=10
    )
    reminders = [
        m
        for m in fake_discord.channel_messages(table.channel)
        if m.id > mark and "your turn" in m.content
    ]
    assert len(reminders) == 1 and reminders[0].id < vote.id, [m.content for m in reminders]
    await asyncio.sleep(1.5)
    votes = [m for m in fake_discord.channel_messages(table.channel) if votes_on(m)]
    assert len(votes) == 1  # nothing doubled
    assert "after downtime" in bot.log_text()
    bot.assert_no_traceback()


@pytest.mark.parametrize("early", [0.0, 0.03, 0.1])
async def test_a_move_just_as_the_deadline_fires(fake_discord, bot_process, early: float) -> None:
    """A move that ends the turn, made around the moment the deadline falls due: the move comes
    first and no vote opens, or the vote opens first and the move, still the player's to make,
    closes it as moot; either way exactly one move is played for that turn and the table is
    never asked about a turn that is over."""
    # a 1 h clock of 6 s: the deadline must still be ahead once the game has started, even on a
    # machine so busy that opening and starting it takes seconds
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="6", BOARDROOM_GAMES="tests.games.nim")
    table, turn = await started(fake_discord, bot, "Alice", "Bob", game="nim")
    (due, seat, user_id) = rows(
        bot,
        "SELECT due, json_extract(data, '$.seat'), user_id FROM timers WHERE kind = 'deadline'",
    )[0]
    mover = next(u for u in table.users if u.id == user_id)
    take = next(iter(action_ids(turn).values()))
    await asyncio.sleep(max(0.0, due - time.time() - early))
    rec = await fake_discord.click(mover, turn, take)
    await rec.wait_response()
    await asyncio.sleep(1.0)
    assert rows(bot, "SELECT COUNT(*) FROM moves WHERE seat = ?", seat) == [(1,)]
    votes = rows(bot, "SELECT outcome FROM votes WHERE seat = ?", seat)
    assert votes in ([], [("moved",)]), votes
    messages = fake_discord.channel_messages(table.channel)
    shown = [m for m in messages if "ran out" in m.content]
    if shown:  # the table was asked: its buttons go, and it hears why
        await fake_discord.wait_for_channel_message(
            table.channel, lambda m: "has moved meanwhile" in m.content, after=shown[0].id
        )
        assert not votes_on(fake_discord.message(shown[0].id))
    else:  # moot before it was posted: never shown, nothing said
        assert not any("meanwhile" in m.content for m in messages)
    assert not rec.ephemeral, rec.content  # the move was taken, either way
    bot.assert_no_traceback()


async def test_a_game_whose_channel_was_deleted_ends_after_a_grace_period(
    fake_discord, bot_process
) -> None:
    """The vote cannot be posted (Unknown Channel): nothing is lost or retried for ever; after
    an hour of game time the bot looks again and, the channel still gone, ends the game."""
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="2")
    table, _ = await started(fake_discord, bot, "Alice", "Bob")
    await asyncio.sleep(0.5)
    await fake_discord.delete_channel(table.channel)

    async def ended() -> None:  # the game ends, then the check that ended it is done with
        while rows(bot, "SELECT status FROM games") != [("abandoned",)] or rows(
            bot, "SELECT kind FROM timers"
        ):
            await asyncio.sleep(0.2)

    await asyncio.wait_for(ended(), 15)
    assert "channel is gone" in bot.log_text()
    bot.assert_no_traceback()


async def test_away_stops_the_clock_in_the_turn_message_and_shows_in_the_lobby(
    fake_discord, bot_process
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="4")
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    away = await fake_discord.slash(alice, table.channel, "away", {"duration": "3d"})
    await away.wait_response()
    assert away.ephemeral and "away until" in away.content
    rec = await fake_discord.slash(bob, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    joined = await fake_discord.click(alice, lobby, f"brl:{lobby_id(lobby)}:join")
    await joined.wait_response()
    assert f"<@{alice.id}> is away until <t:" in fake_discord.message(lobby.id).content
    start = await fake_discord.click(
        bob, fake_discord.message(lobby.id), f"brl:{lobby_id(lobby)}:start"
    )
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    # Bob moves first (the host); after his turn it is Alice's, and her clock stands still
    while f"<@{bob.id}>" in turn.content.splitlines()[-1]:
        buttons = action_ids(turn)
        choice = buttons["stop"] if "stop" in buttons else next(iter(buttons.values()))
        rec = await fake_discord.click(bob, turn, choice)
        await rec.wait_response()
        turn = await board_after_click(fake_discord, rec, turn)
    assert "Clock stopped" in turn.content and "is away until" in turn.content
    assert rows(bot, "SELECT deadline, clock_left FROM games")[0][0] is None
    back = await fake_discord.slash(alice, table.channel, "away", {"duration": "off"})
    await back.wait_response()
    (deadline, left) = rows(bot, "SELECT deadline, clock_left FROM games")[0]
    assert deadline is not None and left is None  # her clock runs again
    bot.assert_no_traceback()
