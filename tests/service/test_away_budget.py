"""The vacation budget behind ``/away``, through the real service and each backend: what an away
period draws, what ending it early gives back, the rolling year, the server's own budget, the
refusal of a period longer than what is left, a clock that truly stands still meanwhile, and the
one warning a reminder carries when the budget is nearly spent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.service.away_budget import DEFAULT_AWAY_DAYS
from bot.service.clocks import DEADLINE, TimeUnits, TurnClock
from bot.service.games import GameService
from bot.service.preferences import AwayDaysOutOfRange, Preferences
from bot.service.table import AwayOverBudget, Table
from bot.storage import open_store
from bot.storage.base import TimerRow

GUILD, ALICE, BOB = 1, 101, 102
HOUR = 100.0  # seconds per hour of game time
DAY = 24 * HOUR
CLOCK = 100


class Now:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def now() -> Now:
    return Now()


@pytest.fixture
async def table(database: str, now: Now) -> AsyncIterator[Table]:
    store = open_store(database)  # each backend in turn (tests/conftest.py)
    await store.open()
    service = GameService(store, turn_clock=TurnClock(now=now, units=TimeUnits(hour=HOUR)))
    yield Table(service, now=now)
    await store.close()


async def left_days(table: Table) -> float:
    return (await table.away_budget(GUILD, ALICE)).left / DAY


async def start(table: Table) -> int:
    """A Can't Stop game with a clock, Alice (the host) to move."""
    service = table.service
    lobby = await service.open_lobby(
        guild_id=GUILD,
        channel_id=7,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        clock_seconds=CLOCK,
    )
    await service.join(lobby.id, BOB, "Bob")
    return (await service.start(lobby.id, ALICE)).after.id


async def test_an_away_period_draws_on_the_budget_and_an_early_end_gives_the_rest_back(
    table: Table, now: Now
) -> None:
    assert await left_days(table) == DEFAULT_AWAY_DAYS == 21
    await table.go_away(GUILD, ALICE, 5 * DAY)
    budget = await table.away_budget(GUILD, ALICE)
    assert budget.left == 16 * DAY and budget.current is not None
    now.t += DAY
    await table.come_back(GUILD, ALICE)
    assert await left_days(table) == 20  # four unused days came back
    # a new period while away replaces the one under way: only its lived part counts
    await table.go_away(GUILD, ALICE, 10 * DAY)
    now.t += 2 * DAY
    await table.go_away(GUILD, ALICE, 3 * DAY)
    assert await left_days(table) == 21 - 1 - 2 - 3
    # a period that ends by itself counts whole
    now.t += 3 * DAY
    timer = next(t for t in await table.store.due_timers(now.t, 10) if t.user_id == ALICE)
    assert await table.come_back(GUILD, ALICE, timer_id=timer.id)
    assert await left_days(table) == 15 and await table.away_until(GUILD, ALICE) is None
    # the year is rolling: a period stops counting 365 days after it started
    now.t += 365 * DAY - 6 * DAY + 1  # the first period (1 day) no longer counts
    assert await left_days(table) == 21 - 2 - 3
    now.t += 6 * DAY
    assert await left_days(table) == 21


async def test_more_than_is_left_is_refused_and_changes_nothing(table: Table, now: Now) -> None:
    await table.go_away(GUILD, ALICE, 20 * DAY)
    now.t += 20 * DAY
    with pytest.raises(AwayOverBudget) as refused:
        await table.go_away(GUILD, ALICE, 2 * DAY)
    assert refused.value.params["left"].left == DAY  # type: ignore[attr-defined]
    assert await left_days(table) == 1
    await table.go_away(GUILD, ALICE, DAY)  # exactly what is left: fine
    assert await left_days(table) == 0
    # while away, what is left counts the unused part of the period under way
    with pytest.raises(AwayOverBudget):
        await table.go_away(GUILD, ALICE, DAY + HOUR)
    assert (await table.away_until(GUILD, ALICE)) == now.t + DAY  # still the same period


async def test_the_server_chooses_the_budget(table: Table) -> None:
    prefs = Preferences(table.store)
    assert (await prefs.server(GUILD)).away_days == 21
    with pytest.raises(AwayDaysOutOfRange):
        await prefs.set_server(GUILD, away_days=366)
    assert (await prefs.set_server(GUILD, away_days=0)).away_days == 0
    with pytest.raises(AwayOverBudget):
        await table.go_away(GUILD, ALICE, HOUR)  # no away mode on this server
    assert (await prefs.set_server(GUILD, away_days=2)).away_days == 2
    await table.go_away(GUILD, ALICE, DAY)
    assert await left_days(table) == 1
    assert (await table.away_budget(2, ALICE)).left == 21 * DAY  # another server: its own


async def test_an_away_players_clock_stands_still_for_as_long_as_it_lasts(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    now.t += 40
    await table.go_away(GUILD, ALICE, 5 * CLOCK)
    assert await table.store.timers_of_game(game_id) == []
    now.t += 3 * CLOCK  # 300 % of the clock: nothing falls due for the game
    assert [t.kind for t in await table.store.due_timers(now.t, 10)] == []
    # a deadline timer an older version left for an away player opens no vote
    snap = await table.service.game(game_id)
    async with table.store.write() as tx:
        stale = TimerRow(0, now.t, DEADLINE, game_id, GUILD, ALICE, snap.version, '{"seat": 0}')
        stale_id = await tx.add_timer(stale)
    assert await table.deadline_passed(replace(stale, id=stale_id)) is None
    async with table.store.write() as tx:
        assert await tx.open_vote_of(game_id, "expiry") is None
    now.t += 2 * CLOCK  # the period ends: the clock runs on with what it had left
    (end,) = [t for t in await table.store.due_timers(now.t, 10) if t.user_id == ALICE]
    await table.come_back(GUILD, ALICE, timer_id=end.id)
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + 60 and snap.clock_left is None
    kinds = [t.kind for t in await table.store.timers_of_game(game_id)]
    assert kinds.count(DEADLINE) == 1


async def test_a_clock_that_ran_out_before_the_player_went_away_stays_run_out(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    now.t += CLOCK + 1
    await table.go_away(GUILD, ALICE, 5 * CLOCK)
    snap = await table.service.game(game_id)
    assert snap.clock_left is None  # the table's vote on it goes on
    (deadline,) = [t for t in await table.store.timers_of_game(game_id) if t.kind == DEADLINE]
    assert json.loads(deadline.data) == {"seat": 0}


async def test_a_reminder_tells_once_that_the_budget_is_nearly_spent(
    table: Table, now: Now
) -> None:
    assert await table.budget_nearly_spent(GUILD, ALICE) is None  # nothing spent
    await table.go_away(GUILD, ALICE, 10 * DAY)
    now.t += 10 * DAY
    assert await table.budget_nearly_spent(GUILD, ALICE) is None  # 11 days left
    await table.go_away(GUILD, ALICE, 9 * DAY)
    assert await table.budget_nearly_spent(GUILD, ALICE) is None  # away: no reminders anyway
    now.t += 9 * DAY
    told = await table.budget_nearly_spent(GUILD, ALICE)
    assert told is not None and told.left == 2 * DAY
    assert await table.budget_nearly_spent(GUILD, ALICE) is None  # once
    await table.go_away(GUILD, ALICE, DAY)  # spent more: told again after this one
    now.t += DAY
    again = await table.budget_nearly_spent(GUILD, ALICE)
    assert again is not None and again.left == DAY
