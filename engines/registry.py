"""The single name → engine mapping."""

from __future__ import annotations

from typing import Any

from engines.cantstop.rules import CantStopEngine

_ENGINES: dict[str, Any] = {
    "cantstop": CantStopEngine(),
}


def get_engine(name: str) -> Any:
    """The engine registered under ``name``; ``KeyError`` if there is none."""
    return _ENGINES[name]


def game_names() -> tuple[str, ...]:
    return tuple(_ENGINES)
