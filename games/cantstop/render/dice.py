"""The dice corner: the last roll, split into the pairing the last move used, or the bust."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.cantstop.engine.rules import split_of_move
from games.cantstop.engine.state import CantStopState, Phase
from games.cantstop.render.layout import ALERT, DICE_X, DICE_Y, DIE
from i18n import Translator
from render.canvas import (
    BACKGROUND,
    INK,
    MUTED,
    PLAYER_COLOURS,
    WHITE,
    badge,
    draw_text,
    note,
    paste_shape,
)

_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def draw_die(img: Image.Image, x: int, y: int, value: int, faded: bool) -> None:
    ink = MUTED if faded else INK
    note("symbol", DIE)
    paste_shape(img, "round", (x, y, x + DIE, y + DIE), ink)
    paste_shape(img, "round", (x, y, x + DIE, y + DIE), WHITE, inset=2)
    r = 5
    for fx, fy in _PIPS[value]:
        cx, cy = round(x + fx * DIE), round(y + fy * DIE)
        paste_shape(img, "pill", (cx - r, cy - r, cx + r, cy + r), ink)


def draw_dice(img: Image.Image, state: CantStopState, tr: Translator) -> None:
    """Nothing while the dice are in the air or the game is over."""
    if not state.dice or state.phase in (Phase.DICE, Phase.OVER):
        return
    busted = state.bust and state.phase not in (Phase.MOVE, Phase.DECIDE)
    split = split_of_move(state.dice, state.last_move) if state.phase == Phase.DECIDE else None
    if split is None:
        for i, value in enumerate(state.dice):
            draw_die(img, DICE_X + i * (DIE + 10), DICE_Y, value, faded=busted)
        if busted:
            box = (DICE_X, DICE_Y + DIE + 12, DICE_X + 4 * DIE + 30, DICE_Y + DIE + 54)
            paste_shape(img, "round", box, ALERT)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            draw_text(img, (cx, cy), tr("cantstop.board.bust"), 26, WHITE, True, "mm")
        return
    used = list(state.last_move)
    for p, (a, b) in enumerate(split):
        x = DICE_X + p * (2 * DIE + 26)
        draw_die(img, x, DICE_Y, state.dice[a], faded=False)
        draw_die(img, x + DIE + 6, DICE_Y, state.dice[b], faded=False)
        total = state.dice[a] + state.dice[b]
        box = (x + 8, DICE_Y + DIE + 10, x + 2 * DIE - 2, DICE_Y + DIE + 46)
        if total in used:
            used.remove(total)
            colour = PLAYER_COLOURS[state.active]
            badge(img, "round", box, colour, INK, str(total), 24)
        else:  # the sum this move did not use, struck through
            badge(img, "round", box, BACKGROUND, MUTED, str(total), 24, MUTED)
            ImageDraw.Draw(img).line((box[0] + 6, box[3] - 7, box[2] - 6, box[1] + 7), MUTED, 3)
