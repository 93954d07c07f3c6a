"""How strong each bot level is, in words players read ("hard: wins about 3 games in 4 against a
careful player"), from the strength the benchmark measured (``engines.bots.strength``).

Each level is described by its measured win rate against the player just below it, rounded to a
simple fraction: the smallest denominator of ``DENOMINATORS`` within ``CLOSE_ENOUGH`` of the rate,
else the nearest of them all. A game without measured levels gets no words at all.
"""

from __future__ import annotations

from engines.bots import LEVELS
from engines.bots.strength import Measured, measured_levels
from i18n import t

DENOMINATORS = (2, 3, 4, 5, 10)
CLOSE_ENOUGH = 0.03


def about(rate: float) -> tuple[int, int]:
    """A simple fraction ``(wins, games)`` near ``rate`` (0..1): 0.724 -> (3, 4)."""
    nearest = [(round(rate * n), n) for n in DENOMINATORS]
    for wins, games in nearest:
        if abs(rate - wins / games) <= CLOSE_ENOUGH:
            return wins, games
    return min(nearest, key=lambda f: (abs(rate - f[0] / f[1]), f[1]))


def level_name(locale: str | None, level: str) -> str:
    return t(locale, f"bot.level.{level}")


def strength_sentence(locale: str | None, measured: Measured) -> str:
    """One level's strength in words, its name first."""
    wins, games = about(measured.wins)
    name = level_name(locale, measured.level)
    against = f"vs_{measured.opponent}"
    if wins >= games:
        return t(locale, f"bot.strength_all.{against}", level=name)
    return t(locale, f"bot.strength.{against}", level=name, count=max(1, wins), total=games)


def strength_lines(locale: str | None, game: str) -> list[str]:
    """A sentence per level, weakest first (empty: nothing measured for ``game``)."""
    measured = measured_levels(game)
    return [strength_sentence(locale, measured[level]) for level in LEVELS if level in measured]


def strength_list(locale: str | None, game: str, title_key: str) -> str:
    """A titled list of the levels' strengths (empty: nothing measured for ``game``):
    ``title_key`` is ``lobby.levels`` in a lobby, ``rules.levels.title`` in ``/rules``."""
    lines = strength_lines(locale, game)
    if not lines:
        return ""
    items = "\n".join(t(locale, "bot.strength_item", line=line) for line in lines)
    return f"{t(locale, title_key)}\n{items}"
