"""The structure of a Harmonies turn, named once so no other layer re-derives it from flags.

A turn: keep a spirit card (first turn with spirits only), take one central space, place its
tokens, then End turn; taking (solo: discarding) an animal card and placing cubes fit anywhere
after the keep. The state records this in flags (``Player.offer``, ``taken``, ``hand``).
"""

from __future__ import annotations

from engines.harmonies.state import HarmoniesState, TurnStep


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
