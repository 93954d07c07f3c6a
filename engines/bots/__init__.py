"""Computer opponents: a generic bot contract and a per-game registry.

A bot is a pure decision function over the engine contract: given the engine, a state where one
of the seats is to move and an ``Rng``, it returns one of ``engine.legal_actions(state)``. Bots keep
no state between calls, do no I/O and draw randomness only from the ``Rng`` they are handed, so a
game played by bots is fully determined by its seeds.

Each game registers the module that holds its bots; the module is imported on first use and must
expose ``make_bot(level: str) -> Bot`` for every level in ``LEVELS``.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from engines.rng import Rng

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

#: game name -> module path providing ``make_bot(level)``; imported lazily.
_BOT_MODULES: dict[str, str] = {
    "cantstop": "engines.bots.cantstop",
    "harmonies": "engines.bots.harmonies",
    "kokeshi": "engines.bots.kokeshi",
}


class Bot(Protocol):
    """A computer player for one game."""

    name: str

    def choose(self, engine: Any, state: Any, rng: Rng) -> Any:
        """One legal action for the seat to move in ``state`` (never a chance or terminal state)."""
        ...


def register(game: str, module_path: str) -> None:
    """Declare where the bots of ``game`` live (a module exposing ``make_bot(level)``)."""
    _BOT_MODULES[game] = module_path


def bot_games() -> tuple[str, ...]:
    """Games that have computer opponents."""
    return tuple(_BOT_MODULES)


def get_bot(game: str, level: str) -> Bot:
    """The bot for ``game`` at ``level``; ``KeyError`` for an unknown game or level."""
    if level not in LEVELS:
        raise KeyError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    module = importlib.import_module(_BOT_MODULES[game])
    bot: Bot = module.make_bot(level)
    return bot
