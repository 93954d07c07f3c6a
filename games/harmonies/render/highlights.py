"""What the end-of-turn picture marks on a player's board: the hexes where tokens or an animal
cube went this turn, and the cards that took a cube or were completed.

``highlights(since, state, seat)`` compares the two states and nothing else; the board draws
exactly what it returns, and tests read it.
"""

from __future__ import annotations

from games.harmonies.engine.cards import CARDS
from games.harmonies.engine.state import HarmoniesState

#: ("token", hex index): tokens placed there; ("cube", hex index): an animal cube placed there;
#: ("card", card id): a cube went from the card to the board; ("done", card id): its last one did
Highlight = tuple[str, int]


def highlights(
    since: HarmoniesState | None, state: HarmoniesState, seat: int
) -> frozenset[Highlight]:
    if since is None or since.seats != state.seats or not 0 <= seat < state.seats:
        return frozenset()
    before, after = since.players[seat], state.players[seat]
    marks: set[Highlight] = set()
    for i, (old, new) in enumerate(zip(before.stacks, after.stacks, strict=True)):
        if len(new) > len(old):
            marks.add(("token", i))
    for i, (old_cube, new_cube) in enumerate(zip(before.cubes, after.cubes, strict=True)):
        if new_cube and not old_cube:
            marks.add(("cube", i))
    for cid, n in after.cards:
        if n > before.placed(cid):
            marks.add(("card", cid))
            if n == len(CARDS[cid].track):
                marks.add(("done", cid))
    return frozenset(marks)
