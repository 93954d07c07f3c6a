"""Harmonies bots: only legal actions, deterministic, and medium clearly beats random play."""

from __future__ import annotations

import pytest

from games.harmonies.bots import compat, make_bot, placements
from games.harmonies.engine.cards import ANIMAL_IDS, BOARD_CELLS
from games.harmonies.engine.rules import HarmoniesEngine
from tests.engines.bot_harness import play as harness_play

ENGINE = HarmoniesEngine()


def play(bots, seed, options=None, max_decisions=None):
    """The shared harness on this game's engine; the bots never undo their own moves."""
    state, log = harness_play(ENGINE, bots, seed, options, max_decisions)
    assert "undo" not in log
    return state, log


@pytest.mark.parametrize(
    ("levels", "options", "seed"),
    [
        (("medium",), {"side": "A"}, 1),
        (("easy",), {"side": "B", "spirits": True}, 2),
        (("medium", "easy"), {"side": "B"}, 3),
        (("easy", "medium", "medium"), {"side": "A", "spirits": True}, 4),
        (("medium", "easy", "medium", "easy"), {"side": "B", "river_loops_diameter": True}, 5),
    ],
)
def test_easy_and_medium_play_only_legal_actions(
    levels: tuple[str, ...], options: dict[str, object], seed: int
) -> None:
    state, _ = play([make_bot(level) for level in levels], seed, options)
    assert ENGINE.winners(state)


@pytest.mark.parametrize(
    ("levels", "options", "seed"),
    [
        (("hard",), {"side": "B", "spirits": True}, 6),
        (("hard", "medium"), {"side": "A"}, 7),
    ],
)
def test_hard_plays_full_games_legally(
    levels: tuple[str, ...], options: dict[str, object], seed: int
) -> None:
    state, _ = play([make_bot(level) for level in levels], seed, options)
    assert ENGINE.winners(state)


def test_hard_in_bigger_games_stays_legal() -> None:
    bots = [make_bot("hard"), make_bot("easy"), make_bot("hard"), make_bot("medium")]
    play(bots, 8, {"side": "B", "spirits": True}, max_decisions=40)
    play(bots[:3], 9, {"side": "A"}, max_decisions=30)


def test_pattern_helpers() -> None:
    assert compat("T3", ("brown",)) == pytest.approx(1 / 3)
    assert compat("T3", ("brown", "brown", "green")) == 1.0
    assert compat("T1", ("brown",)) == -1.0
    assert compat("B", ("grey",)) == 0.5
    for side in ("A", "B"):
        cells = len(BOARD_CELLS[side])
        for card_id in ANIMAL_IDS:
            for anchor, members in placements(side, card_id):
                assert members[0][0] == anchor
                assert all(0 <= cell < cells for cell, _ in members)
