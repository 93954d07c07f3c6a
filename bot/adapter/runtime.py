"""The adapter's shared parts, owned by one object per bot process.

``Runtime`` holds the service, the settings, the interaction gate (how many interactions are in
flight, and the overload rule) and the bot runner (computer turns). Handlers and components reach
it through ``runtime_of(interaction)`` instead of the client's attributes, and the component
callbacks are routed through it, so the adapter modules do not import each other in a circle.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.adapter.custom_ids import Control
from bot.service.bots import bot_to_move, play_bot_turn
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.settings import Settings

log = logging.getLogger(__name__)

ErrorReply = Callable[[discord.Interaction, BaseException], Awaitable[None]]
ActionRoute = Callable[[discord.Interaction, int, int, str], Awaitable[None]]
LobbyRoute = Callable[[discord.Interaction, int, str], Awaitable[None]]
ControlRoute = Callable[[discord.Interaction, Control | None], Awaitable[None]]
ChannelPost = Callable[[GameSnapshot, Outcome | None], Awaitable[None]]


class InteractionGate:
    """Counts interactions in flight and sheds what Discord would refuse anyway: past
    ``limit`` at once, an interaction cannot be answered within 3 s, so it is dropped unapplied."""

    def __init__(self, limit: int, on_error: ErrorReply) -> None:
        self.limit = limit
        self.in_flight = 0
        self._on_error = on_error

    async def run(self, interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None:
        """Run one interaction's work: every failure gets an answer."""
        if self.in_flight >= self.limit:
            work.close()
            log.warning("busy: %d interactions in flight, one dropped", self.in_flight)
            return
        self.in_flight += 1
        try:
            await work
        except Exception as exc:  # every failure still gets an answer
            await self._on_error(interaction, exc)
        finally:
            self.in_flight -= 1


@dataclass
class BotRunner:
    """Plays computer turns in the background, one public message per turn, one runner per game."""

    service: GameService
    pause: float
    post: ChannelPost
    _games: set[int] = field(default_factory=set)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def after_public_turn(self, snap: GameSnapshot) -> None:
        """After a public turn message: if a computer opponent is to move, let it play."""
        if bot_to_move(snap) is None or snap.id in self._games:
            return
        self._games.add(snap.id)
        task = asyncio.create_task(self._run(snap.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, game_id: int) -> None:
        """Bot turns until a person is to move or the game ends."""
        try:
            while True:
                await asyncio.sleep(self.pause)  # let people read the previous board
                turn = await play_bot_turn(self.service, game_id)
                if turn is None:
                    return
                await self.post(turn.outcome.after, turn.outcome)
                if bot_to_move(turn.outcome.after) is None:
                    return
        except Exception:
            log.exception("bot turn failed", extra={"game_id": game_id})
        finally:
            self._games.discard(game_id)


@dataclass
class Runtime:
    service: GameService
    settings: Settings
    gate: InteractionGate
    bots: BotRunner
    on_action: ActionRoute
    on_lobby: LobbyRoute
    on_control: ControlRoute  # every component with our prefix, parsed (None: malformed)


class HasRuntime(Protocol):
    runtime: Runtime


def runtime_of(interaction: discord.Interaction) -> Runtime:
    client: HasRuntime = interaction.client  # type: ignore[assignment]
    return client.runtime
