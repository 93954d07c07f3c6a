"""Look-ahead helpers shared by the search bots: derived generators, chance sampling, budgets.

Searches never touch global randomness: every sampled chance outcome comes from a generator
derived from the ``Rng`` the bot was handed, so a decision is a pure function of
(state, generator). Searches are bounded by an iteration count; a wall-clock cap can be added on
top (``Budget.seconds``), in which case results also depend on the speed of the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng


def derive(rng: Rng, label: str) -> Rng:
    """A fresh generator keyed by one draw of ``rng`` and a label (deterministic)."""
    return Rng(f"bot-search:{label}:{rng.below(1 << 62)}".encode())


def settle(engine: Any, state: Any, rng: Rng, limit: int = 10_000) -> Any:
    """Resolve chance steps with ``rng`` until a player decides or the game is over."""
    for _ in range(limit):
        if engine.to_move(state) != CHANCE:
            return state
        state = engine.apply(state, engine.sample_chance(state, rng))
    raise RuntimeError("chance steps did not settle")


def is_over(engine: Any, state: Any) -> bool:
    return bool(engine.to_move(state) == TERMINAL)


class Budget:
    """An iteration budget with an optional wall-clock cap.

    ``spend()`` counts one unit and says whether the search may go on. With ``seconds`` unset
    (the default, and what the tests use) a search is fully deterministic.
    """

    __slots__ = ("_clock", "_deadline", "iterations", "used")

    def __init__(
        self,
        iterations: int,
        seconds: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.iterations = iterations
        self.used = 0
        self._clock = clock
        self._deadline = clock() + seconds if seconds is not None else None

    def spend(self, units: int = 1) -> bool:
        """Count ``units``; False once the budget is exhausted."""
        self.used += units
        if self.used > self.iterations:
            return False
        return self._deadline is None or self._clock() < self._deadline

    @property
    def left(self) -> bool:
        if self.used >= self.iterations:
            return False
        return self._deadline is None or self._clock() < self._deadline
