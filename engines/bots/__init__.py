"""Computer opponents: a generic bot contract, found per game by convention.

A bot is a pure decision function over the engine contract: given the engine, a state where one
of the seats is to move and an ``Rng``, it returns one of ``engine.legal_actions(state)``. Bots keep
no state between calls, do no I/O and draw randomness only from the ``Rng`` they are handed, so a
game played by bots is fully determined by its seeds.

A game has bots when the module ``<home>.bots`` beside its registration (``games/<game>/bots.py``
for a built-in game) exists; it is imported on first use and must expose
``make_bot(level: str) -> Bot`` for every level in ``LEVELS``. Bots are optional.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any, Protocol

from engines.registry import game_names, generation, part_module
from engines.rng import Rng

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
PART = "bots"


class Bot(Protocol):
    """A computer player for one game."""

    name: str

    def choose(self, engine: Any, state: Any, rng: Rng) -> Any:
        """One legal action for the seat to move in ``state`` (never a chance or terminal state)."""
        ...


class BotMaker(Protocol):
    """What a game's ``bots`` part (a module, so ``self`` stands for it) exposes."""

    def make_bot(self, level: str, /) -> Bot:
        """The bot for ``level``, one of ``LEVELS``."""
        ...


def _module_exists(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


@cache
def _bot_games(_generation: int) -> tuple[str, ...]:
    return tuple(g for g in game_names() if _module_exists(part_module(g, PART)))


def bot_games() -> tuple[str, ...]:
    """Games that have computer opponents."""
    return _bot_games(generation())


def get_bot(game: str, level: str) -> Bot:
    """The bot for ``game`` at ``level``; ``KeyError`` for an unknown game or level."""
    if level not in LEVELS:
        raise KeyError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    if game not in bot_games():
        raise KeyError(f"no computer opponents for {game!r}")
    module = importlib.import_module(part_module(game, PART))
    bot: Bot = module.make_bot(level)
    return bot
