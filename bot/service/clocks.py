"""Turn clocks: the timers a turn sets when it comes to a player, carried along while that player
acts within the turn, and replaced when the turn passes.

A clock is of one of two kinds: **per move** (each turn gets the whole clock) or a **time bank**
(each seat starts with an allowance; a turn uses what it takes from its seat's bank and adds the
increment, never above the cap). Either way the seat to move has a deadline, and the reminders,
the table's vote and the stand-in all run off it. Moments and spans of running clock time go
through the game's calendar (``TurnClock.calendar``: ``deadline_after``, ``running_between``),
which skips the table's rest days.

Every change is made inside the transaction that commits the move, so a turn's deadline and its
reminders can never disagree with the stored game. The scheduler (``bot.service.scheduler``)
acts on them later, each only while the game is still at the version it was set for.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from bot.service.models import GameSnapshot
from bot.service.rest_time import GameTime, RestCalendar, from_stored
from bot.storage.base import GameRow, ServerPlayRow, TimerRow, Tx

#: timer kinds
DEADLINE = "deadline"  # the turn's clock ran out: the table is asked what to do
REMINDER = "reminder"  # remind the player to act (at 50 % and 90 % of the clock)
VOTE_END = "vote_end"  # nobody decided in time: the server's default happens
LOBBY_EXPIRY = "lobby_expiry"  # a lobby nobody started closes
AWAY_END = "away_end"  # an away period is over: the player's clocks run again
NOTICE = "notice"  # a message still to be posted (retried with backoff until it is)
#: the notice that a lobby closed by itself
LOBBY_CLOSED_NOTICE = "lobby_closed"
#: the notice that a table vote was decided (or became moot)
VOTE_DECIDED_NOTICE = "vote_decided"
#: a vote on a silent player who moved before the table decided
MOVED = "moved"
CHANNEL_CHECK = "channel_check"  # a game's channel was gone: look again after a grace period

#: the timers that belong to one turn
TURN_TIMERS = (DEADLINE, REMINDER, VOTE_END)
#: the reminders of a turn, as fractions of the clock
REMINDER_FRACTIONS = (0.5, 0.9)

HOUR = 3600.0
#: the per-move clocks a lobby offers, in hours (None: no clock)
CLOCK_HOURS: dict[str, int | None] = {
    "none": None,
    "1h": 1,
    "12h": 12,
    "24h": 24,
    "3d": 72,
    "7d": 168,
}
DEFAULT_CLOCK = "24h"


@dataclass(frozen=True, slots=True)
class BankHours:
    """A time bank in hours of game time: the start, what a turn adds, and the cap."""

    start: int
    increment: int
    cap: int


#: the time banks a lobby offers (the kind correspondence-game sites run for weeks)
BANK_PRESETS: dict[str, BankHours] = {
    "bank-1d": BankHours(24, 12, 72),
    "bank-3d": BankHours(72, 24, 168),
    "bank-7d": BankHours(168, 48, 336),
}
#: every clock a lobby or a server's default may be: the per-move ones, then the banks
CLOCK_CHOICES: tuple[str, ...] = (*CLOCK_HOURS, *BANK_PRESETS)


@dataclass(frozen=True, slots=True)
class GameClock:
    """A game's clock in (scaled) seconds: none (``seconds`` None), per move (``seconds`` a
    turn), or a time bank (``cap`` set: each seat starts with ``seconds``)."""

    seconds: int | None = None
    increment: int | None = None
    cap: int | None = None

    @property
    def is_bank(self) -> bool:
        return bool(self.seconds) and self.cap is not None

    @property
    def period(self) -> int | None:
        """One clock period, what the table's vote lasts and what "wait another clock period"
        gives: the whole clock per move; for a bank, what a move adds (the start when a move
        adds nothing)."""
        if not self.seconds:
            return None
        return (self.increment or self.seconds) if self.is_bank else self.seconds


class HasClock(Protocol):
    @property
    def clock_seconds(self) -> int | None: ...

    @property
    def bank_increment(self) -> int | None: ...

    @property
    def bank_cap(self) -> int | None: ...


def clock_of(game: HasClock) -> GameClock:
    """The clock of a stored game (a row or a snapshot)."""
    if game.bank_cap is None:
        return GameClock(game.clock_seconds)
    return GameClock(game.clock_seconds, game.bank_increment or 0, game.bank_cap)


def bank_after_turn(clock: GameClock, left: float) -> float:
    """What a seat's bank holds after a turn that left ``left`` seconds of it unused: the
    increment is added, never above the cap (a bank that ran out counts as empty)."""
    assert clock.cap is not None, "a per-move clock has no bank"
    return float(min(clock.cap, max(0.0, left) + (clock.increment or 0)))


@dataclass(frozen=True, slots=True)
class TimeUnits:
    """How long an hour of game time lasts, in seconds: 3600, or less in tests
    (``BOARDROOM_TEST_HOUR_SECONDS``) so whole deadline stories run in seconds. The anchors
    place scaled game time on the calendar (rest days): see ``rest_time.GameTime``."""

    hour: float = HOUR
    wall_anchor: float = 0.0
    game_anchor: float = 0.0

    @property
    def game_time(self) -> GameTime:
        return GameTime(self.hour, self.wall_anchor, self.game_anchor)

    def hours(self, count: float) -> float:
        return count * self.hour

    def in_hours(self, seconds: float | None) -> float | None:
        """(Scaled) seconds as hours of game time (None: none)."""
        return None if not seconds else seconds / self.hour

    def seconds(self, hours: float) -> int:
        """Whole hours of game time as (scaled) seconds, at least one."""
        return max(1, round(self.hours(hours)))

    def clock_seconds(self, choice: str) -> int | None:
        """The per-move clock a lobby choice stands for, in (scaled) seconds; ``KeyError`` if
        unknown."""
        hours = CLOCK_HOURS[choice]
        return None if hours is None else self.seconds(hours)

    def game_clock(self, choice: str) -> GameClock:
        """The clock a lobby choice (``CLOCK_CHOICES``) stands for; ``KeyError`` if unknown."""
        bank = BANK_PRESETS.get(choice)
        if bank is None:
            return GameClock(self.clock_seconds(choice))
        return GameClock(
            self.seconds(bank.start), self.seconds(bank.increment), self.seconds(bank.cap)
        )


def lobby_clock(choice: str | None, server: ServerPlayRow | None, units: TimeUnits) -> GameClock:
    """The clock a new lobby gets: the host's choice, else the server's default (a per-move
    clock in hours, 0: none; or a bank), else 24 hours a move."""
    if choice is not None:
        return units.game_clock(choice)
    hours = server.default_clock if server is not None else None
    if hours is None:
        return units.game_clock(DEFAULT_CLOCK)
    if not hours:
        return GameClock()
    if server is not None and server.default_bank_cap is not None:
        increment = server.default_bank_increment or 0
        return GameClock(
            units.seconds(hours),
            units.seconds(increment) if increment else 0,
            units.seconds(server.default_bank_cap),
        )
    return GameClock(units.seconds(hours))


def grace(clock: GameClock, units: TimeUnits) -> float:
    """After downtime, an overdue deadline gets the lesser of an hour and a tenth of the
    game's clock period."""
    return min(units.hour, 0.1 * (clock.period or units.hour))


def rest_calendar(game: GameSnapshot | GameRow, units: TimeUnits) -> RestCalendar:
    """The running clock of a game: its rest days skipped (``bot.service.rest_time``)."""
    days = game.rest_days if isinstance(game, GameSnapshot) else from_stored(game.rest_days)
    return RestCalendar(days, game.rest_timezone, units.game_time)


def notice(kind: str, game: GameSnapshot | GameRow, now: float, **data: object) -> TimerRow:
    """A message the channel must hear, committed with what it tells (posted by the adapter)."""
    return TimerRow(
        id=0,
        due=now,
        kind=NOTICE,
        game_id=game.id,
        guild_id=game.guild_id,
        data=json.dumps({"notice": kind, **data}, sort_keys=True),
    )


def _timer(kind: str, due: float, snap: GameSnapshot, seat: int, **data: object) -> TimerRow:
    user = snap.seats[seat].user_id
    return TimerRow(
        id=0,
        due=due,
        kind=kind,
        game_id=snap.id,
        guild_id=snap.guild_id,
        user_id=user,
        version=snap.version,
        data=json.dumps({"seat": seat, **data}, sort_keys=True),
    )


class TurnClock:
    """Keeps each running game's turn timers in step with its moves."""

    def __init__(self, *, now: Callable[[], float] = time.time, units: TimeUnits | None = None):
        self.now = now
        self.units = units or TimeUnits()
        #: told about every timer written, so the scheduler can wake for an earlier one
        self.on_timer: Callable[[float], None] = lambda due: None

    def calendar(self, game: GameSnapshot | GameRow) -> RestCalendar:
        return rest_calendar(game, self.units)

    async def add(self, tx: Tx, row: TimerRow) -> int:
        timer_id = await tx.add_timer(row)
        tx.on_commit(lambda: self.on_timer(row.due))  # the scheduler reads committed rows only
        return timer_id

    async def after_commit(
        self, tx: Tx, row: GameRow, before: GameSnapshot, after: GameSnapshot
    ) -> bool:
        """Called in the transaction that committed ``after`` (from ``before``); whether it
        changed the game's clock or seats (a move within the turn carries them as they were)."""
        if after.status != "active":
            await tx.clear_timers(after.id, TURN_TIMERS)
            await tx.set_clock(after.id, deadline=None, clock_left=None)
            return True
        same_turn = (
            before.status == "active"
            and after.turn == before.turn
            and after.to_move == before.to_move
        )
        if same_turn:
            await tx.carry_timers(after.id, before.version, after.version)
            return False
        settled = await self.settle_bank(tx, before)
        if settled is not None:  # the turn that starts reads the bank just settled
            seats = list(after.seats)
            seats[settled[0]] = replace(seats[settled[0]], bank_left=settled[1])
            after = replace(after, seats=tuple(seats))
        await tx.clear_timers(after.id, TURN_TIMERS)
        vote = await tx.open_vote_of(after.id, "expiry")
        if vote is not None:  # the silent player moved after all: nothing left to decide
            await tx.close_vote(vote.id, MOVED)
            await self.add(
                tx,
                notice(
                    VOTE_DECIDED_NOTICE,
                    after,
                    self.now(),
                    vote_id=vote.id,
                    outcome=MOVED,
                    by_default=False,
                ),
            )
        if before.to_move is not None and before.seats[before.to_move].stand_in == "turn":
            await tx.set_stand_in(after.id, before.to_move, None)  # that one turn is over
        await self.start_turn(tx, after)
        return True

    def held_at_turn_start(self, snap: GameSnapshot, seat: int) -> float:
        """What the seat's clock holds when its turn starts: the whole clock per move, or what
        is in its bank (the start, before its first turn)."""
        clock = clock_of(snap)
        start = float(clock.seconds or 0)
        if not clock.is_bank:
            return start
        left = snap.seats[seat].bank_left
        return start if left is None else left

    def left_in_turn(self, snap: GameSnapshot) -> float:
        """What the clock of the seat to move has left now (stopped while they are away; none
        when it ran out, or no deadline runs: a vote or a stand-in is under way)."""
        if snap.clock_left is not None:
            return snap.clock_left
        if snap.deadline is None:
            return 0.0
        return max(0.0, self.calendar(snap).running_between(self.now(), snap.deadline))

    async def settle_bank(self, tx: Tx, before: GameSnapshot) -> tuple[int, float] | None:
        """The turn of ``before``'s seat to move ended: what it used is taken off its bank and
        the increment added, never above the cap. Returns (seat, its bank now); None: nothing
        to settle (a per-move clock keeps nothing)."""
        clock = clock_of(before)
        if before.status != "active" or before.to_move is None or not clock.is_bank:
            return None
        seat = before.seats[before.to_move]
        if seat.user_id is None:  # a computer opponent plays without a clock
            return None
        left = bank_after_turn(clock, self.left_in_turn(before))
        await tx.set_bank_left(before.id, seat.seat, left)
        return seat.seat, left

    async def start_turn(
        self,
        tx: Tx,
        snap: GameSnapshot,
        *,
        clock: float | None = None,
        held: float | None = None,
    ) -> None:
        """The turn came to ``snap.to_move``: set its deadline and reminders. ``clock``: the
        seconds to give, else what the seat's clock holds at the start of its turn; ``held``:
        what the reminders' 50 % and 90 % are of, else that same start."""
        seat = snap.to_move
        if seat is None or not snap.clock_seconds:
            await tx.set_clock(snap.id, deadline=None, clock_left=None)
            return
        mover = snap.seats[seat]
        if mover.is_bot or mover.user_id is None:
            await tx.set_clock(snap.id, deadline=None, clock_left=None)
            return
        now = self.now()
        total = self.held_at_turn_start(snap, seat) if held is None else held
        left = float(total if clock is None else clock)
        away = await tx.away_until(snap.guild_id, mover.user_id) if snap.guild_id else None
        if away is not None and away > now:
            # the clock stands still while they are away (the away budget bounds how long):
            # no deadline, no reminder, no vote; it runs on with ``left`` when they are back
            await tx.set_clock(snap.id, deadline=None, clock_left=left)
            return
        calendar = self.calendar(snap)  # rest days: the clock stands still, deadlines move on
        deadline = calendar.deadline_after(now, left)
        await tx.set_clock(snap.id, deadline=deadline, clock_left=None)
        await self.add(tx, _timer(DEADLINE, deadline, snap, seat))
        for fraction in REMINDER_FRACTIONS:
            running = left - (1.0 - fraction) * total  # until ``fraction`` of the clock has run
            if running > 0:
                due = calendar.deadline_after(now, running)
                await self.add(tx, _timer(REMINDER, due, snap, seat, percent=round(fraction * 100)))

    async def wait_another_period(self, tx: Tx, snap: GameSnapshot) -> None:
        """The table chose to wait for the silent player: one more clock period (a per-move
        clock once more; for a bank, what a move adds)."""
        period = float(clock_of(snap).period or 0)
        await self.start_turn(tx, snap, clock=period, held=period)

    async def stop_for_away(self, tx: Tx, snap: GameSnapshot) -> None:
        """The player to move went away: stop their clock with what it had left (a clock that
        ran out already stays as it is: the table's vote on it is under way)."""
        if snap.to_move is None or snap.deadline is None or not snap.clock_seconds:
            return
        # what is left of it, rest days not counted
        left = self.calendar(snap).running_between(self.now(), snap.deadline)
        if left <= 0:
            return
        await tx.clear_timers(snap.id, (DEADLINE, REMINDER))
        await tx.set_clock(snap.id, deadline=None, clock_left=left)

    async def resume_after_away(self, tx: Tx, snap: GameSnapshot) -> None:
        """The player to move is back: their clock runs on from where it stopped (its
        reminders still measured against what it held when the turn started)."""
        if snap.to_move is None or snap.clock_left is None:
            return
        await tx.clear_timers(snap.id, (DEADLINE, REMINDER))
        await self.start_turn(tx, snap, clock=snap.clock_left)
