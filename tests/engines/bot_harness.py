"""Play a game between bots with every bot action checked against the legal set."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng


def play(
    engine: Any,
    bots: Sequence[Any],
    seed: int,
    options: dict[str, object] | None = None,
    max_decisions: int | None = None,
) -> tuple[Any, list[str]]:
    """One game (or its first ``max_decisions`` decisions): the final state and the log."""
    state = engine.initial_state(len(bots), options or {})
    log: list[str] = []
    decisions = 0
    for seq in range(20_000):
        seat = engine.to_move(state)
        if seat == TERMINAL:
            return state, log
        if seat == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, seq))
        else:
            if max_decisions is not None and decisions >= max_decisions:
                return state, log
            decisions += 1
            action = bots[seat].choose(engine, state, Rng(f"t:{seed}:{seq}".encode()))
            assert action in engine.legal_actions(state), (seed, seq, action)
        log.append(engine.encode_action(action))
        state = engine.apply(state, action)
    raise AssertionError("game did not finish")
