"""The previous Can't Stop hard, ``TurnPlannerBot`` (``hard-planner``; hard's solitaire play).

Its race estimate, race-aware stops, determinism and strength.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines.bots.generic import RandomLegalBot
from engines.rng import Rng
from games.cantstop.bots import make_bot
from games.cantstop.bots.planner import TurnPlannerBot, next_turn_threat
from games.cantstop.engine.actions import ROLL, STOP
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import HEIGHTS, NO_OWNER, CantStopState, Options, Phase
from tests.engines.test_cantstop_bots import play

ENGINE = CantStopEngine()


def race_state(
    runners: Sequence[tuple[int, int]],
    mine: Mapping[int, int],
    my_claims: Sequence[int],
    theirs: Mapping[int, int],
    their_claims: Sequence[int],
) -> CantStopState:
    """Seat 0 deciding roll or stop against seat 1, with saved markers and claimed columns."""
    rows = [[0] * 11, [0] * 11]
    owners = [NO_OWNER] * 11
    for seat, (saved, claims) in enumerate(((mine, my_claims), (theirs, their_claims))):
        for col, height in saved.items():
            rows[seat][col - 2] = height
        for col in claims:
            rows[seat][col - 2] = HEIGHTS[col]
            owners[col - 2] = seat
    return CantStopState(
        seats=2,
        options=Options(),
        saved=(tuple(rows[0]), tuple(rows[1])),
        claimed=tuple(owners),
        runners=tuple(sorted(runners)),
        phase=Phase.DECIDE,
        turns=(5, 5),
    )


def test_hard_planner_is_the_turn_planner() -> None:
    assert isinstance(make_bot("hard-planner"), TurnPlannerBot)


def test_threat_grows_as_the_opponent_nears_its_third_column() -> None:
    threats = [
        next_turn_threat(race_state([(6, 1)], {}, (), {7: height}, (3, 11)))
        for height in (0, 5, 9, 11, 12)
    ]
    assert threats[0] < 0.1  # a whole column 7 in one turn: seldom
    assert threats == sorted(threats)
    assert threats[-1] > 0.7  # one step in column 7
    # an opponent with one claimed column is far from winning next turn
    assert next_turn_threat(race_state([(6, 1)], {}, (), {7: 11}, (3,))) < threats[-2]
    solitaire = CantStopState(
        seats=1, options=Options(), saved=((0,) * 11,), claimed=(NO_OWNER,) * 11, turns=(0,)
    )
    assert next_turn_threat(solitaire) == 0.0


def test_hard_rolls_on_for_the_win_only_when_the_opponent_may_win_next_turn() -> None:
    """Two claimed columns, column 7 three or four steps from the top, runners on 4 and 10 (the
    opponent owns 6 and 8, so a roll busts often): bank the progress, unless the opponent stands
    two steps from its third column."""
    bot = TurnPlannerBot()
    for need, height in ((3, 3), (4, 4)):
        runners = [(7, HEIGHTS[7] - need), (4, height), (10, height)]
        calm = race_state(runners, {7: 4}, (2, 12), {}, (6, 8))
        pressed = race_state(runners, {7: 4}, (2, 12), {7: 11}, (6, 8))
        assert next_turn_threat(calm) < 0.05 < 0.5 < next_turn_threat(pressed)
        assert bot.choose(ENGINE, calm, Rng(b"x")) == STOP
        assert bot.choose(ENGINE, pressed, Rng(b"x")) == ROLL


def test_hard_decisions_do_not_depend_on_the_generator() -> None:
    bot = TurnPlannerBot()
    state = ENGINE.initial_state(2, {})
    for seq in range(300):
        if ENGINE.winners(state):
            break
        if ENGINE.to_move(state) < 0:
            state = ENGINE.apply(state, ENGINE.sample_chance(state, Rng.for_step(7, seq)))
            continue
        first = bot.choose(ENGINE, state, Rng(b"one"))
        assert first == bot.choose(ENGINE, state, Rng(b"two"))
        assert first in ENGINE.legal_actions(state)
        state = ENGINE.apply(state, first)


def test_hard_beats_random_legal_heavily() -> None:
    """A broken planner (always stopping, always rolling, random moves) loses this."""
    hard = TurnPlannerBot()
    wins = 0
    for seed in range(24):
        bots = [hard, RandomLegalBot()] if seed % 2 == 0 else [RandomLegalBot(), hard]
        state, _ = play(bots, 300 + seed)
        wins += state.winner == (0 if seed % 2 == 0 else 1)
    assert wins >= 23


def test_hard_finishes_solitaire_in_few_turns() -> None:
    """Ten solitaire games: the Rule of 28 needs about 10.7 turns on average, hard about 8."""
    hard = TurnPlannerBot()
    turns = [play([hard], 500 + seed)[0].turns[0] for seed in range(10)]
    assert sum(turns) / len(turns) < 10.5
