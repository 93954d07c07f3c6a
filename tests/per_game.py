"""The per-game checks: tests every game must pass, built-in or kept outside the project.

They carry the ``per_game`` marker and run over ``games()``: every registered game (the built-in
ones, the suite's own Nim and whatever ``BOARDROOM_GAMES`` names, loaded by ``tests/conftest.py``),
or only the ones named with ``--game``. A plugin's author runs them on their game with::

    BOARDROOM_GAMES=mygame python -m pytest -m per_game --game mygame

(``docs/adding-a-game.md``). No list of games is written here: it is the registry's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bot.settings import Settings
from engines.bots import bot_games
from engines.registry import game_names, get_engine

#: the modules ``BOARDROOM_GAMES`` names, read as the bot reads them
PLUGINS = Settings.from_env(
    {"BOARDROOM_GAMES": os.environ.get("BOARDROOM_GAMES", "")}, need_token=False
).game_modules

MARK = "per_game"
per_game = pytest.mark.per_game

_chosen: tuple[str, ...] = ()


def choose(names: tuple[str, ...]) -> None:
    """Narrow the checks to ``names`` (``--game``); empty: every registered game."""
    unknown = sorted(set(names) - set(game_names()))
    if unknown:
        raise pytest.UsageError(
            f"--game {', '.join(unknown)}: not registered (known: {', '.join(game_names())})"
        )
    global _chosen
    _chosen = names


def games() -> tuple[str, ...]:
    """The games the per-game checks run for."""
    return tuple(g for g in game_names() if not _chosen or g in _chosen)


def games_with_bots() -> tuple[str, ...]:
    return tuple(g for g in games() if g in bot_games())


def seat_counts() -> Iterator[tuple[str, int]]:
    """(game, seats) for every seat count each game allows."""
    for game in games():
        info = get_engine(game).info
        for seats in range(info.min_seats, info.max_seats + 1):
            yield game, seats
