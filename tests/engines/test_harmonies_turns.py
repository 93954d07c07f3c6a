"""The structure of a Harmonies turn: phases, the step inside a turn, and where a turn ends."""

from __future__ import annotations

import json

from engines.harmonies.actions import END, UNDO
from engines.harmonies.state import Phase, TurnStep
from engines.harmonies.turn import turn_step
from tests.engines.test_harmonies import E, codes, do, new_game


def test_phases_are_stored_as_the_plain_strings_of_the_encoding() -> None:
    assert [p.value for p in Phase] == ["chance", "turn", "over"]
    s = new_game(2)
    stored = json.loads(json.dumps(E.encode_state(s)))
    assert stored["phase"] == "turn" and type(E.encode_state(s)["phase"]) is str
    assert E.decode_state(stored).phase is Phase.TURN


def test_the_steps_of_a_first_turn_with_spirits() -> None:
    s = new_game(3, seed=4, spirits=True)
    assert turn_step(s) is TurnStep.KEEP
    assert all(c.startswith("keep:") for c in codes(s))
    s = do(s, codes(s)[0])
    assert turn_step(s) is TurnStep.TAKE and "end" not in codes(s)
    taken = do(s, "take:1")
    assert turn_step(taken) is TurnStep.PLACE and "end" not in codes(taken)
    assert turn_step(E.apply(taken, UNDO)) is TurnStep.TAKE
    s = taken
    while turn_step(s) is TurnStep.PLACE:
        s = E.apply(s, next(a for a in E.legal_actions(s) if a.kind == "place"))
    assert turn_step(s) is TurnStep.FINISH and not s.hand
    assert END in E.legal_actions(s) and not any(c.startswith("take:") for c in codes(s))
