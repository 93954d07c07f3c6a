"""Animal and spirit cards as drawn: the full card with its pattern and track, and the short chip
of a card held."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.harmonies.engine.cards import CARDS
from games.harmonies.render.layout import CARD_H, CARD_W, MIN_TEXT, PATTERN_R, SQRT3, hex_points
from games.harmonies.render.palette import (
    CARD_FILL,
    EARNED,
    HEX_EDGE,
    ICON,
    SIDE,
    SPIRIT_FILL,
    TOKEN,
)
from games.harmonies.render.sprites import SS, icon, kind_stack
from games.harmonies.words import card_number
from i18n import Translator
from render.canvas import (
    BACKGROUND,
    GRID,
    INK,
    WHITE,
    badge,
    draw_text,
    note,
    paste_shape,
    recorded_cache,
    text_width,
)

#: the pitch of a held card chip's track boxes (each 20 px tall, readable on a phone)
SLOT = 16


@recorded_cache
def card_sprite(card_id: int, placed: int, held: bool, tr: Translator) -> Image.Image:
    """One card: number, habitat pattern (cube hex marked), point track."""
    card = CARDS[card_id]
    fill = SPIRIT_FILL if card.spirit else CARD_FILL
    img = Image.new("RGB", (CARD_W, CARD_H), BACKGROUND)
    badge(img, "round", (0, 0, CARD_W, CARD_H), fill, HEX_EDGE, "", 0)
    label = card_number(tr, card_id)
    draw_text(img, (10, 20), label, MIN_TEXT, INK, True, "lm")
    if card.spirit:
        draw_text(img, (CARD_W - 10, 20), "✦", MIN_TEXT, INK, True, "rm")
    # pattern, in its printed orientation, centred in the middle band
    r = PATTERN_R
    pattern = card.pattern
    raw_x = [1.5 * dq for (dq, dr), _ in pattern]
    raw_y = [SQRT3 * (dr + dq / 2) for (dq, dr), _ in pattern]
    xs = [x - min(raw_x) for x in raw_x]
    ys = [y - min(raw_y) for y in raw_y]
    span_x, span_y = max(xs) * r + 2 * r, max(ys) * r + SQRT3 * r
    ox = (CARD_W - span_x) / 2 + r
    oy = 40 + (104 - span_y) / 2 + SQRT3 / 2 * r
    hexes = [
        (ox + x * r, oy + y * r, kind_stack(kind))
        for (_, kind), x, y in zip(pattern, xs, ys, strict=True)
    ]
    for index, (cx, cy, stack) in enumerate(hexes):
        sprite = pattern_sprite(stack, r, index == 0)
        img.paste(sprite, (round(cx - sprite.width / 2), round(cy - sprite.height / 2)), sprite)
    for cx, cy, stack in hexes:  # after every hex, so no neighbour covers a digit
        if len(stack) > 1:
            text = str(len(stack))
            draw_text(img, (cx + r * 0.5, cy), text, MIN_TEXT, ICON[stack[-1]], True, "mm")
    # track
    if card.spirit:
        text = tr("harmonies.board.spirit_done" if placed else "harmonies.board.spirit")
        draw_text(img, (CARD_W / 2, CARD_H - 26), text, MIN_TEXT, INK, True, "mm")
        return img
    values = card.track
    rows = [values[:3], values[3:]] if len(values) > 3 else [values]
    y = CARD_H - 26 - 32 * (len(rows) - 1)
    k = 0
    for row in rows:
        w = 40
        x = (CARD_W - w * len(row)) / 2
        for value in row:
            box = (round(x + 2), round(y - 14), round(x + w - 2), round(y + 14))
            earned = held and k < placed
            current = held and k == placed - 1
            badge(img, "round", box, EARNED if earned else WHITE, INK if current else GRID, "", 0)
            draw_text(img, ((box[0] + box[2]) / 2, y), str(value), MIN_TEXT, INK, current, "mm")
            x += w
            k += 1
        y += 32
    return img


@recorded_cache
def pattern_sprite(stack: tuple[str, ...], r: int, cube: bool) -> Image.Image:
    """One hex of a card's pattern seen from above, as RGBA, so it reads on a phone: the top
    token's colour with its shape cue, moved aside for the stack's height when that is more than
    one token (the card writes the digit), and for the hex the animal cube goes on, an ink frame
    with a cube on it."""
    s = SS
    w, h = 2 * r, math.ceil(SQRT3 * r)
    img = Image.new("RGBA", (w * s, h * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx, cy = w * s / 2, h * s / 2
    top = stack[-1]
    d.polygon(hex_points(cx, cy, (r - 0.5) * s), fill=INK if cube else SIDE[top])
    d.polygon(hex_points(cx, cy, (r - (3.5 if cube else 2)) * s), fill=TOKEN[top])
    size = r * 0.8
    shift = -r * 0.36 if len(stack) > 1 else 0.0
    note("symbol", size)  # the shape cue
    box = (cx + (shift - size / 2) * s, cy - size / 2 * s, cx + (shift + size / 2) * s)
    icon(d, top, (*box, cy + size / 2 * s))
    if cube:
        note("symbol", 2 * r)  # the framed hex says where the cube goes
        c = r * 0.5 * s
        y0 = 0.0
        d.rectangle((cx - c / 2, y0, cx + c / 2, y0 + c), fill=INK)
        d.rectangle(
            (cx - c / 2 + s * 2, y0 + s * 2, cx + c / 2 - s * 2, y0 + c - s * 2), fill=WHITE
        )
    return img.reduce(s)


def chip_width(card_id: int, tr: Translator) -> int:
    label = card_number(tr, card_id)
    return 18 + text_width(label, MIN_TEXT, True) + len(CARDS[card_id].track) * SLOT


def chip(img: Image.Image, x: int, y: int, card_id: int, placed: int, tr: Translator) -> int:
    """A held card in short: its number and one box per track value (filled when earned)."""
    card = CARDS[card_id]
    slots = len(card.track)
    label = card_number(tr, card_id)
    w = chip_width(card_id, tr)
    fill = SPIRIT_FILL if card.spirit else CARD_FILL
    badge(img, "round", (x, y, x + w, y + 34), fill, HEX_EDGE, "", 0)
    draw_text(img, (x + 8, y + 17), label, MIN_TEXT, INK, True, "lm")
    bx = x + w - slots * SLOT - 4
    note("symbol", 20)
    for k in range(slots):
        box = (bx + k * SLOT, y + 7, bx + k * SLOT + SLOT - 3, y + 27)
        paste_shape(img, "round", box, INK)
        if k >= placed:
            paste_shape(img, "round", box, WHITE, inset=2)
    return w
