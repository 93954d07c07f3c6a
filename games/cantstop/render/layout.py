"""Where everything on the Can't Stop board goes, and its colours."""

from __future__ import annotations

from games.cantstop.engine.state import COLUMNS
from render.canvas import (
    BACKGROUND,
    CHANGED,
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    RGB,
    WHITE,
    FixedPalette,
    blend,
)

WIDTH, HEIGHT = 800, 600
#: the smallest text drawn, in pixels: 20 x 400 / 800 = 10 px when a phone shows the board 400 px
#: wide (tests/render/test_phone_width.py)
MIN_TEXT = 20

CELL: RGB = (255, 253, 247)
TOP_CELL: RGB = (250, 231, 186)
HIGHLIGHT: RGB = (255, 226, 130)
MOVED: RGB = CHANGED
#: the spaces a marker climbed through in the last turn: a light tint of the ring's colour
TRAIL: RGB = blend(CHANGED, WHITE, 0.78)
ALERT: RGB = (190, 35, 30)
TINTS: tuple[RGB, ...] = tuple(blend(c, WHITE, 0.7) for c in PLAYER_COLOURS)
#: the owner's letter on a claimed column: the colour darkened until it reads on the tint
LETTER_ON_TINT: tuple[RGB, ...] = tuple(blend(c, INK, 0.45) for c in PLAYER_COLOURS)

# board geometry
COL_PITCH, CELL_W = 70, 62
ROW_PITCH, CELL_H = 38, 34
BOARD_X = (WIDTH - len(COLUMNS) * COL_PITCH) // 2 + (COL_PITCH - CELL_W) // 2
BASE_Y = 556  # bottom of the lowest space
LABEL_Y = 578
TOP_BAR = 58
# corners: dice above columns 2-4, legend above columns 10-12
DICE_X, DICE_Y, DIE = 16, 70, 44
LEGEND_X, LEGEND_Y, LEGEND_W, LEGEND_ROW = 576, 66, 216, 56


def _palette() -> FixedPalette:
    base = [BACKGROUND, INK, MUTED, GRID, WHITE, CELL, TOP_CELL, HIGHLIGHT, MOVED, ALERT, TRAIL]
    base += [*PLAYER_COLOURS, *TINTS, *LETTER_ON_TINT]
    ramps = [(INK, c) for c in (BACKGROUND, CELL, TOP_CELL, WHITE, HIGHLIGHT, GRID)]
    ramps += [(INK, c) for c in (*PLAYER_COLOURS, *TINTS)]
    ramps += [(WHITE, c) for c in (*PLAYER_COLOURS, ALERT)]
    ramps += [(c, tint) for c, tint in zip(PLAYER_COLOURS, TINTS, strict=True)]
    ramps += [(c, tint) for c, tint in zip(LETTER_ON_TINT, TINTS, strict=True)]
    ramps += [(c, BACKGROUND) for c in (*PLAYER_COLOURS, ALERT, MUTED, MOVED)]
    ramps += [(MOVED, c) for c in (CELL, TRAIL, TOP_CELL, *TINTS)]
    return FixedPalette(base, ramps, steps=5)


PALETTE = _palette()


def cell_box(column: int, space: int) -> tuple[int, int, int, int]:
    """Pixel box of ``space`` (1 = bottom) in ``column``."""
    x0 = BOARD_X + (column - 2) * COL_PITCH
    y0 = BASE_Y - space * ROW_PITCH + (ROW_PITCH - CELL_H)
    return x0, y0, x0 + CELL_W, y0 + CELL_H


def centre_x(column: int) -> int:
    """The x of the middle of ``column``."""
    return BOARD_X + (column - 2) * COL_PITCH + CELL_W // 2
