"""The structure of a Harmonies turn, named once so no other layer re-derives it from flags.

A turn: keep a spirit card (first turn with spirits only), take one central space, place its
tokens, then End turn; taking (solo: discarding) an animal card and placing cubes fit anywhere
after the keep. The state records this in flags (``Player.offer``, ``taken``, ``hand``). Only
End turn ends a turn: the state's ``turn`` counter then rises by one, in solo play too.
"""

from __future__ import annotations

from dataclasses import replace

from games.harmonies.engine.actions import END, Action
from games.harmonies.engine.state import HarmoniesState, TurnStep


def turn_step(s: HarmoniesState) -> TurnStep:
    """Where the active player is in the turn (meaningful in ``Phase.TURN``).

    A turn facing an empty central board (the end trigger prevents it) has nothing to take and
    is at ``FINISH`` at once.
    """
    if s.player.offer:
        return TurnStep.KEEP
    if s.taken < 0 and any(s.central):
        return TurnStep.TAKE
    if s.hand:
        return TurnStep.PLACE
    return TurnStep.FINISH


def ends_turn(a: Action) -> bool:
    """Whether ``a`` ends the turn when it is applied (the next turn then begins, in solo play
    with the same seat)."""
    return a == END


def turn_start(s: HarmoniesState) -> HarmoniesState:
    """The state as the active player's turn began: what undo rebuilds before replaying the
    turn's other steps (``s`` with no steps when it keeps no turn-start snapshot)."""
    start = s.start
    if start is None:
        return replace(s, steps=())
    players = (*s.players[: s.active], start.player, *s.players[s.active + 1 :])
    return replace(
        s,
        central=start.central,
        display=start.display,
        discard=start.discard,
        players=players,
        hand=(),
        taken=-1,
        card_done=False,
        steps=(),
    )
