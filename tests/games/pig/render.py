"""Pig's board: the seat to move at the top, a row per seat with its score and progress to the
goal, the turn's total and the last die at the bottom."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from i18n import Translator
from render.canvas import BACKGROUND, GRID, INK, MUTED, PLAYER_COLOURS, draw_text
from tests.games.pig.engine import PigState

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT = 24, 616
ROW = 62


def _status(s: PigState, tr: Translator, names: Sequence[str] | None) -> str:
    if s.winners:
        return tr("pig.board.over")
    return tr("pig.board.to_move", player=tr.player(s.mover, names))


def draw(s: PigState, tr: Translator, names: Sequence[str] | None = None) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    draw_text(img, (LEFT, 30), _status(s, tr, names), 24, INK, True, "lm")
    for seat, score in enumerate(s.scores):
        y = 74 + seat * ROW
        mark = seat in s.winners or (not s.winners and seat == s.mover)
        draw_text(img, (LEFT, y), tr.player(seat, names), 20, INK, mark, "lm")
        draw_text(img, (RIGHT, y), tr.number(score), 20, INK, True, "rm")
        bar = (LEFT, y + 16, RIGHT, y + 28)
        d.rounded_rectangle(bar, radius=6, outline=GRID, width=2)
        filled = LEFT + (RIGHT - LEFT) * min(score, s.goal) // s.goal
        if filled > LEFT + 12:
            d.rounded_rectangle((LEFT, y + 16, filled, y + 28), radius=6, fill=PLAYER_COLOURS[seat])
    die = tr("pig.board.die", die=s.die) if s.die is not None else tr("pig.board.no_die")
    footer = tr("pig.board.turn", total=tr.number(s.total), die=die, goal=tr.number(s.goal))
    draw_text(img, (LEFT, HEIGHT - 24), footer, 20, MUTED, False, "lm")
    return img


def describe(s: PigState, tr: Translator, names: Sequence[str] | None = None) -> str:
    scores = tr.join(
        [tr("pig.alt.score", player=tr.player(i, names), score=v) for i, v in enumerate(s.scores)]
    )
    return tr("pig.alt", status=_status(s, tr, names), scores=scores, total=s.total, goal=s.goal)
