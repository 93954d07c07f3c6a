"""The adapter's shared parts, owned by one object per bot process.

``Runtime`` holds the service, the settings, the interaction gate (how many interactions are in
flight and how old they are, and the overload rule), the board delivery (every committed version
reaches its channel) and the bot runner (computer turns). Handlers and components reach it
through ``runtime_of(interaction)`` instead of the client's attributes, and the component
callbacks are routed through it, so the adapter modules do not import each other in a circle.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.adapter.custom_ids import Control
from bot.adapter.delivery import BoardDelivery
from bot.adapter.observe import board_shown, interaction_kind, watching
from bot.adapter.rendering import think
from bot.ops import metrics
from bot.service.bots import bot_to_move, decision_unheard, play_bot_turn
from bot.service.errors import UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.service.servers import ServerSettings
from bot.service.table import Table
from bot.settings import Settings

log = logging.getLogger(__name__)

ErrorReply = Callable[[discord.Interaction, BaseException], Awaitable[None]]
ControlRoute = Callable[[discord.Interaction, Control | None], Awaitable[None]]

#: Discord refuses a first response that arrives later than this after the interaction was made
DEADLINE = 3.0
#: a first response is begun only while the interaction is younger than this ...
START_BY = 2.5
#: ... and waited for (retries included) until it is this old; then its result goes to the channel
FINISH_BY = 2.9


@dataclass
class Ticket:
    """What the gate knows about one interaction in flight."""

    late: bool = False  # too old to be answered: the result goes to the channel instead
    acknowledged: bool = False  # Discord took a first response (even if its answer was lost)
    gave_up: bool = False  # a first response failed or ran out of time: do not try again


class ClockSkew:
    """How far this host's clock is from Discord's, learnt from the interactions themselves: the
    smallest delay between an interaction's creation (its id) and its arrival over the last
    ``window`` interactions. Under 0 s or over 1 s, the clock is off and ages are corrected;
    in between it is network delay, and ages are taken as they are."""

    def __init__(self, window: int = 100) -> None:
        self._delays: deque[float] = deque(maxlen=window)
        self._correction = 0.0

    def observe(self, delay: float) -> None:
        self._delays.append(delay)
        low = min(self._delays)  # worked out once here: an interaction's age is asked often
        self._correction = low if low < 0.0 or low > 1.0 else 0.0

    def correction(self) -> float:
        return self._correction


class InteractionGate:
    """Counts interactions in flight and knows how old each is. Past ``limit`` at once an
    interaction is dropped unapplied (it could not be answered within 3 s anyway); one that has
    already waited too long to be answered is still carried out if it changes something, with
    its result shown in the channel (``late``), and dropped if it only looks."""

    def __init__(
        self, limit: int, on_error: ErrorReply, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.limit = limit
        self.in_flight = 0
        self.skew = ClockSkew()
        self._on_error = on_error
        self._clock = clock
        self._tickets: dict[int, Ticket] = {}
        #: set by ``close``: a stopping bot takes no new interaction
        self.closing = False
        self._idle = asyncio.Event()
        self._idle.set()

    async def close(self, timeout: float) -> bool:
        """Take no new interaction and wait (up to ``timeout``) for those in flight to end;
        True when none is left."""
        self.closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _delay(self, interaction: discord.Interaction) -> float:
        # the creation time read from the id as discord.py's created_at does, without the
        # datetime it builds for it (asked several times per click)
        created_ms = (interaction.id >> 22) + discord.utils.DISCORD_EPOCH
        return self._clock() - created_ms / 1000

    def age(self, interaction: discord.Interaction) -> float:
        """Seconds since Discord created the interaction (by its id), clock skew corrected."""
        return self._delay(interaction) - self.skew.correction()

    def ticket(self, interaction: discord.Interaction) -> Ticket:
        return self._tickets.get(interaction.id) or Ticket()

    def acknowledged(self, interaction: discord.Interaction) -> bool:
        """Has a first response been taken (so follow-ups work, for 15 minutes)?"""
        return interaction.response.is_done() or self.ticket(interaction).acknowledged

    def can_answer(self, interaction: discord.Interaction) -> bool:
        """Can the interaction still carry a (first or follow-up) answer?"""
        if self.acknowledged(interaction):
            return True
        ticket = self.ticket(interaction)
        return not (ticket.late or ticket.gave_up) and self.age(interaction) < START_BY

    def time_left(self, interaction: discord.Interaction) -> float:
        """Seconds a first response may still take; 0 or less: do not begin one."""
        if not self.can_answer(interaction):
            return 0.0
        return FINISH_BY - self.age(interaction)

    async def run(
        self,
        interaction: discord.Interaction,
        work: Coroutine[Any, Any, None],
        *,
        reads_only: bool = False,
    ) -> None:
        """Run one interaction's work: every failure gets an answer (when one can be given)."""
        if self.closing:
            work.close()
            metrics.interaction(interaction_kind(interaction), "stopping")
            log.info("stopping: an interaction not taken")
            return
        if self.in_flight >= self.limit:
            work.close()
            metrics.interaction(interaction_kind(interaction), "busy")
            log.warning("busy: %d interactions in flight, one dropped", self.in_flight)
            return
        self.skew.observe(self._delay(interaction))
        ticket = Ticket()
        age = self.age(interaction)
        if age >= START_BY:
            ticket.late = True
            if reads_only:
                work.close()
                metrics.interaction(interaction_kind(interaction), "late_dropped")
                log.info("an interaction waited %.1f s, too long to answer; dropped", age)
                return
            log.info("an interaction waited %.1f s, too long to answer: result to the channel", age)
        self._tickets[interaction.id] = ticket
        self.in_flight += 1
        self._idle.clear()
        with watching(interaction, age) as watch:
            outcome = "late" if ticket.late else "ok"
            try:
                await work
                board_shown(watch)
            except Exception as exc:  # every failure still gets an answer
                outcome = "refused" if isinstance(exc, UserFacingError) else "failed"
                await self._on_error(interaction, exc)
            finally:
                self.in_flight -= 1
                if not self.in_flight:
                    self._idle.set()
                self._tickets.pop(interaction.id, None)
                metrics.interaction(watch.kind, outcome)


@dataclass
class BotRunner:
    """Plays computer turns in the background, one public message per turn, one runner per game.

    A computer seat is driven by the committed state, not by whoever happened to be waiting:
    ``wake`` is the one place that starts a runner, and it is called after everything that may
    leave a computer (a bot seat or a stand-in) to move: a public turn message, a delivery that
    posted a board or found it shown already, a table decision, the sweep and the start-up. The
    runner reads the game and plays while a computer is to move and the channel has seen the
    board before its turn. A wake that comes while the game's runner is busy is not dropped: the
    runner looks again when it ends. Two runners never play one game in this process, and the
    service's version check applies a move once even when two processes try.
    """

    service: GameService
    pause: float
    delivery: BoardDelivery
    #: shows Discord's typing indicator in the game's channel while a bot thinks (best effort)
    typing: Callable[[int], Awaitable[None]] | None = None
    #: told once the last board of a game that ended is public (its thread is archived then)
    on_ended: Callable[[GameSnapshot], None] | None = None
    _games: set[int] = field(default_factory=set)  # a runner works on these now
    _again: set[int] = field(default_factory=set)  # woken meanwhile: look again at the end
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def after_public_turn(self, snap: GameSnapshot) -> None:
        """After a public turn message: an ended game's thread is archived; a computer to move
        plays."""
        if snap.status == "finished" and self.on_ended is not None:
            self.on_ended(snap)
        self.wake(snap.id)

    def wake(self, game_id: int) -> None:
        """Look at the game's committed state: if a computer is to move and no runner works on
        it, start one (it returns at once when there is nothing to play)."""
        if game_id in self._games:
            self._again.add(game_id)
            return
        self._games.add(game_id)
        self.delivery.hold(game_id)  # at once: the sweep must not post this game meanwhile
        task = asyncio.create_task(self._run(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """The bot is stopping: no computer plays on. A turn cut short either did not commit
        or did, and then its board is posted by the delivery after the restart."""
        self.wake = lambda game_id: None  # type: ignore[method-assign]
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def wake_all(self) -> None:
        """Wake every running game with a computer in it (at start-up, and on each sweep)."""
        for game_id in await self.service.games_with_computers():
            self.wake(game_id)

    async def _run(self, game_id: int) -> None:
        """Computer turns until a person is to move, the game ends, or the board before the
        computer's turn is not in the channel (its delivery wakes the runner once it is), or a
        decision of the table is not (its notice wakes the runner once it is)."""
        try:
            while True:
                self._again.discard(game_id)  # the state read now answers every wake so far
                snap = await self.service.game(game_id)
                if bot_to_move(snap) is None or not await self.service.is_shown(snap):
                    return
                if await decision_unheard(self.service, game_id):
                    return  # the table's decision is told first; its notice wakes the runner
                if self.typing is not None:
                    await self.typing(game_id)
                await asyncio.sleep(self.pause)  # let people read the previous board
                turn = await play_bot_turn(self.service, game_id, think=think)
                if turn is None:
                    return
                if not await self.delivery.show(game_id, turn.outcome):
                    return  # the delivery keeps trying; once it is shown, the next bot plays
        except Exception:
            log.exception("bot turn failed", extra={"game_id": game_id})
        finally:
            self._games.discard(game_id)
            self.delivery.release(game_id)
            if game_id in self._again:  # woken while busy: the state may call for a runner
                self._again.discard(game_id)
                self.wake(game_id)


@dataclass
class Runtime:
    service: GameService
    servers: ServerSettings
    settings: Settings
    gate: InteractionGate
    delivery: BoardDelivery
    bots: BotRunner
    on_control: ControlRoute  # every component with our prefix, parsed (None: malformed)
    table: Table  # the table's decisions: votes, stand-ins, away periods

    async def mover_away_until(self, snap: GameSnapshot) -> float | None:
        """Until when the player to move is away (None: not away, or no clock stopped)."""
        if snap.clock_left is None or snap.to_move is None:
            return None
        return await self.table.away_until(snap.guild_id, snap.seats[snap.to_move].user_id)


class HasRuntime(Protocol):
    runtime: Runtime


def runtime_of(interaction: discord.Interaction) -> Runtime:
    client: HasRuntime = interaction.client  # type: ignore[assignment]
    return client.runtime
