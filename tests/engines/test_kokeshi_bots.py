"""Kokeshi bots: only legal actions, deterministic, and medium clearly beats random play."""

from __future__ import annotations

import pytest

from games.kokeshi.bots import make_bot
from games.kokeshi.engine.rules import KokeshiEngine
from tests.engines.bot_harness import play as harness_play

ENGINE = KokeshiEngine()


def play(bots, seed, options=None, max_decisions=None):
    """The shared harness on this game's engine."""
    return harness_play(ENGINE, bots, seed, options, max_decisions)


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
