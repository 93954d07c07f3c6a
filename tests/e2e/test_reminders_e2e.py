"""Reminders: the player to move is reminded in the channel (a mention and a link to the newest
board, in the server's language) or by direct message, not at all when they turned reminders
off or are away, later when their quiet hours say so, and in the channel when their DMs are
closed or the server does not allow DMs.

Two kinds of tests: ``deliver_reminder`` called on a real bot client (``BoardroomBot``, in this
process, against the fake Discord, with a real SQLite file and time under the test's control),
and whole stories through the bot process, where the timer dispatcher sends the reminders at
50 % and 90 % of a clock shortened by ``BOARDROOM_TEST_HOUR_SECONDS``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import discord
import discord.gateway
import discord.http
import pytest

from bot.adapter.client import BoardroomBot
from bot.adapter.reminders import deliver_reminder
from bot.service.clocks import REMINDER, TurnClock
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.service.preferences import Preferences
from bot.settings import Settings
from bot.storage.base import TimerRow
from bot.storage.sqlite import SqliteStore
from i18n import game_title, t
from tests.e2e.helpers import lobby_id, sent_at
from tests.fakediscord import (
    FakeChannel,
    FakeDiscordDriver,
    FakeGuild,
    FakeUser,
    StoredMessage,
    point_discord_py_at,
)

BERLIN = "Europe/Berlin"


def at(*moment: int) -> float:
    return datetime(*moment, tzinfo=ZoneInfo(BERLIN)).timestamp()  # type: ignore[misc]


class Now:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@dataclass
class Live:
    driver: FakeDiscordDriver
    guild: FakeGuild
    alice: FakeUser
    bob: FakeUser
    client: BoardroomBot
    service: GameService
    now: Now

    @property
    def prefs(self) -> Preferences:
        return Preferences(self.service.store)

    async def game(self, clock: int = 100) -> tuple[GameSnapshot, list[TimerRow], StoredMessage]:
        """A running Can't Stop game with a turn clock in a new channel, Alice to move, its
        first board posted: the game, its two reminders, the board."""
        channel = await self.driver.add_channel(self.guild, f"games-{self.driver.marker()}")
        lobby = await self.service.open_lobby(
            guild_id=self.guild.id,
            channel_id=channel.id,
            host_id=self.alice.id,
            host_name="Alice",
            game="cantstop",
            clock_seconds=clock,
        )
        await self.service.join(lobby.id, self.bob.id, "Bob")
        outcome = await self.service.start(lobby.id, self.alice.id)
        await self.client.post_to_channel(outcome.after, outcome)
        board = self.driver.latest_message(channel)
        assert board is not None
        snap = await self.service.game(lobby.id)
        timers = [x for x in await self.service.store.timers_of_game(snap.id) if x.kind == REMINDER]
        assert len(timers) == 2 and snap.deadline == self.now.t + clock
        return snap, timers, board

    async def deliver(self, timer: TimerRow, snap: GameSnapshot) -> float | None:
        return await deliver_reminder(self.client, self.client.runtime, timer, snap)

    def link(self, board: StoredMessage) -> str:
        return f"https://discord.com/channels/{self.guild.id}/{board.channel_id}/{board.id}"

    def channel_text(self, snap: GameSnapshot, board: StoredMessage, locale: str = "en") -> str:
        return t(
            locale,
            "reminder.channel",
            player=f"<@{self.alice.id}>",
            game=game_title(locale, "cantstop"),
            left=f"<t:{round(snap.deadline or 0)}:R>",
            link=self.link(board),
        )

    def after(self, board: StoredMessage) -> list[StoredMessage]:
        """What the channel of ``board`` got after it."""
        return [m for m in self.driver.channel_messages(board.channel_id) if m.id > board.id]


@pytest.fixture
async def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Live]:
    driver = FakeDiscordDriver()
    await driver.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    point_discord_py_at(driver.api_base)
    guild = await driver.add_guild("Den")
    alice, bob = driver.add_user("Alice"), driver.add_user("Bob")
    for user in (alice, bob):
        await driver.add_member(guild, user)
    store = SqliteStore(tmp_path / "boardroom.db")
    await store.open()
    now = Now(at(2026, 6, 10, 12, 0))
    service = GameService(store, turn_clock=TurnClock(now=now))
    settings = Settings(
        token=driver.token,
        database=tmp_path / "boardroom.db",
        api_base=driver.api_base,
        dev_guild_id=guild.id,
        bot_pause=0.0,
    )
    client = BoardroomBot(settings, service)
    await client.login(driver.token)
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield Live(driver, guild, alice, bob, client, service, now)
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)
        await store.close()
        await driver.stop()
    driver.assert_no_unknown_routes()


async def test_a_reminder_in_the_channel_mentions_the_player_and_links_the_board(
    live: Live,
) -> None:
    snap, (half, most), board = await live.game()
    assert await live.deliver(half, snap) is None
    (said,) = live.after(board)
    assert said.content == live.channel_text(snap, board)
    assert "users" in (said.allowed_mentions or {}).get("parse", [])  # it pings the player
    assert said.components == [] and said.attachments == []  # a short message, no board
    # the server's language, not the reader's (nobody reads it through an interaction)
    await live.client.runtime.servers.set_locale(live.guild.id, "ja")
    assert await live.deliver(most, snap) is None
    assert live.after(board)[-1].content == live.channel_text(snap, board, "ja")


async def test_no_reminder_when_they_are_off_or_the_player_is_away(live: Live) -> None:
    snap, (half, most), board = await live.game()
    await live.prefs.set_reminders(live.alice.id, "off")
    assert await live.deliver(half, snap) is None
    await live.prefs.set_reminders(live.alice.id, "channel")
    await live.client.runtime.table.go_away(live.guild.id, live.alice.id, 3600)
    assert await live.deliver(most, snap) is None
    assert live.after(board) == []
    await live.client.runtime.table.come_back(live.guild.id, live.alice.id)
    assert await live.deliver(most, snap) is None
    assert [m.content for m in live.after(board)] == [live.channel_text(snap, board)]


async def test_a_reminder_says_once_that_the_away_budget_is_nearly_spent(live: Live) -> None:
    table, day = live.client.runtime.table, 86400
    await table.go_away(live.guild.id, live.alice.id, 19 * day)  # of 21 days
    live.now.t += 19 * day  # the period is over: back at the table
    snap, (half, most), board = await live.game()
    assert await live.deliver(half, snap) is None
    low = t("en", "away.budget_low", left=t("en", "clock.days", count=2))
    assert [m.content for m in live.after(board)] == [f"{live.channel_text(snap, board)}\n{low}"]
    assert await live.deliver(most, snap) is None
    assert live.after(board)[-1].content == live.channel_text(snap, board)  # once only


async def test_a_reminder_whose_clock_ran_out_is_not_sent(live: Live) -> None:
    snap, (half, _), board = await live.game()
    live.now.t = (snap.deadline or 0) + 1  # e.g. a reminder kept through downtime
    assert await live.deliver(half, snap) is None
    assert live.after(board) == []


async def test_quiet_hours_delay_a_reminder_until_they_end(live: Live) -> None:
    await live.prefs.set_quiet(live.alice.id, "23:00-08:00", BERLIN)
    live.now.t = at(2026, 6, 10, 23, 30)
    long_game, (half, _), board = await live.game(clock=3 * 86400)
    assert await live.deliver(half, long_game) == at(2026, 6, 11, 8, 0)  # try again then
    # a clock that runs out before the quiet hours end: the reminder is dropped
    short_game, (short_half, _), short_board = await live.game(clock=100)
    assert await live.deliver(short_half, short_game) is None
    assert live.after(board) == [] and live.after(short_board) == []
    live.now.t = at(2026, 6, 11, 8, 0)  # the quiet hours are over
    assert await live.deliver(half, long_game) is None
    assert [m.content for m in live.after(board)] == [live.channel_text(long_game, board)]


async def test_direct_messages_and_their_fallbacks(live: Live) -> None:
    driver, alice = live.driver, live.alice
    snap, (half, most), board = await live.game()
    await live.prefs.set_reminders(alice.id, "dm")
    assert await live.deliver(half, snap) is None
    (dm,) = driver.dms_to(alice)
    assert dm.content == t(
        "en",
        "reminder.dm",
        game=game_title("en", "cantstop"),
        server="Den",
        left=f"<t:{round(snap.deadline or 0)}:R>",
        link=live.link(board),
    )
    assert live.after(board) == []  # not in the channel as well
    # DMs closed: the channel instead
    driver.close_dms(alice)
    assert await live.deliver(most, snap) is None
    assert [m.content for m in live.after(board)] == [live.channel_text(snap, board)]
    assert len(driver.dms_to(alice)) == 1
    # the server does not allow DMs: the channel, even with DMs open
    driver.close_dms(alice, closed=False)
    await live.prefs.set_server(live.guild.id, allow_dm=False)
    assert await live.deliver(half, snap) is None
    assert len(live.after(board)) == 2 and len(driver.dms_to(alice)) == 1


async def unposted(live: Live) -> tuple[GameSnapshot, Any, list[TimerRow], StoredMessage]:
    """A game started from a lobby whose message is in a new channel, its first board not
    posted yet: the game, its start, its two reminders, the lobby message."""
    channel = await live.driver.add_channel(live.guild, f"games-{live.driver.marker()}")
    lobby = await live.service.open_lobby(
        guild_id=live.guild.id,
        channel_id=channel.id,
        host_id=live.alice.id,
        host_name="Alice",
        game="cantstop",
        clock_seconds=100,
    )
    joined = await live.service.join(lobby.id, live.bob.id, "Bob")
    sent = await live.client.get_partial_messageable(channel.id).send("the lobby")
    await live.service.record_post(lobby.id, joined.version, channel.id, sent.id)
    outcome = await live.service.start(lobby.id, live.alice.id)
    snap = await live.service.game(lobby.id)
    timers = [x for x in await live.service.store.timers_of_game(snap.id) if x.kind == REMINDER]
    return snap, outcome, timers, live.driver.message(sent.id)


async def test_a_reminder_waits_for_its_turns_board_and_links_the_channel_when_time_is_short(
    live: Live,
) -> None:
    """Due before the turn's board is recorded (it is still on its way), a reminder is put off
    (2 s, less on a short clock) rather than link the lobby message; once the board is in, it
    links the board. With the clock running out before its next look and still no board, it
    links the channel."""
    snap, outcome, (half, most), lobby = await unposted(live)
    assert await live.deliver(half, snap) == live.now.t + 2.0  # 100 s left: every 2 s
    live.now.t = (snap.deadline or 0) - 10.0
    assert await live.deliver(most, snap) == live.now.t + 0.5  # 10 s left: every 0.5 s
    assert live.after(lobby) == []  # nothing sent
    await live.client.post_to_channel(outcome.after, outcome)
    (board,) = live.after(lobby)
    assert await live.deliver(most, snap) is None
    (said,) = live.after(board)
    assert said.content == live.channel_text(snap, board)
    # the board not in when the clock is about to run out: the reminder links the channel
    snap, _, (_, most), lobby = await unposted(live)
    live.now.t = (snap.deadline or 0) - 0.5
    assert await live.deliver(most, snap) == live.now.t + 0.05  # it looks again at least then
    live.now.t = (snap.deadline or 0) - 0.04  # the clock runs out before the next look
    assert await live.deliver(most, snap) is None
    (said,) = live.after(lobby)
    assert said.content == t(
        "en",
        "reminder.channel",
        player=f"<@{live.alice.id}>",
        game=game_title("en", "cantstop"),
        left=f"<t:{round(snap.deadline or 0)}:R>",
        link=f"https://discord.com/channels/{live.guild.id}/{lobby.channel_id}",
    )


async def test_discord_failures_are_raised_for_a_retry_and_a_deleted_channel_is_dropped(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    driver = live.driver
    snap, (half, _), board = await live.game()
    outage = driver.fail_next("POST", f"/channels/{board.channel_id}/messages", status=503, code=0)
    with pytest.raises(discord.HTTPException):
        await live.deliver(half, snap)
    assert outage.failed == 1 and live.after(board) == []
    # a DM that fails on Discord's side is retried too, not sent to the channel instead
    await live.prefs.set_reminders(live.alice.id, "dm")
    dm = await driver.dm_channel(live.alice)
    driver.fail_next("POST", f"/channels/{dm.id}/messages", status=503, code=0)
    with pytest.raises(discord.HTTPException):
        await live.deliver(half, snap)
    assert live.after(board) == [] and driver.dms_to(live.alice) == []
    await live.prefs.set_reminders(live.alice.id, "channel")
    channel = driver.channel(board.channel_id)
    await driver.delete_channel(channel)
    with caplog.at_level(logging.WARNING, logger="bot.adapter.reminders"):
        assert await live.deliver(half, snap) is None
    assert "the channel is gone" in caplog.text


# ----------------------------------------------------------------------------------------------
# Whole stories through the bot process: they need the timer dispatcher, which sends reminders.

needs_dispatcher = pytest.mark.skipif(
    importlib.util.find_spec("bot.adapter.timers") is None, reason="needs the timer dispatcher"
)
HOUR_SECONDS = "6"  # one hour of game time lasts 6 s: a 1 h clock reminds at 3 s and 5.4 s
CLOCK = float(HOUR_SECONDS)
# (a reminder due before the first board is recorded waits for it, as long as the clock runs: a
# busy machine has the clock's 6 s to record the first board, which the reminders link)


def stored(db_path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


async def clocked_game(
    driver: FakeDiscordDriver, channel: FakeChannel, host: FakeUser, other: FakeUser
) -> tuple[StoredMessage, float]:
    """``/play cantstop clock: 1h``, joined and started: the first board and when it came."""
    rec = await driver.slash(host, channel, "play", {"clock": "1h"}, subcommand="cantstop")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    gid = lobby_id(lobby)
    joined = await driver.click(other, lobby, f"brl:{gid}:join")
    await joined.wait_response()
    start = await driver.click(host, driver.message(lobby.id), f"brl:{gid}:start")
    await start.wait_response()
    started = asyncio.get_running_loop().time()
    (board,) = await start.wait_followups(1, timeout=10)
    return board, started


def reminder_to(user: FakeUser) -> Any:
    start = t("en", "reminder.channel", player=f"<@{user.id}>", game="", left="", link="")
    head = start.split("**")[0]
    return lambda m: m.content.startswith(head)


@needs_dispatcher
async def test_reminders_at_half_and_nine_tenths_of_the_clock_in_the_channel(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=HOUR_SECONDS)
    alice, bob = fake_discord.add_user("Alice"), fake_discord.add_user("Bob")
    for user in (alice, bob):
        await fake_discord.add_member(bot.guild, user)
    channel = await fake_discord.add_channel(bot.guild, "games")
    mark = fake_discord.marker()
    board, _ = await clocked_game(fake_discord, channel, alice, bob)
    ((deadline,),) = stored(bot.db_path, "SELECT deadline FROM games")
    first = await fake_discord.wait_for_channel_message(
        channel, reminder_to(alice), after=mark, timeout=8
    )
    second = await fake_discord.wait_for_channel_message(
        channel, reminder_to(alice), after=first.id, timeout=8
    )
    # when each was posted, in seconds before the deadline: at 50 % and 90 % of the clock, not
    # before (the first board's answer may come back late on a loaded machine, so the stored
    # deadline is the measure, not the moment the test saw the start)
    first_left, second_left = (deadline - sent_at(m) for m in (first, second))
    link = f"https://discord.com/channels/{bot.guild.id}/{channel.id}/{board.id}"
    expected = t(
        "en",
        "reminder.channel",
        player=f"<@{alice.id}>",
        game=game_title("en", "cantstop"),
        left=f"<t:{round(deadline)}:R>",
        link=link,
    )
    assert first.content == expected and second.content == expected
    ms = 0.001  # a snowflake's time is cut to the millisecond
    assert CLOCK * 0.5 + ms >= first_left > second_left, (first_left, second_left)
    assert CLOCK * 0.1 + ms >= second_left > -2.0, second_left  # up to 2 s late under load
    await asyncio.sleep(max(0.0, deadline + 1.0 - time.time()))  # past the deadline
    sent = [
        m for m in fake_discord.channel_messages(channel) if m.id > mark and reminder_to(alice)(m)
    ]
    assert len(sent) == 2  # once each, nothing doubled
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


@needs_dispatcher
async def test_reminders_by_direct_message_and_in_the_channel_when_dms_are_closed(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=HOUR_SECONDS)
    alice, bob = fake_discord.add_user("Alice"), fake_discord.add_user("Bob")
    for user in (alice, bob):
        await fake_discord.add_member(bot.guild, user)
    channel = await fake_discord.add_channel(bot.guild, "games")
    rec = await fake_discord.slash(
        alice, channel, "settings", {"how": "dm"}, subcommand="reminders"
    )
    await rec.wait_response()
    mark = fake_discord.marker()
    board, _ = await clocked_game(fake_discord, channel, alice, bob)
    dm = await fake_discord.wait_for_dm(alice, after=mark, timeout=8)
    link = f"https://discord.com/channels/{bot.guild.id}/{channel.id}/{board.id}"
    assert link in dm.content and bot.guild.name in dm.content
    assert not [m for m in fake_discord.channel_messages(channel) if reminder_to(alice)(m)]
    fake_discord.close_dms(alice)  # the 90 % reminder cannot be a DM: it comes in the channel
    fallback = await fake_discord.wait_for_channel_message(
        channel, reminder_to(alice), after=mark, timeout=8
    )
    assert link in fallback.content
    assert len(fake_discord.dms_to(alice)) == 1
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
