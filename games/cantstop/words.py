"""Can't Stop words that the board picture and the chat messages both say."""

from __future__ import annotations

from collections.abc import Iterable

from i18n import Translator


def columns(tr: Translator, numbers: Iterable[int]) -> str:
    """Column numbers as a list in the locale's words: ``2, 3 and 4``."""
    return tr.join(str(n) for n in numbers)


def game_over(tr: Translator, winner: str) -> str:
    """The result, once the game is over."""
    return tr("cantstop.over", player=winner)
