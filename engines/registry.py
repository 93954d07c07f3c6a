"""The single name → engine mapping."""

from __future__ import annotations

from typing import Any

from engines.cantstop.rules import CantStopEngine
from engines.harmonies.rules import HarmoniesEngine
from engines.kokeshi.rules import KokeshiEngine

_ENGINES: dict[str, Any] = {
    "cantstop": CantStopEngine(),
    "kokeshi": KokeshiEngine(),
    "harmonies": HarmoniesEngine(),
}


def get_engine(name: str) -> Any:
    """The engine registered under ``name``; ``KeyError`` if there is none."""
    return _ENGINES[name]


def game_names() -> tuple[str, ...]:
    return tuple(_ENGINES)
