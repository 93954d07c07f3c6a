"""The Kokeshi hard bot: its cached, end-aware value, its look-ahead, and legal, repeatable play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng
from games.kokeshi.bots import HARD_WEIGHTS, Evaluator, make_bot
from games.kokeshi.bots.hard import FastRules, HardValue, turns_left
from games.kokeshi.engine.data import load
from tests.engines.bot_harness import play
from tests.engines.kokeshi_positions import E, build, filler

DISPLAY = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]


def positions(seats: int, seed: int) -> list:
    """Every decision point of a medium-vs-medium game (setup excluded)."""
    medium = make_bot("medium")
    state = E.initial_state(seats, {})
    found = []
    for step in range(20_000):
        who = E.to_move(state)
        if who == TERMINAL:
            return found
        if who == CHANCE:
            action = E.sample_chance(state, Rng.for_step(seed, step))
        else:
            if not state.in_setup:
                found.append(state)
            action = medium.choose(E, state, Rng(f"p:{seed}:{step}".encode()))
        state = E.apply(state, action)
    raise AssertionError("game did not finish")


@pytest.mark.parametrize(("seats", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_value_is_the_plain_value_until_the_end_is_triggered(seats: int, seed: int) -> None:
    plain = Evaluator(load(), HARD_WEIGHTS)
    fast = HardValue(load(), HARD_WEIGHTS)
    checked = 0
    for state in positions(seats, seed):
        for me in range(seats):
            if state.end_after < 0:
                assert fast(state, me) == pytest.approx(plain(state, me), abs=1e-9)
                checked += 1
            else:  # the potential only fades: never more than the plain value's share
                assert fast.seat_values(state)[me][0] == E.scores(state)[me]
    assert checked > 50


def test_fast_rules_reach_the_same_states_as_the_engine() -> None:
    fast = FastRules(E)
    for state in positions(2, 24)[:80]:
        for action in E.legal_actions(state):
            assert fast.apply(state, action) == E.apply(state, action)


def test_potential_fades_over_the_last_turns() -> None:
    """With no turn left a position is worth its score lead; with one of three, a third."""
    cols = {"princess": ["samurai-N3", "batchan-N5"], "fisherman": ["sumotori-N7"]}
    s = build(cols=cols, pos={"princess": 2}, display=DISPLAY, turns=4, active=0)
    value = HardValue(load(), HARD_WEIGHTS)
    score, potential = value.seat_values(s)[0]
    assert potential > 1 and value.seat_values(s)[1][1] > 0
    assert turns_left(s, 0) is None
    last = replace(s, end_after=4)  # the game is over: neither seat plays again
    assert turns_left(last, 0) == 0 and turns_left(last, 1) == 0
    scores = E.scores(last)
    assert value(last, 0) == scores[0] - scores[1]
    one = replace(s, end_after=5)  # seat 0 plays one more turn, seat 1 none
    assert turns_left(one, 0) == 1 and turns_left(one, 1) == 0
    assert value.seat_values(one)[0] == (score, pytest.approx(potential / 3))
    assert value.seat_values(one)[1][1] == 0


def test_on_its_last_turn_hard_takes_points_rather_than_a_set_up() -> None:
    """Passing the top (+3) beats walking a kokeshi up for later when no later turn comes."""
    cols = {
        "samurai": filler(8, DISPLAY),
        "princess": ["princess-N6"],  # a left arrow in the leftmost column: does nothing
        "batchan": ["batchan-N6", "princess-N1"],  # princess up onto her left arrow
    }
    pos = {"samurai": 8, "batchan": 1}
    s = build(cols=cols, pos=pos, display=DISPLAY, turns=2, active=0, end_after=4)
    assert turns_left(s, 0) == 1
    hard = make_bot("hard")
    assert E.encode_action(hard.choose(E, s, Rng(b"last"))) == "move:3"
    # the lure: with turns to come, batchan standing ready below an empty space is worth more
    assert E.encode_action(hard.choose(E, replace(s, end_after=-1), Rng(b"last"))) == "move:1"


def test_no_look_ahead_past_the_last_turn() -> None:
    hard = make_bot("hard")
    s = build(cols={"princess": ["samurai-N3"]}, display=DISPLAY, turns=4, active=0, end_after=4)
    fast = FastRules(E)
    assert hard._next_gain(fast, s, 1, Rng(b"x")) == 0.0
    assert hard._next_gain(fast, replace(s, end_after=-1), 1, Rng(b"x")) != 0.0


@pytest.mark.parametrize(("seats", "seed", "side"), [(2, 31, "basic"), (3, 32, "advanced")])
def test_hard_plays_whole_games_legally_and_repeatably(seats: int, seed: int, side: str) -> None:
    bots = [make_bot("hard")] + [make_bot("medium") for _ in range(seats - 1)]
    state, log = play(E, bots, seed, {"animal_side": side})  # every action checked legal
    assert E.winners(state)
    assert play(E, bots, seed, {"animal_side": side})[1] == log
