"""Time banks: the arithmetic of a bank (increment, cap, a bank that ran out), the clock a lobby
gets, and a bank game through the real service on each backend with time under the test's
control: settled at the end of each turn, stopped while its player is away, kept across a
restart, given the grace period after downtime, and running out into the table's vote."""

from __future__ import annotations

import json

import pytest

from bot.service.bots import play_bot_turn, think_at_once
from bot.service.clocks import (
    BANK_PRESETS,
    CLOCK_CHOICES,
    DEADLINE,
    NOTICE,
    REMINDER,
    VOTE_END,
    GameClock,
    TimeUnits,
    TurnClock,
    bank_after_turn,
    clock_of,
    grace,
    lobby_clock,
)
from bot.service.games import GameService
from bot.service.preferences import Preferences, clock_choice, server_play_of
from bot.service.rematch import rematch
from bot.service.table import BOT_TURN, WAIT, Table
from bot.storage import open_store
from bot.storage.base import ServerPlayRow

ALICE, BOB = 101, 102
START, INCREMENT, CAP = 100, 50, 200
HOUR = 100.0  # seconds of an hour of game time in these tests


class Now:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


# ----------------------------------------------------------------------------- arithmetic


def test_a_turn_takes_what_it_used_and_adds_the_increment_up_to_the_cap() -> None:
    bank = GameClock(START, INCREMENT, CAP)
    assert bank_after_turn(bank, 100) == 150  # used nothing: the increment on top
    assert bank_after_turn(bank, 70) == 120  # used 30
    assert bank_after_turn(bank, 180) == CAP  # never above the cap
    assert bank_after_turn(bank, 0) == INCREMENT  # ran out: the increment only
    assert bank_after_turn(bank, -5) == INCREMENT  # (a deadline long past counts as empty)
    assert bank_after_turn(GameClock(START, 0, CAP), 40) == 40  # no increment: sudden death


def test_the_clock_period_of_each_kind() -> None:
    assert GameClock().period is None and not GameClock().is_bank
    assert GameClock(100).period == 100 and not GameClock(100).is_bank
    assert GameClock(START, INCREMENT, CAP).period == INCREMENT  # what a move adds
    assert GameClock(START, 0, CAP).period == START
    units = TimeUnits(hour=HOUR)
    assert grace(GameClock(START, INCREMENT, CAP), units) == 5  # a tenth of the period
    assert grace(GameClock(10_000), units) == HOUR  # at most an hour


def test_presets_are_offered_after_the_per_move_clocks_and_scale_with_the_hour() -> None:
    assert CLOCK_CHOICES[-len(BANK_PRESETS) :] == tuple(BANK_PRESETS)
    for bank in BANK_PRESETS.values():
        assert bank.start <= bank.cap and 0 < bank.increment <= bank.cap
    units = TimeUnits(hour=2.0)
    assert units.game_clock("bank-3d") == GameClock(144, 48, 336)
    assert units.game_clock("24h") == GameClock(48)
    assert units.game_clock("none") == GameClock()
    with pytest.raises(KeyError):
        units.game_clock("bank-99d")


def test_a_lobby_gets_the_hosts_choice_else_the_servers_default_bank() -> None:
    units = TimeUnits(hour=1.0)
    assert lobby_clock("bank-1d", None, units) == GameClock(24, 12, 72)
    assert lobby_clock(None, None, units) == GameClock(24)  # the built-in 24 h a move
    server = ServerPlayRow(1, default_clock=72, default_bank_increment=24, default_bank_cap=168)
    assert lobby_clock(None, server, units) == GameClock(72, 24, 168)
    assert lobby_clock("12h", server, units) == GameClock(12)  # the host's choice wins
    assert lobby_clock(None, ServerPlayRow(1, default_clock=0), units) == GameClock()
    assert server_play_of(server).clock == "bank-3d"
    assert clock_choice(72) == "3d" and clock_choice(72, 24, 168) == "bank-3d"
    assert clock_choice(72, 1, 2) == "24h"  # a bank no menu offers: the built-in default


# ----------------------------------------------------------------------------- the service


@pytest.fixture
def now() -> Now:
    return Now()


def _table(store, now: Now) -> Table:
    service = GameService(store, turn_clock=TurnClock(now=now, units=TimeUnits(hour=HOUR)))
    return Table(service, now=now)


@pytest.fixture
async def table(database: str, now: Now) -> Table:
    store = open_store(database)  # each backend in turn (tests/conftest.py)
    await store.open()
    yield _table(store, now)
    await store.close()


async def start(table: Table) -> int:
    service = table.service
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=7,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        clock_seconds=START,
        bank_increment=INCREMENT,
        bank_cap=CAP,
    )
    assert lobby.bank_hours == (INCREMENT / HOUR, CAP / HOUR)
    await service.join(lobby.id, BOB, "Bob")
    return (await service.start(lobby.id, ALICE)).after.id


async def end_turn(table: Table, game_id: int, user_id: int) -> None:
    """The player to move plays until the turn passes (Can't Stop: the last legal action
    stops or ends the turn)."""
    snap = await table.service.game(game_id)
    seat = snap.to_move
    assert seat is not None and snap.seats[seat].user_id == user_id
    while (snap := await table.service.game(game_id)).to_move == seat:
        await table.service.act(game_id, user_id, snap.legal[-1], snap.version)


async def banks(table: Table, game_id: int) -> list[float | None]:
    row = await table.store.load_game(game_id)
    assert row is not None
    return [s.bank_left for s in row.seats]


async def kinds(table: Table, game_id: int) -> list[tuple[str, float]]:
    return [(t.kind, t.due) for t in await table.store.timers_of_game(game_id)]


async def test_each_seat_starts_with_the_start_and_its_turn_runs_its_bank_down(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + START and await banks(table, game_id) == [None, None]
    assert [s.bank_hours for s in snap.seats] == [START / HOUR, START / HOUR]
    assert await kinds(table, game_id) == [
        (REMINDER, now.t + 50),
        (REMINDER, now.t + 90),
        (DEADLINE, now.t + START),
    ]
    now.t += 30
    await end_turn(table, game_id, ALICE)
    assert await banks(table, game_id) == [120, None]  # 100 - 30 + 50
    bob = await table.service.game(game_id)
    assert bob.to_move == 1 and bob.deadline == now.t + START  # Bob's bank: the start
    assert bob.seats[0].bank_hours == 1.2
    now.t += 10
    await end_turn(table, game_id, BOB)
    assert await banks(table, game_id) == [120, 140]
    alice = await table.service.game(game_id)
    assert alice.deadline == now.t + 120  # what her bank holds
    # the reminders are at 50 % and 90 % of what the bank held when the turn began
    assert await kinds(table, game_id) == [
        (REMINDER, now.t + 60),
        (REMINDER, now.t + 108),
        (DEADLINE, now.t + 120),
    ]


async def test_quick_turns_fill_the_bank_up_to_its_cap(table: Table, now: Now) -> None:
    game_id = await start(table)
    seen = []
    for _ in range(3):
        await end_turn(table, game_id, ALICE)
        seen.append((await banks(table, game_id))[0])
        await end_turn(table, game_id, BOB)
    assert seen == [150, 200, 200]
    assert (await table.service.game(game_id)).deadline == now.t + CAP


async def test_away_stops_the_bank_and_coming_back_runs_it_on(table: Table, now: Now) -> None:
    game_id = await start(table)
    await end_turn(table, game_id, ALICE)  # 150
    await end_turn(table, game_id, BOB)
    now.t += 30
    await table.go_away(1, ALICE, 1000)
    snap = await table.service.game(game_id)
    assert snap.deadline is None and snap.clock_left == 120
    assert await kinds(table, game_id) == []  # no deadline, no reminder, no vote
    now.t += 500
    await table.come_back(1, ALICE)
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + 120
    # the reminders still come at 50 % and 90 % of the 150 the bank held when the turn began
    assert sorted(await kinds(table, game_id), key=lambda k: k[1]) == [
        (REMINDER, now.t + 45),
        (REMINDER, now.t + 105),
        (DEADLINE, now.t + 120),
    ]
    now.t += 20
    await end_turn(table, game_id, ALICE)
    assert (await banks(table, game_id))[0] == 150  # 100 left + 50: the away time cost nothing


async def test_a_bank_survives_a_restart_and_gets_the_grace_after_downtime(
    database: str, now: Now
) -> None:
    store = open_store(database)
    await store.open()
    table = _table(store, now)
    game_id = await start(table)
    now.t += 40
    await end_turn(table, game_id, ALICE)
    await end_turn(table, game_id, BOB)
    await store.close()

    now.t += 5 * CAP  # down past both reminders and the deadline of Alice's bank (110)
    store = open_store(database)
    await store.open()
    try:
        table = _table(store, now)
        assert await banks(table, game_id) == [110, 150]
        shown = (await table.service.game(game_id)).deadline
        downtime = await table.after_downtime()
        assert (downtime.postponed, downtime.dropped) == (1, 1)
        assert downtime.moved == {game_id: shown}  # its board's deadline line is rewritten
        snap = await table.service.game(game_id)
        assert snap.deadline == now.t + 5  # a tenth of the period (the increment)
        assert [k for k, _ in await kinds(table, game_id)] == [REMINDER, DEADLINE]
        now.t += 2
        await end_turn(table, game_id, ALICE)
        assert await banks(table, game_id) == [53, 150]  # the 3 s of grace left, + 50
    finally:
        await store.close()


async def test_a_bank_that_runs_out_goes_to_the_table_then_a_stand_in(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    deadline = next(t for t in await table.store.timers_of_game(game_id) if t.kind == DEADLINE)
    now.t += START
    assert await table.deadline_passed(deadline) is not None
    vote_end = next(t for t in await table.store.timers_of_game(game_id) if t.kind == VOTE_END)
    assert vote_end.due == now.t + INCREMENT  # the vote lasts one period: what a move adds
    now.t += INCREMENT
    decision = await table.vote_timed_out(vote_end)
    assert decision is not None and decision.outcome == BOT_TURN
    notices = [t for t in await table.store.timers_of_game(game_id) if t.kind == NOTICE]
    async with table.store.write() as tx:  # the channel heard the decision
        for notice in notices:
            await tx.delete_timer(notice.id)
    assert await play_bot_turn(table.service, game_id, think=think_at_once) is not None
    snap = await table.service.game(game_id)
    assert snap.to_move == 1 and snap.seats[0].stand_in is None
    assert await banks(table, game_id) == [INCREMENT, None]  # ran out: the increment only


async def test_waiting_another_period_gives_what_a_move_adds(table: Table, now: Now) -> None:
    game_id = await start(table)
    deadline = next(t for t in await table.store.timers_of_game(game_id) if t.kind == DEADLINE)
    now.t += START
    await table.deadline_passed(deadline)
    vote_end = next(t for t in await table.store.timers_of_game(game_id) if t.kind == VOTE_END)
    vote_id = json.loads(vote_end.data)["vote_id"]
    decided = await table.cast(vote_id, BOB, WAIT, can_manage=False)
    assert decided.outcome == WAIT
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + INCREMENT
    assert [k for k, _ in await kinds(table, game_id)][-3:] == [REMINDER, REMINDER, DEADLINE]
    now.t += 10
    await end_turn(table, game_id, ALICE)
    assert (await banks(table, game_id))[0] == 90  # 40 of the wait left, + 50


async def test_a_server_default_bank_is_stored_and_read_back(table: Table) -> None:
    prefs = Preferences(table.store)
    chosen = await prefs.set_server(1, clock="bank-7d")
    assert chosen.clock == "bank-7d"
    row = await table.store.server_play(1)
    assert row is not None and (row.default_clock, row.default_bank_cap) == (168, 336)
    assert clock_of_default(row) == GameClock(168 * 100, 48 * 100, 336 * 100)
    back = await prefs.set_server(1, clock="12h")  # a per-move clock again: no bank left
    assert back.clock == "12h"
    row = await table.store.server_play(1)
    assert row is not None and row.default_bank_cap is None and row.default_bank_increment is None


def clock_of_default(row: ServerPlayRow) -> GameClock:
    return lobby_clock(None, row, TimeUnits(hour=HOUR))


async def test_a_rematch_keeps_the_bank_and_starts_every_seat_afresh(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    await end_turn(table, game_id, ALICE)
    row = await table.store.load_game(game_id)
    assert row is not None and row.seats[0].bank_left == 150
    async with table.store.write() as tx:  # the game is over (its banks stay as they were)
        await tx.update_game(
            row.id,
            row.version,
            status="finished",
            state_json=row.state_json,
            move_count=row.move_count,
            updated_at=row.updated_at,
        )
    lobby = await rematch(table.service, game_id, BOB, guild_id=1)
    assert clock_of(lobby) == GameClock(START, INCREMENT, CAP)
    stored = await table.store.load_game(lobby.id)
    assert stored is not None and [s.bank_left for s in stored.seats] == [None]
