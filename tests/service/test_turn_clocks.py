"""Turn clocks, the table's votes, stand-ins and away periods, through the real service and a
real SQLite file, with time under the test's control."""

from __future__ import annotations

import json

import pytest

from bot.service import errors
from bot.service.bots import decision_unheard, play_bot_turn, think_at_once
from bot.service.clocks import DEADLINE, NOTICE, REMINDER, VOTE_END, TimeUnits, TurnClock
from bot.service.games import GameService
from bot.service.table import BOT_SEAT, BOT_TURN, END, WAIT, NotVoter, Table, VoteOver
from bot.storage import open_store

ALICE, BOB, CAROL = 101, 102, 103
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
async def table(database: str, now: Now) -> Table:
    store = open_store(database)  # each backend in turn (tests/conftest.py)
    await store.open()
    service = GameService(store, turn_clock=TurnClock(now=now, units=TimeUnits(hour=100)))
    yield Table(service, now=now)
    await store.close()


async def start(table: Table, players: int = 2, clock: int | None = CLOCK) -> int:
    service = table.service
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=7,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        clock_seconds=clock,
    )
    await service.join(lobby.id, BOB, "Bob")
    if players > 2:
        await service.join(lobby.id, CAROL, "Carol")
    return (await service.start(lobby.id, ALICE)).after.id


async def kinds(table: Table, game_id: int) -> list[tuple[str, float, int]]:
    return [(t.kind, t.due, t.version) for t in await table.store.timers_of_game(game_id)]


async def timer(table: Table, game_id: int, kind: str):
    return next(t for t in await table.store.timers_of_game(game_id) if t.kind == kind)


async def test_a_turn_sets_its_deadline_and_two_reminders(table: Table, now: Now) -> None:
    game_id = await start(table)
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + CLOCK
    assert await kinds(table, game_id) == [
        (REMINDER, now.t + 50, snap.version),
        (REMINDER, now.t + 90, snap.version),
        (DEADLINE, now.t + 100, snap.version),
    ]


async def test_moves_within_a_turn_carry_its_timers_and_passing_replaces_them(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    first = await table.service.game(game_id)
    now.t += 10
    rolled = (await table.service.act(game_id, ALICE, "roll", first.version)).after
    if rolled.to_move == 0:  # not bust: the same turn, the same deadline, the new version
        assert rolled.deadline == first.deadline
        assert {v for _, _, v in await kinds(table, game_id)} == {rolled.version}
    while (snap := await table.service.game(game_id)).to_move == 0:
        await table.service.act(game_id, ALICE, snap.legal[-1], snap.version)
    snap = await table.service.game(game_id)
    assert snap.to_move == 1 and snap.deadline == now.t + CLOCK
    timers = await table.store.timers_of_game(game_id)
    assert {t.user_id for t in timers} == {BOB} and {t.version for t in timers} == {snap.version}


async def test_no_clock_no_timers(table: Table) -> None:
    game_id = await start(table, clock=None)
    assert await kinds(table, game_id) == []
    assert (await table.service.game(game_id)).deadline is None


async def test_a_move_made_first_wins_over_the_deadline(table: Table, now: Now) -> None:
    game_id = await start(table)
    deadline = await timer(table, game_id, DEADLINE)
    snap = await table.service.game(game_id)
    now.t += CLOCK
    await table.service.act(game_id, ALICE, "roll", snap.version)  # a millisecond earlier
    assert await table.deadline_passed(deadline) is None
    assert all(t.kind != VOTE_END for t in await table.store.timers_of_game(game_id))


async def test_deadline_opens_one_vote_and_the_opponent_decides_alone(
    table: Table, now: Now
) -> None:
    game_id = await start(table)
    deadline = await timer(table, game_id, DEADLINE)
    now.t += CLOCK
    assert await table.deadline_passed(deadline) is not None
    assert await table.deadline_passed(deadline) is None  # nothing applied twice
    found = await kinds(table, game_id)
    assert [k for k, _, _ in found] == [NOTICE, VOTE_END]
    vote_end = await timer(table, game_id, VOTE_END)
    vote_id = json.loads(vote_end.data)["vote_id"]
    with pytest.raises(NotVoter):  # the silent player does not vote on themselves
        await table.cast(vote_id, ALICE, WAIT, can_manage=False)
    assert not await decision_unheard(table.service, game_id)  # the vote's message is no decision
    decision = await table.cast(vote_id, BOB, BOT_TURN, can_manage=False)
    assert decision.outcome == BOT_TURN
    assert decision.game.seats[0].stand_in == "turn" and decision.game.seats[0].is_bot
    with pytest.raises(VoteOver):
        await table.cast(vote_id, BOB, END, can_manage=False)
    # the stand-in waits until the channel heard the decision (its notice is posted, then gone)
    assert await decision_unheard(table.service, game_id)
    notices = [t for t in await table.store.timers_of_game(game_id) if t.kind == NOTICE]
    async with table.store.write() as tx:
        for notice in notices:
            await tx.delete_timer(notice.id)
    assert not await decision_unheard(table.service, game_id)
    # the computer plays Alice's turn, and then the seat is hers again
    turn = await play_bot_turn(table.service, game_id, think=think_at_once)
    assert turn is not None
    after = await table.service.game(game_id)
    assert after.to_move == 1 and after.seats[0].stand_in is None
    rows = await table.store.load_game(game_id)
    assert rows is not None and rows.seats[0].stood_in  # such a game is not rated





async def test_majority_of_three_and_wait_restarts_the_clock(table: Table, now: Now) -> None:
    game_id = await start(table, players=3)
    now.t += CLOCK
    await table.deadline_passed(await timer(table, game_id, DEADLINE))
    vote_id = json.loads((await timer(table, game_id, VOTE_END)).data)["vote_id"]
    undecided = await table.cast(vote_id, CAROL, WAIT, can_manage=False)
    assert undecided.outcome is None  # one of two is not a majority
    decided = await table.cast(vote_id, BOB, WAIT, can_manage=False)
    assert decided.outcome == WAIT
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + CLOCK and snap.seats[0].stand_in is None


async def test_nobody_decides_then_the_server_default(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t += CLOCK
    await table.deadline_passed(await timer(table, game_id, DEADLINE))
    vote_end = await timer(table, game_id, VOTE_END)
    now.t += CLOCK
    decision = await table.vote_timed_out(vote_end)
    assert decision is not None and decision.outcome == BOT_TURN
    assert await table.vote_timed_out(vote_end) is None


async def test_end_by_vote_and_bot_takes_the_seat_until_reclaimed(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t += CLOCK
    await table.deadline_passed(await timer(table, game_id, DEADLINE))
    vote_id = json.loads((await timer(table, game_id, VOTE_END)).data)["vote_id"]
    decided = await table.cast(vote_id, BOB, BOT_SEAT, can_manage=False)
    assert decided.game.seats[0].stand_in == "seat"
    with pytest.raises(errors.UserFacingError):
        await table.reclaim(game_id, BOB)  # Bob's seat was not taken
    back = await table.reclaim(game_id, ALICE)
    assert back.seats[0].stand_in is None and back.to_move == 0
    assert back.deadline == now.t + CLOCK


async def test_host_decides_at_once_end(table: Table, now: Now) -> None:
    game_id = await start(table, players=3)
    snap = await table.service.game(game_id)
    while (snap := await table.service.game(game_id)).to_move == 0:
        await table.service.act(game_id, ALICE, snap.legal[-1], snap.version)
    now.t += CLOCK
    await table.deadline_passed(await timer(table, game_id, DEADLINE))
    vote_id = json.loads((await timer(table, game_id, VOTE_END)).data)["vote_id"]
    decided = await table.cast(vote_id, ALICE, END, can_manage=False)  # Alice hosts
    assert decided.outcome == END and decided.game.status == "abandoned"
    assert [t.kind for t in await table.store.timers_of_game(game_id)] == [NOTICE, NOTICE]


async def test_abandon_vote_of_a_non_host(table: Table) -> None:
    game_id = await start(table, players=3)
    await table.open_abandon_vote(game_id, BOB)
    vote_end = await timer(table, game_id, VOTE_END)
    vote_id = json.loads(vote_end.data)["vote_id"]
    decided = await table.cast(vote_id, CAROL, "yes", can_manage=False)
    assert decided.outcome == "yes" and decided.game.status == "abandoned"


async def test_away_stops_the_clock_and_coming_back_restarts_it(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t += 30
    await table.go_away(1, ALICE, 1000)
    snap = await table.service.game(game_id)
    assert snap.deadline is None and snap.clock_left == 70
    assert await kinds(table, game_id) == []  # it truly stands still: no deadline, no vote
    now.t += 500
    await table.come_back(1, ALICE)
    snap = await table.service.game(game_id)
    assert snap.deadline == now.t + 70 and snap.clock_left is None


async def test_downtime_grace_and_only_the_latest_reminder(table: Table, now: Now) -> None:
    game_id = await start(table)
    now.t += 5 * CLOCK  # the bot was down past both reminders and the deadline
    shown = (await table.service.game(game_id)).deadline
    downtime = await table.after_downtime()
    assert (downtime.postponed, downtime.dropped) == (1, 1)
    assert downtime.moved == {game_id: shown}  # the deadline its board still shows
    found = await kinds(table, game_id)
    assert [k for k, _, _ in found] == [REMINDER, DEADLINE]
    assert found[1][1] == now.t + 10  # a tenth of the clock (less than an hour)
    # the turn's deadline moved with it: the reminder left names a moment still ahead
    assert (await table.service.game(game_id)).deadline == now.t + 10
