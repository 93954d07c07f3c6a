"""Kokeshi's names for its things, defined once for the board picture and the messages.

Every function takes the ``Translator`` of the reader; the words themselves are catalogue keys
of ``games/kokeshi/locales``.
"""

from __future__ import annotations

from games.kokeshi.engine.data import GAIN_TILE, MOVE_ANIMAL, MOVE_ANY, MOVE_KOKESHI, Effect, load
from i18n import Translator


def kokeshi_word(tr: Translator, column: int) -> str:
    """The kokeshi of a column (also the name of its colour): ``Princess``."""
    return tr(f"kokeshi.kokeshi.{load().columns[column]}")


def kokeshi_letter(tr: Translator, column: int) -> str:
    """The letter a kokeshi and its column carry on the board: ``P``."""
    return tr(f"kokeshi.letter.{load().columns[column]}")


def colour_word(tr: Translator, tile: int) -> str:
    """The colour of a normal or achievement tile, named after its kokeshi."""
    return kokeshi_word(tr, load().colour_of(tile))


def animal_word(tr: Translator, animal: int) -> str:
    return tr(f"kokeshi.animal.{load().animals[animal]}")


def animal_letter(tr: Translator, animal: int) -> str:
    return tr(f"kokeshi.animal_letter.{load().animals[animal]}")


def effect_text(tr: Translator, e: Effect) -> str:
    """One printed effect in words: ``move the Princess up 1``."""
    if e.type == MOVE_KOKESHI:
        return tr("kokeshi.effect.move_kokeshi", kokeshi=kokeshi_word(tr, e.kokeshi))
    if e.type == MOVE_ANY:
        return tr(f"kokeshi.effect.move_any_{e.steps}")
    if e.type == MOVE_ANIMAL:
        return tr("kokeshi.effect.move_animal", animal=animal_word(tr, e.animal))
    if e.type == GAIN_TILE:
        return tr(f"kokeshi.effect.gain_{e.where}")
    return tr(f"kokeshi.effect.{e.type}")


def tile_effects(tr: Translator, tile: int, *, choice: str, both: str) -> str:
    """What a normal tile does: its one effect, or its two joined by the catalogue key ``choice``
    (an ``A / B`` tile) or ``both`` (each formatted with ``a`` and ``b``)."""
    kind = load().tiles[tile]
    texts = [effect_text(tr, e) for e in kind.effects]
    if len(texts) == 1:
        return texts[0]
    return tr(choice if kind.mode == "choice" else both, a=texts[0], b=texts[1])
