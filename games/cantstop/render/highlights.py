"""What the end-of-turn board marks for the seat that just moved: the spaces its markers climbed
this turn and the columns it claimed.

``highlights(since, state, seat)`` compares the two states (``since``: the start of the turn). In
the middle of a turn the runners count as the seat's pieces. The board draws exactly what it
returns, and tests read it.
"""

from __future__ import annotations

from games.cantstop.engine.state import COLUMNS, CantStopState

#: ("to", column, space): where a marker (or runner) stands now, having climbed this turn;
#: ("passed", column, space): a space it climbed through (not in a column it claimed: that one is
#: marked whole); ("claimed", column, 0)
Highlight = tuple[str, int, int]


def _heights(state: CantStopState, seat: int) -> dict[int, int]:
    heights = {col: state.saved[seat][col - 2] for col in COLUMNS}
    if state.active == seat:
        heights.update(dict(state.runners))
    return heights


def highlights(
    since: CantStopState | None, state: CantStopState, seat: int
) -> frozenset[Highlight]:
    if since is None or since.seats != state.seats or not 0 <= seat < state.seats:
        return frozenset()
    before, after = _heights(since, seat), _heights(state, seat)
    marks: set[Highlight] = set()
    for col in COLUMNS:
        if state.owner(col) == seat and since.owner(col) != seat:
            marks.add(("claimed", col, 0))
        old, new = before[col], after[col]
        if new > old:
            marks.add(("to", col, new))
            if state.owner(col) != seat:  # a claimed column is tinted whole already
                marks.update(("passed", col, space) for space in range(old + 1, new))
    return frozenset(marks)
