"""The Kokeshi legend: every symbol, colour and board mark with its meaning (``/rules kokeshi``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from games.kokeshi.engine.data import (
    ANY_COLUMN,
    GAIN_TILE,
    MOVE_ANIMAL,
    MOVE_ANY,
    MOVE_ANY_ANIMAL,
    MOVE_KOKESHI,
    MOVE_LEFT,
    MOVE_RIGHT,
    Effect,
    ach_tile,
    load,
)
from games.kokeshi.render.layout import MIDLINE, MIN_TEXT, TITLE, YELLOW, palette
from games.kokeshi.render.sprites import (
    colour_chip,
    draw_tile,
    draw_tokens,
    effect_tokens,
    kokeshi_pill,
)
from games.kokeshi.words import animal_letter, animal_word, kokeshi_letter, kokeshi_word
from i18n import Translator, end_sentence
from render.canvas import BACKGROUND, GRID, INK, draw_text, ellipsize, wrap

#: as wide as the board, so the legend reads on a phone as the board does (meanings wrap)
LEGEND_W = 780
MAX_ALT = 1024  # Discord's limit for an attachment's description
TEXT_X = 160
_LEGEND_EFFECTS: Sequence[tuple[str, Effect]] = (
    ("move_kokeshi", Effect(MOVE_KOKESHI, kokeshi=0)),
    ("move_any_1", Effect(MOVE_ANY, steps=1)),
    ("move_any_2", Effect(MOVE_ANY, steps=2)),
    ("move_kokeshi_right", Effect(MOVE_RIGHT)),
    ("move_kokeshi_left", Effect(MOVE_LEFT)),
    ("move_animal", Effect(MOVE_ANIMAL, animal=0)),
    ("move_any_animal", Effect(MOVE_ANY_ANIMAL)),
    ("gain_same_column", Effect(GAIN_TILE, where="same_column")),
    ("gain_any_column", Effect(GAIN_TILE, where=ANY_COLUMN)),
)


#: a row's height: its symbol's band, or its lines of text when the meaning wraps
ROW_H, LINE_H = 44, 30
#: a symbol drawn in the band ``(y0, y1)`` at the left of its row
Symbol = Callable[[Image.Image, float, float], None]


def _lines(text: str, width: int) -> list[str]:
    return wrap(text, MIN_TEXT, False, width - TEXT_X - 20, max_lines=3)


def _row_height(text: str, width: int, band: int) -> int:
    return max(band, LINE_H * len(_lines(text, width)) + 14)


def _symbols(tr: Translator) -> list[tuple[Symbol, str, int]]:
    """Every row, top to bottom: how to draw its symbol, its meaning, its symbol band's height."""
    data = load()
    rows: list[tuple[Symbol, str, int]] = []

    def tokens(found: list[tuple[str, str]]) -> Symbol:
        return lambda img, y0, y1: draw_tokens(img, found, 80, (y0 + y1) / 2, INK)

    for key, e in _LEGEND_EFFECTS:
        rows.append((tokens(effect_tokens(tr, e)), _effect_meaning(tr, key), ROW_H))
    for key, joiner in (("choice", "/"), ("both", "+")):
        rows.append((tokens([("t", "A" + joiner + "B")]), tr(f"kokeshi.legend.{key}"), ROW_H))
    for c in range(len(data.columns)):

        def chip(img: Image.Image, y0: float, y1: float, c: int = c) -> None:
            mid = round((y0 + y1) / 2)
            colour_chip(img, (20, mid - 18, 140, mid + 18), c, kokeshi_letter(tr, c))

        rows.append((chip, kokeshi_word(tr, c), ROW_H))

    def achievement(img: Image.Image, y0: float, y1: float) -> None:
        mid = round((y0 + y1) / 2)
        draw_tile(img, (20, mid - 20, 140, mid + 20), ach_tile(0, 2), tr)

    def yellow(img: Image.Image, y0: float, y1: float) -> None:
        mid = round((y0 + y1) / 2)
        box = (20, mid - 18, 140, mid + 18)
        ImageDraw.Draw(img).rectangle(box, fill=YELLOW, outline=GRID, width=2)

    def kokeshi(img: Image.Image, y0: float, y1: float) -> None:
        mid = round((y0 + y1) / 2)
        kokeshi_pill(img, 100, mid - 32, mid + 32, kokeshi_letter(tr, 0))  # as tall as on the board

    def midline(img: Image.Image, y0: float, y1: float) -> None:
        mid = round((y0 + y1) / 2)
        ImageDraw.Draw(img).line((20, mid, 140, mid), fill=MIDLINE, width=4)

    rows += [
        (achievement, tr("kokeshi.legend.ach"), ROW_H),
        (yellow, tr("kokeshi.legend.yellow"), ROW_H),
        (kokeshi, tr("kokeshi.legend.kokeshi"), ROW_H + 20),
        (midline, tr("kokeshi.legend.midline"), ROW_H),
    ]
    return rows


def legend(tr: Translator) -> Image.Image:
    """The effect symbols, colours and board marks with their meaning: a portrait picture as
    wide as the board, each meaning wrapped into lines beside its symbol."""
    rows = _symbols(tr)
    width = LEGEND_W
    height = 70 + sum(_row_height(text, width, band) for _, text, band in rows) + 20
    img = Image.new("RGB", (width, height), BACKGROUND)
    title = ellipsize(tr("kokeshi.legend.title"), TITLE, True, width - 40)
    draw_text(img, (20, 34), title, TITLE, INK, True, "lm")
    y = 70
    for symbol, text, band in rows:
        h = _row_height(text, width, band)
        symbol(img, y, y + h)
        lines = _lines(text, width)
        first = y + h / 2 - LINE_H * (len(lines) - 1) / 2
        for k, line in enumerate(lines):
            draw_text(img, (TEXT_X, first + k * LINE_H), line, MIN_TEXT, INK, False, "lm")
        y += h
    return palette().apply(img)


def _effect_meaning(tr: Translator, key: str) -> str:
    if key == "move_kokeshi":
        return tr(
            "kokeshi.legend.move_kokeshi", letter=kokeshi_letter(tr, 0), kokeshi=kokeshi_word(tr, 0)
        )
    if key == "move_animal":
        letters = tr.sep.join(
            f"{animal_letter(tr, a)} = {animal_word(tr, a)}" for a in range(len(load().animals))
        )
        return tr("kokeshi.legend.move_animal", animals=letters)
    return tr(f"kokeshi.legend.{key}")


def rules_alt(tr: Translator) -> str:
    """The legend's alt text: its title, then the meaning of every row, top to bottom."""
    meanings = " · ".join(meaning for _, meaning, _ in _symbols(tr))
    text = end_sentence(tr("kokeshi.legend.title"), tr.locale) + " " + meanings
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def rules_image(tr: Translator) -> Image.Image:
    """``/rules kokeshi`` shows the legend beside the summary."""
    return legend(tr)
