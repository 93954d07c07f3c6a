"""Harmonies board picture and its alt text.

A 1280x960 picture. Left: the focus player's board, large, every hex labelled with the code the
actions use (``c3``) and its token stack drawn as a pile of discs, animal cubes as white cubes
on top; below it that player's cards with their habitat patterns and point tracks. Right: the
central board, the face-up animal cards, the other players' boards (smaller) with their cards
in progress, and the running score per category for everyone.

One module per job: ``layout`` (sizes and geometry), ``palette``, ``sprites`` (pieces),
``cards``, ``boards``, ``panels``, ``status`` (the top line) and ``alt_text``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.harmonies import scoring
from engines.harmonies.state import HarmoniesState
from i18n import Translator
from render.canvas import (
    BACKGROUND,
    INK,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    badge,
    draw_text,
    ellipsize,
)
from render.harmonies.alt_text import describe
from render.harmonies.boards import draw_board, empty_board
from render.harmonies.cards import card_sprite
from render.harmonies.layout import (
    BOARD_Y,
    CARD_H,
    HEIGHT,
    LEFT_X,
    MIN_TEXT,
    RIGHT_X,
    WIDTH,
    board_size,
)
from render.harmonies.palette import PALETTE
from render.harmonies.panels import (
    draw_central,
    draw_display,
    draw_focus_cards,
    draw_others,
    draw_scores,
    draw_top_bar,
)
from render.harmonies.sprites import disc_sprite, stack_sprite

__all__ = [
    "HEIGHT",
    "WIDTH",
    "card_sprite",
    "describe",
    "disc_sprite",
    "draw",
    "draw_rgb",
    "empty_board",
    "stack_sprite",
]


def draw_rgb(
    state: HarmoniesState,
    tr: Translator,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The picture in full colour, before ``draw`` reduces it to the palette."""
    focus = state.active if focus_seat is None else focus_seat
    focus = min(max(focus, 0), state.seats - 1)
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw_top_bar(img, state, tr, names)
    radius = 60 if state.side == "A" else 48
    label = tr("harmonies.board.board_of", player=tr.player(focus, names))
    draw_text(
        img, (LEFT_X + 40, BOARD_Y + 14), ellipsize(label, MIN_TEXT, True, 480), MIN_TEXT, INK, True
    )
    badge(
        img,
        "pill",
        (LEFT_X, BOARD_Y, LEFT_X + 30, BOARD_Y + 30),
        PLAYER_COLOURS[focus],
        INK,
        PLAYER_LETTERS[focus],
        MIN_TEXT,
    )
    draw_board(img, state.side, state.players[focus], radius, (LEFT_X, BOARD_Y + 36), True)
    _, bh = board_size(state.side, radius)
    draw_focus_cards(img, state, focus, tr, BOARD_Y + 36 + bh + 8)
    draw_central(img, state, tr)
    draw_display(img, state, tr)
    others_top = BOARD_Y + 116 + 32 + CARD_H + 14
    score_top = HEIGHT - 62 - 38 * state.seats
    if state.seats > 1:
        draw_others(img, state, focus, tr, names, others_top, score_top)
    else:
        suns = scoring.solo_suns(state)
        text = tr("harmonies.board.suns", count=suns, suns=suns)
        draw_text(img, (RIGHT_X, others_top + 16), text, MIN_TEXT, INK, True, "lm")
    draw_scores(img, state, tr, names, score_top)
    return img


def draw(
    state: HarmoniesState,
    tr: Translator,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The board of ``state`` as a 1280x960 palette image.

    ``focus_seat`` chooses whose board is drawn large (default: the player to move);
    ``names`` gives optional display names per seat.
    """
    return PALETTE.apply(draw_rgb(state, tr, focus_seat, names))
