"""The Kokeshi picture, in portrait: the player's area above the shared one.

Every panel is drawn on one landscape canvas at its usual place (``layout``), then the picture is
cut from it: the headline, the focused player's workshop with this turn's changes marked and the
tiles they hold (the ``player`` area), then a "next" line, the display, achievement tiles, animal
tracks and scores, and the other workshops with their owners' names (the ``shared`` area).
``area`` draws one of the two alone (the channel posts them as two pictures, see ``views``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageDraw

from games.kokeshi.engine.data import load
from games.kokeshi.engine.state import KokeshiState, Phase
from games.kokeshi.render.highlights import Highlight, highlights
from games.kokeshi.render.layout import (
    AREA_W,
    BOARD_X,
    COL_W,
    FOCUS,
    HEADER_Y,
    MIN_TEXT,
    NEW,
    PLAYER_H,
    ROW_H,
    ROWS_Y,
    SHARED_H,
    SMALL_CELL,
    SMALL_W,
    TITLE,
    palette,
)
from games.kokeshi.render.panels import (
    draw_achievements,
    draw_animals,
    draw_display,
    draw_pending,
    draw_scores,
    draw_small,
    draw_workshop,
)
from games.kokeshi.render.status import round_text, status, winners
from i18n import Translator
from render.canvas import (
    BACKGROUND,
    INK,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    WHITE,
    badge,
    draw_lines,
    ellipsize,
    fit_lines,
    text_on,
    text_width,
)
from render.names import sentence_names

HEAD_H = 60  # the headline bands (the workshop's column labels start below it)


def focus_of(s: KokeshiState, focus_seat: int | None) -> int:
    """The workshop drawn large: ``focus_seat``, else the acting player (the winner at the end)."""
    if focus_seat is not None:
        seat = focus_seat
    elif s.phase == Phase.OVER:
        seat = winners(s)[0]
    else:
        seat = max(s.active, 0)
    return max(0, min(seat, s.seats - 1))


def _cell(column: int, space: int) -> tuple[int, int, int, int]:
    x0 = BOARD_X + column * COL_W
    y0 = ROWS_Y + (load().spaces - space) * ROW_H
    return x0 + 3, y0 + 3, x0 + COL_W - 3, y0 + ROW_H - 3


def draw_highlights(img: Image.Image, marks: frozenset[Highlight]) -> None:
    """New tiles framed in orange; each landing of the cascade numbered in order."""
    d = ImageDraw.Draw(img)
    steps: dict[tuple[int, int], list[int]] = {}
    tops: dict[int, list[int]] = {}
    for mark in sorted(marks):
        if mark[0] == "tile":
            x0, y0, x1, y1 = _cell(mark[1], mark[2])
            d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), 8, outline=NEW, width=5)
        elif mark[0] == "step":
            steps.setdefault((mark[1], mark[2]), []).append(mark[3])  # type: ignore[misc]
        else:
            tops.setdefault(mark[1], []).append(mark[2])
    for (column, space), order in steps.items():
        x0, y0, _, _ = _cell(column, space)
        _number(img, x0 - 4, y0 - 6, order)
    for column, order in tops.items():
        x0 = BOARD_X + column * COL_W
        _number(img, x0 + COL_W - 40, HEADER_Y - 6, order, "↑")


def _number(img: Image.Image, x: int, y: int, order: list[int], lead: str = "") -> None:
    text = lead + ",".join(str(n) for n in sorted(order))
    w = max(30, text_width(text, MIN_TEXT, True) + 14)
    badge(img, "pill", (x, y, x + w, y + 30), NEW, INK, text, MIN_TEXT, WHITE, 2)


#: one strip of the picture: its height, and what draws it at a given top
Part = tuple[int, Callable[[Image.Image, int], None]]


def _band(text: str, size: int, seat: int | None = None, right: str = "") -> Part:
    """A headline band: the seat's badge, ``text`` (smaller or on two lines rather than cut) and
    a short ``right`` text."""

    def paint(img: Image.Image, top: int) -> None:
        img.paste(FOCUS, (0, top, AREA_W, top + HEAD_H))
        cy = top + HEAD_H / 2
        x = 20
        if seat is not None:
            colour, letter = PLAYER_COLOURS[seat], PLAYER_LETTERS[seat]
            box = (20, top + HEAD_H // 2 - 17, 54, top + HEAD_H // 2 + 17)
            badge(img, "pill", box, colour, colour, letter, MIN_TEXT, text_on(colour), 1)
            x = 64
        room = AREA_W - x - 20 - (text_width(right, MIN_TEXT, True) + 20 if right else 0)
        fitted, lines = fit_lines(text, (size, MIN_TEXT), True, room)
        draw_lines(img, (x, cy), lines, fitted, INK, True)
        if right:
            draw_lines(img, (AREA_W - 20, cy), [right], MIN_TEXT, INK, True, "rm")

    return HEAD_H, paint


def draw_player_area(
    img: Image.Image,
    s: KokeshiState,
    tr: Translator,
    seat: int,
    since: KokeshiState | None,
    names: Sequence[str] | None,
) -> None:
    """At the top of ``img``: ``seat``'s workshop, named, with this turn marked and the tiles
    they hold; on the right of the name, who plays next when that is someone else."""
    draw_workshop(img, s, seat, tr)
    draw_highlights(img, highlights(since, s, seat))
    draw_pending(img, s, seat, tr)
    owner = tr("kokeshi.board.workshop_of", player=sentence_names(tr, s.seats, names, TITLE)[seat])
    nxt = next_text(s, tr, names) if s.active != seat else ""
    _band(owner, TITLE, seat, nxt)[1](img, 0)


def small_height(s: KokeshiState) -> int:
    """The height of the other workshops under the shared area."""
    rows = -(-(s.seats - 1) // (AREA_W // SMALL_W))
    return rows * (68 + load().spaces * SMALL_CELL[1] + 20)


def draw_shared_area(
    img: Image.Image,
    s: KokeshiState,
    tr: Translator,
    seat: int,
    names: Sequence[str] | None,
    top: int,
) -> None:
    """From ``top`` down: the headline (who does what now and the round; at the end the result
    alone, naming every winner in full), the display, achievement tiles, animal tracks and
    scores, then every other workshop small with its owner's name."""
    dy = top
    draw_display(img, s, tr, dy)
    draw_achievements(img, s, tr, dy)
    draw_animals(img, s, tr, dy)
    draw_scores(img, s, tr, names, dy)
    if s.phase == Phase.OVER:
        _band(status(s, tr, names), TITLE)[1](img, top)
    else:
        active = s.active if s.active >= 0 else None
        said = status(s, tr, sentence_names(tr, s.seats, names, TITLE))
        _band(said, TITLE, active, round_text(s, tr))[1](img, top)
    per_row = AREA_W // SMALL_W
    small_h = 68 + load().spaces * SMALL_CELL[1] + 20
    others = [o for o in range(s.seats) if o != seat]
    for i, other in enumerate(others):
        x = 20 + (i % per_row) * SMALL_W
        y = top + SHARED_H + (i // per_row) * small_h
        draw_small(img, s, other, x, y, tr, names)


def next_text(s: KokeshiState, tr: Translator, names: Sequence[str] | None) -> str:
    """ "Next: Bob" while a seat is to act (nothing during the setup draws or at the end)."""
    if s.phase == Phase.OVER or s.active < 0 or s.phase.is_chance:
        return ""
    player = sentence_names(tr, s.seats, names, MIN_TEXT)[s.active]
    return ellipsize(tr("board.next", player=player), MIN_TEXT, True, 300)


def draw(
    state: KokeshiState,
    tr: Translator,
    focus_seat: int | None = None,
    since: KokeshiState | None = None,
    names: Sequence[str] | None = None,
    area: str | None = None,
) -> Image.Image:
    """The board focused on ``focus_seat`` (default: the acting player) with the changes since
    ``since`` marked on it; ``area`` ``player`` or ``shared`` draws that half alone."""
    seat = focus_of(state, focus_seat)
    player = area in (None, "player")
    shared = area in (None, "shared")
    height = (PLAYER_H if player else 0) + (SHARED_H + small_height(state) if shared else 0)
    img = Image.new("RGB", (AREA_W, height), BACKGROUND)
    if player:
        draw_player_area(img, state, tr, seat, since, names)
    if shared:
        draw_shared_area(img, state, tr, seat, names, PLAYER_H if player else 0)
    return palette().apply(img)


def views(state: KokeshiState, since: KokeshiState, mover: int) -> list[dict[str, Any]]:
    """The end-of-turn pictures: the mover's workshop with the turn marked, then the shared area
    (whose turn is next, the animals, the scores and the other workshops)."""
    return [
        {"focus_seat": mover, "since": since, "area": "player"},
        {"focus_seat": mover, "area": "shared"},
    ]
