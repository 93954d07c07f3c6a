"""``/away`` on a yearly budget, through the real bot process and the fake Discord, told in game
time (``BOARDROOM_TEST_HOUR_SECONDS``): an away player's turn passes 300 % of its clock with no
vote and no stand-in while the board says the clock is stopped; the period ends and the clock
runs on with the time it had left; going away and coming back in the middle of a turn rewrite
the board's clock line in place; a budget spent refuses more, saying what is left; ``/away``
without a duration shows the budget; a restart after a missed reminder never names a deadline
in the past."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from i18n import t
from tests.e2e.helpers import open_and_start, seat_users
from tests.e2e.test_settings_play_e2e import MANAGE_GUILD, Slash
from tests.e2e.test_turn_clock_e2e import rows, timestamp, votes_on
from tests.fakediscord import FakeDiscordDriver
from tests.fakediscord import payloads as p


async def until_true(check: Any, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(wait(), timeout)


def stopped_line(player: str, until: float) -> str:
    return t("en", "clock.stopped", player=player, until=f"<t:{int(until)}:f>")


def runs_out_line(deadline: float) -> str:
    return t("en", "clock.runs_out", when=f"<t:{int(deadline)}:R>")


async def test_an_away_players_clock_stands_still_then_runs_on_with_what_was_left(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="1")  # a 1 h clock lasts 1 s
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice = table.users[0]
    slash = Slash(fake_discord, table.channel)
    said = await slash(alice, "away", duration="1d")
    assert said.splitlines()[0].startswith("You are away until <t:")
    ((until,),) = rows(bot, "SELECT until FROM away")
    turn = await open_and_start(table, "cantstop", clock="1h")  # Alice (the host) moves first
    started = time.time()
    assert stopped_line("Alice", until) in turn.content and "runs out" not in turn.content
    # 300 % of the clock passes while she is away: no vote, no stand-in, the board unchanged
    await asyncio.sleep(max(0.0, started + 3.2 - time.time()))
    assert not [m for m in fake_discord.channel_messages(table.channel) if votes_on(m)]
    assert rows(bot, "SELECT COUNT(*) FROM votes") == [(0,)]
    assert rows(bot, "SELECT stand_in, stood_in FROM seats") == [(None, 0), (None, 0)]
    assert rows(bot, "SELECT deadline, clock_left FROM games") == [(None, 1.0)]
    assert rows(bot, "SELECT kind FROM timers WHERE kind != 'away_end'") == []
    assert stopped_line("Alice", until) in fake_discord.message(turn.id).content
    # a shorter period replaces it (the board says the new end at once) and ends by itself:
    # her clock runs on with the time it had left, and the board says so
    await slash(alice, "away", duration="1h")
    ((until,),) = rows(bot, "SELECT until FROM away")
    assert stopped_line("Alice", until) in fake_discord.message(turn.id).content
    await until_true(lambda: rows(bot, "SELECT deadline FROM games")[0][0] is not None)
    ((deadline, left),) = rows(bot, "SELECT deadline, clock_left FROM games")
    assert left is None and until + 1.0 <= deadline < until + 3.0
    await until_true(lambda: runs_out_line(deadline) in fake_discord.message(turn.id).content)
    assert "Clock stopped" not in fake_discord.message(turn.id).content
    # and it runs out like any clock: the table is asked
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=10
    )
    assert vote.content.startswith(f"⏰ <@{alice.id}>'s time")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_going_away_and_back_mid_turn_rewrites_the_boards_clock_line(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="60")  # a 1 h clock lasts a minute
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice = table.users[0]
    slash = Slash(fake_discord, table.channel)
    turn = await open_and_start(table, "cantstop", clock="1h")
    first = turn.content
    ((deadline,),) = rows(bot, "SELECT deadline FROM games")
    assert runs_out_line(deadline) in first
    said = await slash(alice, "away", duration="2h")
    assert said.splitlines()[1] == t("en", "away.stopped", count=1)
    ((until,),) = rows(bot, "SELECT until FROM away")
    ((stopped, left),) = rows(bot, "SELECT deadline, clock_left FROM games")
    assert stopped is None and 0 < left <= 60
    board = fake_discord.message(turn.id).content
    assert stopped_line("Alice", until) in board and runs_out_line(deadline) not in board
    assert board.replace(stopped_line("Alice", until), runs_out_line(deadline)) == first
    back = time.time()
    assert await slash(alice, "away", duration="off") == t("en", "away.ended")
    ((resumed,),) = rows(bot, "SELECT deadline FROM games")
    assert back + left - 1 <= resumed <= time.time() + left + 1
    board = fake_discord.message(turn.id).content
    assert runs_out_line(resumed) in board and "Clock stopped" not in board
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_budget_spent_refuses_more_and_says_what_is_left(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="0.01")  # a day lasts 0.24 s
    table = await seat_users(fake_discord, bot.guild, "Alice", "Admin")
    alice, admin = table.users
    await fake_discord.add_member(
        bot.guild, admin, permissions=p.DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD
    )
    slash = Slash(fake_discord, table.channel)
    days = lambda count: t("en", "clock.days", count=count)  # noqa: E731
    await slash(admin, "settings", "server", away_days=3)
    assert (await slash(alice, "away")).splitlines() == [
        t("en", "away.not_away"),
        t("en", "away.budget", left=days(3), total=days(3)),
    ]
    said = await slash(alice, "away", duration="2d")
    assert said.splitlines()[-1] == t("en", "away.budget_low", left=days(1))
    await asyncio.sleep(0.8)  # the period ends by itself: spent whole
    await until_true(lambda: rows(bot, "SELECT COUNT(*) FROM away") == [(0,)])
    assert (await slash(alice, "away")).splitlines() == [
        t("en", "away.not_away"),
        t("en", "away.budget", left=days(1), total=days(3)),
        t("en", "away.budget_low", left=days(1)),
    ]
    assert await slash(alice, "away", duration="2d") == t(
        "en", "error.away_over_budget", left=days(1), total=days(3)
    )
    assert rows(bot, "SELECT COUNT(*) FROM away") == [(0,)]  # refused: nothing changed
    # in French: what is left, by the French plural rules
    assert await slash(alice, "away", locale="fr", duration="3j") == t(
        "fr",
        "error.away_over_budget",
        left=t("fr", "clock.days", count=1),
        total=t("fr", "clock.days", count=3),
    )
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_restart_after_a_missed_reminder_names_a_deadline_still_ahead(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """Killed before the reminders, back after the deadline passed: the turn's deadline is the
    postponed one (a grace period from the restart), and a reminder, if one is still sent,
    names it, never the one that passed while the bot was down."""
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="6")  # 1 h clock: 6 s, grace 0.6 s
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    await open_and_start(table, "cantstop", clock="1h")
    ((passed, version),) = rows(bot, "SELECT deadline, version FROM games")
    await asyncio.sleep(0.3)  # the first board is recorded as shown
    await bot.kill()
    await asyncio.sleep(max(0.0, passed + 0.5 - time.time()))
    mark = fake_discord.marker()
    restarted = time.time()
    await bot.start()
    vote = await fake_discord.wait_for_channel_message(  # the table is asked (then or later)
        table.channel, lambda m: "ran out" in m.content, after=mark, timeout=15
    )
    # still Alice's turn (the vote gives the table a whole clock): its deadline is ahead
    assert rows(bot, "SELECT version FROM games") == [(version,)]
    ((deadline,),) = rows(bot, "SELECT deadline FROM games")
    assert deadline > restarted > passed
    reminders = [  # those the restart sent before the table was asked
        m
        for m in fake_discord.channel_messages(table.channel)
        if mark < m.id < vote.id and "your turn" in m.content
    ]
    assert len(reminders) <= 1, [m.content for m in reminders]
    for reminder in reminders:
        named = timestamp(reminder.content)
        assert named is not None and named >= int(restarted), (reminder.content, restarted)
    bot.assert_no_traceback()
