"""Computer players think in their own process: the bot's decision there is the one the same
seed gives in the bot itself, for every built-in game, and no board waits for it."""

from __future__ import annotations

import asyncio
import os

import pytest

from bot.adapter import rendering
from bot.service.bots import decide
from engines.base import CHANCE
from engines.registry import get_engine
from engines.rng import Rng


@pytest.fixture
async def processes():
    rendering.start_processes(1)
    yield
    rendering.stop_processes()


@pytest.mark.parametrize("game", ["cantstop", "kokeshi", "harmonies"])
async def test_a_decision_in_the_thinking_process_is_the_one_made_here(processes, game) -> None:
    assert rendering._thinking is not None and not rendering._thinking.started  # not yet needed
    engine = get_engine(game)
    state = engine.initial_state(2, {})
    while engine.to_move(state) == CHANCE:  # chance steps first (the engine's own draws)
        state = engine.apply(state, engine.sample_chance(state, Rng.for_step(3, 0)))
    for level in ("easy", "hard"):
        there = await asyncio.wait_for(rendering.think(game, level, state, Rng.for_step(7, 3)), 90)
        assert there == decide(game, level, state, Rng.for_step(7, 3))
        assert there in engine.legal_actions(state)
    assert rendering._thinking is not None and rendering._thinking.started
    assert os.getpid() not in rendering._thinking.pids()
