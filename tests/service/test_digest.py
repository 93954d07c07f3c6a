"""The digest across servers, in the service: when it comes (a time of the player's own day, twice
a day twelve hours apart, never in their quiet hours, across the days Europe/Berlin changes its
clocks), how late it may still be sent, which games it lists (their move, on every server, not
where DMs are not allowed or they are away), and the once-a-day rule for per-game reminders; the
choice is validated and saved with its timer, on both backends."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.clocks import TimeUnits, TurnClock
from bot.service.digest import (
    DIGEST,
    BadTimeOfDay,
    games_to_digest,
    holds_back_reminder,
    late_limit,
    marked_sending,
    moment_of,
    next_digest,
    parse_time_of_day,
    was_being_sent,
)
from bot.service.games import GameService
from bot.service.preferences import BadSettingValue, Preferences
from bot.service.quiet import BadTimeZone
from bot.storage.base import GameStore, PlayerSettingsRow, ServerPlayRow, TimerRow

BERLIN, TOKYO = "Europe/Berlin", "Asia/Tokyo"
ALICE, BOB = 101, 102


def at(zone: str, *moment: int) -> float:
    return datetime(*moment, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


def player(**choices: object) -> PlayerSettingsRow:
    return replace(PlayerSettingsRow(ALICE), **choices)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("8", "08:00"),
        ("8:30", "08:30"),
        (" 20.15 ", "20:15"),
        ("0h05", "00:05"),
        ("23:59", "23:59"),
    ],
)
def test_a_time_of_day_is_read_in_its_usual_spellings(text: str, wanted: str) -> None:
    assert parse_time_of_day(text) == wanted


@pytest.mark.parametrize("text", ["", "24:00", "8:60", "noon", "8-9", "123"])
def test_anything_else_is_not_a_time_of_day(text: str) -> None:
    with pytest.raises(BadTimeOfDay):
        parse_time_of_day(text)


def test_a_daily_digest_comes_at_its_time_in_the_players_zone() -> None:
    row = player(digest="daily", digest_at="08:00", timezone=BERLIN)
    assert next_digest(at(BERLIN, 2026, 6, 10, 7, 0), row) == at(BERLIN, 2026, 6, 10, 8, 0)
    # just after it: tomorrow's (never the one that was just sent)
    assert next_digest(at(BERLIN, 2026, 6, 10, 8, 0), row) == at(BERLIN, 2026, 6, 11, 8, 0)
    # another zone, and UTC without one
    tokyo = replace(row, timezone=TOKYO)
    assert next_digest(at(BERLIN, 2026, 6, 10, 7, 0), tokyo) == at(TOKYO, 2026, 6, 11, 8, 0)
    utc = replace(row, timezone=None)
    assert next_digest(at("UTC", 2026, 6, 10, 7, 0), utc) == at("UTC", 2026, 6, 10, 8, 0)


def test_a_twice_daily_digest_comes_twelve_hours_apart() -> None:
    row = player(digest="twice", digest_at="07:30", timezone=BERLIN)
    assert next_digest(at(BERLIN, 2026, 6, 10, 9, 0), row) == at(BERLIN, 2026, 6, 10, 19, 30)
    assert next_digest(at(BERLIN, 2026, 6, 10, 19, 30), row) == at(BERLIN, 2026, 6, 11, 7, 30)


def test_no_digest_when_it_is_off() -> None:
    assert next_digest(at(BERLIN, 2026, 6, 10, 9, 0), player(timezone=BERLIN)) is None


def test_a_digest_never_comes_in_the_players_quiet_hours() -> None:
    row = player(
        digest="twice", digest_at="06:00", timezone=BERLIN, quiet_start="22:00", quiet_end="07:00"
    )
    # 06:00 falls in the quiet hours: it comes when they end; 18:00 comes as it is
    assert next_digest(at(BERLIN, 2026, 6, 10, 1, 0), row) == at(BERLIN, 2026, 6, 10, 7, 0)
    assert next_digest(at(BERLIN, 2026, 6, 10, 7, 0), row) == at(BERLIN, 2026, 6, 10, 18, 0)


def test_the_days_the_clocks_change() -> None:
    row = player(digest="daily", digest_at="02:30", timezone=BERLIN)
    # 29 March 2026: 02:30 does not happen in Berlin; the digest comes at the change (03:00)
    spring = next_digest(at(BERLIN, 2026, 3, 29, 0, 0), row)
    assert spring == datetime(2026, 3, 29, 1, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    # 25 October: 02:30 happens twice; the digest comes once, at the first
    autumn = next_digest(at(BERLIN, 2026, 10, 25, 0, 0), row)
    assert autumn == datetime(2026, 10, 25, 0, 30, tzinfo=ZoneInfo("UTC")).timestamp()
    assert next_digest(autumn or 0, row) == at(BERLIN, 2026, 10, 26, 2, 30)


def test_a_late_digest_is_sent_within_half_its_period() -> None:
    assert late_limit(player(digest="daily")) == 12 * 3600
    assert late_limit(player(digest="twice")) == 6 * 3600


def test_a_digest_timer_knows_its_moment_and_whether_it_was_being_sent() -> None:
    timer = TimerRow(1, 500.0, DIGEST, user_id=ALICE, data=json.dumps({"moment": 400.0}))
    assert moment_of(timer) == 400.0 and not was_being_sent(timer)
    marked = replace(timer, data=marked_sending(timer))
    assert moment_of(marked) == 400.0 and was_being_sent(marked)


def test_per_game_reminders_of_a_digest_taker() -> None:
    units, day = TimeUnits(), 24 * 3600.0
    beside = player(digest="daily")
    instead = player(digest="daily", digest_only=True)
    none = player()
    now = 10 * day
    # without the digest: reminders as before
    assert not holds_back_reminder(none, True, now - 60, now, units)
    # beside it: at most one a day for each game
    assert not holds_back_reminder(beside, True, None, now, units)
    assert holds_back_reminder(beside, True, now - day + 60, now, units)
    assert not holds_back_reminder(beside, True, now - day, now, units)
    # instead of them: none
    assert holds_back_reminder(instead, True, None, now, units)
    # a server without DMs is not in the digest: its reminders go on
    assert not holds_back_reminder(instead, False, None, now, units)
    # a day of game time: shortened in tests
    assert holds_back_reminder(beside, True, now - 100, now, TimeUnits(hour=6))
    assert not holds_back_reminder(beside, True, now - 145, now, TimeUnits(hour=6))


# ------------------------------------------------------------------ with a store


async def running(
    service: GameService, guild_id: int, channel_id: int, first: int, second: int
) -> int:
    lobby = await service.open_lobby(
        guild_id=guild_id, channel_id=channel_id, host_id=first, host_name="A", game="nim"
    )
    await service.join(lobby.id, second, "B")
    return (await service.start(lobby.id, first)).after.id


async def test_the_digest_lists_the_players_move_on_every_server(
    service: GameService, store: GameStore
) -> None:
    now = 1.8e9
    games = [
        await running(service, 1, 10, ALICE, BOB),
        await running(service, 2, 20, ALICE, BOB),
        await running(service, 3, 30, ALICE, BOB),
        await running(service, 4, 40, ALICE, BOB),
        await running(service, 1, 11, BOB, ALICE),  # Bob's move
    ]
    to_move = {g: (await service.game(g)).player_to_move() for g in games}
    assert {g: m.user_id for g, m in to_move.items() if m} == {
        **dict.fromkeys(games[:4], ALICE),
        games[4]: BOB,
    }
    async with store.write() as tx:
        await tx.set_server_play(ServerPlayRow(3, allow_dm=False), "t")  # no DMs there
        await tx.set_away(4, ALICE, now - 10, now + 3600)  # away there
    listed = await games_to_digest(store, service.snapshot_of, ALICE, now)
    assert [g.id for g in listed] == games[:2]
    # the away period over, that server's game is back in the list
    later = await games_to_digest(store, service.snapshot_of, ALICE, now + 3601)
    assert [g.id for g in later] == [games[0], games[1], games[3]]
    assert [g.id for g in await games_to_digest(store, service.snapshot_of, BOB, now)] == [games[4]]


async def test_choosing_the_digest_writes_its_timer_and_bad_input_changes_nothing(
    store: GameStore,
) -> None:
    now = at(BERLIN, 2026, 6, 10, 9, 0)
    woken: list[float] = []
    clock = TurnClock(now=lambda: now)
    clock.on_timer = woken.append
    prefs = Preferences(store, turn_clock=clock)
    await prefs.set_quiet(ALICE, "22:00-07:00", BERLIN)
    assert await digest_timers(store) == []  # quiet hours alone: no digest
    row = await prefs.set_digest(ALICE, "twice", at="6:00", instead=True, locale="de")
    assert (row.digest, row.digest_at, row.digest_only, row.digest_locale) == (
        "twice",
        "06:00",
        True,
        "de",
    )
    assert await prefs.player(ALICE) == row  # read back as written
    (timer,) = await digest_timers(store)
    assert timer.due == at(BERLIN, 2026, 6, 10, 18, 0) == woken[-1]
    assert timer.user_id == ALICE and timer.game_id is None and timer.guild_id is None
    # bad input: a clear error, nothing changed
    for bad, error in (
        ({"how": "hourly"}, BadSettingValue),
        ({"at": "25:00"}, BadTimeOfDay),
        ({"timezone": "Mars/Olympus"}, BadTimeZone),
    ):
        with pytest.raises(error):
            await prefs.set_digest(ALICE, **bad)  # type: ignore[arg-type]
        assert await prefs.player(ALICE) == row
        assert await digest_timers(store) == [timer]
    # in the evening, the next digest is tomorrow's 06:00, held back to 07:00 by the quiet
    # hours; quiet hours that move take the digest with them (06:00 is no longer quiet)
    now = at(BERLIN, 2026, 6, 10, 19, 0)
    await prefs.set_digest(ALICE, instead=False)
    (evening,) = await digest_timers(store)
    assert evening.due == at(BERLIN, 2026, 6, 11, 7, 0)
    await prefs.set_quiet(ALICE, "23:00-05:00")
    (moved,) = await digest_timers(store)
    assert moved.due == at(BERLIN, 2026, 6, 11, 6, 0)
    await prefs.set_digest(ALICE, at="07:00")
    (moved,) = await digest_timers(store)
    assert moved.due == at(BERLIN, 2026, 6, 11, 7, 0)  # 19:00 is now: the next is 07:00
    # off: no timer at all
    await prefs.set_digest(ALICE, "off")
    assert await digest_timers(store) == []


async def digest_timers(store: GameStore) -> list[TimerRow]:
    async with store.write() as tx:
        return await tx.user_timers(ALICE, (DIGEST,))
