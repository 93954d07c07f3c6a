"""Harmonies log lines: one move code in words, for ``/game log``."""

from __future__ import annotations

from games.harmonies.engine.state import HarmoniesState
from games.harmonies.words import card_name, colour_word, colours_and
from i18n import Translator


def describe_code(state: HarmoniesState | None, code: str, tr: Translator) -> str:
    """One move code in words (``state`` is the state before it, when known)."""
    kind, _, rest = code.partition(":")
    parts = rest.split(":")
    try:
        if kind == "take":
            if state is not None and 0 < int(rest) <= len(state.central):
                tokens = colours_and(tr, state.central[int(rest) - 1])
                return tr("harmonies.ui.log.take_tokens", number=rest, tokens=tokens)
            return tr("harmonies.ui.log.take", number=rest)
        if kind == "place":
            return tr("harmonies.ui.log.place", colour=colour_word(tr, parts[0]), hex=parts[1])
        if kind == "cube":
            return tr("harmonies.ui.log.cube", card=card_name(tr, int(parts[0])), hex=parts[1])
        if kind in ("card", "discard", "keep", "spirit", "deal"):
            return tr(f"harmonies.ui.log.{kind}", card=card_name(tr, int(rest)))
        if kind == "first":
            return tr("harmonies.ui.log.first", seat=int(rest) + 1)
        if kind == "draw":
            return tr(
                "harmonies.ui.log.draw",
                colour=colour_word(tr, parts[1]),
                number=parts[0],
            )
        if kind in ("undo", "end"):
            return tr(f"harmonies.ui.log.{kind}")
    except (ValueError, IndexError, KeyError):
        pass
    return code
