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
from typing import Any

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
from render.harmonies.highlights import highlights
from render.harmonies.layout import (
    BOARD_Y,
    CARD_H,
    HEIGHT,
    LEFT_X,
    MIN_TEXT,
    RIGHT_X,
    TOP_BAR,
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
    "SHARED_W",
    "WIDTH",
    "card_sprite",
    "describe",
    "disc_sprite",
    "draw",
    "draw_rgb",
    "empty_board",
    "highlights",
    "stack_sprite",
    "views",
]


#: the drawing canvas is taller than the old picture so the other players' boards get room
CANVAS_H = HEIGHT + 140
#: the focus board with its cards; the central board, cards on offer, other boards and scores
PLAYER_BOX = (0, BOARD_Y - 6, RIGHT_X - 4, HEIGHT)
SHARED_BOX = (RIGHT_X - 8, TOP_BAR + 6, WIDTH, CANVAS_H)
SHARED_W = SHARED_BOX[2] - SHARED_BOX[0]


def _focus(state: HarmoniesState, focus_seat: int | None) -> int:
    focus = state.active if focus_seat is None else focus_seat
    return min(max(focus, 0), state.seats - 1)


def _canvas(
    state: HarmoniesState,
    tr: Translator,
    focus: int,
    since: HarmoniesState | None,
    names: Sequence[str] | None,
    area: str | None,
) -> Image.Image:
    """Every panel the picture shows at its place on one canvas (``area`` skips the other half)."""
    img = Image.new("RGB", (WIDTH, CANVAS_H), BACKGROUND)
    if area in (None, "player"):
        marks = highlights(since, state, focus)
        radius = 60 if state.side == "A" else 48
        label = tr("harmonies.board.board_of", player=tr.player(focus, names))
        draw_text(
            img,
            (LEFT_X + 40, BOARD_Y + 14),
            ellipsize(label, MIN_TEXT, True, 480),
            MIN_TEXT,
            INK,
            True,
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
        ringed = {i for kind, i in marks if kind in ("token", "cube")}
        origin = (LEFT_X, BOARD_Y + 36)
        draw_board(img, state.side, state.players[focus], radius, origin, True, ringed)
        _, bh = board_size(state.side, radius)
        cards = {i for kind, i in marks if kind == "card"}
        draw_focus_cards(img, state, focus, tr, BOARD_Y + 36 + bh + 8, cards)
    if area in (None, "shared"):
        draw_central(img, state, tr)
        draw_display(img, state, tr)
        others_top = BOARD_Y + 116 + 32 + CARD_H + 14
        score_top = CANVAS_H - 62 - 38 * state.seats
        if state.seats > 1:
            draw_others(img, state, focus, tr, names, others_top, score_top)
        else:
            suns = scoring.solo_suns(state)
            text = tr("harmonies.board.suns", count=suns, suns=suns)
            draw_text(img, (RIGHT_X, others_top + 16), text, MIN_TEXT, INK, True, "lm")
        draw_scores(img, state, tr, names, score_top)
    return img


def _next_bar(
    state: HarmoniesState, tr: Translator, names: Sequence[str] | None, width: int
) -> Image.Image:
    """The top bar: who does what now (at the end of a turn, that is who plays next)."""
    bar = Image.new("RGB", (width, TOP_BAR), BACKGROUND)
    draw_top_bar(bar, state, tr, names, width)
    return bar


def _stack(parts: list[Image.Image]) -> Image.Image:
    img = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)), BACKGROUND)
    y = 0
    for part in parts:
        img.paste(part, (0, y))
        y += part.height
    return img


def draw_rgb(
    state: HarmoniesState,
    tr: Translator,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
    since: HarmoniesState | None = None,
    area: str | None = None,
) -> Image.Image:
    """The picture in full colour, before ``draw`` reduces it to the palette."""
    focus = _focus(state, focus_seat)
    canvas = _canvas(state, tr, focus, since, names, area)
    parts = []
    if area == "player":
        parts.append(_next_bar(state, tr, names, PLAYER_BOX[2] - PLAYER_BOX[0]))
    if area in (None, "player"):
        if area is None:
            parts.append(_next_bar(state, tr, names, SHARED_W))
        parts.append(canvas.crop(PLAYER_BOX))
    if area == "shared":
        parts.append(_next_bar(state, tr, names, SHARED_W))
    if area in (None, "shared"):
        parts.append(canvas.crop(SHARED_BOX))
    return _stack(parts)


def draw(
    state: HarmoniesState,
    tr: Translator,
    focus_seat: int | None = None,
    since: HarmoniesState | None = None,
    names: Sequence[str] | None = None,
    area: str | None = None,
) -> Image.Image:
    """The board of ``state`` as a portrait palette image: the top bar (who does what now), the
    focus board with its cards, then the central board, the cards on offer, the other boards and
    the scores.

    ``focus_seat`` chooses whose board is drawn large (default: the player to move), with the
    changes since ``since`` marked (``highlights``); ``names`` gives display names per seat;
    ``area`` ``player`` or ``shared`` draws one half alone (see ``views``).
    """
    return PALETTE.apply(draw_rgb(state, tr, focus_seat, names, since, area))


def views(state: HarmoniesState, since: HarmoniesState, mover: int) -> list[dict[str, Any]]:
    """The end-of-turn pictures: the mover's board with the turn marked (under the top bar that
    says who plays next), then the shared area."""
    return [
        {"focus_seat": mover, "since": since, "area": "player"},
        {"focus_seat": mover, "area": "shared"},
    ]
