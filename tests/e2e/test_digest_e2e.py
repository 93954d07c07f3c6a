"""The digest across servers against the fake Discord: one direct message listing every game, on
every server, where it is the player's move (server, channel, time left, a link to the board);
closed DMs falling back to a mention in each game's channel, as reminders do, never twice; a
digest that was being sent when the process died counts as sent, one that is too late is
skipped, one Discord failed is retried and sent once; per-game reminders of a digest taker come
at most once a day per game (none with the digest instead of them).

Two kinds of tests: the timer dispatcher of a real bot client in this process (its scheduler
stopped, time under the test's control, a real SQLite file), and a whole story through the bot
process on two servers with ``BOARDROOM_TEST_HOUR_SECONDS``: the digest's moment passes while
the bot is down, and after the restart one digest arrives, once.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from pytest import approx

from bot.adapter.mygames_command import time_left
from bot.service.clocks import REMINDER
from bot.service.digest import DIGEST, digest_timer, marked_sending
from bot.service.models import GameSnapshot
from bot.service.preferences import Preferences
from bot.storage.base import TimerRow
from i18n import game_title, t
from tests.e2e.helpers import Table, open_and_start, seat_users
from tests.e2e.test_reminders_e2e import BERLIN, Live, at
from tests.e2e.test_reminders_e2e import live as live  # the fixture
from tests.fakediscord import FakeDiscordDriver, FakeGuild, StoredMessage

DAYS = 3 * 86400  # a clock that runs through every test here


def prefs(live: Live) -> Preferences:
    service = live.service
    return Preferences(service.store, turn_clock=service.turn_clock)


async def game_on(
    live: Live, guild: FakeGuild, host: Any, other: Any
) -> tuple[GameSnapshot, StoredMessage]:
    """A running Can't Stop game with a three-day clock in a new channel of ``guild``, ``host``
    to move, its first board posted."""
    channel = await live.driver.add_channel(guild, f"games-{live.driver.marker()}")
    lobby = await live.service.open_lobby(
        guild_id=guild.id,
        channel_id=channel.id,
        host_id=host.id,
        host_name=host.name,
        game="cantstop",
        clock_seconds=DAYS,
    )
    await live.service.join(lobby.id, other.id, other.name)
    outcome = await live.service.start(lobby.id, host.id)
    await live.client.post_to_channel(outcome.after, outcome)
    board = live.driver.latest_message(channel)
    assert board is not None
    snap = await live.service.game(lobby.id)
    assert snap.player_to_move().user_id == host.id  # type: ignore[union-attr]
    return snap, board


def link(guild: FakeGuild, board: StoredMessage) -> str:
    return f"https://discord.com/channels/{guild.id}/{board.channel_id}/{board.id}"


async def digest_timers(live: Live) -> list[TimerRow]:
    async with live.service.store.write() as tx:
        return await tx.user_timers(live.alice.id, (DIGEST,))


async def two_servers(live: Live) -> tuple[FakeGuild, list[tuple[GameSnapshot, StoredMessage]]]:
    """A second server, "Annex", and Alice's move in a game on each, plus a game on the first
    where Bob is to move (not hers to list); the scheduler stopped, so the test drives the
    timers."""
    await live.client.timers.stop()
    annex = await live.driver.add_guild("Annex")
    for user in (live.alice, live.bob):
        await live.driver.add_member(annex, user)
    for _ in range(100):  # the bot hears of the new server over the gateway
        if live.client.get_guild(annex.id) is not None:
            break
        await asyncio.sleep(0.05)
    assert live.client.get_guild(annex.id) is not None
    den = await game_on(live, live.guild, live.alice, live.bob)
    other = await game_on(live, annex, live.alice, live.bob)
    await game_on(live, live.guild, live.bob, live.alice)
    return annex, [den, other]


def expected_digest(
    live: Live, annex: FakeGuild, games: list[tuple[GameSnapshot, StoredMessage]]
) -> str:
    lines = [f"**{t('en', 'digest.title', count=len(games))}**"]
    for (snap, board), guild in zip(games, (live.guild, annex), strict=True):
        lines.append(
            t(
                "en",
                "digest.line",
                game=game_title("en", "cantstop"),
                server=guild.name,
                channel_id=board.channel_id,
                left=time_left("en", snap),
                link=link(guild, board),
            )
        )
    lines.append(t("en", "digest.footer"))
    return "\n".join(lines)


async def due_now(live: Live) -> TimerRow:
    """Alice's digest timer, the clock moved to its moment."""
    (timer,) = await digest_timers(live)
    live.now.t = timer.due
    return timer


async def test_one_digest_lists_the_players_move_on_every_server(live: Live) -> None:
    annex, games = await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN, locale="en")
    timer = await due_now(live)
    assert timer.due == at(2026, 6, 10, 13, 0)  # 13:00 in Berlin, the time she chose
    await live.client.timers.handle(timer)
    (dm,) = live.driver.dms_to(live.alice)
    assert dm.content == expected_digest(live, annex, games)
    assert (dm.allowed_mentions or {}).get("parse") == []  # it pings nobody
    assert all(live.after(board) == [] for _, board in games)  # nothing in the channels
    # done with: the next one is tomorrow's, and handling the old one again sends nothing
    (following,) = await digest_timers(live)
    assert following.due == at(2026, 6, 11, 13, 0)
    await live.client.timers.handle(timer)
    assert len(live.driver.dms_to(live.alice)) == 1
    # in her language, whatever the servers speak
    await prefs(live).set_digest(live.alice.id, locale="de")
    await live.client.timers.handle(await due_now(live))
    assert live.driver.dms_to(live.alice)[-1].content.startswith(
        f"**{t('de', 'digest.title', count=2)}**"
    )


def dm_openings(live: Live) -> int:
    return sum(1 for r in live.driver.fake.requests if r.path.endswith("/users/@me/channels"))


async def test_the_dm_channel_is_opened_once_and_anew_when_discord_forgot_it(
    live: Live,
) -> None:
    await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN)
    before = dm_openings(live)
    await live.client.timers.handle(await due_now(live))
    dm = await live.driver.dm_channel(live.alice)
    assert (await prefs(live).player(live.alice.id)).dm_channel_id == dm.id
    assert dm_openings(live) == before + 1
    # the next day's digest goes straight to the known channel: one request, no opening
    await live.client.timers.handle(await due_now(live))
    assert len(live.driver.dms_to(live.alice)) == 2 and dm_openings(live) == before + 1
    # a channel Discord no longer knows: opened anew, and the digest still arrives once
    async with live.service.store.write() as tx:
        await tx.set_dm_channel(live.alice.id, 4242)
    await live.client.timers.handle(await due_now(live))
    # (discord.py answers the opening from its own cache of this session's DM channels)
    assert len(live.driver.dms_to(live.alice)) == 3
    unknown = [r for r in live.driver.fake.requests if r.path == "/api/v10/channels/4242/messages"]
    assert [r.status for r in unknown] == [404]
    assert (await prefs(live).player(live.alice.id)).dm_channel_id == dm.id


async def test_closed_dms_fall_back_to_each_games_channel_once(live: Live) -> None:
    annex, games = await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN, locale="en")
    live.driver.close_dms(live.alice)
    timer = await due_now(live)
    await live.client.timers.handle(timer)
    assert live.driver.dms_to(live.alice) == []
    for (snap, board), guild in zip(games, (live.guild, annex), strict=True):
        (said,) = live.after(board)
        assert said.content == t(
            "en",
            "digest.channel",
            player=f"<@{live.alice.id}>",
            game=game_title("en", "cantstop"),
            left=time_left("en", snap),
            link=link(guild, board),
        )
        assert "users" in (said.allowed_mentions or {}).get("parse", [])  # it pings her
    # the same moment tried again (as after a failure): nothing posted twice
    async with live.service.store.write() as tx:
        await tx.add_timer(digest_timer(live.alice.id, timer.due))
    again = [x for x in await digest_timers(live) if x.due == timer.due]
    await live.client.timers.handle(again[0])
    assert all(len(live.after(board)) == 1 for _, board in games)
    # and a per-game reminder the same day (beside the digest) is held back
    snap, board = games[0]
    (half, _) = [x for x in await live.service.store.timers_of_game(snap.id) if x.kind == REMINDER]
    assert await live.deliver(half, snap) is None
    assert len(live.after(board)) == 1


async def test_a_digest_being_sent_when_the_process_died_counts_as_sent(live: Live) -> None:
    await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "twice", at="13:00", timezone=BERLIN)
    timer = await due_now(live)
    async with live.service.store.write() as tx:  # as the dead process left it
        await tx.delete_timer(timer.id)
        await tx.add_timer(
            TimerRow(0, timer.due, DIGEST, user_id=live.alice.id, data=marked_sending(timer))
        )
    (marked,) = await digest_timers(live)
    await live.client.timers.handle(marked)
    assert live.driver.dms_to(live.alice) == []
    (following,) = await digest_timers(live)
    assert following.due == at(2026, 6, 11, 1, 0)  # twice a day: the next, twelve hours on


async def test_after_downtime_a_digest_comes_late_once_or_not_at_all(live: Live) -> None:
    await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN)
    timer = await due_now(live)
    live.now.t = timer.due + 12 * 3600 + 1  # more than half a day late: skipped
    await live.client.timers.handle(timer)
    assert live.driver.dms_to(live.alice) == []
    (following,) = await digest_timers(live)
    assert following.due == at(2026, 6, 11, 13, 0)
    live.now.t = following.due + 3 * 3600  # three hours late: sent, once
    await live.client.timers.handle(following)
    await live.client.timers.handle(following)
    assert len(live.driver.dms_to(live.alice)) == 1
    (last,) = await digest_timers(live)
    assert last.due == at(2026, 6, 12, 13, 0)


async def test_a_late_digest_waits_for_the_end_of_quiet_hours(live: Live) -> None:
    await two_servers(live)
    await prefs(live).set_quiet(live.alice.id, "22:00-07:00", BERLIN)
    await prefs(live).set_digest(live.alice.id, "daily", at="20:00")
    timer = await due_now(live)
    live.now.t = at(2026, 6, 10, 23, 0)  # the bot was down: now her quiet hours began
    await live.client.timers.handle(timer)
    assert live.driver.dms_to(live.alice) == []
    (waiting,) = await digest_timers(live)
    assert waiting.due == at(2026, 6, 11, 7, 0)  # 11 h after its moment: still in time
    live.now.t = waiting.due
    await live.client.timers.handle(waiting)
    assert len(live.driver.dms_to(live.alice)) == 1


async def test_a_digest_discord_failed_is_retried_and_sent_once(live: Live) -> None:
    await two_servers(live)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN)
    timer = await due_now(live)
    dm = await live.driver.dm_channel(live.alice)
    outage = live.driver.fail_next("POST", f"/channels/{dm.id}/messages", status=503, code=0)
    await live.client.timers.handle(timer)
    assert outage.failed == 1 and live.driver.dms_to(live.alice) == []
    (retry,) = await digest_timers(live)
    assert retry.attempts == 1 and json.loads(retry.data) == {"moment": timer.due}
    live.now.t = retry.due
    await live.client.timers.handle(retry)
    assert len(live.driver.dms_to(live.alice)) == 1


async def test_per_game_reminders_of_a_digest_taker(live: Live) -> None:
    """Beside the digest: the first reminder of a game, not the second the same day; instead of
    reminders: none; on a server that does not allow DMs (not in the digest): as before."""
    snap, (half, most), board = await live.game(clock=DAYS)
    await prefs(live).set_digest(live.alice.id, "daily", at="13:00", timezone=BERLIN)
    assert await live.deliver(half, snap) is None
    assert len(live.after(board)) == 1
    assert await live.deliver(most, snap) is None
    assert len(live.after(board)) == 1  # the same game within a day
    other, (other_half, _), other_board = await live.game(clock=DAYS)
    await prefs(live).set_digest(live.alice.id, instead=True)
    assert await live.deliver(other_half, other) is None
    assert live.after(other_board) == []
    await live.prefs.set_server(live.guild.id, allow_dm=False)
    assert await live.deliver(other_half, other) is None
    assert len(live.after(other_board)) == 1


# ----------------------------------------------------------------------------------------------
# The whole story through the bot process, on two servers.

HOUR_SECONDS = "6"


def db_write(db_path: Path, sql: str, *params: Any) -> None:
    conn = sqlite3.connect(db_path)
    try:
        conn.execute(sql, params)
        conn.commit()
    finally:
        conn.close()


def db_read(db_path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


async def choose_digest(driver: FakeDiscordDriver, table: Table, user: Any) -> None:
    """``/settings digest`` daily, at the wall clock's time of day twelve hours from now, instead
    of per-game reminders: the game calendar read the wall clock when the bot started and runs
    600 times faster, so the digest is about twelve game hours (72 s) off."""
    then = time.gmtime(time.time() + 12 * 3600)
    rec = await driver.slash(
        user,
        table.channel,
        "settings",
        {
            "how": "daily",
            "at": f"{then.tm_hour}:{then.tm_min:02d}",
            "timezone": "UTC",
            "instead": True,
        },
        subcommand="digest",
    )
    await rec.wait_response()
    assert rec.ephemeral and t("en", "settings.saved") in (
        rec.original.content if rec.original else ""
    )


async def test_a_digest_with_games_from_two_servers_after_downtime(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    driver = fake_discord
    den, annex = await driver.add_guild("Den"), await driver.add_guild("Annex")
    first = await seat_users(driver, den, "Alice", "Bob")
    alice, bob = first.users
    carol = driver.add_user("Carol")
    for user in (alice, bob):
        await driver.add_member(annex, user)
    await driver.add_member(den, carol)
    second = Table(driver, annex, await driver.add_channel(annex, "games"), [alice, bob])
    third = Table(driver, den, await driver.add_channel(den, "more-games"), [carol, bob])
    bot = await bot_process(den, BOARDROOM_TEST_HOUR_SECONDS=HOUR_SECONDS, DEV_GUILD_ID="")
    boards = [await open_and_start(table, clock="12h") for table in (first, second, third)]
    driver.close_dms(carol)
    for table, user in ((first, alice), (third, carol)):
        await choose_digest(driver, table, user)
    # /mygames everywhere: the same everywhere view, privately, at any time
    rec = await driver.slash(alice, first.channel, "mygames", {"everywhere": True})
    await rec.wait_response()
    assert rec.ephemeral and rec.original is not None
    view = rec.original.content
    assert view.startswith(f"**{t('en', 'mygames.everywhere.title')}**")
    for guild, board in ((den, boards[0]), (annex, boards[1])):
        assert f"on {guild.name} in <#{board.channel_id}>" in view and link(guild, board) in view
    assert link(den, boards[2]) not in view  # Carol's game, not Alice's
    timers = db_read(bot.db_path, "SELECT user_id FROM timers WHERE kind = 'digest'")
    assert sorted(timers) == sorted([(alice.id,), (carol.id,)])

    # the bot is down while the digests' moment passes; after the restart each comes once
    await bot.kill()
    moment = time.time() - 1
    db_write(
        bot.db_path,
        "UPDATE timers SET due = ?, data = ? WHERE kind = 'digest'",
        moment,
        json.dumps({"moment": moment}),
    )
    mark = driver.marker()
    await bot.start(wait_sync=False)
    dm = await driver.wait_for_dm(alice, after=mark, timeout=15)
    assert dm.content.startswith(f"**{t('en', 'digest.title', count=2)}**")
    for guild, board in ((den, boards[0]), (annex, boards[1])):
        assert f"on {guild.name} in <#{board.channel_id}>" in dm.content
        assert f"({link(guild, board)})" in dm.content
    said = await driver.wait_for_channel_message(
        third.channel, lambda m: m.content.startswith(f"<@{carol.id}>"), after=mark, timeout=15
    )
    assert link(den, boards[2]) in said.content and driver.dms_to(carol) == []
    # with the digest instead of reminders, the per-game ones are held back (the 12 h clock's
    # half is 36 s; the story ends before)... and another restart sends nothing again
    await asyncio.sleep(1.0)
    await bot.kill()
    await bot.start(wait_sync=False)
    await asyncio.sleep(2.0)
    assert len(driver.dms_to(alice)) == 1
    fallback = [
        m
        for m in driver.channel_messages(third.channel)
        if m.id > mark and f"<@{carol.id}>" in m.content
    ]
    assert len(fallback) == 1
    assert db_read(
        bot.db_path, "SELECT COUNT(*) FROM timers WHERE kind = 'digest' AND due < ?", time.time()
    ) == [(0,)]
    bot.assert_no_traceback()


# ----------------------------------------------------------------------------------------------
# Told in game time: the digest comes at its time of day on the game calendar.

GAME_HOUR = 3.0  # wall seconds an hour of game time lasts in this story
MONDAY_5AM = "2026-12-07T05:00:00+00:00"


async def test_a_daily_digest_comes_at_its_time_of_day_in_game_time(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    """No database touched: the calendar reads Monday 05:00 as the bot starts and runs 1,200
    times faster; Alice, to move on two servers, asks for her digest at the next full hour but
    one, and it comes then, once, listing both games; Bob, to move nowhere, gets none; each one's
    next digest is a game day later."""
    driver = fake_discord
    den, annex = await driver.add_guild("Den"), await driver.add_guild("Annex")
    first = await seat_users(driver, den, "Alice", "Bob")
    alice, bob = first.users
    for user in (alice, bob):
        await driver.add_member(annex, user)
    second = Table(driver, annex, await driver.add_channel(annex, "games"), [alice, bob])
    anchor = time.time()
    bot = await bot_process(
        den,
        BOARDROOM_TEST_HOUR_SECONDS=str(GAME_HOUR),
        BOARDROOM_TEST_CALENDAR_ANCHOR=f"{anchor}={MONDAY_5AM}",
        DEV_GUILD_ID="",
    )
    boards = [await open_and_start(table, clock="3d") for table in (first, second)]

    # the game calendar now, and the full hour after the next one on it
    game_hours = 5 + (time.time() - anchor) / GAME_HOUR
    hour = int(game_hours) + 2
    due = anchor + (hour - 5) * GAME_HOUR  # that moment in wall time
    assert hour < 24, "the bot took too long to start for this story"
    for user in (alice, bob):
        rec = await driver.slash(
            user,
            first.channel,
            "settings",
            {"how": "daily", "at": f"{hour:02d}:00", "timezone": "UTC", "instead": True},
            subcommand="digest",
        )
        await rec.wait_response()
        assert rec.ephemeral
    timers = db_read(bot.db_path, "SELECT user_id, due FROM timers WHERE kind = 'digest'")
    assert sorted(timers) == sorted([(alice.id, approx(due)), (bob.id, approx(due))])

    dm = await driver.wait_for_dm(alice, timeout=due - time.time() + 15)
    assert time.time() >= due - 0.5  # at its time, not before
    assert dm.content.startswith(f"**{t('en', 'digest.title', count=2)}**")
    for guild, board in ((den, boards[0]), (annex, boards[1])):
        assert f"on {guild.name} in <#{board.channel_id}>" in dm.content
        assert f"({link(guild, board)})" in dm.content
    # once: the next ones a game day later, Bob (to move nowhere) hears nothing
    await asyncio.sleep(2 * GAME_HOUR)
    assert len(driver.dms_to(alice)) == 1 and driver.dms_to(bob) == []
    timers = db_read(bot.db_path, "SELECT user_id, due FROM timers WHERE kind = 'digest'")
    tomorrow = approx(due + 24 * GAME_HOUR)
    assert sorted(timers) == sorted([(alice.id, tomorrow), (bob.id, tomorrow)])
    driver.assert_no_violations()
    bot.assert_no_traceback()
