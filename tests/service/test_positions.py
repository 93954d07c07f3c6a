"""The positions the service keeps: used again only for the very JSON they were read from."""

from __future__ import annotations

import json

from bot.service.positions import Positions, position_of
from engines.base import CHANCE
from engines.registry import get_engine
from engines.rng import Rng


def _stored(state: object) -> str:
    engine = get_engine("cantstop")
    return json.dumps(engine.encode_state(state), separators=(",", ":"), sort_keys=True)


def _two_states() -> tuple[object, object]:
    """Two different positions (a start for two seats, and one a legal move later)."""
    engine = get_engine("cantstop")
    start = engine.initial_state(2, {})
    state = start
    while engine.to_move(state) == CHANCE:
        state = engine.apply(state, engine.sample_chance(state, Rng.for_step(1, 0)))
    later = engine.apply(state, engine.legal_actions(state)[0])
    assert later != start
    return start, later


def test_the_same_json_gives_the_kept_position_and_other_json_a_fresh_one() -> None:
    start, rolled = _two_states()
    positions = Positions()
    first = positions.of(7, "cantstop", _stored(start))
    assert positions.of(7, "cantstop", _stored(start)) is first  # an equal string, not the same
    newer = positions.of(7, "cantstop", _stored(rolled))
    assert newer is not first and newer.state == rolled
    assert newer == position_of(get_engine("cantstop"), rolled)
    # the older JSON again (an undo, another process's row): decoded afresh, not the newer one
    again = positions.of(7, "cantstop", _stored(start))
    assert again.state == start and again is not newer


def test_a_given_state_is_kept_for_its_json_and_games_do_not_share() -> None:
    _, rolled = _two_states()
    positions = Positions(kept=1)
    kept = positions.of(1, "cantstop", _stored(rolled), rolled)
    assert kept.state is rolled
    assert positions.of(2, "cantstop", _stored(rolled)).state is not rolled  # another game
    assert positions.of(1, "cantstop", _stored(rolled)) is not kept  # pushed out (kept=1)
