"""How strong each bot level of a game was measured to be, read from the game's ``levels.json``.

The file sits beside the game's registration (``games/<game>/levels.json``) and is written by the
benchmark ``python -m bench.levels`` (a round robin of every level and a random player, with an
openskill rating per player); nothing here is typed in by hand. A game without the file (a plugin
that never ran the benchmark) simply has no measured strength, and players see no strength words.

For each level the file keeps its result against the player just below it (``easy`` against the
random player, ``medium`` against ``easy``, ``hard`` against ``medium``): that result is what the
lobby and ``/rules`` put into words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engines.bots import LEVELS
from engines.registry import generation, home_of

FILE_NAME = "levels.json"
#: the random-legal player the round robin includes below every level
RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Measured:
    """One level's heads-up result against the player just below it (Wilson 95% interval)."""

    level: str
    opponent: str  # "random" or a level
    wins: float  # share of games won, a shared win counting one half
    low: float
    high: float
    n: int
    mu: float  # the level's openskill rating (Plackett-Luce), and its uncertainty
    sigma: float


class BadLevelsFile(ValueError):
    """A ``levels.json`` that is not what the benchmark writes."""


def parse(data: Any, levels: tuple[str, ...]) -> dict[str, Measured]:
    """The measured levels in a decoded ``levels.json``; ``BadLevelsFile`` if it is malformed.
    Every level of ``levels`` must be there, and every number in its range."""
    try:
        ratings = data["ratings"]
        found = {}
        for level in levels:
            vs = data["levels"][level]["vs"]
            rating = ratings[level]
            measured = Measured(
                level=level,
                opponent=str(vs["opponent"]),
                wins=float(vs["wins"]),
                low=float(vs["low"]),
                high=float(vs["high"]),
                n=int(vs["n"]),
                mu=float(rating["mu"]),
                sigma=float(rating["sigma"]),
            )
            if not (
                0.0 <= measured.low <= measured.wins <= measured.high <= 1.0
                and measured.n > 0
                and measured.sigma >= 0.0
                and measured.opponent in (RANDOM, *levels)
            ):
                raise BadLevelsFile(f"{level}: {vs!r}, rating {rating!r}")
            found[level] = measured
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadLevelsFile):
            raise
        raise BadLevelsFile(repr(exc)) from exc
    return found


def measured_levels(game: str) -> dict[str, Measured]:
    """Each level's measured strength for ``game`` (empty: no file, so nothing to say)."""
    return _measured(game, generation())


@cache
def _measured(game: str, _generation: int) -> dict[str, Measured]:
    try:
        entry = resources.files(home_of(game)).joinpath(FILE_NAME)
    except (KeyError, ModuleNotFoundError):
        return {}
    if not entry.is_file():
        return {}
    return parse(json.loads(entry.read_text(encoding="utf-8")), LEVELS)
