"""Pieces seen on the picture: token stacks from the side, tokens from above, animal cubes.

Tokens carry a shape besides their colour so the board reads without colour vision: waves on
water, a peak on mountains, a trunk line on brown, a leaf on green, furrows on fields and a
house on red.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.harmonies.engine.cards import KIND_STACKS
from games.harmonies.render.palette import ICON, SIDE, TOKEN
from render.canvas import INK, WHITE, note, recorded_cache

SS = 4  # supersampling for sprites
#: the shape cue on a stack's top face, as fractions of the stack's width (the face is 0.42 of
#: it tall): as large as the face allows, since it is what a colour-blind player reads
ICON_W, ICON_H = 0.4, 0.32
#: a token seen from above keeps this fraction of its size free on each side of its shape cue
DISC_MARGIN = 0.19


def icon(d: ImageDraw.ImageDraw, colour: str, box: tuple[float, float, float, float]) -> None:
    """The shape cue of a token colour, drawn inside ``box`` (supersampled coordinates)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    ink = ICON[colour]
    line = max(2, round(min(w, h) * 0.16))
    if colour == "blue":
        for fy in (0.3, 0.72):
            pts = [
                (x0 + w * k / 12, y0 + h * fy + math.sin(k / 12 * 2 * math.pi) * h * 0.14)
                for k in range(13)
            ]
            d.line(pts, fill=ink, width=line, joint="curve")
    elif colour == "grey":
        d.polygon([(x0 + w / 2, y0), (x1, y1), (x0, y1)], fill=ink)
    elif colour == "brown":
        d.rectangle((x0 + w * 0.38, y0, x1 - w * 0.38, y1), fill=ink)
        d.line([(x0 + w / 2, y0 + h * 0.4), (x0 + w * 0.15, y0 + h * 0.1)], fill=ink, width=line)
    elif colour == "green":
        d.ellipse((x0 + w * 0.12, y0, x1 - w * 0.12, y1 - h * 0.1), fill=ink)
        d.line([(x0 + w / 2, y0 + h * 0.2), (x0 + w / 2, y1)], fill=TOKEN["green"], width=line)
    elif colour == "yellow":
        for fy in (0.15, 0.5, 0.85):
            d.line([(x0, y0 + h * fy), (x1, y0 + h * fy)], fill=ink, width=line)
    else:  # red: a house
        d.polygon(
            [(x0 + w / 2, y0), (x1, y0 + h * 0.45), (x1, y1), (x0, y1), (x0, y0 + h * 0.45)],
            fill=ink,
        )


@recorded_cache
def stack_sprite(stack: tuple[str, ...], width: int, cube: bool = False) -> Image.Image:
    """A pile of token discs seen from the side (bottom first), as an RGBA image.

    Discs are ``width`` wide; the top face carries the colour's shape (what lies below a top
    colour follows from the stacking rules, so the height is the other thing to read).
    ``cube`` adds an animal cube on top.
    """
    note("symbol", width)
    s = SS
    face = width * 0.42
    thick = width * 0.22
    height = face + thick * 3 + (width * 0.4 if cube else 0)
    img = Image.new("RGBA", (width * s, math.ceil(height) * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    bottom = (height - face / 2 - thick) * s  # centre of the lowest disc's top face
    for level, colour in enumerate(stack):
        cy = bottom - level * thick * s
        half = face / 2 * s
        x0, x1 = s, (width - 1) * s
        edge = SIDE[colour]
        d.ellipse((x0, cy - half + thick * s, x1, cy + half + thick * s), fill=edge)
        d.rectangle((x0, cy, x1, cy + thick * s), fill=edge)
        d.ellipse((x0, cy - half, x1, cy + half), fill=TOKEN[colour])
        if level == len(stack) - 1:
            iw, ih = width * ICON_W * s, width * ICON_H * s
            mid = (x0 + x1) / 2
            note("symbol", ih / s)  # the shape cue is what a colour-blind player reads
            icon(d, colour, (mid - iw / 2, cy - ih / 2, mid + iw / 2, cy + ih / 2))
    if cube and stack:
        top = bottom - (len(stack) - 1) * thick * s
        size = width * 0.36 * s
        note("symbol", size / s)
        mid = width * s / 2
        box = (mid - size / 2, top - size * 1.05, mid + size / 2, top - size * 0.05)
        d.rectangle(box, fill=INK)
        inset = max(s * 2, size * 0.14)
        d.rectangle((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=WHITE)
    return img.reduce(s)


@recorded_cache
def disc_sprite(colour: str, size: int) -> Image.Image:
    """A token seen from above (central board), as an RGBA image."""
    note("symbol", size)
    s = SS
    img = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, size * s - 1, size * s - 1), fill=SIDE[colour])
    d.ellipse((s * 2, s * 2, size * s - 1 - s * 2, size * s - 1 - s * 2), fill=TOKEN[colour])
    m = size * s * DISC_MARGIN
    note("symbol", size - 2 * m * 1.05 / s)  # the shape cue
    icon(d, colour, (m, m * 1.05, size * s - m, size * s - m * 1.05))
    return img.reduce(s)


@recorded_cache
def cube_sprite(size: int) -> Image.Image:
    note("symbol", size)
    img = Image.new("RGBA", (size, size), INK)
    inset = max(2, size // 6)
    ImageDraw.Draw(img).rectangle((inset, inset, size - 1 - inset, size - 1 - inset), fill=WHITE)
    return img


def paste_at(img: Image.Image, sprite: Image.Image, cx: float, bottom: float) -> None:
    """Paste ``sprite`` centred on ``cx`` with its lower edge at ``bottom``."""
    x = round(cx - sprite.width / 2)
    y = round(bottom - sprite.height)
    img.paste(sprite, (x, y), sprite)


def kind_stack(kind: str) -> tuple[str, ...]:
    """The stack drawn for a pattern kind (a building is shown on grey)."""
    if kind == "B":
        return ("grey", "red")
    return next(iter(KIND_STACKS[kind]))
