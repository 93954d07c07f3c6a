"""Players' names on pictures: the one way a name is shortened, wherever it is drawn.

A name comes from the player's Discord display name: any length, any script, often with emoji.
Inside a sentence (a prompt, "Next: …") it is cut to ``SENTENCE_NAME_EMS`` ems first, so the
sentence stays in its box; in a row of its own it is cut to the row. The result of a game names
its winners in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from i18n import Translator
from render.canvas import ellipsize

#: how wide a name may be inside a sentence, in ems of the sentence's text size
SENTENCE_NAME_EMS = 9


def fit_name(name: str, size: int, bold: bool, width: int) -> str:
    """``name`` cut with an ellipsis to ``width`` pixels, never inside a character (an emoji
    sequence, a letter and its accent)."""
    return ellipsize(name, size, bold, width)


def sentence_names(
    tr: Translator, seats: int, names: Sequence[str] | None, size: int, bold: bool = True
) -> list[str]:
    """Every seat's name (or "Player A" and so on) as sentences drawn at ``size`` use it."""
    width = SENTENCE_NAME_EMS * size
    return [fit_name(tr.player(seat, names), size, bold, width) for seat in range(seats)]
