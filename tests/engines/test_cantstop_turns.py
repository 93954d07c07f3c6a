"""Can't Stop turn counter (the contract's ``turn``) and the encoding that stores it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engines.errors import OldEncoding
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import NO_OWNER, CantStopState, Phase

ENGINE = CantStopEngine()


def play(state: CantStopState, codes: str) -> list[CantStopState]:
    """Every state after each of the space-separated action codes, the first one included."""
    states = [state]
    for code in codes.split():
        states.append(ENGINE.apply(states[-1], ENGINE.decode_action(code)))
    return states


def turns(states: list[CantStopState]) -> list[int]:
    return [ENGINE.turn(s) for s in states]


def test_a_stop_and_a_bust_each_end_one_turn() -> None:
    start = ENGINE.initial_state(2, {})
    assert ENGINE.turn(start) == 0
    # seat 0: two steps on column 2, then stops
    first = play(start, "roll dice:1-1-1-1 move:2+2 stop")
    assert turns(first) == [0, 0, 0, 0, 1] and first[-1].active == 1
    # seat 1 climbs column 2 to the top, then the same roll finds it closed: a bust
    climb = "roll dice:1-1-1-1 move:2+2 roll dice:1-1-1-1 move:2"
    second = play(first[-1], climb + " roll dice:1-1-1-1")
    assert turns(second) == [1, 1, 1, 1, 1, 1, 1, 1, 2]
    last = second[-1]
    assert last.bust and last.active == 0 and last.phase == Phase.ROLL
    assert last.turns == (1, 1)


def test_solitaire_counts_every_turn_of_the_same_seat() -> None:
    states = play(
        ENGINE.initial_state(1, {}),
        "roll dice:1-1-1-1 move:2+2 stop roll dice:1-1-1-1 move:2 roll dice:1-1-1-1",
    )
    assert turns(states) == [0, 0, 0, 0, 1, 1, 1, 1, 1, 2]
    assert {s.active for s in states} == {0}


def _one_column_short(options: dict[str, object]) -> CantStopState:
    """Seat 0 owns columns 2 and 12 and has a runner one step below the top of column 4."""
    owners = [NO_OWNER] * 11
    owners[2 - 2] = owners[12 - 2] = 0
    return replace(
        ENGINE.initial_state(2, options),
        claimed=tuple(owners),
        runners=((4, 6),),
        phase=Phase.MOVE,
        dice=(2, 2, 1, 1),
        turn=7,
        turns=(4, 3),
    )


def test_the_winning_stop_ends_the_last_turn() -> None:
    states = play(_one_column_short({}), "move:4 stop")
    assert turns(states) == [7, 7, 8]
    assert states[-1].phase == Phase.OVER and states[-1].turns == (5, 3)


def test_an_automatic_winning_stop_ends_the_turn_on_the_move() -> None:
    states = play(_one_column_short({"auto_stop_on_win": True}), "move:4")
    assert turns(states) == [7, 8] and states[-1].phase == Phase.OVER


def test_the_counter_is_stored() -> None:
    s = play(ENGINE.initial_state(2, {}), "roll dice:1-1-1-1 move:2+2 stop")[-1]
    encoded = json.loads(json.dumps(ENGINE.encode_state(s)))
    assert encoded["turn"] == 1
    assert ENGINE.decode_state(encoded) == s


def test_a_state_stored_before_the_counter_is_old() -> None:
    """Today's stored games (no ``turn``) are rebuilt from their move log, never guessed."""
    stored = {
        "seats": 2,
        "options": {
            "force_max_runner_placement": False,
            "must_use_both_sums": True,
            "auto_stop_on_win": False,
            "no_stop_on_occupied_space": False,
        },
        "saved": [[2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0] * 11],
        "claimed": [-1] * 11,
        "runners": [],
        "active": 1,
        "phase": "roll",
        "dice": [],
        "last_move": [],
        "bust": False,
        "turns": [1, 0],
        "winner": -1,
        "v": 1,
    }
    with pytest.raises(OldEncoding):
        ENGINE.decode_state(stored)
