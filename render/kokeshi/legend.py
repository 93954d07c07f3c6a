"""The Kokeshi legend: every symbol, colour and board mark with its meaning (``/rules kokeshi``)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.kokeshi.data import (
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
from i18n import Translator, end_sentence
from i18n.games.kokeshi import animal_letter, animal_word, kokeshi_letter, kokeshi_word
from render.canvas import BACKGROUND, GRID, INK, draw_text, ellipsize, text_width
from render.kokeshi.layout import MIDLINE, MIN_TEXT, TITLE, YELLOW, palette
from render.kokeshi.sprites import colour_chip, draw_tile, draw_tokens, effect_tokens, kokeshi_pill

LEGEND_W = 1150
#: the widest the legend grows for a language with longer words (beyond it, rows are cut)
MAX_LEGEND_W = 1600
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


def _row_text(img: Image.Image, y: float, text: str) -> None:
    fitted = ellipsize(text, MIN_TEXT, False, img.width - TEXT_X - 20)
    draw_text(img, (TEXT_X, y), fitted, MIN_TEXT, INK, False, "lm")


def _rows(tr: Translator) -> list[str]:
    """The meaning of every row, top to bottom (the legend is as wide as the longest needs)."""
    data = load()
    return [
        *(_effect_meaning(tr, key) for key, _ in _LEGEND_EFFECTS),
        tr("kokeshi.legend.choice"),
        tr("kokeshi.legend.both"),
        *(kokeshi_word(tr, c) for c in range(len(data.columns))),
        tr("kokeshi.legend.ach"),
        tr("kokeshi.legend.yellow"),
        tr("kokeshi.legend.kokeshi"),
        tr("kokeshi.legend.midline"),
    ]


def legend(tr: Translator) -> Image.Image:
    """The effect symbols, colours and board marks with their meaning."""
    data = load()
    rows = len(_LEGEND_EFFECTS) + 2 + len(data.columns) + 4
    row_h = 44
    height = 70 + rows * row_h + 20
    widest = max(text_width(text, MIN_TEXT) for text in _rows(tr))
    width = min(max(LEGEND_W, TEXT_X + widest + 24), MAX_LEGEND_W)
    img = Image.new("RGB", (width, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    draw_text(img, (20, 34), tr("kokeshi.legend.title"), TITLE, INK, True, "lm")
    y = 70
    for key, e in _LEGEND_EFFECTS:
        draw_tokens(img, effect_tokens(tr, e), 80, y + row_h / 2, INK)
        text = _effect_meaning(tr, key)
        _row_text(img, y + row_h / 2, text)
        y += row_h
    for key, joiner in (("choice", "/"), ("both", "+")):
        draw_tokens(img, [("t", "A" + joiner + "B")], 80, y + row_h / 2, INK)
        _row_text(img, y + row_h / 2, tr(f"kokeshi.legend.{key}"))
        y += row_h
    for c in range(len(data.columns)):
        colour_chip(img, (20, y + 4, 140, y + row_h - 4), c, kokeshi_letter(tr, c))
        _row_text(img, y + row_h / 2, kokeshi_word(tr, c))
        y += row_h
    draw_tile(img, (20, y + 2, 140, y + row_h - 2), ach_tile(0, 2), tr)
    _row_text(img, y + row_h / 2, tr("kokeshi.legend.ach"))
    y += row_h
    d.rectangle((20, y + 4, 140, y + row_h - 4), fill=YELLOW, outline=GRID, width=2)
    _row_text(img, y + row_h / 2, tr("kokeshi.legend.yellow"))
    y += row_h
    kokeshi_pill(img, 100, y, y + row_h + 20, kokeshi_letter(tr, 0))  # as tall as on the board
    _row_text(img, y + row_h / 2 + 10, tr("kokeshi.legend.kokeshi"))
    y += row_h + 20
    d.line((20, y + row_h / 2, 140, y + row_h / 2), fill=MIDLINE, width=4)
    _row_text(img, y + row_h / 2, tr("kokeshi.legend.midline"))
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
    text = end_sentence(tr("kokeshi.legend.title"), tr.locale) + " " + " · ".join(_rows(tr))
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def rules_image(tr: Translator) -> Image.Image:
    """``/rules kokeshi`` shows the legend beside the summary."""
    return legend(tr)
