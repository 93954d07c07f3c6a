"""Can't Stop board picture and its alt text.

An 800x600 board: the eleven columns (2 to 12, 3 to 13 spaces) stand on a common baseline with
their numbers below. Saved markers are coloured discs carrying the seat letter, runners are white
pentagons carrying the active seat's letter, and pieces sharing a space sit side by side. Claimed
columns are tinted in the owner's colour with the owner's letter in every space. The top bar says
whose turn it is and what they do next; the dice (split into the pairing used by the last move)
sit in the empty corner above the short columns on the left, the seat legend with claims on the
right.

One module per job: ``layout`` (geometry, colours), ``board`` (the columns), ``pieces``,
``dice``, ``panels`` (top bar, legend) and ``alt_text``. Every word comes from the ``tr`` given.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.cantstop.engine.state import CantStopState
from games.cantstop.render.alt_text import describe
from games.cantstop.render.board import background, draw_claims
from games.cantstop.render.dice import draw_dice
from games.cantstop.render.highlights import highlights
from games.cantstop.render.layout import HEIGHT, LABEL_Y, PALETTE, TINTS, WIDTH, cell_box
from games.cantstop.render.panels import draw_legend, draw_top_bar, short_names
from games.cantstop.render.pieces import draw_pieces
from i18n import Translator

__all__ = [
    "HEIGHT",
    "LABEL_Y",
    "TINTS",
    "WIDTH",
    "background",
    "cell_box",
    "describe",
    "draw",
    "draw_rgb",
    "highlights",
]


def draw_rgb(
    state: CantStopState,
    tr: Translator,
    names: Sequence[str] | None = None,
    focus_seat: int | None = None,
    since: CantStopState | None = None,
) -> Image.Image:
    """The board as an RGB image (before the palette mapping)."""
    img = background().copy()
    shown = short_names(state, tr, names)
    marks = highlights(since, state, state.active if focus_seat is None else focus_seat)
    draw_claims(img, state, marks)
    draw_pieces(img, state, marks)
    draw_top_bar(img, state, tr, shown, names)
    draw_dice(img, state, tr)
    draw_legend(img, state, tr, names)
    return img


def draw(
    state: CantStopState,
    tr: Translator,
    names: Sequence[str] | None = None,
    focus_seat: int | None = None,
    since: CantStopState | None = None,
) -> Image.Image:
    """The board of ``state`` as an 800x600 palette image.

    ``names`` gives optional display names per seat; seats without one are "Player A" and so on.
    With ``since`` (the start of the turn), the climb of ``focus_seat`` (default: the player to
    move) since then is marked (``highlights``); the top bar says who plays next.
    """
    return PALETTE.apply(draw_rgb(state, tr, names, focus_seat, since))
