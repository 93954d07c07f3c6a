"""Computer opponents at the table: play a bot seat's whole turn through the service.

Bots think off the event loop (``think``: a worker thread by default; the bot runs them in its
thinking process, ``bot.adapter.rendering.think``), draw their randomness from the game seed
and the move count, and act through ``GameService.act_as_bot`` so their moves are committed and
logged exactly like a person's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.service.clocks import NOTICE, VOTE_DECIDED_NOTICE
from bot.service.errors import StaleBoard
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.service.preferences import stand_in_level_of
from engines.bots import bot_games, get_bot
from engines.registry import get_engine
from engines.rng import Rng

log = logging.getLogger(__name__)

BOT_SALT = 0xB07  # keeps the bots' draws apart from the game's chance draws
MAX_ACTIONS_PER_TURN = 500


def has_bots(game: str) -> bool:
    return game in bot_games()


def bot_to_move(snap: GameSnapshot) -> int | None:
    """The bot seat to move, if the game is running and a bot is to move."""
    if snap.status != "active" or snap.to_move is None:
        return None
    return snap.to_move if snap.seats[snap.to_move].is_bot else None


async def decision_unheard(service: GameService, game_id: int) -> bool:
    """Has the table decided something about this game that the channel has not heard yet (its
    notice is still to be posted)? A computer then waits: a stand-in's move never comes before
    the words that explain it ("A bot plays this turn for ..."); the notice wakes it once it
    is in."""
    for timer in await service.store.timers_of_game(game_id):
        if timer.kind == NOTICE and json.loads(timer.data).get("notice") == VOTE_DECIDED_NOTICE:
            return True
    return False


@dataclass(frozen=True, slots=True)
class BotTurn:
    """Everything one bot seat did in a row, as one outcome, plus how long it thought."""

    outcome: Outcome
    think_seconds: tuple[float, ...]


def merge(outcomes: list[Outcome]) -> Outcome:
    moves = tuple(m for o in outcomes for m in o.moves)
    return Outcome(outcomes[0].before, outcomes[-1].after, moves)


async def level_of(service: GameService, snap: GameSnapshot, seat: int) -> str:
    """The level a bot seat plays at: its own, or for a stand-in the one its server chose."""
    level = snap.seats[seat].bot_level
    if level is not None:
        return level
    row = await service.store.server_play(snap.guild_id) if snap.guild_id is not None else None
    return stand_in_level_of(row)


#: where a decision is worked out: ``think(game, level, state, rng)`` gives ``decide``'s answer
Think = Callable[[str, str, Any, Rng], Awaitable[Any]]


def decide(game: str, level: str, state: Any, rng: Rng) -> Any:
    """One decision of ``game``'s bot at ``level`` (an action its engine offers)."""
    return get_bot(game, level).choose(get_engine(game), state, rng)


async def think_in_a_thread(game: str, level: str, state: Any, rng: Rng) -> Any:
    return await asyncio.to_thread(decide, game, level, state, rng)


async def think_at_once(game: str, level: str, state: Any, rng: Rng) -> Any:
    """The decision on the caller's own thread (for tests: nothing else is waiting)."""
    return decide(game, level, state, rng)


async def play_bot_turn(
    service: GameService,
    game_id: int,
    think: Think = think_in_a_thread,
) -> BotTurn | None:
    """Let the bot seat to move act until its turn ends (or the game does)."""
    snap = await service.game(game_id)
    seat = bot_to_move(snap)
    if seat is None:
        return None
    engine = get_engine(snap.game)
    level = await level_of(service, snap, seat)
    get_bot(snap.game, level)  # an unknown level fails here, before anything is thought
    seed = await service.seed_of(game_id)
    outcomes: list[Outcome] = []
    timings: list[float] = []
    turn = snap.turn
    while bot_to_move(snap) == seat and snap.turn == turn and len(outcomes) < MAX_ACTIONS_PER_TURN:
        rng = Rng.for_step(seed ^ BOT_SALT, snap.version)
        started = time.perf_counter()
        action = await think(snap.game, level, snap.state, rng)
        timings.append(time.perf_counter() - started)
        try:
            outcome = await service.act_as_bot(
                game_id, seat, engine.encode_action(action), snap.version
            )
        except StaleBoard:  # someone abandoned the game or another runner acted first
            log.info("bot turn interrupted", extra={"game_id": game_id})
            break
        outcomes.append(outcome)
        snap = outcome.after
    if not outcomes:
        return None
    return BotTurn(merge(outcomes), tuple(timings))
