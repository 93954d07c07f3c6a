"""Where things go on the Harmonies picture: its size, text size, panel positions, hex geometry.

Hexes are flat-topped in columns (odd columns sit lower), as ``games.harmonies.engine.cards`` counts
them.
"""

from __future__ import annotations

import math

from games.harmonies.engine.cards import BOARD_CELLS, Cell

WIDTH, HEIGHT = 1280, 960
#: the smallest text drawn (1/40 of the height), so the picture reads on a phone
MIN_TEXT = 24
TOP_BAR = 56
SQRT3 = math.sqrt(3)

#: the focus board (left) and the right-hand column
LEFT_X, BOARD_Y = 16, 72
RIGHT_X = 560

CARD_W, CARD_H = 130, 214
PATTERN_R = 24


def _rows(q: int, r: int) -> int:
    return r + (q - (q & 1)) // 2


def board_size(side: str, radius: float) -> tuple[int, int]:
    cells = BOARD_CELLS[side]
    columns = max(q for q, _ in cells) + 1
    rows = max(_rows(q, r) for q, r in cells) + 1
    return round(1.5 * radius * (columns - 1) + 2 * radius), round(SQRT3 * radius * rows)


def hex_centre(cell: Cell, radius: float, origin: tuple[float, float]) -> tuple[float, float]:
    q, r = cell
    x = origin[0] + radius + 1.5 * radius * q
    y = origin[1] + SQRT3 / 2 * radius * (2 * _rows(q, r) + (q & 1) + 1)
    return x, y


def hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.pi / 3 * k), cy + radius * math.sin(math.pi / 3 * k))
        for k in range(6)
    ]
