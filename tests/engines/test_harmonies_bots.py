"""Harmonies bots: only legal actions, deterministic, and medium clearly beats random play."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.base import CHANCE
from engines.rng import Rng
from games.harmonies.bots import (
    HARD_WEIGHTS,
    BoardValue,
    Stacks,
    card_value,
    compat,
    landscape_potential,
    make_bot,
    placements,
)
from games.harmonies.engine import scoring
from games.harmonies.engine.actions import Action
from games.harmonies.engine.cards import ANIMAL_IDS, BOARD_CELLS, CARDS, COLOURS
from games.harmonies.engine.rules import HarmoniesEngine, can_stack
from games.harmonies.engine.state import HarmoniesState, Player
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


def _random_boards(count: int, seed: int) -> list[tuple[str, Stacks, tuple[int, ...]]]:
    """Boards grown by legal stacking at random, a few hexes under a cube."""
    rnd = random.Random(seed)
    boards = []
    for _ in range(count):
        side = rnd.choice("AB")
        cells = len(BOARD_CELLS[side])
        stacks: list[tuple[str, ...]] = [()] * cells
        cubes = [0] * cells
        for _ in range(rnd.randrange(0, 45)):
            cell, colour = rnd.randrange(cells), rnd.choice(COLOURS)
            if can_stack(stacks, cubes, cell, colour):
                stacks[cell] = (*stacks[cell], colour)
        for _ in range(rnd.randrange(0, 3)):
            cell = rnd.randrange(cells)
            if stacks[cell]:
                cubes[cell] = ANIMAL_IDS[0]
        boards.append((side, tuple(stacks), tuple(cubes)))
    return boards


def test_board_value_counts_what_a_fresh_count_counts() -> None:
    """The remembered parts of a board's value add up to a count made from scratch, whichever
    cards are held and in whichever order the boards come."""
    rnd = random.Random(5)
    values = {side: BoardValue(side, False, HARD_WEIGHTS, landscape=True) for side in "AB"}
    for side, stacks, cubes in _random_boards(60, 4) * 2:
        value = values[side]
        for _ in range(3):
            cards = tuple((cid, rnd.randrange(0, 3)) for cid in rnd.sample(ANIMAL_IDS, 2))
            player = Player(stacks=stacks, cubes=cubes, cards=cards)
            late = value.late(stacks)
            expected = float(scoring.breakdown(side, player)["total"])
            for cid, placed in cards:
                if placed < len(CARDS[cid].track):
                    expected += card_value(side, stacks, cubes, cid, placed, HARD_WEIGHTS, late)
            expected += late * landscape_potential(side, stacks, cubes, HARD_WEIGHTS)
            assert value(stacks, cubes, cards) == pytest.approx(expected)


def test_hard_is_deterministic_per_seed() -> None:
    """The same seed gives the same game; the bots keep nothing between decisions."""
    first = play([make_bot("hard"), make_bot("medium")], 11, {"side": "A"}, max_decisions=60)[1]
    again = play([make_bot("hard"), make_bot("medium")], 11, {"side": "A"}, max_decisions=60)[1]
    assert first == again
    other = play([make_bot("hard"), make_bot("medium")], 12, {"side": "A"}, max_decisions=60)[1]
    assert other != first


def _turn_start(seats: int, seed: int) -> HarmoniesState:
    """A game's first turn, right after setup."""
    state = ENGINE.initial_state(seats, {"side": "A"})
    rng = Rng.for_step(seed, 0)
    while ENGINE.to_move(state) == CHANCE:
        state = ENGINE.apply(state, ENGINE.sample_chance(state, rng))
    return state


def test_hard_takes_the_card_whose_pattern_its_board_holds() -> None:
    """A face-up card whose whole pattern is already on the board is worth taking at once (its
    cube scores this turn); the others in the display fit nothing yet."""
    state = _turn_start(2, 21)
    anchor, members = placements("A", 30)[0]  # a field with three water hexes around it
    stacks = list(state.player.stacks)
    for cell, kind in members:
        stacks[cell] = ("yellow",) if kind == "F" else ("blue",)
    player = replace(state.player, stacks=tuple(stacks))
    others = [cid for cid in state.display if cid and cid != 30]
    state = replace(
        state,
        players=tuple(player if i == state.active else p for i, p in enumerate(state.players)),
        display=(30, *others[: len(state.display) - 1]),
    )
    hard = make_bot("hard")
    action = hard.choose(ENGINE, state, Rng(b"take"))
    assert action == Action("card", num=30)
    state = ENGINE.apply(state, action)
    cube = hard.choose(ENGINE, state, Rng(b"cube"))
    assert cube == Action("cube", num=30, cell=BOARD_CELLS["A"][anchor])


def test_hard_values_a_card_while_its_pattern_can_still_be_built() -> None:
    """On an open board every animal card is worth something to hard (its pattern can be built
    in the turns left), more so with part of the pattern down; a card that no longer fits is
    worth nothing."""
    cells = len(BOARD_CELLS["A"])
    empty: Stacks = ((),) * cells
    cubes = (0,) * cells
    for cid in ANIMAL_IDS:
        assert card_value("A", empty, cubes, cid, 0, HARD_WEIGHTS, 1.0) > 0
    _, members = placements("A", 30)[0]
    started = list(empty)
    started[members[1][0]] = ("blue",)
    assert card_value("A", tuple(started), cubes, 30, 0, HARD_WEIGHTS, 1.0) > card_value(
        "A", empty, cubes, 30, 0, HARD_WEIGHTS, 1.0
    )
    # only finished mountains: no field or water can ever be built
    blocked: Stacks = (("grey", "grey", "grey"),) * cells
    assert card_value("A", blocked, cubes, 30, 0, HARD_WEIGHTS, 1.0) == 0.0


def test_hard_counts_on_fewer_turns_when_an_opponent_board_is_nearly_full() -> None:
    """The game ends once a board has two empty hexes or fewer: an unfinished tree is worth less
    to hard then, though its own board is still open; medium looks at its own board only."""
    state = _turn_start(2, 22)
    cells = len(BOARD_CELLS["A"])
    mine = list(state.player.stacks)
    mine[0] = ("brown", "brown")
    full = tuple(("yellow",) if i > 1 else () for i in range(cells))
    me, other = state.active, 1 - state.active

    def seated(other_stacks: Stacks) -> HarmoniesState:
        players = list(state.players)
        players[me] = replace(players[me], stacks=tuple(mine))
        players[other] = replace(players[other], stacks=other_stacks)
        return replace(state, players=tuple(players))

    open_game, ending = seated(state.players[other].stacks), seated(full)
    cubes = state.player.cubes
    hard, medium = make_bot("hard"), make_bot("medium")
    for bot, fades in ((hard, True), (medium, False)):
        near = bot.board_value(ending)(tuple(mine), cubes, ())
        far = bot.board_value(open_game)(tuple(mine), cubes, ())
        assert (near < far) is fades
