"""Turn clocks: the timers a turn sets when it comes to a player, carried along while that player
acts within the turn, and replaced when the turn passes.

Every change is made inside the transaction that commits the move, so a turn's deadline and its
reminders can never disagree with the stored game. The scheduler (``bot.service.scheduler``)
acts on them later, each only while the game is still at the version it was set for.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.service.models import GameSnapshot
from bot.service.rest_time import GameTime, RestCalendar, from_stored
from bot.storage.base import GameRow, TimerRow, Tx

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
#: the clocks a lobby offers, in hours (None: no clock)
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

    def clock_seconds(self, choice: str) -> int | None:
        """The clock a lobby choice stands for, in (scaled) seconds; ``KeyError`` if unknown."""
        hours = CLOCK_HOURS[choice]
        return None if hours is None else max(1, round(self.hours(hours)))


def lobby_clock(choice: str | None, server_hours: int | None, units: TimeUnits) -> int | None:
    """The clock a new lobby gets, in seconds: the host's choice, else the server's default
    (hours; 0: no clock), else 24 hours. None: no clock."""
    if choice is not None:
        return units.clock_seconds(choice)
    hours = CLOCK_HOURS[DEFAULT_CLOCK] if server_hours is None else server_hours
    return max(1, round(units.hours(hours))) if hours else None


def grace(clock_seconds: int | None, units: TimeUnits) -> float:
    """After downtime, an overdue deadline gets the lesser of an hour and a tenth of its clock."""
    return min(units.hour, 0.1 * (clock_seconds or units.hour))


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
    ) -> None:
        """Called in the transaction that committed ``after`` (from ``before``)."""
        if after.status != "active":
            await tx.clear_timers(after.id, TURN_TIMERS)
            await tx.set_clock(after.id, deadline=None, clock_left=None)
            return
        same_turn = (
            before.status == "active"
            and after.turn == before.turn
            and after.to_move == before.to_move
        )
        if same_turn:
            await tx.carry_timers(after.id, before.version, after.version)
            return
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

    async def start_turn(self, tx: Tx, snap: GameSnapshot, *, clock: float | None = None) -> None:
        """The turn came to ``snap.to_move``: set its deadline and reminders (``clock``: seconds
        to give, else the game's whole clock)."""
        seat = snap.to_move
        total = snap.clock_seconds
        if seat is None or not total:
            await tx.set_clock(snap.id, deadline=None, clock_left=None)
            return
        mover = snap.seats[seat]
        if mover.is_bot or mover.user_id is None:
            await tx.set_clock(snap.id, deadline=None, clock_left=None)
            return
        now = self.now()
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

    async def stop_for_away(self, tx: Tx, snap: GameSnapshot) -> None:
        """The player to move went away: stop their clock with what it had left (a clock that
        ran out already stays as it is: the table's vote on it is under way)."""
        if snap.to_move is None or snap.deadline is None or not snap.clock_seconds:
            return
        now = self.now()
        if snap.deadline <= now:
            return
        await tx.clear_timers(snap.id, (DEADLINE, REMINDER))
        left = self.calendar(snap).running_between(now, snap.deadline)  # rest does not count
        await tx.set_clock(snap.id, deadline=None, clock_left=left)

    async def resume_after_away(self, tx: Tx, snap: GameSnapshot) -> None:
        """The player to move is back: their clock runs on from where it stopped."""
        if snap.to_move is None or snap.clock_left is None:
            return
        await tx.clear_timers(snap.id, (DEADLINE, REMINDER))
        await self.start_turn(tx, snap, clock=snap.clock_left)
