"""Can't Stop bots: legality, determinism, the Rule of 28 and the hard bot's stop rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import CHANCE, TERMINAL
from engines.bots import LEVELS, get_bot
from engines.bots.generic import RandomLegalBot
from engines.rng import Rng
from games.cantstop.bots import (
    LookaheadBot,
    RuleOf28Bot,
    bust_probability,
    rule28_choice,
    rule28_progress,
)
from games.cantstop.engine.actions import ROLL, STOP, move
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import HEIGHTS, NO_OWNER, CantStopState, Options, Phase

ENGINE = CantStopEngine()


def play(bots: Sequence[Any], seed: int, check_legal: bool = True) -> tuple[CantStopState, list]:
    """Play one game to the end; every bot action is checked against the legal set."""
    state = ENGINE.initial_state(len(bots), {})
    log = []
    for seq in range(20_000):
        seat = ENGINE.to_move(state)
        if seat == TERMINAL:
            return state, log
        if seat == CHANCE:
            action = ENGINE.sample_chance(state, Rng.for_step(seed, seq))
        else:
            action = bots[seat].choose(ENGINE, state, Rng(f"t:{seed}:{seq}".encode()))
            if check_legal:
                assert action in ENGINE.legal_actions(state), (seed, seq, action)
        log.append(ENGINE.encode_action(action))
        state = ENGINE.apply(state, action)
    raise AssertionError("game did not finish")


def decide_state(
    runners: Sequence[tuple[int, int]],
    saved: Sequence[tuple[int, int]] = (),
    claimed: Sequence[int] = (),
    seats: int = 1,
) -> CantStopState:
    """Seat 0 to decide roll/stop with the given runners, own markers and own claimed columns."""
    row = [0] * 11
    for col, height in saved:
        row[col - 2] = height
    owners = [NO_OWNER] * 11
    for col in claimed:
        row[col - 2] = HEIGHTS[col]
        owners[col - 2] = 0
    empty = (0,) * 11
    return CantStopState(
        seats=seats,
        options=Options(),
        saved=(tuple(row),) + (empty,) * (seats - 1),
        claimed=tuple(owners),
        runners=tuple(sorted(runners)),
        phase=Phase.DECIDE,
        turns=(0,) * seats,
    )


def test_registry_gives_every_level() -> None:
    for level in LEVELS:
        bot = get_bot("cantstop", level)
        assert bot.name.endswith(level)
    with pytest.raises(KeyError):
        get_bot("cantstop", "impossible")
    with pytest.raises(KeyError):
        get_bot("no-such-game", "easy")


@pytest.mark.parametrize(
    ("levels", "seed"),
    [
        (("easy",), 1),
        (("medium",), 2),
        (("hard",), 3),
        (("hard", "medium"), 4),
        (("easy", "hard", "medium"), 5),
        (("medium", "easy", "hard", "hard"), 6),
        (("hard", "hard", "easy", "medium"), 7),
    ],
)
def test_bots_play_only_legal_actions(levels: tuple[str, ...], seed: int) -> None:
    bots = [get_bot("cantstop", level) for level in levels]
    state, _ = play(bots, seed)
    assert ENGINE.winners(state)


def test_random_legal_bot_plays_a_full_game() -> None:
    state, _ = play([RandomLegalBot(), RandomLegalBot()], 8)
    assert ENGINE.winners(state)


def test_same_seed_same_game() -> None:
    bots = [get_bot("cantstop", level) for level in ("easy", "medium", "hard")]
    assert play(bots, 11)[1] == play(bots, 11)[1]
    assert play(bots, 11)[1] != play(bots, 12)[1]


def test_bust_odds_match_the_rules_spec() -> None:
    s = decide_state([(6, 1), (7, 1), (8, 1)])
    assert bust_probability(s) == pytest.approx(1 - 1192 / 1296)
    topped = decide_state([(6, 1), (7, 1), (8, HEIGHTS[8])])
    assert bust_probability(topped) == pytest.approx(1 - 1083 / 1296)


def test_rule_of_28_stops_at_28_and_rolls_below() -> None:
    bot = RuleOf28Bot()
    at_28 = decide_state([(7, 3), (8, 3), (9, 3)])  # 4 + 8 + 12, all >= 7: +4
    assert rule28_progress(at_28) == 28
    assert bot.choose(ENGINE, at_28, Rng(b"x")) == STOP
    at_27 = decide_state([(7, 2), (8, 3), (9, 3)])
    assert rule28_progress(at_27) == 27
    assert bot.choose(ENGINE, at_27, Rng(b"x")) == ROLL


def test_rule_of_28_adjustments() -> None:
    odd = decide_state([(3, 1), (7, 1), (11, 1)])  # 10 + 2 + 10, all odd +2
    assert rule28_progress(odd) == 24
    even_low = decide_state([(2, 1), (4, 1), (6, 1)])  # 12 + 8 + 4, all even -2, all low +4
    assert rule28_progress(even_low) == 26
    two = decide_state([(2, 1), (4, 1)])  # no adjustment before the third runner
    assert rule28_progress(two) == 20
    assert RuleOf28Bot().choose(ENGINE, two, Rng(b"x")) == ROLL  # a runner is still free


def test_rule_of_28_move_choice() -> None:
    s = decide_state([(7, 1)])
    assert rule28_choice(s, (7, 7)) == 12
    assert rule28_choice(s, (4, 10)) == 6 - 12
    # on a 2-2-5-5 roll the bot keeps to column 7
    s = CantStopState(**{**_fields(s), "phase": Phase.MOVE, "dice": (2, 2, 5, 5)})
    assert RuleOf28Bot().choose(ENGINE, s, Rng(b"x")) == move(7, 7)


def _fields(s: CantStopState) -> dict[str, Any]:
    return {name: getattr(s, name) for name in CantStopState.__slots__}


def test_every_bot_stops_when_stopping_wins() -> None:
    s = decide_state([(3, HEIGHTS[3]), (6, 1), (8, 1)], saved=[(3, 4)], claimed=(2, 12))
    assert rule28_progress(s) == 18
    for level in LEVELS:
        assert get_bot("cantstop", level).choose(ENGINE, s, Rng(b"x")) == STOP


def test_hard_stops_on_big_risky_progress_and_rolls_on_small_safe_progress() -> None:
    bot = LookaheadBot()
    risky = decide_state([(2, 2), (3, 4), (12, 2)])
    assert bust_probability(risky) > 0.5
    assert bot.choose(ENGINE, risky, Rng(b"x")) == STOP
    safe = decide_state([(6, 1), (7, 1), (8, 1)])
    assert bot.choose(ENGINE, safe, Rng(b"x")) == ROLL
    # same runners and odds, more progress at stake: roll on little, stop on much
    small = decide_state([(5, 3), (7, 3), (9, 3)])
    big = decide_state([(5, 7), (7, 9), (9, 7)], saved=[(5, 1), (7, 1), (9, 1)])
    assert bust_probability(small) == bust_probability(big) > 0.1
    assert bot.choose(ENGINE, small, Rng(b"x")) == ROLL
    assert bot.choose(ENGINE, big, Rng(b"x")) == STOP


def test_medium_beats_random_legal_by_a_wide_margin() -> None:
    medium = get_bot("cantstop", "medium")
    wins = 0
    for seed in range(40):
        bots = [medium, RandomLegalBot()] if seed % 2 == 0 else [RandomLegalBot(), medium]
        state, _ = play(bots, 100 + seed, check_legal=False)
        wins += state.winner == (0 if seed % 2 == 0 else 1)
    assert wins >= 36
