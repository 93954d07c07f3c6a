"""The exact chance that the next roll busts: no pairing of the four dice moves any piece.

A roll busts when, for each of its pairings, neither sum is open (rule M2): claimed, topped this
turn, or needing a new runner when all three are out. The variants (must use both sums, place as
many runners as possible, stopping rules) change which moves a roll allows, never whether it
allows one, so the chance depends on the set of open columns alone; it is counted over all
1,296 rolls once per set and cached.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from games.cantstop.engine.rules import ALL_ROLLS, SPLITS
from games.cantstop.engine.state import COLUMNS, HEIGHTS, NO_OWNER, RUNNERS, CantStopState

ROLLS = len(ALL_ROLLS)  # 6 ** 4


def open_columns(s: CantStopState) -> frozenset[int]:
    """The columns the active seat could step in on the next roll."""
    runners = dict(s.runners)
    free = RUNNERS - len(runners)
    found = set()
    for col in COLUMNS:
        if s.claimed[col - 2] != NO_OWNER:
            continue
        if runners.get(col, s.saved[s.active][col - 2]) >= HEIGHTS[col]:
            continue
        if col in runners or free > 0:
            found.add(col)
    return frozenset(found)


@cache
def bust_count(open_cols: frozenset[int]) -> int:
    """How many of the 1,296 rolls have no pairing with a sum in ``open_cols``."""
    busts = 0
    for dice in ALL_ROLLS:
        if not any(
            dice[a] + dice[b] in open_cols or dice[c] + dice[d] in open_cols
            for (a, b), (c, d) in SPLITS
        ):
            busts += 1
    return busts


def bust_chance(s: CantStopState) -> Fraction:
    """The exact chance that the active seat's next roll busts, with its current runners."""
    return Fraction(bust_count(open_columns(s)), ROLLS)
