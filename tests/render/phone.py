"""Real positions for the picture tests: seeded random games, each end of turn kept with the state
its turn started from and the seat that moved (what the channel's end-of-turn picture shows)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng

#: the width Discord's phone app shows a picture at, and the smallest height it must keep
PHONE_WIDTH = 400
MIN_PHONE_PX = 10


@dataclass(frozen=True)
class TurnEnd:
    since: Any  # the state at the start of the turn
    state: Any  # the state after it
    mover: int


def turn_ends(
    game: str, seats: int, seed: int, limit: int = 5000, options: dict[str, Any] | None = None
) -> list[TurnEnd]:
    """Every end of turn of one game played at random (chance from the seed)."""
    engine = get_engine(game)
    state = engine.initial_state(seats, options or {})
    since, found = state, []
    for step in range(limit):
        mover = engine.to_move(state)
        if mover == TERMINAL:
            break
        rng = Rng.for_step(seed, step)
        if mover == CHANCE:
            action = engine.sample_chance(state, rng)
        else:
            legal = engine.legal_actions(state)
            action = legal[rng.below(len(legal))]
            last_mover = mover
        after = engine.apply(state, action)
        if engine.turn(after) > engine.turn(state):
            found.append(TurnEnd(since, after, last_mover))
            since = after
        state = after
    return found


def spread(items: list[Any], count: int) -> list[Any]:
    """``count`` items spread evenly over ``items``, the first and last included."""
    if len(items) <= count:
        return items
    return [items[i * (len(items) - 1) // (count - 1)] for i in range(count)]
