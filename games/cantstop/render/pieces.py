"""Markers and runners on their spaces, and the ring around the runners that just moved."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.cantstop.engine.state import COLUMNS, CantStopState, Phase
from games.cantstop.render.highlights import Highlight
from games.cantstop.render.layout import CELL_W, COL_PITCH, MIN_TEXT, MOVED, TRAIL, cell_box
from render.canvas import INK, PLAYER_COLOURS, PLAYER_LETTERS, WHITE, badge

#: the pieces of one space: (seat, is_runner) in seat order
Pieces = list[tuple[int, bool]]


def cell_items(state: CantStopState) -> dict[tuple[int, int], Pieces]:
    """(column, space) -> the pieces standing there."""
    items: dict[tuple[int, int], Pieces] = {}
    for seat in range(state.seats):
        for col in COLUMNS:
            space = state.saved[seat][col - 2]
            if space > 0:
                items.setdefault((col, space), []).append((seat, False))
    for col, space in state.runners:
        items.setdefault((col, space), []).append((state.active, True))
    for pieces in items.values():
        pieces.sort()
    return items


def draw_space(img: Image.Image, box: tuple[int, int, int, int], pieces: Pieces) -> None:
    """Lay the pieces of one space side by side, each as tall as the space allows."""
    x0, y0, x1, y1 = box
    n = len(pieces)
    gap = 2
    if n >= 3:  # crowded: spill into the gutters between columns
        spill = (COL_PITCH - CELL_W) // 2 - 1
        x0, x1, gap = x0 - spill, x1 + spill, 1
    slot = (x1 - x0 - 4 - gap * (n - 1)) / n
    h = y1 - y0 - 4
    w = min(int(slot), h)
    size = MIN_TEXT
    for i, (seat, runner) in enumerate(pieces):
        cx = x0 + 2 + slot * i + gap * i + slot / 2
        left = round(cx - w / 2)
        piece_box = (left, y0 + 2, left + w, y0 + 2 + h)
        letter = PLAYER_LETTERS[seat]
        if runner:
            # too narrow for a letter: the white pentagon alone still says "runner"
            label = letter if w >= 18 else ""
            badge(img, "house", piece_box, WHITE, INK, label, size, INK, border=3 if w >= 18 else 2)
        else:
            border = 2 if w >= 20 else 1
            badge(img, "pill", piece_box, PLAYER_COLOURS[seat], INK, letter, size, border=border)


def draw_pieces(
    img: Image.Image, state: CantStopState, marks: frozenset[Highlight] = frozenset()
) -> None:
    """Every piece; after a move, the runners it moved are ringed first, and ``marks`` (the
    mover's turn) as a trail: the spaces climbed through filled, the space reached ringed."""
    d = ImageDraw.Draw(img)
    for kind, col, space in sorted(marks):
        if kind == "passed":
            x0, y0, x1, y1 = cell_box(col, space)
            d.rounded_rectangle((x0, y0, x1, y1), 6, fill=TRAIL, outline=MOVED, width=2)
    ringed = {(col, space) for kind, col, space in marks if kind == "to"}
    if state.phase == Phase.DECIDE:
        ringed |= {(c, s) for c in set(state.last_move) if (s := state.runner_at(c))}
    for col, space in sorted(ringed):
        x0, y0, x1, y1 = cell_box(col, space)
        d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), 8, outline=MOVED, width=4)
    for (col, space), pieces in cell_items(state).items():
        draw_space(img, cell_box(col, space), pieces)
