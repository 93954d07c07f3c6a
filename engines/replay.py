"""Rebuild a state from its action log: used by tests, storage checks and the CLI."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.base import Engine


def replay(
    engine: Engine[Any, Any], seats: int, options: Mapping[str, object], actions: Iterable[str]
) -> Any:
    """Apply logged action texts (chance outcomes included) from the initial state."""
    state = engine.initial_state(seats, options)
    for text in actions:
        state = engine.apply(state, engine.decode_action(text))
    return state
