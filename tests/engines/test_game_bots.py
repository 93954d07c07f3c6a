"""What every game's bots promise: named levels, determinism, and medium beating random play
(per-game checks: every registered game with bots, plugins included)."""

from __future__ import annotations

import pytest

from engines.base import CHANCE, TERMINAL
from engines.bots import get_bot
from engines.bots.generic import RandomLegalBot
from engines.registry import get_engine
from engines.rng import Rng
from tests.engines.bot_harness import play
from tests.per_game import games_with_bots, per_game

pytestmark = per_game
GAMES = games_with_bots()


@pytest.mark.parametrize("game", GAMES)
def test_levels_and_names(game: str) -> None:
    for level in ("easy", "medium", "hard"):
        assert get_bot(game, level).name == f"{game}-{level}"
    with pytest.raises(KeyError):
        get_bot(game, "impossible")


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game(game: str) -> None:
    engine = get_engine(game)
    bots = [get_bot(game, "easy"), get_bot(game, "medium")]
    assert play(engine, bots, 11)[1] == play(engine, bots, 11)[1]
    assert play(engine, bots, 11)[1] != play(engine, bots, 12)[1]


@pytest.mark.parametrize("game", GAMES)
def test_hard_decisions_are_deterministic(game: str) -> None:
    engine = get_engine(game)
    hard = get_bot(game, "hard")
    medium = get_bot(game, "medium")
    for decisions in (25, 10, 4, 1):  # a position in the middle of the game, a short one too
        state, _ = play(engine, [medium, medium], 13, max_decisions=decisions)
        if engine.to_move(state) != TERMINAL:
            break
    while engine.to_move(state) == CHANCE:
        state = engine.apply(state, engine.sample_chance(state, Rng.for_step(13, 999)))
    first = hard.choose(engine, state, Rng(b"same"))
    assert hard.choose(engine, state, Rng(b"same")) == first


@pytest.mark.parametrize("game", GAMES)
def test_medium_beats_random(game: str) -> None:
    engine = get_engine(game)
    medium, rnd = get_bot(game, "medium"), RandomLegalBot()
    wins = 0.0
    for seed in range(10):
        seats = [medium, rnd] if seed % 2 == 0 else [rnd, medium]
        state, _ = play(engine, seats, 100 + seed)
        winners = engine.winners(state)
        if seats.index(medium) in winners:
            wins += 1.0 if len(winners) == 1 else 0.5
    assert wins >= 8
