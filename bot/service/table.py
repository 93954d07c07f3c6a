"""What the table decides when play stalls: the vote on a player whose clock ran out, the vote to
end a game its host did not end, computer stand-ins and their players coming back, away periods.

Every effect is committed in one transaction together with the timers and notices it leads to
(a notice is a message still to be posted: the adapter posts it and retries until it is in).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.service import errors
from bot.service.away_budget import (
    DEFAULT_AWAY_DAYS,
    AwayBudget,
    budget_of,
    fits,
    with_current_ended,
    year_seconds,
)
from bot.service.clocks import (
    AWAY_END,
    CHANNEL_CHECK,
    DEADLINE,
    LOBBY_CLOSED_NOTICE,
    LOBBY_EXPIRY,
    NOTICE,
    REMINDER,
    TURN_TIMERS,
    VOTE_DECIDED_NOTICE,
    VOTE_END,
    GameClock,
    TimeUnits,
    TurnClock,
    clock_of,
    grace,
    notice,
)
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.storage.base import AwayPeriodRow, GameRow, ServerPlayRow, Shards, TimerRow, Tx, VoteRow

#: what the table may decide about a silent player
WAIT, BOT_TURN, BOT_SEAT, END = "wait", "bot_turn", "bot_seat", "end"
EXPIRY_CHOICES = (WAIT, BOT_TURN, BOT_SEAT, END)
#: the abandon vote
YES, NO = "yes", "no"
ABANDON_CHOICES = (YES, NO)
#: a decision nobody made: the server's default (a bot plays the turn unless set otherwise)
DEFAULT_ACTION = BOT_TURN
#: an abandon vote nobody finishes closes after this many hours (or one clock period)
ABANDON_VOTE_HOURS = 24

#: notices (messages committed with their effect, posted by the adapter)
VOTE_OPENED, VOTE_DECIDED, LOBBY_CLOSED = "vote_opened", VOTE_DECIDED_NOTICE, LOBBY_CLOSED_NOTICE


class NotVoter(errors.UserFacingError):
    key = "error.not_voter"


class VoteOver(errors.UserFacingError):
    key = "error.vote_over"


class VoteOpen(errors.UserFacingError):
    key = "error.vote_open"


class NotStoodIn(errors.UserFacingError):
    key = "error.not_stood_in"


class NotAway(errors.UserFacingError):
    key = "error.not_away"


class AwayOverBudget(errors.UserFacingError):
    """More away time than is left of the player's budget: carries ``left`` (the budget as it
    would be without the period asked for, ``AwayBudget``)."""

    key = "error.away_over_budget"


@dataclass(frozen=True, slots=True)
class Decision:
    """The state of a vote after a ballot: ``outcome`` None while it is still open."""

    vote: VoteRow
    ballots: dict[int, str]
    outcome: str | None
    game: GameSnapshot


def voters(snap: GameSnapshot, vote: VoteRow) -> list[int]:
    """Who may vote: the other seated humans (expiry), or every seated human (abandon)."""
    people = [s.user_id for s in snap.seats if s.user_id is not None]
    if vote.kind == "expiry" and vote.seat is not None:
        silent = snap.seats[vote.seat].user_id
        people = [u for u in people if u != silent]
    return people


def majority(ballots: dict[int, str], electorate: list[int]) -> str | None:
    """The choice more than half of ``electorate`` made, if one has."""
    counted = [ballots[u] for u in electorate if u in ballots]
    for choice in set(counted):
        if counted.count(choice) * 2 > len(electorate):
            return choice
    return None


@dataclass(frozen=True, slots=True)
class Downtime:
    """What ``Table.after_downtime`` did: deadlines and vote ends given a grace period,
    reminders dropped, the turns whose deadline moved (game id: the deadline the posted board
    still shows), and the open votes whose end moved (their messages name the old one)."""

    postponed: int
    dropped: int
    moved: dict[int, float]
    votes_moved: tuple[int, ...] = ()


class Table:
    """The table's decisions over the game service (one per process)."""

    def __init__(self, service: GameService, *, now: Callable[[], float] = time.time) -> None:
        self.service = service
        self.store = service.store
        self.clock: TurnClock = service.turn_clock
        self.now = now

    async def server_play(self, guild_id: int | None) -> ServerPlayRow:
        found = await self.store.server_play(guild_id) if guild_id else None
        return found or ServerPlayRow(guild_id or 0)

    async def _game(self, tx: Tx, game_id: int) -> tuple[GameRow, GameSnapshot]:
        row = await tx.load_game(game_id)
        if row is None:
            raise errors.GameNotFound(game_id=game_id)
        return row, self.service.snapshot_of(row)

    # ----------------------------------------------------------------- timers

    async def deadline_passed(self, timer: TimerRow) -> GameSnapshot | None:
        """A turn's clock ran out: open the table's vote (None: the timer no longer applies)."""
        now = self.now()
        async with self.store.write() as tx:
            if await tx.load_timer(timer.id) is None:
                return None
            await tx.delete_timer(timer.id)
            row, snap = await self._game(tx, timer.game_id or 0)
            seat = json.loads(timer.data).get("seat")
            if row.version != timer.version or snap.to_move != seat or snap.status != "active":
                return None
            if await tx.open_vote_of(row.id, "expiry") is not None:
                return None
            if snap.clock_left is not None:
                return None  # the player is away: their clock stands still (an older timer)
            await tx.clear_timers(row.id, (REMINDER,))  # too late to remind
            vote_id = await tx.open_vote(VoteRow(0, row.id, "expiry", row.version, seat, None, now))
            period = float(clock_of(row).period or self.clock.units.hour)
            await self.clock.add(
                tx,
                replace(
                    timer,
                    id=0,
                    kind=VOTE_END,
                    due=self.clock.calendar(row).deadline_after(now, period),  # rest skipped
                    data=json.dumps({"vote_id": vote_id, "seat": seat}),
                ),
            )
            await self.clock.add(tx, notice(VOTE_OPENED, row, now, vote_id=vote_id))
            return snap

    async def vote_timed_out(self, timer: TimerRow) -> Decision | None:
        """Nobody decided within one more clock period: the server's default happens (for the
        silent-player vote), or the game goes on (abandon vote)."""
        # the server's default is read first: a read inside the write would take a second
        # connection while holding one (a pool of one would wait for itself)
        game = await self.store.load_game(timer.game_id) if timer.game_id else None
        default = (await self.server_play(game.guild_id)).default_action if game else None
        async with self.store.write() as tx:
            if await tx.load_timer(timer.id) is None:
                return None
            await tx.delete_timer(timer.id)
            vote = await tx.load_vote(json.loads(timer.data).get("vote_id", 0))
            if vote is None or vote.outcome is not None:
                return None
            row, snap = await self._game(tx, vote.game_id)
            outcome = NO if vote.kind == "abandon" else default or DEFAULT_ACTION
            return await self._decide(tx, vote, row, snap, outcome, {}, by_default=True)

    # ----------------------------------------------------------------- votes

    async def cast(self, vote_id: int, user_id: int, choice: str, *, can_manage: bool) -> Decision:
        """A ballot; the host (or a member allowed to manage the channel) decides at once,
        otherwise a majority of those who may vote."""
        async with self.store.write() as tx:
            vote = await tx.load_vote(vote_id)
            if vote is None:
                raise VoteOver()
            row, snap = await self._game(tx, vote.game_id)
            if vote.outcome is not None or row.status != "active":
                raise VoteOver()
            allowed = EXPIRY_CHOICES if vote.kind == "expiry" else ABANDON_CHOICES
            if choice not in allowed:
                raise errors.BadActionText(action=choice[:20])
            electorate = voters(snap, vote)
            decides_alone = can_manage or (user_id == row.host_id and user_id in electorate)
            if user_id not in electorate and not decides_alone:
                raise NotVoter()
            await tx.cast_ballot(vote_id, user_id, choice)
            ballots = await tx.ballots(vote_id)
            outcome = choice if decides_alone else majority(ballots, electorate)
            if vote.kind == "abandon" and outcome is None:
                undecided = [u for u in electorate if u not in ballots]
                yes = sum(1 for u in electorate if ballots.get(u) == YES)
                if (yes + len(undecided)) * 2 <= len(electorate):
                    outcome = NO  # a majority to end it can no longer come about
            if outcome is None:
                return Decision(vote, ballots, None, snap)
            return await self._decide(tx, vote, row, snap, outcome, ballots)

    async def _decide(
        self,
        tx: Tx,
        vote: VoteRow,
        row: GameRow,
        snap: GameSnapshot,
        outcome: str,
        ballots: dict[int, str],
        *,
        by_default: bool = False,
    ) -> Decision:
        now = self.now()
        await tx.close_vote(vote.id, outcome)
        await tx.clear_timers(row.id, (VOTE_END,))
        still_theirs = vote.kind == "expiry" and row.version == vote.version
        ends = outcome == YES if vote.kind == "abandon" else outcome == END
        if ends:
            if vote.kind == "abandon" or still_theirs:
                await self.service.end_unplayed(tx, row, TURN_TIMERS)
        elif still_theirs and vote.seat is not None and outcome == WAIT:
            await tx.clear_timers(row.id, (DEADLINE, REMINDER))
            await self.clock.wait_another_period(tx, snap)
        elif still_theirs and vote.seat is not None and outcome in (BOT_TURN, BOT_SEAT):
            await tx.clear_timers(row.id, (DEADLINE, REMINDER))
            await tx.set_clock(row.id, deadline=None, clock_left=None)
            await tx.set_stand_in(row.id, vote.seat, "turn" if outcome == BOT_TURN else "seat")
        data = {"vote_id": vote.id, "outcome": outcome, "by_default": by_default}
        await self.clock.add(tx, notice(VOTE_DECIDED, row, now, **data))
        after_row = await tx.load_game(row.id)
        assert after_row is not None
        closed = replace(vote, outcome=outcome)
        return Decision(closed, ballots, outcome, self.service.snapshot_of(after_row))

    async def open_abandon_vote(self, game_id: int, user_id: int) -> GameSnapshot:
        """A seated player who is not the host asks the table to end the game."""
        now = self.now()
        async with self.store.write() as tx:
            row, snap = await self._game(tx, game_id)
            if snap.status != "active":
                raise errors.NoActiveGame()
            if snap.seat_of(user_id) is None:
                raise errors.NotAllowedToAbandon()
            if await tx.open_vote_of(row.id, "abandon") is not None:
                raise VoteOpen()
            vote_id = await tx.open_vote(
                VoteRow(0, row.id, "abandon", row.version, None, user_id, now)
            )
            await tx.cast_ballot(vote_id, user_id, YES)
            period = float(clock_of(row).period or self.clock.units.hours(ABANDON_VOTE_HOURS))
            end = TimerRow(
                0,
                self.clock.calendar(row).deadline_after(now, period),  # rest skipped
                VOTE_END,
                row.id,
                row.guild_id,
                data=json.dumps({"vote_id": vote_id}),
            )
            await self.clock.add(tx, end)
            await self.clock.add(tx, notice(VOTE_OPENED, row, now, vote_id=vote_id))
            return snap

    # ----------------------------------------------------------------- stand-ins

    async def reclaim(self, game_id: int, user_id: int) -> GameSnapshot:
        """A player whose seat a computer took plays it again from now on."""
        async with self.store.write() as tx:
            row, snap = await self._game(tx, game_id)
            seat = snap.seat_of(user_id)
            if seat is None:
                raise errors.NotSeated()
            if snap.status != "active" or snap.seats[seat].stand_in is None:
                raise NotStoodIn()
            await tx.set_stand_in(row.id, seat, None)
            await tx.update_game(  # a new version: the stand-in's runner stops, boards refresh
                row.id,
                row.version,
                status=row.status,
                state_json=row.state_json,
                move_count=row.move_count,
                updated_at=self.service.clock(),
            )
            await tx.carry_timers(row.id, row.version, row.version + 1)
            after = self.service.snapshot_of(replace(await tx.load_game(row.id) or row))
            if after.to_move == seat:
                await tx.clear_timers(row.id, TURN_TIMERS)
                await self.clock.start_turn(tx, after)
                after = self.service.snapshot_of(await tx.load_game(row.id) or row)
            return after

    # ----------------------------------------------------------------- away

    async def away_budget(self, guild_id: int, user_id: int) -> AwayBudget:
        """The player's away budget on the server now (``bot.service.away_budget``)."""
        now = self.now()
        total = await self._budget_seconds(guild_id)
        periods = await self.store.away_periods(guild_id, user_id, now - year_seconds(self.units))
        return budget_of(periods, now, total, self.units)

    @property
    def units(self) -> TimeUnits:
        return self.clock.units

    async def _budget_seconds(self, guild_id: int) -> float:
        days = (await self.server_play(guild_id)).away_days
        return self.units.hours(24 * (DEFAULT_AWAY_DAYS if days is None else days))

    async def go_away(self, guild_id: int, user_id: int, seconds: float) -> float:
        """Stop the player's clocks on this server for ``seconds``, drawn on their away budget
        (a period under way is replaced: it ends now); returns until when. ``AwayOverBudget``
        when that is more than is left."""
        now = self.now()
        until = now + seconds
        total = await self._budget_seconds(guild_id)
        games = await self.store.games_of_user(guild_id, user_id)
        year = year_seconds(self.units)
        async with self.store.write() as tx:
            periods = await tx.away_periods(guild_id, user_id, now - year)
            budget = with_current_ended(budget_of(periods, now, total, self.units), now)
            if not fits(budget, seconds):
                raise AwayOverBudget(left=budget)
            current = budget_of(periods, now, total, self.units).current
            if current is not None:
                await tx.end_away_period(guild_id, user_id, current.since, now)
            await tx.add_away_period(guild_id, user_id, now, until, forget_before=now - year)
            await tx.set_away(guild_id, user_id, now, until)
            for old in await tx.user_timers(user_id, (AWAY_END,)):
                if old.guild_id == guild_id:
                    await tx.delete_timer(old.id)
            await self.clock.add(tx, TimerRow(0, until, AWAY_END, None, guild_id, user_id))
            for listed in games:
                _row, snap = await self._game(tx, listed.id)
                mover = snap.player_to_move()
                if mover is not None and mover.user_id == user_id and snap.clock_left is None:
                    await self.clock.stop_for_away(tx, snap)
        return until

    async def budget_nearly_spent(self, guild_id: int | None, user_id: int) -> AwayBudget | None:
        """For a reminder: the player's budget when it is nearly spent and they have not heard
        so since the away period that made it so (they hear it now: it is marked as told).
        Only reads, unless there is something to tell."""
        if guild_id is None:
            return None
        now = self.now()
        after = now - year_seconds(self.units)
        total = await self._budget_seconds(guild_id)

        def to_tell(periods: list[AwayPeriodRow]) -> AwayBudget | None:
            budget = budget_of(periods, now, total, self.units)
            newest = budget.newest
            if not budget.is_low or newest is None or newest.told_low or budget.current is not None:
                return None
            return budget

        if to_tell(await self.store.away_periods(guild_id, user_id, after)) is None:
            return None
        async with self.store.write() as tx:
            budget = to_tell(await tx.away_periods(guild_id, user_id, after))
            if budget is not None and budget.newest is not None:
                await tx.told_budget_low(guild_id, user_id, budget.newest.since)
        return budget

    async def come_back(self, guild_id: int, user_id: int, *, timer_id: int | None = None) -> bool:
        """End an away period (``timer_id``: its end timer fell due). False: was not away."""
        now = self.now()
        year = year_seconds(self.units)
        games = await self.store.games_of_user(guild_id, user_id)
        async with self.store.write() as tx:
            if timer_id is not None:
                if await tx.load_timer(timer_id) is None:
                    return False
                await tx.delete_timer(timer_id)
            else:
                until = await tx.away_until(guild_id, user_id)
                if until is None:
                    raise NotAway()
                if until > now:  # ended early: the unused time goes back to the budget
                    for period in await tx.away_periods(guild_id, user_id, now - year):
                        if period.since <= now < period.until:
                            await tx.end_away_period(guild_id, user_id, period.since, now)
            await tx.clear_away(guild_id, user_id)
            for old in await tx.user_timers(user_id, (AWAY_END,)):
                if old.guild_id == guild_id:
                    await tx.delete_timer(old.id)
            for listed in games:
                _row, snap = await self._game(tx, listed.id)
                mover = snap.player_to_move()
                if mover is not None and mover.user_id == user_id:
                    await self.clock.resume_after_away(tx, snap)
        return True

    async def channel_gone(self, timer: TimerRow) -> None:
        """Discord says the game's channel no longer exists: look again after a grace period
        (an hour of game time) and end the game then if it is still gone."""
        if timer.game_id is None:
            return
        game = await self.store.load_game(timer.game_id)
        if game is None or game.status not in ("lobby", "active"):
            return  # over already: nothing to end
        pending = await self.store.timers_of_game(timer.game_id)
        if any(t.kind == CHANNEL_CHECK for t in pending):
            return  # one look is enough (a second one would find the game over)
        due = self.now() + self.clock.units.hour
        async with self.store.write() as tx:
            await self.clock.add(tx, TimerRow(0, due, CHANNEL_CHECK, timer.game_id, timer.guild_id))

    async def end_for_lost_channel(self, timer: TimerRow) -> GameSnapshot | None:
        """The channel is still gone after the grace period: the game ends as abandoned."""
        async with self.store.write() as tx:
            if await tx.load_timer(timer.id) is None:
                return None
            await tx.delete_timer(timer.id)
            row = await tx.load_game(timer.game_id or 0)
            if row is None or row.status not in ("lobby", "active"):
                return None
            # nothing can reach the channel any more: no notice, reminder or vote is left
            timers = (*TURN_TIMERS, NOTICE, LOBBY_EXPIRY, CHANNEL_CHECK)
            await self.service.end_unplayed(tx, row, timers)
            after = await tx.load_game(row.id)
            return self.service.snapshot_of(after) if after else None

    async def away_until(self, guild_id: int | None, user_id: int | None) -> float | None:
        if guild_id is None or user_id is None:
            return None
        until = await self.store.away_of(guild_id, user_id)
        return until if until is not None and until > self.now() else None

    # ----------------------------------------------------------------- downtime

    async def after_downtime(self, shards: Shards | None = None) -> Downtime:
        """At start-up: deadlines and vote ends that passed while the bot was down each get a
        grace period from now (the lesser of an hour and a tenth of the clock) instead of all
        firing at once (the turn's deadline moves with it), and of the reminders missed
        meanwhile only each game's latest is sent (it names the postponed deadline)."""
        now = self.now()
        overdue = await self.store.due_timers(now, 1_000_000, shards)
        postponed = dropped = 0
        latest: dict[int, TimerRow] = {}
        moved: dict[int, float] = {}
        votes_moved: list[int] = []
        async with self.store.write() as tx:
            for timer in overdue:
                if timer.kind in (DEADLINE, VOTE_END) and timer.game_id is not None:
                    row = await tx.load_game(timer.game_id)
                    wait = grace(clock_of(row) if row else GameClock(), self.clock.units)
                    # a rest under way (or one the grace would reach) is waited out first
                    due = self.clock.calendar(row).deadline_after(now, wait) if row else now + wait
                    await tx.reschedule_timer(timer.id, due, timer.attempts)
                    postponed += 1
                    vote_id = json.loads(timer.data or "{}").get("vote_id")
                    if timer.kind == VOTE_END and isinstance(vote_id, int):
                        votes_moved.append(vote_id)
                    # the turn's deadline is the postponed one: a reminder that names it names
                    # a moment still ahead
                    if (
                        timer.kind == DEADLINE
                        and row is not None
                        and row.version == timer.version
                        and row.deadline is not None
                        and row.deadline < due
                    ):
                        await tx.set_clock(row.id, deadline=due, clock_left=None)
                        moved[row.id] = row.deadline
                elif timer.kind == REMINDER and timer.game_id is not None:
                    kept = latest.get(timer.game_id)
                    if kept is None or timer.due > kept.due:
                        if kept is not None:
                            await tx.delete_timer(kept.id)
                            dropped += 1
                        latest[timer.game_id] = timer
                    else:
                        await tx.delete_timer(timer.id)
                        dropped += 1
        return Downtime(postponed, dropped, moved, tuple(votes_moved))
