"""Every registered engine passes the same random-playout harness (OpenSpiel's RandomSimTest).

Hypothesis draws a seed and seat count; the game is played to the end with random legal actions
and chance resolved by the seeded generator. Checked at every step: codes round-trip, illegal
actions raise and change nothing, the state survives JSON, and the turn counter behaves (see
``TurnWatch``); at the end: replay equals the live state and the game ended within ``max_moves``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, TERMINAL
from engines.errors import GameError
from engines.registry import get_engine
from engines.replay import replay
from engines.rng import Rng
from tests.per_game import games, per_game

MAX_STEPS = 20_000


def option_sets(engine) -> list[dict[str, object]]:
    """Defaults, plus each non-default choice/bool flipped on its own."""
    sets: list[dict[str, object]] = [{}]
    for spec in engine.info.options:
        if spec.kind == "bool":
            sets.append({spec.name: not spec.default})
        else:
            sets.extend({spec.name: c} for c in spec.choices if c != spec.default)
    return sets


class TurnWatch:
    """The contract's turn counter along a playout: 0 until the first player action, never
    down, up by at most one per player action (with the chance steps it opens), and up whenever
    the next seat to act is another seat than the one that acted.

    Engines without ``turn`` yet are not watched (until every engine has it).
    """

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.on = hasattr(engine, "turn")
        self.last = 0
        self.actor: int | None = None  # the seat of the last player action
        self.at_action = 0  # the counter when it acted

    def see(self, state: Any, mover: int) -> None:
        """Call at every state, with ``to_move(state)``, before the next action."""
        if not self.on:
            return
        turn = self.engine.turn(state)
        assert isinstance(turn, int) and turn >= self.last, "turn went down"
        self.last = turn
        if self.actor is None:
            assert turn == 0, "turn rose before any player acted"
        elif mover != CHANCE:
            rise = turn - self.at_action
            assert rise in (0, 1), f"one player action ended {rise} turns"
            if mover >= 0 and mover != self.actor:
                assert rise == 1, "the seat to move changed but no turn ended"
        if mover >= 0:
            self.actor, self.at_action = mover, turn


def playout(engine, seats: int, options: dict[str, object], seed: int, check_every: int):
    state = engine.initial_state(seats, options)
    log: list[str] = []
    turns = TurnWatch(engine)
    for step in range(MAX_STEPS):
        mover = engine.to_move(state)
        turns.see(state, mover)
        if mover == TERMINAL:
            return state, log
        actions = engine.legal_actions(state)
        assert actions, "a running game must offer actions"
        if mover == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, len(log)))
        else:
            action = actions[Rng.for_step(seed ^ 0x5EED, step).below(len(actions))]
        text = engine.encode_action(action)
        assert engine.decode_action(text) == action
        if step % check_every == 0:
            encoded = json.loads(json.dumps(engine.encode_state(state)))
            assert engine.decode_state(encoded) == state
            if mover != CHANCE:
                legal_texts = {engine.encode_action(a) for a in actions}
                for probe in ("stop", "roll", "end", "undo", "move:7"):
                    if probe not in legal_texts:
                        try:
                            bad = engine.decode_action(probe)
                        except GameError:
                            continue
                        before = state
                        with pytest.raises(GameError):
                            engine.apply(state, bad)
                        assert state == before
        state = engine.apply(state, action)
        log.append(text)
    raise AssertionError("game did not end")


@per_game
@pytest.mark.parametrize("game", games())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts(game: str, data: st.DataObject) -> None:
    engine = get_engine(game)
    seats = data.draw(st.integers(engine.info.min_seats, engine.info.max_seats), label="seats")
    options = data.draw(st.sampled_from(option_sets(engine)), label="options")
    seed = data.draw(st.integers(0, 2**62), label="seed")
    final, log = playout(engine, seats, options, seed, check_every=7)
    assert len(log) <= engine.info.max_moves
    assert replay(engine, seats, options, log) == final
    assert engine.winners(final), "a finished game names its winners"
    assert len(engine.scores(final)) == seats
