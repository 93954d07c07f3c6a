"""The columns themselves: the empty board, drawn once, and the tint of claimed columns."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.cantstop.engine.state import COLUMNS, HEIGHTS, NO_OWNER, CantStopState
from games.cantstop.render.highlights import Highlight
from games.cantstop.render.layout import (
    CELL,
    HEIGHT,
    LABEL_Y,
    LETTER_ON_TINT,
    MIN_TEXT,
    MOVED,
    TINTS,
    TOP_CELL,
    WIDTH,
    cell_box,
    centre_x,
)
from render.canvas import (
    BACKGROUND,
    GRID,
    INK,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    draw_text,
    paste_shape,
    recorded_cache,
    text_on,
)


@recorded_cache
def background() -> Image.Image:
    """Empty board (spaces and column numbers), drawn once."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    for col in COLUMNS:
        for space in range(1, HEIGHTS[col] + 1):
            fill = TOP_CELL if space == HEIGHTS[col] else CELL
            d.rounded_rectangle(cell_box(col, space), radius=6, fill=fill, outline=GRID, width=2)
        draw_text(img, (centre_x(col), LABEL_Y), str(col), 24, INK, bold=True, anchor="mm")
    return img


def draw_claims(
    img: Image.Image, state: CantStopState, marks: frozenset[Highlight] = frozenset()
) -> None:
    """Claimed columns in the owner's tint, the owner's letter in every space below the top; a
    column claimed in the marked turn gets a ring round its number."""
    d = ImageDraw.Draw(img)
    for col in COLUMNS:
        owner = state.owner(col)
        if owner == NO_OWNER:
            continue
        colour, tint = PLAYER_COLOURS[owner], TINTS[owner]
        for space in range(1, HEIGHTS[col] + 1):
            box = cell_box(col, space)
            d.rounded_rectangle(box, radius=6, fill=tint, outline=colour, width=2)
            if space < HEIGHTS[col]:
                cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                ink = LETTER_ON_TINT[owner]
                draw_text(img, (cx, cy), PLAYER_LETTERS[owner], MIN_TEXT, ink, True, "mm")
        cx = centre_x(col)
        if ("claimed", col, 0) in marks:
            paste_shape(img, "pill", (cx - 27, LABEL_Y - 22, cx + 27, LABEL_Y + 22), MOVED)
        paste_shape(img, "pill", (cx - 22, LABEL_Y - 19, cx + 22, LABEL_Y + 19), colour)
        draw_text(img, (cx, LABEL_Y), str(col), 24, text_on(colour), bold=True, anchor="mm")
