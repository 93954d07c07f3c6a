"""Rest days through the real service and a real database (both backends): a resting table's
deadlines, reminders, vote ends, away left-overs and downtime grace all skip its rest."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.clocks import DEADLINE, REMINDER, VOTE_END, TimeUnits, TurnClock
from bot.service.games import GameService
from bot.service.rematch import rematch
from bot.service.rest_time import WEEKEND
from bot.service.table import Table
from bot.storage import open_store

ALICE, BOB = 101, 102
HOUR = 3600.0
DAY = 24 * HOUR
TOKYO = "Asia/Tokyo"


def at(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(TOKYO)).timestamp()


class Now:
    def __init__(self) -> None:
        self.t = at("2026-03-06 20:00")  # a Friday evening in Tokyo

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def now() -> Now:
    return Now()


@pytest.fixture
async def table(database: str, now: Now) -> Table:
    store = open_store(database)
    await store.open()
    service = GameService(store, turn_clock=TurnClock(now=now, units=TimeUnits()))
    yield Table(service, now=now)
    await store.close()


async def start(table: Table, rest: frozenset[int] = WEEKEND, clock: float = DAY) -> int:
    service = table.service
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=7,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        clock_seconds=int(clock),
        rest_days=rest,
        rest_timezone=TOKYO,
    )
    await service.join(lobby.id, BOB, "Bob")
    return (await service.start(lobby.id, ALICE)).after.id


async def due(table: Table, game_id: int, kind: str) -> list[float]:
    return sorted(t.due for t in await table.store.timers_of_game(game_id) if t.kind == kind)


async def test_the_game_keeps_its_rest_days_and_time_zone(table: Table) -> None:
    snap = await table.service.game(await start(table))
    assert snap.rest_days == WEEKEND and snap.rest_timezone == TOKYO
    assert snap.resting_until is None  # Friday evening: the clock runs


async def test_a_deadline_and_reminders_skip_the_weekend(table: Table) -> None:
    game_id = await start(table)
    snap = await table.service.game(game_id)
    # 4 hours on Friday, then Monday: 12 h of clock run at Monday 08:00, 24 h at 20:00
    assert snap.deadline == at("2026-03-09 20:00")
    assert await due(table, game_id, DEADLINE) == [at("2026-03-09 20:00")]
    assert await due(table, game_id, REMINDER) == [at("2026-03-09 08:00"), at("2026-03-09 17:36")]


async def test_without_rest_days_nothing_moves(table: Table, now: Now) -> None:
    game_id = await start(table, rest=frozenset())
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + DAY and snap.rest_days == frozenset()
    assert snap.rest_timezone is None


async def test_the_snapshot_says_until_when_the_table_rests(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t = at("2026-03-07 10:00")
    assert (await table.service.game(game_id)).resting_until == at("2026-03-09 00:00")


async def test_the_vote_on_a_silent_player_ends_after_the_rest(table: Table, now: Now) -> None:
    game_id = await start(table, clock=2 * HOUR)  # runs out at 22:00 on Friday
    [deadline] = [t for t in await table.store.timers_of_game(game_id) if t.kind == DEADLINE]
    assert deadline.due == at("2026-03-06 22:00")
    now.t = deadline.due
    assert await table.deadline_passed(deadline) is not None
    # one more clock period (2 h): 2 h left on Friday would reach midnight: after the weekend
    assert await due(table, game_id, VOTE_END) == [at("2026-03-09 00:00")]


async def test_going_away_keeps_only_the_running_clock_left(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t = at("2026-03-06 22:00")  # 2 hours of clock used
    await table.go_away(1, ALICE, 3 * DAY)
    snap = await table.service.game(game_id)
    assert snap.deadline is None and snap.clock_left == pytest.approx(22 * HOUR)
    now.t = at("2026-03-09 22:00")  # back on Monday evening: 22 hours from then
    await table.come_back(1, ALICE)
    assert (await table.service.game(game_id)).deadline == pytest.approx(at("2026-03-10 20:00"))


async def test_a_turn_that_starts_during_rest_starts_its_clock_after_it(
    table: Table, now: Now
) -> None:
    now.t = at("2026-03-08 12:00")  # Sunday
    game_id = await start(table, clock=6 * HOUR)
    assert (await table.service.game(game_id)).deadline == at("2026-03-09 06:00")


async def test_grace_after_downtime_waits_out_the_rest(table: Table, now: Now) -> None:
    game_id = await start(table, clock=2 * HOUR)
    now.t = at("2026-03-07 09:00")  # the bot was down from Friday 21:00 to Saturday morning
    downtime = await table.after_downtime()
    assert downtime.postponed == 1
    # the board still shows the deadline the turn had: Friday 20:00 + the 2 h clock
    assert downtime.moved == {game_id: at("2026-03-06 22:00")}
    # the grace (a tenth of the clock: 12 minutes) runs when the weekend is over
    assert await due(table, game_id, DEADLINE) == [at("2026-03-09 00:12")]
    assert (await table.service.game(game_id)).deadline == at("2026-03-09 00:12")


async def test_a_rematch_rests_as_the_game_it_replays(table: Table) -> None:
    service = table.service
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=8,
        host_id=ALICE,
        host_name="Alice",
        game="nim",
        clock_seconds=int(DAY),
        rest_days={6},
        rest_timezone=TOKYO,
    )
    await service.join(lobby.id, BOB, "Bob")
    snap = (await service.start(lobby.id, ALICE)).after
    while snap.status == "active":
        mover = snap.seats[snap.to_move].user_id
        snap = (await service.act(snap.id, mover, snap.legal[0], snap.version)).after
    again = await rematch(service, snap.id, BOB, guild_id=1)
    assert (again.rest_days, again.rest_timezone) == (frozenset({6}), TOKYO)


async def test_a_time_bank_is_not_spent_while_the_table_rests(table: Table, now: Now) -> None:
    """A bank (3 days + 1 a move, at most 7) whose turn spans a weekend: the weekend is not
    taken off it, and the next turn's deadline skips the weekend too."""
    service = table.service
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=7,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        clock_seconds=int(3 * DAY),
        bank_increment=int(DAY),
        bank_cap=int(7 * DAY),
        rest_days=WEEKEND,
        rest_timezone=TOKYO,
    )
    await service.join(lobby.id, BOB, "Bob")
    game_id = (await service.start(lobby.id, ALICE)).after.id
    now.t = at("2026-03-09 10:00")  # Monday morning: 4 h of Friday and 10 h of Monday ran
    while (snap := await service.game(game_id)).to_move == 0:
        await service.act(game_id, ALICE, snap.legal[-1], snap.version)
    row = await table.store.load_game(game_id)
    assert row is not None and row.seats[0].bank_left == 3 * DAY - 14 * HOUR + DAY
