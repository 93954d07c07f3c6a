"""The structure of a Harmonies turn: phases, the step inside a turn, and where a turn ends."""

from __future__ import annotations

import json

import pytest

from engines.base import CHANCE, TERMINAL
from engines.errors import OldEncoding
from engines.replay import replay
from games.harmonies.engine.actions import END, UNDO
from games.harmonies.engine.state import Phase, TurnStep
from games.harmonies.engine.turn import turn_step
from tests.engines.test_harmonies import (
    E,
    _finish_turn,
    _move_tokens,
    _nearly_full,
    codes,
    do,
    new_game,
    settle,
)


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


def test_turn_rises_exactly_when_a_turn_ends() -> None:
    s = E.initial_state(2, {})
    assert E.turn(s) == 0
    s = settle(do(s, "first:1"))
    assert E.turn(s) == 0 and s.active == 1  # setup chance steps end no turn
    s = do(s, "take:1")
    assert E.turn(s) == 0
    s = E.apply(s, UNDO)
    assert E.turn(s) == 0
    s = _finish_turn(s)
    assert E.turn(s) == 1 and E.to_move(s) == CHANCE
    s = settle(s)
    assert E.turn(s) == 1 and s.active == 0  # the refill belongs to the ended turn
    s = settle(_finish_turn(s))
    assert E.turn(s) == 2 and s.active == 1 and s.turns == (1, 1)


def test_end_turn_in_solo_raises_the_turn_for_the_same_seat() -> None:
    s = new_game(1)
    for ended in range(1, 4):
        s = _finish_turn(s)
        assert E.turn(s) == ended
        s = settle(s)
        assert E.turn(s) == ended and E.to_move(s) == 0


def test_the_end_turn_that_ends_the_game_ends_a_turn() -> None:
    s = settle(do(E.initial_state(2, {}), "first:0"))
    s = settle(_finish_turn(s))
    s = _move_tokens(s, 1, _nearly_full(empty=4))
    s = _finish_turn(s)
    assert E.to_move(s) == TERMINAL and E.turn(s) == 2


#: a solo state mid-turn as encoding 1 stored it (its "turn" held the turn's action codes)
STORED_V1 = json.loads(
    '{"seats":1,"options":{"side":"A","spirits":false,"river_loops_diameter":false},"bag":[19,'
    '23,20,19,18,12],"central":[[],["blue","red","blue"],["red","red","yellow"]],"display":[18,'
    '12,30],"deck":[1,2,3,4,5,6,7,8,9,10,11,13,14,15,16,17,19,20,21,22,23,24,25,26,27,28,29,31,'
    '32],"players":[{"stacks":[[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],'
    '[],[]],"cubes":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"cards":[],"offer":[]}],'
    '"discard":[],"spirit_deck":[],"refill":[],"phase":"turn","first":0,"active":0,'
    '"hand":["blue","brown","blue"],"taken":0,"card_done":false,"turn":["take:1"],'
    '"start":{"central":[["blue","brown","blue"],["blue","red","blue"],["red","red","yellow"]],'
    '"display":[18,12,30],"discard":[],"player":{"stacks":[[],[],[],[],[],[],[],[],[],[],[],[],'
    '[],[],[],[],[],[],[],[],[],[],[]],"cubes":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],'
    '"cards":[],"offer":[]}},"turns":[0],"triggered":false,"token_discard":0,"v":1}'
)
STORED_V1_LOG = [
    "draw:1:blue",
    "draw:1:brown",
    "draw:1:blue",
    "draw:2:blue",
    "draw:2:red",
    "draw:2:blue",
    "draw:3:red",
    "draw:3:red",
    "draw:3:yellow",
    "deal:18",
    "deal:12",
    "deal:30",
    "take:1",
]


def test_a_state_stored_before_the_turn_counter_is_old_and_its_log_rebuilds_it() -> None:
    with pytest.raises(OldEncoding):
        E.decode_state(STORED_V1)
    without_turn = {k: v for k, v in STORED_V1.items() if k != "turn"}
    with pytest.raises(OldEncoding):
        E.decode_state(without_turn)
    with pytest.raises(OldEncoding):
        E.decode_state({**E.encode_state(new_game(2)), "v": 1})
    rebuilt = replay(E, 1, {}, STORED_V1_LOG)
    assert rebuilt.turn == 0 and rebuilt.steps == tuple(STORED_V1["turn"])
    same = {k: v for k, v in E.encode_state(rebuilt).items() if k not in ("steps", "turn", "v")}
    assert same == {k: v for k, v in STORED_V1.items() if k not in ("turn", "v")}
    assert E.decode_state(json.loads(json.dumps(E.encode_state(rebuilt)))) == rebuilt
