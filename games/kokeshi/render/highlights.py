"""What the end-of-turn picture marks on a workshop: the tiles placed this turn and the path of the
cascade, step by step.

``highlights(since, state, seat)`` is a pure function of the two states (the tiles are the board
difference; the path is the engine's own narration of the turn, ``state.events``, read only when
``seat`` is the one who played it). The board draws exactly what it returns, and tests read it.
"""

from __future__ import annotations

from games.kokeshi.engine.data import load
from games.kokeshi.engine.state import KokeshiState

#: ("tile", column, space): placed this turn; ("step", column, space, n): the n-th landing of the
#: cascade (1 first); ("top", column, n): the n-th step passed the top of the column
Highlight = tuple[str, int, int] | tuple[str, int, int, int]


def placed(since: KokeshiState, state: KokeshiState, seat: int) -> list[tuple[int, int]]:
    """(column, space) of every tile on ``seat``'s workshop that was not there at ``since``."""
    found = []
    pairs = zip(since.boards[seat], state.boards[seat], strict=True)
    for column, (before, after) in enumerate(pairs):
        found += [(column, space) for space in range(len(before) + 1, len(after) + 1)]
    return found


def path(since: KokeshiState, state: KokeshiState, seat: int) -> list[tuple[int, int]]:
    """The cascade's landings in order: (column, space), space 0 for passing the top."""
    if since.active != seat or state.events == since.events:
        return []
    spaces = load().spaces
    steps: list[tuple[int, int]] = []
    for event in state.events:
        kind = event[0]
        if kind in ("fire", "extra", "empty") and int(event[2]) <= spaces:
            steps.append((int(event[1]), int(event[2])))
        elif kind == "top":
            steps.append((int(event[1]), 0))
    return steps


def highlights(since: KokeshiState | None, state: KokeshiState, seat: int) -> frozenset[Highlight]:
    """Everything the picture marks on ``seat``'s workshop for the turn from ``since``."""
    if since is None or since.seats != state.seats:
        return frozenset()
    marks: set[Highlight] = {("tile", c, space) for c, space in placed(since, state, seat)}
    for n, (column, space) in enumerate(path(since, state, seat), start=1):
        marks.add(("top", column, n) if space == 0 else ("step", column, space, n))
    return frozenset(marks)
