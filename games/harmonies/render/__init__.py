"""Harmonies board pictures and their alt text.

Three areas, each a picture of its own so it reads at phone width: the player's area (the focus
player's board, large, every hex labelled with the code the actions use (``c3``) and its token
stack drawn as a pile of discs, animal cubes as white cubes on top; below it that player's cards
with their habitat patterns and point tracks), the shared area (the central board, the animal
cards on offer, the running score per category for everyone) and the other players' boards with
their cards in progress. The channel posts the mover's area and the shared area after a turn
(``views``), the first two during a turn and all three for ``/game board`` (``board_views``).

One module per job: ``layout`` (sizes and geometry), ``palette``, ``sprites`` (pieces),
``cards``, ``boards``, ``panels``, ``status`` (the top line) and ``alt_text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from games.harmonies.engine import scoring
from games.harmonies.engine.state import HarmoniesState, Phase
from games.harmonies.render.alt_text import describe
from games.harmonies.render.boards import draw_board, empty_board
from games.harmonies.render.cards import card_sprite
from games.harmonies.render.highlights import highlights
from games.harmonies.render.layout import (
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
from games.harmonies.render.palette import PALETTE
from games.harmonies.render.panels import (
    OTHER_RADIUS,
    OVERVIEW_RADIUS,
    draw_central,
    draw_display,
    draw_focus_cards,
    draw_others,
    draw_scores,
    draw_top_bar,
    others_height,
)
from games.harmonies.render.sprites import disc_sprite, stack_sprite
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
from render.names import sentence_names

__all__ = [
    "HEIGHT",
    "SHARED_W",
    "WIDTH",
    "board_views",
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


#: the drawing canvas the player's and the shared area are cut from
CANVAS_H = HEIGHT + 140
#: the focus board with its cards; the central board, the cards on offer and the scores
PLAYER_BOX = (0, BOARD_Y - 6, RIGHT_X - 4, HEIGHT)
SHARED_LEFT, SHARED_TOP = RIGHT_X - 8, TOP_BAR + 6
SHARED_W = WIDTH - SHARED_LEFT
#: the other players' boards are as wide as the player's area
OTHERS_W = PLAYER_BOX[2] - PLAYER_BOX[0]
#: where the score table (or a solo game's suns) starts in the shared area
SCORES_Y = BOARD_Y + 116 + 32 + CARD_H + 14


def _shared_bottom(state: HarmoniesState) -> int:
    """The lower edge of the shared area: under the score table."""
    return SCORES_Y + (40 if state.seats == 1 else 0) + 58 + 38 * state.seats


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
) -> tuple[Image.Image, int]:
    """Every panel the picture shows at its place on one canvas (``area`` skips the other
    half), and the lower edge of the player's area (under the lowest thing drawn in it)."""
    img = Image.new("RGB", (WIDTH, CANVAS_H), BACKGROUND)
    player_bottom = PLAYER_BOX[3]
    if area in (None, "player"):
        marks = highlights(since, state, focus)
        radius = 60 if state.side == "A" else 48
        player = sentence_names(tr, state.seats, names, MIN_TEXT)[focus]
        label = tr("harmonies.board.board_of", player=player)
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
        lowest = draw_focus_cards(img, state, focus, tr, BOARD_Y + 36 + bh + 8, cards)
        player_bottom = min(PLAYER_BOX[3], lowest + 12)
    if area in (None, "shared"):
        draw_central(img, state, tr)
        draw_display(img, state, tr)
        score_top = SCORES_Y
        if state.seats == 1:
            suns = scoring.solo_suns(state)
            text = tr("harmonies.board.suns", count=suns, suns=suns)
            draw_text(img, (RIGHT_X, SCORES_Y + 16), text, MIN_TEXT, INK, True, "lm")
            score_top += 40
        draw_scores(img, state, tr, names, score_top)
    return img, player_bottom


def _others(
    state: HarmoniesState,
    tr: Translator,
    focus: int,
    names: Sequence[str] | None,
    width: int = OTHERS_W,
    columns: int = 1,
) -> Image.Image:
    """The other players' boards: one per row, readable on a phone; or ``columns`` to a row,
    smaller, for the overview."""
    radius = (OTHER_RADIUS if columns == 1 else OVERVIEW_RADIUS)[state.side]
    rows = -(-(state.seats - 1) // columns)
    img = Image.new("RGB", (width, others_height(state, radius, rows)), BACKGROUND)
    draw_others(img, state, focus, tr, names, width // columns, radius=radius, columns=columns)
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
    if area == "others":
        return _others(state, tr, focus, names)
    canvas, player_bottom = _canvas(state, tr, focus, since, names, area)
    if area != "player":
        shared = canvas.crop((SHARED_LEFT, SHARED_TOP, WIDTH, _shared_bottom(state)))
        if area == "shared":
            return _stack([_next_bar(state, tr, names, SHARED_W), shared])
    if area == "player":  # as tall as what it shows (a player with few cards: a shorter one)
        player = canvas.crop((*PLAYER_BOX[:3], player_bottom))
        return _stack([_next_bar(state, tr, names, player.width), player])
    player = canvas.crop(PLAYER_BOX)
    # the overview: the two areas side by side and the other boards under them in one row, one
    # size through a game (a replay's frames)
    top = Image.new("RGB", (player.width + SHARED_W, max(player.height, shared.height)), BACKGROUND)
    top.paste(player, (0, 0))
    top.paste(shared, (player.width, 0))
    parts = [_next_bar(state, tr, names, top.width), top]
    if state.seats > 1:
        parts.append(_others(state, tr, focus, names, top.width, columns=3))
    return _stack(parts)


def draw(
    state: HarmoniesState,
    tr: Translator,
    focus_seat: int | None = None,
    since: HarmoniesState | None = None,
    names: Sequence[str] | None = None,
    area: str | None = None,
) -> Image.Image:
    """The board of ``state`` as a portrait palette image.

    ``area`` chooses what is drawn (the channel posts the areas as pictures of their own, see
    ``views`` and ``board_views``): ``player``, the top bar (who does what now) above the focus
    board with its cards; ``shared``, the top bar above the central board, the cards on offer
    and the scores; ``others``, the other players' boards with their cards in progress; None,
    an overview of all of them (the two areas side by side, the other boards smaller in a row
    under them: for a replay, whose frames are scaled down anyway; too wide for a phone).

    ``focus_seat`` chooses whose board is drawn large (default: the player to move), with the
    changes since ``since`` marked (``highlights``); ``names`` gives display names per seat.
    """
    return PALETTE.apply(draw_rgb(state, tr, focus_seat, names, since, area))


def views(state: HarmoniesState, since: HarmoniesState, mover: int) -> list[dict[str, Any]]:
    """The end-of-turn pictures: the mover's board with the turn marked (under the top bar that
    says who plays next), then the shared area; after the last turn, the other players' final
    boards too."""
    parts: list[dict[str, Any]] = [
        {"focus_seat": mover, "since": since, "area": "player"},
        {"focus_seat": mover, "area": "shared"},
    ]
    if state.phase == Phase.OVER and state.seats > 1:
        parts.append({"focus_seat": mover, "area": "others"})
    return parts


def board_views(
    state: HarmoniesState, focus_seat: int | None, table: bool = False
) -> list[dict[str, Any]]:
    """The position as it is: the focus player's area and the shared area (what a turn needs),
    and with ``table`` the other players' boards too (``/game board``); each picture narrow
    enough to read on a phone."""
    parts: list[dict[str, Any]] = [
        {"focus_seat": focus_seat, "area": "player"},
        {"focus_seat": focus_seat, "area": "shared"},
    ]
    if table and state.seats > 1:
        parts.append({"focus_seat": focus_seat, "area": "others"})
    return parts
