"""Game-independent bots built on the engine contract alone."""

from __future__ import annotations

from typing import Any

from engines.rng import Rng


class RandomLegalBot:
    """Picks uniformly among the legal actions: a baseline and a smoke test for any engine."""

    name = "random"

    def choose(self, engine: Any, state: Any, rng: Rng) -> Any:
        actions = engine.legal_actions(state)
        if not actions:
            raise ValueError("no legal action: the game is over")
        return rng.choice(actions)
