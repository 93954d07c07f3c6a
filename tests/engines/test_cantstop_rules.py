"""Can't Stop rules: every worked example of the spec, the reference vectors, the variants."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import CHANCE
from engines.errors import BadActionText, IllegalAction
from engines.rng import Rng
from games.cantstop.engine import actions as act
from games.cantstop.engine.rules import (
    ALL_ROLLS,
    INFO,
    CantStopEngine,
    moves_for_dice,
    previous_seat,
    split_of_move,
)
from games.cantstop.engine.state import HEIGHTS, NO_OWNER, CantStopState, Phase

ENGINE = CantStopEngine()
VECTORS = Path(__file__).resolve().parents[1] / "data" / "cantstop_moves.jsonl"


def position(
    runners: dict[int, int] | None = None,
    saved: dict[int, int] | None = None,
    claimed: dict[int, int] | None = None,
    options: dict[str, object] | None = None,
    seats: int = 2,
):
    """Seat 0 to act, with runners / own markers / claimed columns (column -> owner)."""
    s = ENGINE.initial_state(seats, options or {})
    row = [0] * 11
    for col, h in (saved or {}).items():
        row[col - 2] = h
    owners = [NO_OWNER] * 11
    for col, owner in (claimed or {}).items():
        owners[col - 2] = owner
    return replace(
        s,
        saved=(tuple(row), *s.saved[1:]),
        claimed=tuple(owners),
        runners=tuple(sorted((runners or {}).items())),
        phase=Phase.MOVE,
    )


def legal(s, dice: str) -> set[str]:
    values = tuple(int(d) for d in dice.split("-"))
    return {act.encode(act.move(*m)) for m in moves_for_dice(s, values)}


# (id, runners, own markers, claimed, dice, expected legal moves) — spec §10
EXAMPLES = [
    ("E1", {}, {}, {}, "1-5-4-6", {"move:5+11", "move:6+10", "move:7+9"}),
    ("E2", {6: 1, 10: 1}, {}, {}, "2-4-3-5", {"move:6+8", "move:5", "move:9", "move:7+7"}),
    ("E3", {6: 1, 7: 2}, {}, {4: 1}, "1-3-3-5", {"move:8", "move:6+6"}),
    ("E4", {7: 1}, {}, {}, "2-2-5-5", {"move:4+10", "move:7+7"}),
    ("E5", {2: 3, 7: 5, 12: 1}, {}, {}, "1-1-3-4", {"move:7"}),
    ("E5b", {2: 3, 7: 5, 12: 1}, {}, {}, "1-1-1-1", set()),
    ("E6", {}, {12: 2}, {}, "6-6-6-6", {"move:12"}),
    ("E7", {}, {}, {7: 1}, "3-4-3-4", {"move:6+8"}),
    ("E8", {5: 1, 9: 1}, {}, {}, "2-6-2-6", {"move:8+8", "move:4", "move:12"}),
    ("E9", {2: 1, 3: 1, 12: 1}, {}, {}, "4-4-5-6", set()),
    ("E10", {6: 2, 4: 1}, {}, {}, "1-5-3-5", {"move:6+8", "move:4+10"}),
]


@pytest.mark.parametrize(("name", "runners", "saved", "claimed", "dice", "expected"), EXAMPLES)
def test_worked_example(name, runners, saved, claimed, dice, expected) -> None:
    assert legal(position(runners, saved, claimed), dice) == expected


def test_e4_with_force_max_runner_placement() -> None:
    s = position({7: 1}, options={"force_max_runner_placement": True})
    assert legal(s, "2-2-5-5") == {"move:4+10"}


def test_e6_double_enters_at_top_and_loses_second_step() -> None:
    s = replace(position({}, {12: 2}), dice=(6, 6, 6, 6))
    after = ENGINE.apply(s, act.move(12))
    assert after.runners == ((12, 3),)


def test_e5b_and_e9_bust_loses_the_turn() -> None:
    s = replace(position({2: 1, 3: 1, 12: 1}, {5: 4}), phase=Phase.DICE)
    after = ENGINE.apply(s, act.dice(4, 4, 5, 6))
    assert after.bust and after.runners == () and after.active == 1 and after.phase == Phase.ROLL
    assert after.saved == s.saved  # saved markers exactly as before the turn


def test_e11_stop_claims_removes_opponent_and_wins() -> None:
    s = ENGINE.initial_state(2, {})
    a_row = [0] * 11
    a_row[4 - 2], a_row[9 - 2], a_row[11 - 2] = 5, 9, 5
    b_row = [0] * 11
    b_row[4 - 2], b_row[7 - 2] = 6, 3
    owners = [NO_OWNER] * 11
    owners[9 - 2] = owners[11 - 2] = 0
    s = replace(
        s,
        saved=(tuple(a_row), tuple(b_row)),
        claimed=tuple(owners),
        runners=((4, 7), (7, 4)),
        phase=Phase.DECIDE,
    )
    after = ENGINE.apply(s, act.STOP)
    assert after.owner(4) == 0
    assert after.saved[1][4 - 2] == 0  # B's marker in column 4 removed
    assert after.saved[0][7 - 2] == 4 and after.saved[1][7 - 2] == 3
    assert ENGINE.winners(after) == (0,) and after.phase == Phase.OVER


def _can_move_count(runners: dict[int, int]) -> int:
    s = position(runners)
    return sum(1 for roll in ALL_ROLLS if moves_for_dice(s, roll))


def test_no_bust_counts_with_three_runners() -> None:
    assert _can_move_count({6: 1, 7: 1, 8: 1}) == 1192
    assert _can_move_count({6: 1, 7: 1, 8: HEIGHTS[8]}) == 1083


def test_reference_vectors() -> None:
    """500 positions from an independent implementation: the legal set must match exactly."""
    lines = VECTORS.read_text().splitlines()
    assert len(lines) == 500
    for line in lines:
        v = json.loads(line)
        s = position(
            {int(c): h for c, h in v["runners"].items()},
            {int(c): h for c, h in v["saved"].items()},
            {c: 1 for c in v["claimed"]},
        )
        got = sorted(sorted(m) for m in moves_for_dice(s, tuple(v["dice"])))
        assert got == sorted(sorted(m) for m in v["moves"]), line


def test_must_use_both_sums_off_allows_single_steps() -> None:
    s = position({}, options={"must_use_both_sums": False})
    assert legal(s, "1-5-4-6") >= {"move:5+11", "move:5", "move:11"}


def test_must_use_both_sums_off_lets_a_double_make_one_step() -> None:
    """Issue 10, item 1: §9 makes no exception for a pair of equal sums."""
    fresh = position({}, options={"must_use_both_sums": False})
    assert legal(fresh, "6-6-3-3") == {"move:6", "move:6+12", "move:12", "move:9+9", "move:9"}
    e2 = position({6: 1, 10: 1}, options={"must_use_both_sums": False})
    assert legal(e2, "2-4-3-5") == {
        "move:6+8", "move:6", "move:8", "move:5", "move:9", "move:7+7", "move:7"
    }
    after = ENGINE.apply(replace(e2, dice=(2, 4, 3, 5)), act.move(7))
    assert after.runners == ((6, 1), (7, 1), (10, 1))
    # one space below the top a double is one step anyway, and still offered once
    near_top = position({2: 2}, options={"must_use_both_sums": False})
    assert "move:2" in legal(near_top, "1-1-1-1") and "move:2+2" not in legal(near_top, "1-1-1-1")


def test_auto_stop_on_win() -> None:
    owners = [NO_OWNER] * 11
    owners[0] = owners[1] = 0
    s = replace(
        position({4: 6}, options={"auto_stop_on_win": True}),
        claimed=tuple(owners),
        dice=(2, 2, 1, 1),
    )
    after = ENGINE.apply(s, act.move(4))
    assert after.phase == Phase.OVER and ENGINE.winners(after) == (0,)


def test_auto_stop_on_win_keeps_the_occupied_space_rule() -> None:
    """Issue 10, item 2: the automatic stop is a stop, so it may not land on an opponent."""

    def play(auto_stop: bool):
        options = {"auto_stop_on_win": auto_stop, "no_stop_on_occupied_space": True}
        s = position({3: 4, 7: 5}, claimed={2: 0, 12: 0}, options=options)
        b_row = [0] * 11
        b_row[7 - 2] = 5
        s = replace(s, saved=(s.saved[0], tuple(b_row)), phase=Phase.DECIDE)
        for code in ("roll", "dice:1-2-1-2", "move:3"):
            s = ENGINE.apply(s, ENGINE.decode_action(code))
        return s

    for auto_stop in (True, False):
        s = play(auto_stop)
        assert s.phase == Phase.DECIDE and ENGINE.winners(s) == ()
        assert ENGINE.legal_actions(s) == (act.ROLL,)
        assert s.runners == ((3, 5), (7, 5))


def test_no_stop_on_occupied_space() -> None:
    s = position({7: 3}, options={"no_stop_on_occupied_space": True})
    b_row = [0] * 11
    b_row[7 - 2] = 3
    s = replace(s, saved=(s.saved[0], tuple(b_row)), phase=Phase.DECIDE)
    assert ENGINE.legal_actions(s) == (act.ROLL,)
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, act.STOP)


def test_cannot_stop_before_the_first_roll_and_illegal_leaves_state() -> None:
    s = ENGINE.initial_state(3, {})
    with pytest.raises(IllegalAction):
        ENGINE.apply(s, act.STOP)
    assert s == ENGINE.initial_state(3, {})


@pytest.mark.parametrize("text", ["", "move:", "move:1+2", "dice:0-1-2-3", "jump", "move:13"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(BadActionText):
        ENGINE.decode_action(text)


def test_solitaire_keeps_the_same_player() -> None:
    s = ENGINE.initial_state(1, {})
    s = ENGINE.apply(ENGINE.apply(s, act.ROLL), act.dice(1, 1, 1, 1))  # 2+2: a legal move
    s = ENGINE.apply(s, act.move(2, 2))
    s = ENGINE.apply(s, act.STOP)
    assert s.active == 0 and s.turns == (1,)


#: every combination of the four rule switches (defaults first)
SWITCHES = [
    {spec.name: value for spec, value in zip(INFO.options, values, strict=True)}
    for values in product(*((spec.default, not spec.default) for spec in INFO.options))
]


def _stop_wins(s: CantStopState) -> bool:
    topped = sum(1 for c, h in s.runners if h >= HEIGHTS[c])
    return len(s.claimed_by(s.active)) + topped >= 3


def _check_switches(before: CantStopState, after: CantStopState) -> None:
    """What each switch promises, seen on one step of a game."""
    o = before.options
    if after.phase == Phase.MOVE:
        moves = moves_for_dice(after, after.dice)
        if o.force_max_runner_placement:  # every choice places the most new runners
            placed = {len({c for c in m if after.runner_at(c) is None}) for m in moves}
            assert len(placed) == 1, after
        elif not o.must_use_both_sums:  # §9: either step of a two-step move on its own
            assert all((c,) in moves for m in moves if len(m) == 2 for c in m), after
    if after.phase == Phase.DECIDE and o.auto_stop_on_win:
        can_stop = act.STOP in ENGINE.legal_actions(after)
        assert not (can_stop and _stop_wins(after)), "a winning stop was left to the player"
    stopped = after.turn > before.turn and not after.bust
    if stopped and o.no_stop_on_occupied_space:
        seat = before.active
        for col in range(2, 13):
            mine = after.saved[seat][col - 2]
            if mine != before.saved[seat][col - 2]:
                others = [after.saved[p][col - 2] for p in range(after.seats) if p != seat]
                assert mine not in others, f"stopped on an occupied space in column {col}"


@pytest.mark.parametrize("switches", SWITCHES, ids=lambda o: "".join("01"[v] for v in o.values()))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**62), seats=st.integers(1, 4))
def test_playout_invariants(switches: dict[str, bool], seed: int, seats: int) -> None:
    """With every combination of the switches: markers stay within heights; a claimed column has
    one owner and no other markers; the turn counter is the sum of the turns each seat finished;
    and each switch does what it says (``_check_switches``)."""
    s = ENGINE.initial_state(seats, switches)
    for step in range(20_000):
        if s.phase == Phase.OVER:
            break
        if ENGINE.to_move(s) == CHANCE:
            a = ENGINE.sample_chance(s, Rng.for_step(seed, step))
        else:
            options = ENGINE.legal_actions(s)
            a = options[Rng.for_step(seed + 1, step).below(len(options))]
        before, s = s, ENGINE.apply(s, a)
        _check_switches(before, s)
        for col in range(2, 13):
            assert all(0 <= s.saved[p][col - 2] <= HEIGHTS[col] for p in range(seats))
            owner = s.owner(col)
            if owner != NO_OWNER:
                assert s.saved[owner][col - 2] == HEIGHTS[col]
                assert all(s.saved[p][col - 2] == 0 for p in range(seats) if p != owner)
        assert len(s.runners) <= 3
        assert s.turn == sum(s.turns)
        assert all(1 <= h <= HEIGHTS[c] for c, h in s.runners)
    assert s.phase == Phase.OVER and len(s.claimed_by(s.winner)) >= 3


def test_phases_are_stored_as_todays_strings() -> None:
    assert [p.value for p in Phase] == ["roll", "dice", "move", "decide", "over"]
    s = ENGINE.apply(ENGINE.initial_state(2, {}), act.ROLL)
    encoded = json.loads(json.dumps(ENGINE.encode_state(s)))
    assert encoded["phase"] == "dice" and type(ENGINE.encode_state(s)["phase"]) is str
    assert ENGINE.decode_state(encoded).phase is Phase.DICE


def test_the_split_behind_a_move() -> None:
    dice = (3, 4, 1, 6)  # splits: 7+7, 4+10, 9+5
    for steps, split in (
        ((7, 7), ((0, 1), (2, 3))),
        ((7,), ((0, 1), (2, 3))),  # a double with its second step lost at the top
        ((4, 10), ((0, 2), (1, 3))),
        ((5,), ((0, 3), (1, 2))),
    ):
        assert split_of_move(dice, steps) == split
    assert split_of_move(dice, ()) is None and split_of_move((), (7,)) is None


def test_previous_seat_wraps_around() -> None:
    s = ENGINE.initial_state(3, {})
    assert [previous_seat(replace(s, active=a)) for a in range(3)] == [2, 0, 1]
    assert previous_seat(ENGINE.initial_state(1, {})) == 0


def test_a_state_is_written_down_with_every_field() -> None:
    """encode_state writes the fields out one by one: it must say what asdict would, for every
    field of the state and of its options, along a whole game."""
    from dataclasses import asdict

    from engines.rng import Rng

    state = ENGINE.initial_state(3, {"odds": False, "auto_stop_on_win": True})
    rng = Rng.for_step(7, 0)
    for _ in range(3000):
        expected = asdict(state)
        for key in ("runners", "saved"):
            expected[key] = [list(r) for r in expected[key]]
        for key in ("claimed", "dice", "last_move", "turns"):
            expected[key] = list(expected[key])
        expected["phase"] = state.phase.value
        assert ENGINE.encode_state(state) == expected
        assert ENGINE.decode_state(ENGINE.encode_state(state)) == state
        if state.phase is Phase.OVER:
            break
        if ENGINE.to_move(state) == CHANCE:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
        else:
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_actions(state)))
    assert state.phase is Phase.OVER
