"""Kokeshi's vocabulary in messages: kokeshi with their colour, columns, tiles and positions.

The names shared with the board picture (kokeshi, animals, colours, effects) come from
``games.kokeshi.words``; these are the longer forms that buttons and sentences use.
"""

from __future__ import annotations

from games.kokeshi.engine.data import ach_level, is_ach
from games.kokeshi.present.game import DATA
from games.kokeshi.words import colour_word, kokeshi_word, tile_effects
from i18n import Translator


def kokeshi_name(tr: Translator, column: int) -> str:
    """``Princess (pink)``."""
    colour = tr(f"kokeshi.ui.colour.{DATA.columns[column]}")
    return tr("kokeshi.ui.kokeshi", name=kokeshi_word(tr, column), colour=colour)


def column_name(tr: Translator, column: int) -> str:
    """``Princess column``."""
    return tr("kokeshi.ui.column", name=kokeshi_word(tr, column))


def tile_effect(tr: Translator, tile: int) -> str:
    """What a normal tile does: one effect, ``A or B``, or ``A, then B``."""
    return tile_effects(tr, tile, choice="kokeshi.ui.effect.choice", both="kokeshi.ui.effect.both")


def tile_text(tr: Translator, tile: int) -> str:
    """``Samurai tile (move any kokeshi up 1)`` or an achievement tile with its level and points."""
    if is_ach(tile):
        level = ach_level(tile)
        points = DATA.ach_points[level]
        return tr(
            "kokeshi.ui.ach_tile",
            count=points,
            colour=colour_word(tr, tile),
            level=level,
            points=points,
        )
    return tr("kokeshi.ui.tile", colour=colour_word(tr, tile), effect=tile_effect(tr, tile))


def tile_short(tr: Translator, tile: int) -> str:
    """``Samurai tile`` / ``Samurai achievement 2`` (for brief mentions)."""
    if is_ach(tile):
        return tr("kokeshi.ui.ach_short", colour=colour_word(tr, tile), level=ach_level(tile))
    return tr("kokeshi.ui.tile_short", colour=colour_word(tr, tile))


def where(tr: Translator, position: int) -> str:
    """``home`` or ``space 3``."""
    if position <= 0:
        return tr("kokeshi.ui.home")
    return tr("kokeshi.ui.space", space=position)


def short_position(tr: Translator, position: int) -> str:
    """``home`` or ``3`` (on a button)."""
    return tr("kokeshi.ui.home") if position <= 0 else str(position)
