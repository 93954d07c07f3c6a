"""Kokeshi bots: only legal actions, deterministic, and medium clearly beats random play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engines.base import CHANCE, TERMINAL
from engines.bots.generic import RandomLegalBot
from engines.bots.kokeshi import make_bot
from engines.kokeshi.rules import KokeshiEngine
from engines.kokeshi.state import KokeshiState
from engines.rng import Rng

ENGINE = KokeshiEngine()


def play(
    bots: Sequence[Any],
    seed: int,
    options: dict[str, object] | None = None,
    max_decisions: int | None = None,
) -> tuple[KokeshiState, list[str]]:
    """Play one game (or its first ``max_decisions`` decisions); every bot action is checked."""
    state = ENGINE.initial_state(len(bots), options or {})
    log: list[str] = []
    decisions = 0
    for seq in range(20_000):
        seat = ENGINE.to_move(state)
        if seat == TERMINAL:
            return state, log
        if seat == CHANCE:
            action = ENGINE.sample_chance(state, Rng.for_step(seed, seq))
        else:
            if max_decisions is not None and decisions >= max_decisions:
                return state, log
            decisions += 1
            action = bots[seat].choose(ENGINE, state, Rng(f"t:{seed}:{seq}".encode()))
            assert action in ENGINE.legal_actions(state), (seed, seq, action)
        log.append(ENGINE.encode_action(action))
        state = ENGINE.apply(state, action)
    raise AssertionError("game did not finish")


def test_levels_and_names() -> None:
    for level in ("easy", "medium", "hard"):
        assert make_bot(level).name == f"kokeshi-{level}"
    with pytest.raises(KeyError):
        make_bot("impossible")


@pytest.mark.parametrize(
    ("levels", "side", "seed"),
    [
        (("easy", "medium"), "basic", 1),
        (("medium", "easy", "medium"), "advanced", 2),
        (("easy", "medium", "easy", "medium"), "basic", 3),
        (("medium", "medium", "easy", "easy"), "advanced", 4),
    ],
)
def test_easy_and_medium_play_only_legal_actions(
    levels: tuple[str, ...], side: str, seed: int
) -> None:
    state, _ = play([make_bot(level) for level in levels], seed, {"animal_side": side})
    assert ENGINE.winners(state)


def test_hard_plays_a_full_game_legally() -> None:
    state, _ = play([make_bot("hard"), make_bot("easy")], 5, {"animal_side": "advanced"})
    assert ENGINE.winners(state)


def test_hard_in_bigger_games_stays_legal() -> None:
    bots = [make_bot("hard"), make_bot("medium"), make_bot("hard"), make_bot("easy")]
    play(bots, 6, {"animal_side": "basic"}, max_decisions=40)
    play(bots[:3], 7, {"animal_side": "advanced"}, max_decisions=30)


def test_same_seed_same_game() -> None:
    bots = [make_bot("easy"), make_bot("medium")]
    assert play(bots, 11)[1] == play(bots, 11)[1]
    assert play(bots, 11)[1] != play(bots, 12)[1]


def test_hard_decisions_are_deterministic() -> None:
    hard = make_bot("hard")
    state, _ = play([make_bot("medium"), make_bot("medium")], 13, max_decisions=30)
    while ENGINE.to_move(state) == CHANCE:
        state = ENGINE.apply(state, ENGINE.sample_chance(state, Rng.for_step(13, 999)))
    first = hard.choose(ENGINE, state, Rng(b"same"))
    assert hard.choose(ENGINE, state, Rng(b"same")) == first


def test_medium_beats_random() -> None:
    medium, rnd = make_bot("medium"), RandomLegalBot()
    wins = 0.0
    for seed in range(10):
        seats = [medium, rnd] if seed % 2 == 0 else [rnd, medium]
        state, _ = play(seats, 100 + seed)
        me = seats.index(medium)
        winners = ENGINE.winners(state)
        wins += (1.0 if len(winners) == 1 else 0.5) if me in winners else 0.0
    assert wins >= 8
