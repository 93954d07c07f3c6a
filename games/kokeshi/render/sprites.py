"""The pieces of the Kokeshi board: colour shapes, effect symbols, tiles, chips and kokeshi."""

from __future__ import annotations

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
    ach_level,
    is_ach,
    load,
)
from games.kokeshi.render.layout import COLOURS, GOLD, MIN_TEXT, SHAPES, STRIP, tint
from games.kokeshi.words import animal_letter, kokeshi_letter
from i18n import Translator
from render.canvas import INK, RGB, WHITE, badge, draw_text, note, text_width


def shape(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    """One of the five colour shapes centred on (cx, cy) with ``r`` as half its size."""
    note("symbol", 2 * r)
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif kind == "triangle":
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif kind == "square":
        k = r * 0.85
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill)
    elif kind == "cross":
        w = r * 0.38
        d.rectangle((cx - r, cy - w, cx + r, cy + w), fill=fill)
        d.rectangle((cx - w, cy - r, cx + w, cy + r), fill=fill)
    else:
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)


#: a token is (kind, text): kind "t" plain text, "a" an animal letter in a ring
Token = tuple[str, str]


def effect_tokens(tr: Translator, e: Effect) -> list[Token]:
    if e.type == MOVE_KOKESHI:
        return [("t", "↑" + kokeshi_letter(tr, e.kokeshi))]
    if e.type == MOVE_ANY:
        return [("t", "↑" * e.steps + "?")]
    if e.type == MOVE_RIGHT:
        return [("t", "→")]
    if e.type == MOVE_LEFT:
        return [("t", "←")]
    if e.type == MOVE_ANIMAL:
        return [("a", animal_letter(tr, e.animal))]
    if e.type == MOVE_ANY_ANIMAL:
        return [("a", "?")]
    if e.type == GAIN_TILE:
        return [("t", "+□↔" if e.where == ANY_COLUMN else "+□")]
    return [("t", "·")]


def tile_lines(tr: Translator, tile: int) -> list[list[Token]]:
    """The tile's symbols: one line, and a two-line form used when one line is too wide."""
    kind = load().tiles[tile]
    parts = [effect_tokens(tr, e) for e in kind.effects]
    joiner = "/" if kind.mode == "choice" else "+"
    if len(parts) == 1:
        return [parts[0]]
    return [parts[0], [("t", joiner), *parts[1]]]


def _token_width(tok: Token, size: int) -> int:
    kind, text = tok
    if kind == "a":
        return size + 3
    return text_width(text, size, True)


def draw_tokens(img: Image.Image, tokens: list[Token], cx: float, cy: float, ink: RGB) -> None:
    size = MIN_TEXT
    widths = [_token_width(tok, size) for tok in tokens]
    x = cx - (sum(widths) + 2 * (len(tokens) - 1)) / 2
    d = ImageDraw.Draw(img)
    for (kind, text), w in zip(tokens, widths, strict=True):
        if kind == "a":
            r = w / 2
            d.ellipse((x, cy - r, x + w, cy + r), outline=ink, width=2)
            draw_text(img, (x + r, cy + 1), text, size, ink, True, "mm")
        else:
            draw_text(img, (x + w / 2, cy), text, size, ink, True, "mm")
        x += w + 2


def draw_tile(
    img: Image.Image,
    box: tuple[int, int, int, int],
    tile: int,
    tr: Translator,
    reserve: int = 0,
) -> None:
    """A tile filling ``box``: colour strip with its shape, then its symbols (or ★ + level)."""
    x0, y0, x1, y1 = box
    d = ImageDraw.Draw(img)
    colour_index = load().colour_of(tile)
    colour = COLOURS[colour_index]
    body = GOLD if is_ach(tile) else tint(colour)
    d.rounded_rectangle(box, radius=6, fill=body, outline=INK, width=2)
    d.rounded_rectangle((x0, y0, x0 + STRIP, y1), radius=6, fill=colour, outline=INK, width=2)
    shape(d, SHAPES[colour_index], x0 + STRIP / 2, (y0 + y1) / 2, 10, WHITE)
    cx = (x0 + STRIP + x1 - reserve) / 2
    cy = (y0 + y1) / 2
    if is_ach(tile):
        draw_text(img, (cx, cy), f"★{ach_level(tile)}", MIN_TEXT + 3, INK, True, "mm")
        return
    lines = tile_lines(tr, tile)
    room = x1 - reserve - x0 - STRIP - 6
    one = [tok for line in lines for tok in line]
    fits = sum(_token_width(tok, MIN_TEXT) + 2 for tok in one) <= room
    if fits or len(lines) < 2 or y1 - y0 < 56:
        draw_tokens(img, one, cx, cy, INK)
    else:
        draw_tokens(img, lines[0], cx, cy - 14, INK)
        draw_tokens(img, lines[1], cx, cy + 15, INK)


def colour_chip(img: Image.Image, box: tuple[int, int, int, int], column: int, text: str) -> None:
    """A column / colour label: the colour, its shape and ``text``."""
    x0, y0, _x1, y1 = box
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=8, fill=COLOURS[column], outline=INK, width=2)
    shape(d, SHAPES[column], x0 + 17, (y0 + y1) / 2, 10, WHITE)
    draw_text(img, (x0 + 34, (y0 + y1) / 2), text, MIN_TEXT, INK, True, "lm")


def kokeshi_pill(img: Image.Image, x1: int, y0: int, y1: int, letter: str) -> None:
    """A kokeshi: a white pill with its column letter, standing at the right of a cell."""
    badge(img, "pill", (x1 - 36, y0 + 4, x1 - 4, y1 - 4), WHITE, INK, letter, MIN_TEXT, INK, 3)
