"""Harmonies rules: worked examples E1-E5 (§13), our decisions (§12), stacking, patterns, undo,
the end of the game and solo mode."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from engines.base import CHANCE, TERMINAL
from engines.errors import BadActionText, BadOptions, IllegalAction
from engines.rng import Rng
from games.harmonies.engine import scoring
from games.harmonies.engine.actions import Action, decode, encode
from games.harmonies.engine.cards import (
    BOARD_CELLS,
    CARDS,
    CELL_INDEX,
    COLOURS,
    KIND_STACKS,
    hex_code,
    parse_hex,
    rotate,
)
from games.harmonies.engine.rules import INFO, HarmoniesEngine, can_add, cube_cells
from games.harmonies.engine.state import HarmoniesState, Phase, Player

E = HarmoniesEngine()
NAMES = {c.name: c.id for c in CARDS.values()}


def board(
    side: str,
    tokens: dict[str, list[str]],
    cubes: dict[str, str] | None = None,
    cards: tuple[tuple[int, int], ...] = (),
) -> Player:
    """A player from a §13 fixture: ``"q,r": [bottom..top]`` and ``"q,r": card name`` cubes."""
    index = CELL_INDEX[side]
    stacks: list[tuple[str, ...]] = [()] * len(index)
    marks = [0] * len(index)
    for key, stack in tokens.items():
        q, r = map(int, key.split(","))
        stacks[index[(q, r)]] = tuple(stack)
    for key, name in (cubes or {}).items():
        q, r = map(int, key.split(","))
        marks[index[(q, r)]] = NAMES[name]
    return Player(stacks=tuple(stacks), cubes=tuple(marks), cards=cards)


def parts(side: str, player: Player, diameter: bool = False) -> dict[str, int]:
    return scoring.breakdown(side, player, diameter)


def settle(s: HarmoniesState, seed: int = 1) -> HarmoniesState:
    """Resolve chance steps until a player is to move."""
    seq = 0
    while E.to_move(s) == CHANCE:
        s = E.apply(s, E.sample_chance(s, Rng.for_step(seed, seq)))
        seq += 1
    return s


def new_game(seats: int = 2, seed: int = 1, **options: object) -> HarmoniesState:
    return settle(E.initial_state(seats, options), seed)


def do(s: HarmoniesState, *codes: str) -> HarmoniesState:
    for code in codes:
        s = E.apply(s, decode(code))
    return s


def with_central(s: HarmoniesState, *slots: tuple[str, ...]) -> HarmoniesState:
    """Replace the central board (bag adjusted so the token count stays 120)."""
    bag = list(s.bag)
    for slot in s.central:
        for colour in slot:
            bag[COLOURS.index(colour)] += 1
    for slot in slots:
        for colour in slot:
            bag[COLOURS.index(colour)] -= 1
    s = replace(s, central=tuple(slots), bag=tuple(bag))
    assert s.start is not None
    return replace(s, start=replace(s.start, central=s.central))


def with_player(s: HarmoniesState, seat: int, p: Player) -> HarmoniesState:
    players = list(s.players)
    players[seat] = p
    s = replace(s, players=tuple(players))
    if seat == s.active and s.start is not None:
        s = replace(s, start=replace(s.start, player=p))
    return s


def codes(s: HarmoniesState) -> list[str]:
    return [encode(a) for a in E.legal_actions(s)]


# -- §13 worked examples --------------------------------------------------------------------


def test_e1_trees_isolated_mountains_fields() -> None:
    p = board(
        "A",
        {
            "0,0": ["green"],
            "0,1": ["brown", "green"],
            "0,2": ["brown", "brown", "green"],
            "0,3": ["brown", "brown"],
            "1,0": ["brown", "brown", "green"],
            "3,-1": ["grey", "grey", "grey"],
            "4,1": ["grey", "grey", "grey"],
            "4,2": ["grey"],
            "2,3": ["grey", "grey"],
            "3,2": ["grey", "red"],
            "1,2": ["yellow"],
            "1,3": ["yellow"],
            "2,2": ["yellow"],
            "4,-2": ["yellow"],
        },
    )
    assert parts("A", p) == {
        "trees": 18,
        "mountains": 8,
        "fields": 5,
        "buildings": 0,
        "water": 0,
        "animals": 0,
        "spirit": 0,
        "total": 31,
    }


def test_e2_buildings_count_top_colours_only() -> None:
    p = board(
        "A",
        {
            "2,1": ["grey", "red"],
            "2,0": ["brown", "green"],
            "3,0": ["brown", "red"],
            "3,1": ["green"],
            "2,2": ["brown", "brown", "green"],
            "3,-1": ["yellow"],
            "4,-1": ["blue"],
            "1,0": ["red"],
        },
    )
    got = parts("A", p)
    assert (got["buildings"], got["trees"], got["mountains"], got["fields"]) == (5, 11, 0, 0)
    assert (got["water"], got["total"]) == (0, 16)


E3A = {
    "1,0": ["blue"],
    "1,1": ["blue"],
    "1,2": ["blue"],
    "2,0": ["blue"],
    "3,0": ["blue"],
    "3,1": ["blue"],
    "4,1": ["blue"],
}


def test_e3a_river_is_the_shortest_path() -> None:
    assert scoring.river_length("A", board("A", E3A).stacks) == 6
    assert parts("A", board("A", E3A))["water"] == 15


def test_e3b_side_branch_does_not_lengthen() -> None:
    assert parts("A", board("A", {**E3A, "4,-1": ["blue"]}))["water"] == 15


def test_e3c_shortcut_shortens_the_river() -> None:
    p = board("A", {**E3A, "4,-1": ["blue"], "2,1": ["blue"]})
    assert scoring.river_length("A", p.stacks) == 5
    assert parts("A", p)["water"] == 11


E3D = {k: ["blue"] for k in ("1,0", "1,1", "2,-1", "2,1", "3,-1", "3,0")}


def test_e3d_decision_d1_ring_counts_its_cycle_by_default() -> None:
    assert parts("A", board("A", E3D))["water"] == 15


def test_e3d_decision_d1_option_counts_the_diameter() -> None:
    assert parts("A", board("A", E3D), diameter=True)["water"] == 8


def test_decision_d1_a_ring_around_a_water_hex_is_still_a_chordless_loop() -> None:
    # E3d with its centre filled: the centre touches every ring hex, but no two ring hexes touch
    # except neighbours along the ring, so the six-hex cycle is chordless (D1)
    flower = board("A", {**E3D, "2,0": ["blue"]})
    assert scoring.river_length("A", flower.stacks) == 6
    assert parts("A", flower)["water"] == 15
    assert parts("A", flower, diameter=True)["water"] == 5  # a diameter of 3 tokens


def test_decision_d1_loops_are_rings_not_shortcut_cycles() -> None:
    # E3c holds a 7-hex simple cycle with shortcuts across it; only chordless loops count
    p = board("A", {**E3A, "4,-1": ["blue"], "2,1": ["blue"]})
    assert (
        scoring.longest_ring(
            "A",
            tuple(
                sorted(
                    CELL_INDEX["A"][k]
                    for k in [
                        (1, 0),
                        (1, 1),
                        (1, 2),
                        (2, 0),
                        (2, 1),
                        (3, 0),
                        (3, 1),
                        (4, 1),
                        (4, -1),
                    ]
                )
            ),
        )
        == 3
    )
    assert parts("A", p)["water"] == 11
    # a lone triangle is a loop of three tokens
    triangle = board("A", {"0,0": ["blue"], "0,1": ["blue"], "1,0": ["blue"]})
    assert scoring.river_length("A", triangle.stacks) == 3
    assert scoring.river_length("A", triangle.stacks, loops_diameter=True) == 2
    # a ring around two empty hexes: eight tokens
    ring = ("1,0", "2,-1", "3,-1", "4,-1", "4,0", "3,1", "2,1", "1,1")
    assert scoring.river_length("A", board("A", {k: ["blue"] for k in ring}).stacks) == 8


def test_e4_islands_include_empty_hexes() -> None:
    p = board(
        "B",
        {
            "3,-1": ["blue"],
            "3,0": ["blue"],
            "3,1": ["blue"],
            "5,-2": ["blue"],
            "5,-1": ["blue"],
            "5,0": ["blue"],
            "1,0": ["blue"],
            "0,1": ["blue"],
            "0,0": ["yellow"],
            "4,0": ["grey", "grey"],
            "6,-3": ["brown", "green"],
        },
    )
    got = parts("B", p)
    assert scoring.islands("B", p.stacks) == 4
    assert (got["water"], got["trees"], got["mountains"], got["total"]) == (20, 3, 0, 23)
    assert parts("B", board("B", {}))["water"] == 5


E5_TOKENS = {
    "2,1": ["brown", "brown", "green"],
    "2,0": ["blue"],
    "3,1": ["blue"],
    "1,2": ["green"],
    "2,2": ["blue"],
}


def test_e5_patterns_rotation_and_card_scores() -> None:
    bare = board("A", E5_TOKENS, cards=((20, 0), (5, 0), (14, 0)))
    cell = CELL_INDEX["A"]
    assert cube_cells("A", bare, 20) == (cell[(2, 1)],)
    assert cube_cells("A", bare, 5) == (cell[(2, 2)],)
    assert cube_cells("A", bare, 14) == ()
    done = board(
        "A",
        E5_TOKENS,
        cubes={"2,1": "kingfisher", "2,2": "frog"},
        cards=((20, 1), (5, 1), (14, 0)),
    )
    got = parts("A", done)
    assert (got["animals"], got["trees"], got["water"], got["total"]) == (7, 8, 2, 17)
    for key in ((2, 1), (2, 2)):
        assert not any(can_add(done, cell[key], c) for c in COLOURS)


def test_e5_kingfisher_needs_waters_120_degrees_apart() -> None:
    adjacent = board("A", {"2,1": ["brown", "brown", "green"], "2,0": ["blue"], "3,0": ["blue"]})
    assert cube_cells("A", adjacent, 20) == ()


def test_e5_only_one_rotation_fits() -> None:
    card = CARDS[20]
    p = board("A", E5_TOKENS)
    index = CELL_INDEX["A"]
    fits = [
        rot
        for rot in card.rotations
        if all(
            index.get((2 + dq, 1 + dr)) is not None
            and p.stacks[index[(2 + dq, 1 + dr)]] in KIND_STACKS[kind]
            for (dq, dr), kind in rot
        )
    ]
    assert len(fits) == 1


# -- stacking (§4) ----------------------------------------------------------------------------

ALLOWED = {
    (): set(COLOURS),
    ("blue",): set(),
    ("yellow",): set(),
    ("green",): set(),
    ("brown",): {"brown", "green", "red"},
    ("brown", "brown"): {"green"},
    ("brown", "green"): set(),
    ("brown", "brown", "green"): set(),
    ("grey",): {"grey", "red"},
    ("grey", "grey"): {"grey"},
    ("grey", "grey", "grey"): set(),
    ("grey", "red"): set(),
    ("brown", "red"): set(),
    ("red",): {"red"},
    ("red", "red"): set(),
}


@pytest.mark.parametrize("stack", list(ALLOWED))
def test_stacking_rules(stack: tuple[str, ...]) -> None:
    p = board("A", {"0,0": list(stack)})
    assert {c for c in COLOURS if can_add(p, 0, c)} == ALLOWED[stack]


def test_nothing_goes_on_a_cube() -> None:
    p = board("A", {"0,0": ["grey"]}, cubes={"0,0": "meerkat"})
    assert not any(can_add(p, 0, c) for c in COLOURS)


def test_every_legal_stack_is_a_known_shape() -> None:
    shapes = set(ALLOWED)
    for stack, adds in ALLOWED.items():
        for colour in adds:
            assert (*stack, colour) in shapes


# -- patterns --------------------------------------------------------------------------------


@pytest.mark.parametrize("turns", range(6))
def test_pattern_found_in_every_rotation(turns: int) -> None:
    """Bee (fan of three fields around a T2) placed in each of the six orientations."""
    card = CARDS[NAMES["bee"]]
    centre = (2, 1)
    tokens: dict[str, list[str]] = {}
    for (dq, dr), kind in card.pattern:
        for _ in range(turns):
            dq, dr = rotate((dq, dr))
        stack = {"T2": ["brown", "green"], "F": ["yellow"]}[kind]
        tokens[f"{centre[0] + dq},{centre[1] + dr}"] = stack
    p = board("A", tokens, cards=((card.id, 0),))
    assert cube_cells("A", p, card.id) == (CELL_INDEX["A"][centre],)


def test_pattern_heights_must_match_exactly() -> None:
    # falcon: M3 cube hex next to a field; a 2-high mountain does not do
    p = board("A", {"2,1": ["grey", "grey"], "1,1": ["yellow"]})
    assert cube_cells("A", p, NAMES["falcon"]) == ()
    p = board("A", {"2,1": ["grey", "grey", "grey"], "1,1": ["yellow"]})
    assert cube_cells("A", p, NAMES["falcon"]) == (CELL_INDEX["A"][(2, 1)],)


def test_pattern_may_not_leave_the_board() -> None:
    p = board("A", {"0,0": ["grey"], "0,1": ["yellow"]})  # meerkat fits, inside the board
    assert cube_cells("A", p, NAMES["meerkat"]) == (0,)
    # crocodile needs three hexes in a line: corner hex (0,0) with water only along the edge
    p = board("A", {"0,0": ["blue"], "0,1": ["blue"]})
    assert cube_cells("A", p, NAMES["crocodile"]) == ()


def test_decision_d9_no_card_is_mirror_asymmetric() -> None:
    for card in CARDS.values():
        mirrored = tuple(((-dq - dr, dr), kind) for (dq, dr), kind in card.pattern)
        assert any(sorted(mirrored) == sorted(rot) for rot in card.rotations), card.name


def test_hex_codes_round_trip() -> None:
    for side, cells in BOARD_CELLS.items():
        found = {hex_code(c) for c in cells}
        assert len(found) == len(cells), side
        for cell in cells:
            assert parse_hex(hex_code(cell)) == cell
    assert hex_code((2, 1)) == "c3"
    assert hex_code((4, -2)) == "e1"


# -- setup and chance --------------------------------------------------------------------------


def test_info_and_options() -> None:
    assert (INFO.name, INFO.title, INFO.min_seats, INFO.max_seats) == (
        "harmonies",
        "Harmonies",
        1,
        4,
    )
    assert INFO.normalize_options({}) == {
        "side": "A",
        "spirits": False,
        "river_loops_diameter": False,
    }
    with pytest.raises(BadOptions):
        E.initial_state(5, {})
    with pytest.raises(BadOptions):
        E.initial_state(2, {"side": "C"})


def test_setup_is_chance_until_board_and_display_are_full() -> None:
    s = E.initial_state(3, {})
    assert E.to_move(s) == CHANCE
    assert codes(s) == ["first:0", "first:1", "first:2"]  # D12: random first player
    s = E.apply(s, decode("first:2"))
    assert codes(s)[0] == "draw:1:blue" and len(codes(s)) == 6
    s = settle(s)
    assert E.to_move(s) == 2
    assert all(len(slot) == 3 for slot in s.central) and len(s.central) == 5
    assert len(s.display) == 5 and 0 not in s.display
    assert sum(s.bag) == 105 and s.tokens_in_play() == 120
    assert len(s.deck) == 27


def test_chance_codes_and_sampling() -> None:
    s = E.initial_state(2, {})
    a = E.sample_chance(s, Rng.for_step(7, 0))
    assert a in E.legal_actions(s)
    with pytest.raises(IllegalAction):
        E.apply(s, decode("take:1"))
    with pytest.raises(IllegalAction):
        E.apply(s, decode("draw:1:blue"))  # first player not chosen yet
    s = settle(s)
    with pytest.raises(IllegalAction):
        E.sample_chance(s, Rng.for_step(7, 0))


def test_no_chance_inside_a_turn() -> None:
    s = new_game(2)
    s = do(s, "take:1")
    while s.hand:
        s = E.apply(s, next(a for a in E.legal_actions(s) if a.kind == "place"))
    card = next(c for c in s.display if c)
    s = do(s, f"card:{card}")
    assert E.to_move(s) == s.active and 0 in s.display  # refilled only after end
    s = do(s, "end")
    assert E.to_move(s) == CHANCE
    assert next(a.kind for a in E.legal_actions(s)) == "draw"


# -- turns ----------------------------------------------------------------------------------


def test_turn_take_place_card_cube_end() -> None:
    s = new_game(2)
    seat = s.active
    s = with_central(s, ("grey", "grey", "yellow"), *s.central[1:])
    s = replace(s, display=(26, *s.display[1:]))  # meerkat face up
    s = do(s, "card:26", "take:1")
    assert "end" not in codes(s)
    assert "card:" not in " ".join(codes(s))  # one card per turn
    s = do(s, "place:grey:c3", "place:yellow:b3", "place:grey:c3")
    assert s.player.stacks[CELL_INDEX["A"][(2, 1)]] == ("grey", "grey")
    s = do(s, "end")
    s = settle(s)
    assert s.active != seat and s.turns[seat] == 1


def test_decision_d7_interleaving_cube_between_tokens() -> None:
    s = new_game(2)
    s = with_central(s, ("grey", "yellow", "red"), *s.central[1:])
    s = replace(s, display=(26, *s.display[1:]))
    # b2 = (1,1) is the SW neighbour of c2 = (2,0): a meerkat habitat (M1 next to a field)
    s = do(s, "take:1", "place:yellow:b2", "place:grey:c2")
    assert not any(c.startswith("cube:26") for c in codes(s))  # card not taken yet
    s = do(s, "card:26")
    cube = [c for c in codes(s) if c.startswith("cube:26")]
    assert cube == ["cube:26:c2"]
    s = do(s, "cube:26:c2", "place:red:a1")
    assert s.player.cards[-1] == (26, 1)
    assert not any(c.endswith(":c2") for c in codes(s))
    assert scoring.breakdown("A", s.player)["animals"] == 2


def test_card_limit_four_in_progress() -> None:
    s = new_game(2)
    p = replace(s.player, cards=((1, 0), (2, 1), (3, 0), (4, 2)))
    s = with_player(s, s.active, p)
    assert not any(c.startswith("card:") for c in codes(s))
    p = replace(s.player, cards=((1, 0), (2, 1), (3, 0), (4, 3)))  # otter complete
    s = with_player(s, s.active, p)
    assert any(c.startswith("card:") for c in codes(s))


def test_cubes_fill_the_lowest_track_value_first_and_complete_cards() -> None:
    s = new_game(2)
    falcon = NAMES["falcon"]  # track 5, 11
    p = board(
        "A",
        {
            "0,0": ["grey", "grey", "grey"],
            "0,1": ["yellow"],
            "2,1": ["grey"] * 3,
            "2,2": ["yellow"],
        },
        cards=((falcon, 0),),
    )
    s = with_player(s, s.active, p)
    s = do(s, "cube:25:a1")
    assert scoring.card_points(falcon, 1) == 5
    s = do(s, "cube:25:c3")
    assert s.player.cards == ((falcon, 2),)
    assert s.player.in_progress() == ()
    assert scoring.breakdown("A", s.player)["animals"] == 11


def test_decision_d10_cube_stays_when_the_pattern_changes() -> None:
    s = new_game(2)
    p = board("A", {"1,1": ["grey"], "1,2": ["yellow"]}, cards=((26, 0),))
    s = with_player(s, s.active, p)
    s = with_central(s, ("grey", "blue", "blue"), *s.central[1:])
    s = do(s, "cube:26:b2", "take:1")
    assert "place:grey:b2" not in codes(s)
    s = do(s, "place:grey:b4", "place:blue:a1", "place:blue:a2")
    assert s.player.cubes[CELL_INDEX["A"][(1, 1)]] == 26


def test_undo_steps_back_to_the_turn_start() -> None:
    s0 = new_game(2)
    assert "undo" not in codes(s0)
    card = next(c for c in s0.display if c)
    s1 = do(s0, "take:2")
    s2 = do(s1, f"place:{s1.hand[0]}:a1")
    s3 = do(s2, f"card:{card}")
    assert do(s3, "undo") == s2
    assert do(s3, "undo", "undo") == s1
    assert do(s3, "undo", "undo", "undo") == s0


def test_undo_never_crosses_end_turn() -> None:
    s = new_game(2)
    s = do(s, "take:1")
    while s.hand:
        s = E.apply(s, next(a for a in E.legal_actions(s) if a.kind == "place"))
    s = settle(do(s, "end"))
    assert "undo" not in codes(s)
    with pytest.raises(IllegalAction):
        do(s, "undo")


def test_illegal_actions_leave_the_state_untouched() -> None:
    s = new_game(2)
    before = E.encode_state(s)
    for text in ("end", "undo", "place:blue:a1", "take:9", "cube:1:a1", "discard:1", "keep:33"):
        with pytest.raises(IllegalAction):
            E.apply(s, decode(text))
    assert E.encode_state(s) == before
    for text in ("", "take", "place:pink:a1", "place:blue:z9", "card:99", "jump"):
        with pytest.raises(BadActionText):
            decode(text)


# -- spirits --------------------------------------------------------------------------------


def test_decision_d8_spirits_dealt_at_setup_kept_before_the_first_turn() -> None:
    s = new_game(3, seed=4, spirits=True)
    assert all(len(p.offer) == 2 for p in s.players)
    assert len(s.spirit_deck) == 4
    options = codes(s)
    assert len(options) == 2 and all(c.startswith("keep:") for c in options)
    s = do(s, options[1])
    seat = s.active
    assert s.player.offer == () and s.player.spirit() == int(options[1].split(":")[1])
    assert "undo" not in codes(s)
    s = do(s, "take:1")
    assert "undo" in codes(s)
    s = do(s, "undo")
    assert s.players[seat].spirit()  # the keep is not undone


def test_spirit_counts_against_the_card_limit() -> None:
    s = new_game(2, spirits=True)
    s = do(s, codes(s)[0])
    p = replace(s.player, cards=(*s.player.cards, (1, 0), (2, 0), (3, 0)))
    s = with_player(s, s.active, p)
    assert not any(c.startswith("card:") for c in codes(s))


def test_decision_d6_spirit_scores_are_additive_only_when_completed() -> None:
    ram = NAMES["ram_spirit"]  # M3 cube, M2 neighbour; every grey stack of 2-3 -> 4
    tokens = {"0,0": ["grey", "grey", "grey"], "0,1": ["grey", "grey"], "4,2": ["grey", "grey"]}
    open_card = board("A", tokens, cards=((ram, 0),))
    assert parts("A", open_card)["spirit"] == 0
    done = board("A", tokens, cubes={"0,0": "ram_spirit"}, cards=((ram, 1),))
    got = parts("A", done)
    # landscape: (0,0)+(0,1) adjacent -> 7 + 3; (4,2) isolated -> 0. Spirit: 3 stacks x 4, no
    # adjacency needed.
    assert (got["mountains"], got["spirit"], got["animals"]) == (10, 12, 0)


def test_spirit_group_rules() -> None:
    fields = {"0,0": ["yellow"], "0,1": ["yellow"], "0,2": ["yellow"], "4,2": ["yellow"]}
    assert scoring.spirit_points(NAMES["lion_spirit"], "A", board("A", fields).stacks) == 12
    assert scoring.spirit_points(NAMES["butterfly_spirit"], "A", board("A", fields).stacks) == 10
    towns = {"0,0": ["grey", "red"], "0,1": ["brown", "red"], "4,2": ["red", "red"], "3,2": ["red"]}
    assert scoring.spirit_points(NAMES["cat_spirit"], "A", board("A", towns).stacks) == 8
    assert scoring.spirit_points(NAMES["crane_spirit"], "A", board("A", towns).stacks) == 6
    water = {"0,0": ["blue"], "0,1": ["blue"], "4,2": ["blue"]}
    assert scoring.spirit_points(NAMES["dragonfly_spirit"], "A", board("A", water).stacks) == 7
    assert scoring.spirit_points(NAMES["tortoise_spirit"], "A", board("A", water).stacks) == 6
    trees = {"0,0": ["green"], "0,1": ["brown", "green"], "0,2": ["brown", "brown", "green"]}
    assert scoring.spirit_points(NAMES["deer_spirit"], "A", board("A", trees).stacks) == 8
    assert scoring.spirit_points(NAMES["owl_spirit"], "A", board("A", trees).stacks) == 7
    hills = {"0,0": ["grey"], "2,2": ["grey", "grey"], "4,2": ["grey", "grey", "grey"]}
    assert scoring.spirit_points(NAMES["marmot_spirit"], "A", board("A", hills).stacks) == 7


def test_decision_d11_building_neighbours_count_trunks_and_lone_reds() -> None:
    p = board("A", {"2,1": ["grey", "red"], "2,0": ["brown"], "3,1": ["red"], "2,2": ["blue"]})
    assert parts("A", p)["buildings"] == 5
    p = board("A", {"2,1": ["grey", "red"], "2,0": ["brown"], "3,1": ["red"], "2,2": ["red"]})
    assert parts("A", p)["buildings"] == 0


# -- end of game ------------------------------------------------------------------------------


def _finish_turn(s: HarmoniesState) -> HarmoniesState:
    s = do(s, f"take:{next(i + 1 for i, slot in enumerate(s.central) if slot)}")
    while s.hand:
        s = E.apply(s, next(a for a in E.legal_actions(s) if a.kind == "place"))
    return do(s, "end")


def _nearly_full(side: str = "A", empty: int = 5) -> Player:
    """A board of lone blue/yellow/green tokens with ``empty`` free hexes at the end."""
    n = len(BOARD_CELLS[side])
    lone = ("blue", "yellow", "green")
    stacks = tuple((lone[i % 3],) if i < n - empty else () for i in range(n))
    return Player(stacks=stacks, cubes=(0,) * n)


def _move_tokens(s: HarmoniesState, seat: int, p: Player) -> HarmoniesState:
    """Give a seat a board, taking its tokens from the bag (token count stays 120)."""
    bag = list(s.bag)
    for stack in p.stacks:
        for colour in stack:
            bag[COLOURS.index(colour)] -= 1
    return with_player(replace(s, bag=tuple(bag)), seat, p)


def test_end_trigger_finishes_the_round() -> None:
    s = E.initial_state(3, {})
    s = settle(do(s, "first:1"))  # seats play 1, 2, 0; seat 0 closes each round
    assert s.active == 1
    s = _move_tokens(s, 1, _nearly_full(empty=5))
    s = settle(_finish_turn(s))  # seat 1 leaves 2 empty hexes: trigger
    assert s.triggered and s.active == 2 and s.phase == Phase.TURN
    s = settle(_finish_turn(s))
    assert s.active == 0 and s.phase == Phase.TURN
    assert E.winners(s) == ()
    s = _finish_turn(s)
    assert E.to_move(s) == TERMINAL and s.phase == Phase.OVER
    assert s.turns == (1, 1, 1)
    assert E.legal_actions(s) == ()
    assert E.winners(s)


def test_end_trigger_by_the_last_seat_ends_at_once() -> None:
    s = settle(do(E.initial_state(2, {}), "first:0"))
    s = settle(_finish_turn(s))
    s = _move_tokens(s, 1, _nearly_full(empty=4))
    s = _finish_turn(s)
    assert s.phase == Phase.OVER and s.turns == (1, 1)


def test_end_trigger_when_the_bag_runs_dry() -> None:
    s = settle(do(E.initial_state(2, {}), "first:0"))
    s = replace(s, bag=(0, 0, 0, 0, 0, 0), token_discard=105)  # pretend the bag is spent
    s = _finish_turn(s)
    assert s.triggered and E.to_move(s) == 1  # nothing left to refill, seat 1 still plays
    assert s.central.count(()) == 1
    s = _finish_turn(s)
    assert s.phase == Phase.OVER


def test_decision_d2_tie_break_by_cubes_then_shared() -> None:
    s = new_game(2)
    a = board("A", {"0,0": ["grey"], "0,1": ["yellow"]}, cubes={"0,0": "meerkat"}, cards=((26, 1),))
    b = board("A", {"0,0": ["green"], "0,1": ["green"]})
    s = replace(s, players=(a, b), phase=Phase.OVER)
    assert E.scores(s) == (2, 2)
    assert E.winners(s) == (0,)
    s = replace(s, players=(b, b))
    assert E.winners(s) == (0, 1)


def test_decision_d4_multiplayer_empty_deck_leaves_slots_empty() -> None:
    s = new_game(2)
    card = s.display[0]
    s = replace(s, deck=())
    s = do(s, f"card:{card}")
    s = settle(_finish_turn(s))
    assert s.display[0] == 0 and E.to_move(s) == s.active


# -- solo -----------------------------------------------------------------------------------


def test_solo_setup() -> None:
    s = new_game(1)
    assert len(s.central) == 3 and len(s.display) == 3 and E.to_move(s) == 0
    assert sum(s.bag) == 111


def test_solo_end_of_turn_discards_and_refills_everything() -> None:
    s = new_game(1)
    s = settle(_finish_turn(s))
    assert s.token_discard == 6 and sum(s.bag) == 102
    assert all(len(slot) == 3 for slot in s.central)
    assert s.tokens_in_play() == 120


def test_solo_discard_instead_of_a_card() -> None:
    s = new_game(1)
    card = s.display[1]
    s = do(s, f"discard:{card}")
    assert not any(c.startswith(("card:", "discard:")) for c in codes(s))
    assert s.discard == (card,) and s.display[1] == 0
    s = settle(_finish_turn(s))
    assert 0 not in s.display and card not in s.display


def test_discard_is_solo_only() -> None:
    s = new_game(2)
    with pytest.raises(IllegalAction):
        do(s, f"discard:{s.display[0]}")


def test_decision_d4_solo_reshuffles_the_discards() -> None:
    s = new_game(1)
    s = replace(s, deck=(), discard=(30, 31))
    card = s.display[0]
    s = do(s, f"card:{card}")
    s = _finish_turn(s)
    s = settle(s)
    assert s.display[0] in (30, 31) and len(s.deck) == 1 and s.discard == ()


def test_decision_d5_solo_shortage_fills_spaces_in_order() -> None:
    s = new_game(1)
    s = replace(s, bag=(5, 0, 0, 0, 0, 0), token_discard=s.token_discard + sum(s.bag) - 5)
    assert s.tokens_in_play() == 120
    s = settle(_finish_turn(s))
    assert [len(slot) for slot in s.central] == [3, 2, 0]
    assert not s.triggered and sum(s.bag) == 0
    s = _finish_turn(s)
    assert s.phase == Phase.OVER  # fewer than 3 tokens left: solo ends at once


def test_solo_suns() -> None:
    assert scoring.suns_for(112, "A", False) == 7  # the spec's example
    assert scoring.suns_for(39, "B", True, NAMES["ram_spirit"]) == 0
    assert scoring.suns_for(40, "B", True, NAMES["cat_spirit"]) == 2
    assert scoring.suns_for(160, "A", True, NAMES["owl_spirit"]) == 9
    s = new_game(1)
    assert E.suns(s) == 1 + 2  # 0 points, side A, no spirits


# -- codec and purity ------------------------------------------------------------------------


def test_action_codes_round_trip_and_fit_a_custom_id() -> None:
    samples = [
        Action("take", num=3),
        Action("place", colour="yellow", cell=(4, -2)),
        Action("card", num=17),
        Action("cube", num=17, cell=(1, 2)),
        Action("discard", num=32),
        Action("keep", num=33),
        Action("undo"),
        Action("end"),
        Action("first", num=3),
        Action("spirit", num=42),
        Action("draw", num=5, colour="yellow"),
        Action("deal", num=32),
    ]
    for a in samples:
        assert decode(encode(a)) == a
        assert len(encode(a)) <= 20


STDLIB = {
    "__future__",
    "collections",
    "dataclasses",
    "enum",
    "functools",
    "importlib",
    "json",
    "typing",
}


def test_engine_imports_only_the_standard_library() -> None:
    root = Path(__file__).resolve().parents[2] / "engines" / "harmonies"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                assert name.split(".")[0] in STDLIB | {"engines"}, (path.name, name)
