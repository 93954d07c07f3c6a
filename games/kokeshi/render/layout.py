"""Geometry and colours of the Kokeshi board, and the fixed palette every picture is cut to."""

from __future__ import annotations

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
    recorded_cache,
)

#: the picture is a portrait one, ``AREA_W`` wide: the player's area (``PLAYER_H`` tall: a
#: headline band, then the workshop and the tiles held) above the shared area (``SHARED_H``: a
#: headline band, then the display, achievements, animals and scores, drawn at their coordinates
#: shifted down to where the area starts), then the other workshops
AREA_W = 780
WIDTH = AREA_W
PLAYER_H = 748
SHARED_H = 870
#: the smallest text drawn; 25 x 400 / 780 = 12.8 px when a phone shows the picture 400 px wide
MIN_TEXT = 25
TITLE = 30

#: tile colours in column order, each with a shape (the second cue besides the letter)
COLOURS: tuple[RGB, ...] = (
    (222, 96, 140),  # princess
    (146, 104, 190),  # batchan
    (62, 132, 204),  # fisherman
    (72, 156, 84),  # samurai
    (232, 150, 40),  # sumotori
)
SHAPES = ("circle", "triangle", "square", "cross", "diamond")
YELLOW: RGB = (250, 222, 110)
SPACE: RGB = (255, 252, 244)
GOLD: RGB = (240, 205, 90)
MIDLINE: RGB = (200, 40, 40)
FOCUS: RGB = (255, 240, 200)

# left block: the focused workshop
COL_W, ROW_H = 140, 64
BOARD_X, HEADER_Y = 66, 64
ROWS_Y = 112
STRIP = 26  # colour strip on the left of a tile
# right block
RIGHT_X = 20  # on the shared canvas
# the other workshops, small, under the shared area
SMALL_CELL = (36, 28)
SMALL_W = 250
NEW: RGB = CHANGED
ANIMAL_W, ANIMAL_H = 150, 36


def tint(colour: RGB) -> RGB:
    """The light body of a normal tile of ``colour``."""
    return blend(colour, WHITE, 0.62)


@recorded_cache
def palette() -> FixedPalette:
    """Every solid colour of the board plus the edges where anti-aliased text and shapes meet."""
    tints = [tint(c) for c in COLOURS]
    solids = [BACKGROUND, INK, MUTED, GRID, WHITE, SPACE, YELLOW, GOLD, MIDLINE, FOCUS, NEW]
    solids += [*COLOURS, *tints, *PLAYER_COLOURS]
    grounds = [BACKGROUND, SPACE, YELLOW, GOLD, FOCUS, WHITE, *tints, *COLOURS]
    ramps = [(INK, g) for g in grounds] + [(MUTED, SPACE), (MUTED, BACKGROUND)]
    ramps += [(WHITE, c) for c in (*COLOURS, *PLAYER_COLOURS, NEW)]
    ramps += [(NEW, g) for g in grounds]
    ramps += [(p, g) for p in PLAYER_COLOURS for g in (SPACE, BACKGROUND, INK)]
    return FixedPalette(solids, ramps, steps=3)
