"""Nim's board: one row of sticks per heap, the seat to move named at the top."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import Translator
from render.canvas import BACKGROUND, GRID, INK, MUTED, PLAYER_COLOURS, draw_text
from tests.games.nim.engine import NimState

WIDTH, HEIGHT = 640, 360
STICK_W, STICK_H, GAP = 18, 56, 22


def _status(s: NimState, tr: Translator, names: Sequence[str] | None) -> str:
    if s.winner is not None:
        return tr("nim.board.won", player=tr.player(s.winner, names))
    if s.mover < 0:
        return tr("nim.board.drawing")
    return tr("nim.board.to_move", player=tr.player(s.mover, names))


def draw(s: NimState, tr: Translator, names: Sequence[str] | None = None) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    draw_text(img, (24, 30), _status(s, tr, names), 24, INK, True, "lm")
    colour = PLAYER_COLOURS[s.mover] if s.mover >= 0 else MUTED
    for row, size in enumerate(s.heaps):
        y = 70 + row * (STICK_H + 14)
        draw_text(img, (24, y + STICK_H / 2), tr("nim.heap", heap=row + 1), 20, MUTED, True, "lm")
        for i in range(max(s.heaps)):
            x = 140 + i * (STICK_W + GAP)
            box = (x, y, x + STICK_W, y + STICK_H)
            if i < size:
                d.rounded_rectangle(box, radius=6, fill=colour)
            else:
                d.rounded_rectangle(box, radius=6, outline=GRID, width=2)
    return img


def describe(s: NimState, tr: Translator, names: Sequence[str] | None = None) -> str:
    heaps = tr.join([tr("nim.alt.heap", heap=i + 1, sticks=n) for i, n in enumerate(s.heaps)])
    return tr("nim.alt", status=_status(s, tr, names), heaps=heaps)
