"""Can't Stop hard (``RaceBot``): the fitted race table, race-aware stops, determinism."""

from __future__ import annotations

from itertools import pairwise

from engines.bots import get_bot
from engines.rng import Rng
from games.cantstop.bots.planner import TurnPlannerBot
from games.cantstop.bots.race import TABLE_PATH, RaceBot, _RaceSearch, race_model
from games.cantstop.engine.actions import ROLL, STOP
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import COLUMNS, HEIGHTS
from tests.engines.test_cantstop_bots import play
from tests.engines.test_cantstop_planner import race_state

ENGINE = CantStopEngine()


def test_hard_is_the_race_bot() -> None:
    assert isinstance(get_bot("cantstop", "hard"), RaceBot)


def test_the_race_table_is_small_and_loads_once() -> None:
    assert TABLE_PATH.stat().st_size < 4_000
    assert race_model() is race_model()


def test_turns_left_fall_with_progress() -> None:
    model = race_model()
    top = 3 * model.claim
    values = [top * i / 60 for i in range(61)]
    turns = [model.turns_left(v, 0) for v in values]
    assert all(a >= b for a, b in pairwise(turns))
    assert 6.5 < turns[0] < 10.5  # an empty board: about eight turns for this bot alone
    assert turns[-1] < 2.5  # three columns owned: (next to) nothing left
    for closed in range(1, 5):
        with_closed = [model.turns_left(v, closed) for v in values]
        assert all(a >= b for a, b in pairwise(with_closed))
        assert all(abs(a - b) < 1.0 for a, b in zip(with_closed, turns, strict=True))
    empty = model.value((0,) * 11, ())
    assert empty == 0.0
    halfway = tuple(HEIGHTS[c] // 2 for c in COLUMNS)
    assert model.turns_left(model.value(halfway, ()), 0) < turns[0]


def test_first_chance_favours_the_player_who_needs_fewer_turns() -> None:
    model = race_model()
    even = model.first_chance(4.0, 4.0)
    assert 0.15 < even < 0.5  # the opponent moves first, so a tie in turns loses
    assert model.first_chance(3.0, 4.0) > even > model.first_chance(5.0, 4.0)
    assert model.first_chance(1.0, 8.0) > 0.95
    assert model.first_chance(8.0, 1.0) < 0.05


def test_hard_rolls_on_for_the_win_when_the_opponent_may_win_next_turn() -> None:
    """Two claimed columns, column 7 four steps from the top, runners on 4 and 10 (the opponent
    owns 6 and 8, so a roll busts often): bank the progress, unless the opponent stands two steps
    from its third column; three steps from the top the bot rolls on in both cases, for more
    when pressed."""
    bot = RaceBot()
    gaps = []
    for need, height in ((3, 3), (4, 4)):
        runners = [(7, HEIGHTS[7] - need), (4, height), (10, height)]
        calm = race_state(runners, {7: 4}, (2, 12), {}, (6, 8))
        pressed = race_state(runners, {7: 4}, (2, 12), {7: 11}, (6, 8))
        assert bot.choose(ENGINE, pressed, Rng(b"x")) == ROLL
        for state in (calm, pressed):
            search = _RaceSearch(bot, state)
            here = tuple(state.runners)
            gaps.append(search.roll_value(here, bot.depth) - search.stop_value(here))
        if need == 4:
            assert bot.choose(ENGINE, calm, Rng(b"x")) == STOP
    assert gaps[1] > gaps[0] and gaps[3] > gaps[2]


def test_hard_banks_a_lead_it_would_risk_from_behind() -> None:
    """The same turn (runners 5, 7, 9 eight steps up, bust about one in four) is banked when the
    bot is ahead and rolled on when the opponent is one turn from winning."""
    runners = [(5, 4), (7, 5), (9, 4)]
    ahead = race_state(runners, {}, (2,), {6: 2}, ())
    behind = race_state(runners, {}, (), {7: 12, 6: 10}, (2, 12))
    bot = RaceBot()
    assert bot.choose(ENGINE, ahead, Rng(b"x")) == STOP
    assert bot.choose(ENGINE, behind, Rng(b"x")) == ROLL


def test_hard_decisions_are_legal_and_do_not_depend_on_the_generator() -> None:
    bot = get_bot("cantstop", "hard")
    for seats, seed in ((2, 7), (3, 8)):
        state = ENGINE.initial_state(seats, {})
        for seq in range(400):
            if ENGINE.winners(state):
                break
            if ENGINE.to_move(state) < 0:
                state = ENGINE.apply(state, ENGINE.sample_chance(state, Rng.for_step(seed, seq)))
                continue
            first = bot.choose(ENGINE, state, Rng(b"one"))
            assert first == bot.choose(ENGINE, state, Rng(b"two"))
            assert first in ENGINE.legal_actions(state)
            state = ENGINE.apply(state, first)


def test_solitaire_play_is_the_turn_planners() -> None:
    race, planner = RaceBot(), TurnPlannerBot()
    race_state_, race_log = play([race], 41)
    planner_state, planner_log = play([planner], 41)
    assert race_log == planner_log
    assert race_state_.turns == planner_state.turns


def test_same_seed_same_game_against_the_rule_of_28() -> None:
    bots = [get_bot("cantstop", "hard"), get_bot("cantstop", "medium")]
    first = play(bots, 12)
    again = play(bots, 12)
    assert first[1] == again[1]
    assert first[0].winner == again[0].winner
    replayed = ENGINE.initial_state(2, {})
    for text in first[1]:
        replayed = ENGINE.apply(replayed, ENGINE.decode_action(text))
    assert replayed == first[0]
