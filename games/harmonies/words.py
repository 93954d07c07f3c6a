"""Harmonies words that the board picture and the presenter both use: colours, cards, spirits.

Player names come from ``Translator.player``; everything else a single layer says lives there.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.harmonies.engine.cards import CARDS
from i18n import Translator


def colour_word(tr: Translator, colour: str) -> str:
    """``blue``: a token colour."""
    return tr(f"harmonies.colour.{colour}")


def colour_list(tr: Translator, colours: Iterable[str]) -> str:
    """``blue, red, blue``: tokens as a plain list."""
    return tr.sep.join(colour_word(tr, c) for c in colours)


def colours_and(tr: Translator, colours: Iterable[str]) -> str:
    """``blue, red and blue``: tokens in a sentence."""
    return tr.join(colour_word(tr, c) for c in colours)


def card_number(tr: Translator, card_id: int) -> str:
    """``#17``: a card where there is room for its number only."""
    return tr("harmonies.board.card", number=card_id)


def card_name(tr: Translator, card_id: int) -> str:
    """``#17 boar``."""
    card = CARDS.get(card_id)
    if card is None:
        return f"#{card_id}"
    animal = tr(f"harmonies.ui.animal.{card.name}")
    return tr("harmonies.ui.card", number=card_id, animal=animal)


def spirit_rule(tr: Translator, card_id: int) -> str:
    """``#35 deer: each tree of height 2-3 → 4``: what a spirit card scores."""
    return tr(f"harmonies.spirit.{card_id}")


def solo_result(tr: Translator, score: int, suns: int) -> dict[str, str]:
    """``score`` and ``suns`` of a solo game as counted words (``12 points``, ``1 sun``), the
    parameters of the sentences that tell a solo result."""
    return {
        "score": tr("harmonies.ui.points", count=score),
        "suns": tr("harmonies.ui.suns", count=suns),
    }
