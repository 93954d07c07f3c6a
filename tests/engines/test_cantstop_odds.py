"""The bust chance shown on the Roll again button: exact, and equal to playing every roll out."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from games.cantstop.engine import actions as act
from games.cantstop.engine.odds import ROLLS, bust_chance, bust_count, open_columns
from games.cantstop.engine.rules import ALL_ROLLS, INFO, CantStopEngine
from games.cantstop.engine.state import NO_OWNER, Phase

ENGINE = CantStopEngine()


def decide(runners, saved=None, claimed=None, options=None, seats=2, active=0):
    """Seat ``active`` after a move, about to choose roll or stop."""
    s = ENGINE.initial_state(seats, options or {})
    rows = [list(r) for r in s.saved]
    for col, h in (saved or {}).items():
        rows[active][col - 2] = h
    owners = [NO_OWNER] * 11
    for col, owner in (claimed or {}).items():
        owners[col - 2] = owner
    return replace(
        s,
        saved=tuple(map(tuple, rows)),
        claimed=tuple(owners),
        runners=tuple(sorted(runners.items())),
        active=active,
        phase=Phase.DECIDE,
        last_move=(next(iter(runners)),) if runners else (),
    )


def brute_force(s) -> Fraction:
    """Roll again, then try every one of the 1,296 rolls through the engine itself."""
    rolling = ENGINE.apply(s, act.ROLL)
    busts = sum(ENGINE.apply(rolling, act.dice(*d)).bust for d in ALL_ROLLS)
    return Fraction(busts, len(ALL_ROLLS))


CASES = [
    ({7: 1}, {}, {}, {}),
    ({6: 2, 8: 1}, {}, {}, {}),
    ({2: 1, 12: 1, 7: 3}, {}, {}, {}),  # the worst three runners
    ({6: 1, 7: 1, 8: 1}, {}, {}, {}),  # the best three
    ({4: 2, 10: 5}, {}, {7: 1, 6: 1}, {}),  # two free runners but 6 and 7 claimed
    ({3: 5, 11: 1}, {}, {}, {}),  # column 3 topped this turn: closed
    ({5: 1, 9: 1, 7: 13}, {}, {}, {"must_use_both_sums": False}),
    ({5: 1, 9: 1, 8: 2}, {}, {6: 1}, {"force_max_runner_placement": True}),
    ({8: 4}, {8: 3}, {}, {"no_stop_on_occupied_space": True, "auto_stop_on_win": True}),
    ({2: 2, 3: 1, 4: 1}, {}, {5: 1, 6: 1, 7: 1}, {"must_use_both_sums": False}),
]


@pytest.mark.parametrize(("runners", "saved", "claimed", "options"), CASES)
def test_bust_chance_equals_playing_every_roll(runners, saved, claimed, options) -> None:
    s = decide(runners, saved, claimed, options)
    assert bust_chance(s) == brute_force(s)


def test_known_values() -> None:
    """The published success table (e.g. 2-3-12: 43.8 % of rolls move, 6-7-8: 92.0 %)."""
    assert bust_chance(decide({2: 1, 3: 1, 12: 1})) == Fraction(1296 - 568, 1296)
    assert bust_chance(decide({6: 1, 7: 1, 8: 1})) == Fraction(1296 - 1192, 1296)
    assert bust_chance(decide({4: 1, 7: 1, 10: 1})) == Fraction(1296 - 1136, 1296)
    assert bust_chance(decide({7: 1})) == 0  # two runners still free: every roll moves


def test_no_open_column_is_a_sure_bust() -> None:
    claimed = {c: 1 for c in range(2, 13) if c not in (4, 5, 6)}
    s = decide({4: 7, 5: 9, 6: 11}, claimed=claimed)  # all three topped this turn
    assert open_columns(s) == frozenset()
    assert bust_chance(s) == 1


def test_counted_once_per_set_of_open_columns() -> None:
    bust_count.cache_clear()
    bust_chance(decide({6: 1, 7: 1, 8: 1}))
    bust_chance(decide({6: 3, 7: 2, 8: 5}))
    assert bust_count.cache_info().misses == 1
    assert bust_count.cache_info().hits == 1
    assert ROLLS == 1296


def test_odds_is_a_lobby_option_on_by_default() -> None:
    spec = {o.name: o for o in INFO.options}["odds"]
    assert (spec.kind, spec.default) == ("bool", True)
    assert ENGINE.initial_state(2, {}).options.odds is True
    off = ENGINE.initial_state(2, {"odds": False})
    assert off.options.odds is False
    assert ENGINE.decode_state(ENGINE.encode_state(off)) == off
