"""The colours of the Harmonies picture and the fixed palette it is reduced to."""

from __future__ import annotations

from games.harmonies.engine.cards import COLOURS
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

TOKEN: dict[str, RGB] = {
    "blue": (52, 120, 205),
    "grey": (150, 150, 156),
    "brown": (128, 84, 48),
    "green": (62, 150, 62),
    "yellow": (238, 200, 60),
    "red": (200, 56, 46),
}
SIDE: dict[str, RGB] = {c: blend(v, INK, 0.35) for c, v in TOKEN.items()}
ICON: dict[str, RGB] = {
    "blue": WHITE,
    "grey": INK,
    "brown": (240, 220, 190),
    "green": WHITE,
    "yellow": (120, 80, 20),
    "red": WHITE,
}
HEX_FILL: RGB = (252, 248, 238)
HEX_EDGE: RGB = (176, 164, 140)
CARD_FILL: RGB = (255, 252, 244)
SPIRIT_FILL: RGB = (232, 226, 246)
EARNED: RGB = (255, 214, 90)
HIGHLIGHT: RGB = (255, 236, 160)
#: what changed in the last turn: hexes that took tokens, cards that took a cube
NEW: RGB = CHANGED
TINTS: tuple[RGB, ...] = tuple(blend(c, WHITE, 0.72) for c in PLAYER_COLOURS)


def _palette() -> FixedPalette:
    base = [BACKGROUND, INK, MUTED, GRID, WHITE, HEX_FILL, HEX_EDGE, CARD_FILL, SPIRIT_FILL]
    base += [EARNED, HIGHLIGHT, NEW, *PLAYER_COLOURS, *TINTS, *TOKEN.values(), *SIDE.values()]
    base += list(ICON.values())
    ramps = [(INK, c) for c in (BACKGROUND, HEX_FILL, CARD_FILL, SPIRIT_FILL, WHITE, EARNED)]
    ramps += [(INK, c) for c in (*PLAYER_COLOURS, *TINTS, HIGHLIGHT)]
    ramps += [(ICON[c], TOKEN[c]) for c in COLOURS]
    ramps += [(ICON[c], SIDE[c]) for c in COLOURS]
    ramps += [(TOKEN[c], SIDE[c]) for c in COLOURS]
    ramps += [(SIDE[c], HEX_FILL) for c in COLOURS]
    ramps += [(SIDE[c], CARD_FILL) for c in COLOURS]
    ramps += [(SIDE[c], BACKGROUND) for c in COLOURS]
    ramps += [(HEX_EDGE, c) for c in (BACKGROUND, CARD_FILL, HEX_FILL)]
    ramps += [(MUTED, c) for c in (BACKGROUND, HEX_FILL, CARD_FILL)]
    ramps += [(NEW, c) for c in (BACKGROUND, HEX_FILL, HEX_EDGE, CARD_FILL)]
    return FixedPalette(base, ramps, steps=3)


PALETTE = _palette()
