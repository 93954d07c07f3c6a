"""One test (at least) per decision D1-D27 of games/kokeshi/rules.md §10."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.base import CHANCE
from engines.rng import Rng
from games.kokeshi.engine.data import ach_tile, load, raw_data
from games.kokeshi.engine.scoring import achievement_count, tiebreak, track_height_points
from games.kokeshi.engine.state import NONE, Phase
from games.kokeshi.engine.todo import EmptyGain, TileEffect
from tests.engines.kokeshi_positions import (
    ANIMALS,
    COLS,
    D,
    E,
    T,
    build,
    code,
    col,
    filler,
    kpos,
    legal_codes,
    marker,
    play,
)

DISPLAY = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]


def setup_until(s, phase: str, seed: int = 3):
    """Resolve chance steps with a fixed seed until ``phase`` is reached."""
    step = 0
    while s.phase != phase:
        assert E.to_move(s) == CHANCE
        s = E.apply(s, E.sample_chance(s, Rng.for_step(seed, step)))
        step += 1
    return s


def test_d01_tiles_fill_each_track_from_the_bottom() -> None:
    s = build(cols={"samurai": ["princess-N1", "batchan-N1"]}, pos={"samurai": 2}, display=DISPLAY)
    s = play(s, "move:3", "gain:" + code("samurai-N6"), "draw:" + code("fisherman-N1"))
    assert col(s, "samurai") == ["princess-N1", "batchan-N1", "samurai-N6"]
    assert ("place", 3, 3, T("samurai-N6")) in s.events
    assert s.height(0, 3) == 3


def test_d02_kokeshi_order_and_tile_colours() -> None:
    assert D.columns == ("princess", "batchan", "fisherman", "samurai", "sumotori")
    assert all(D.columns[k.colour] == k.name.split("-")[0] for k in D.tiles)


def test_d03_eight_spaces_then_the_top() -> None:
    assert D.spaces == 8
    s = build(cols={"princess": filler(8, DISPLAY)}, pos={"princess": 8}, display=DISPLAY)
    s = play(s, "move:0")
    assert s.happiness[0] == 3 and kpos(s, "princess") == 0


@pytest.mark.parametrize(
    ("height", "levels"), [(1, ()), (2, (1,)), (3, (1,)), (4, (1, 2)), (6, (1, 2, 3))]
)
def test_d04_yellow_spaces_3_5_7(height: int, levels: tuple[int, ...]) -> None:
    assert D.yellow == {1: 3, 2: 5, 3: 7}
    s = build(cols={"sumotori": filler(height, DISPLAY)}, pos={"sumotori": height}, display=DISPLAY)
    s = play(s, "move:4")
    offered = tuple(int(c[-1]) for c in legal_codes(s) if "ach" in c)
    assert offered == levels


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_d05_fifty_normal_tiles_for_every_player_count(seats: int) -> None:
    s = E.initial_state(seats, {})
    assert len(s.bag) == 50 and len(set(s.bag)) == 50
    assert len(s.ach_supply) == 15


def test_d06_tile_list_is_data_with_ten_kinds_per_colour() -> None:
    kinds = {(k.colour, k.kind) for k in D.tiles}
    assert len(kinds) == 50 and {k for _, k in kinds} == {f"N{i}" for i in range(1, 11)}
    n2 = D.tiles[T("princess-N2")]
    assert n2.mode == "choice" and [e.kokeshi for e in n2.effects] == [1, 2]
    raw = raw_data()  # the data file, not code, holds the list
    assert raw["normal_tiles"][T("samurai-N8")]["mode"] == "both"


def test_d07_colour_cap_two_players_removes_the_rest() -> None:
    s = build(cols={"fisherman": filler(2, DISPLAY)}, pos={"fisherman": 2}, display=DISPLAY)
    s = play(s, "move:2", "gain:ach:fisherman:1")
    assert T("fisherman:L2") in s.removed and T("fisherman:L3") in s.removed
    assert not [t for t in s.ach_supply if t // 10 == T("fisherman:L1") // 10]
    # other colours untouched
    assert ach_tile(0, 1) in s.ach_supply


def test_d08_no_score_threshold_for_achievement_tiles() -> None:
    s = build(
        cols={"princess": filler(4, DISPLAY)},
        pos={"princess": 4},
        display=DISPLAY,
        happiness=(0, 50),
    )
    s = play(s, "move:0")
    assert "gain:ach:princess:2" in legal_codes(s)


def test_d09_d10_four_animal_tracks_eight_positions_all_start_at_zero() -> None:
    assert D.animals == ("panda", "fox", "cat", "rabbit") and D.animal_positions == 8
    s = E.initial_state(3, {})
    assert all(s.animal_pos(a, seat) == 0 for a in range(4) for seat in range(3))


def test_d11_bonus_tiles_drawn_at_setup_and_taken_by_the_first_arrival() -> None:
    s = setup_until(E.initial_state(2, {}), Phase.START)
    assert len(s.bonus) == 4 and NONE not in s.bonus
    # the first arrival takes it; a later arrival gets nothing
    s = build(
        cols={"princess": ["princess-N7"]},
        animals={"panda": [(1, 4), (0, 3)], "fox": [(1, 3)]},
        bonus={"fox": "sumotori-N5"},
        display=DISPLAY,
    )
    s2 = play(s, "move:0")
    assert marker(s2, "panda") == 4 and s2.free == () and s2.bonus[1] == T("sumotori-N5")
    # the free tile goes to any column after the column-bound tiles
    s = build(
        cols={"princess": ["batchan-N7"]},
        animals={"fox": [(0, 3)]},
        bonus={"fox": "sumotori-N5"},
        display=DISPLAY,
    )
    s = play(s, "move:0")
    assert s.phase == Phase.COL and s.free == (T("sumotori-N5"),) and s.bonus[1] == NONE
    s = play(s, "col:2")
    assert col(s, "fisherman") == ["sumotori-N5"]


def test_d11_free_tile_removed_when_no_column_has_room() -> None:
    full = {
        name: filler(40, [*DISPLAY, "batchan-N7", "sumotori-N5"])[i * 8 : (i + 1) * 8]
        for i, name in enumerate(COLS)
    }
    full["princess"] = ["batchan-N7", *full["princess"][1:]]
    s = build(cols=full, animals={"fox": [(0, 3)]}, bonus={"fox": "sumotori-N5"}, display=DISPLAY)
    s = play(s, "move:0")
    assert s.phase == Phase.MOVE and T("sumotori-N5") in s.removed
    assert ("discard", T("sumotori-N5")) in s.events


def test_d12_animal_point_tables_and_default_side() -> None:
    assert E.info.options[0].default == "basic"
    animals = {"panda": [(0, 5)], "fox": [(0, 7)]}
    basic = build(animals=animals)
    advanced = build(animals=animals, side="advanced")
    assert E.breakdown(basic, 0)["animals"] == 6 + 10
    assert E.breakdown(advanced, 0)["animals"] == 5 + 1


def test_d13_random_first_player_then_clockwise() -> None:
    s = E.initial_state(3, {})
    assert legal_codes(s) == ["first:0", "first:1", "first:2"]
    s = play(s, "first:2")
    s = setup_until(s, Phase.START)
    assert s.active == 2
    step = 100
    order = []
    while s.phase != Phase.MOVE:
        if E.to_move(s) == CHANCE:
            s = E.apply(s, E.sample_chance(s, Rng.for_step(5, step)))
        else:
            order.append(s.active)
            s = E.apply(s, E.legal_actions(s)[0])
        step += 1
    assert order == [2, 2, 0, 0, 1, 1] and s.active == 2
    s = play(s, "move:0")
    while s.phase != Phase.MOVE:
        if E.to_move(s) == CHANCE:
            s = E.apply(s, E.sample_chance(s, Rng.for_step(5, step)))
        else:
            s = E.apply(s, E.legal_actions(s)[0])
        step += 1
    assert s.active == 0


def test_d14_two_setup_tiles_from_the_bag_in_different_columns() -> None:
    s = setup_until(E.initial_state(2, {}), Phase.START)
    assert len(s.hand) == 2
    first = min(s.hand)
    assert legal_codes(s) == [f"start:t{first}:c{c}" for c in range(5)]
    s = play(s, f"start:t{first}:c3")
    second = s.hand[0]
    assert legal_codes(s) == [f"start:t{second}:c{c}" for c in (0, 1, 2, 4)]
    s = play(s, f"start:t{second}:c0")
    assert s.boards[s.first][3] == (first,) and s.boards[s.first][0] == (second,)


def test_d15_achievement_step_is_immediate() -> None:
    s = build(
        cols={
            "princess": ["samurai-N1"],  # moves samurai: queued
            "samurai": ["batchan-N4", "princess-N4", "samurai:L1", "princess-N1"],
        },
        pos={"samurai": 2},
        display=DISPLAY,
    )
    s = play(s, "move:3")  # samurai 2 -> 3 (achievement) -> 4 at once, princess-N1 queues princess
    moves = [e for e in s.events if e[0] == "move"]
    # the extra step comes before the queued princess move
    assert moves[:3] == [("move", 3, 2, 3), ("move", 3, 3, 4), ("move", 0, 0, 1)]


def test_d16_two_steps_across_the_top_over_an_empty_space() -> None:
    s = build(
        cols={"sumotori": filler(7, ["batchan-N4", *DISPLAY]), "princess": ["batchan-N4"]},
        pos={"sumotori": 7},
        display=DISPLAY,
    )
    s = play(s, "move:0", "pick:k4")
    assert s.happiness[0] == 3 and s.phase == Phase.MOVE and not s.pending


def test_d17_both_tiles_resolve_in_data_order() -> None:
    s = build(cols={"princess": ["princess-N8"]}, display=DISPLAY)
    s = play(s, "move:0")
    tile = T("princess-N8")
    assert s.todo == (TileEffect(tile, 0, 0), TileEffect(tile, 1, 0))
    assert legal_codes(s)[0].startswith("animal:")


def test_d18_effects_are_mandatory_and_impossible_ones_skipped() -> None:
    # samurai-N10 (gain any column / any animal) with an empty display: only the animal side
    s = build(cols={"princess": ["samurai-N10"]}, display=[])
    s = replace(s, bag=())
    s = play(s, "move:0")
    assert legal_codes(s) == ["side:b"]
    # a possible gain must be taken: only gain actions are offered
    s = build(cols={"princess": ["princess-N9"]}, display=DISPLAY)
    s = play(s, "move:0")
    assert s.phase == Phase.GAIN and all(c.startswith("gain:t") for c in legal_codes(s))


def test_d19_animal_moves_and_gains_are_immediate() -> None:
    s = build(cols={"princess": ["princess-N8"]}, display=DISPLAY)
    s = play(s, "move:0", "animal:cat")
    kinds = [e[0] for e in s.events]
    assert kinds.index("animal") < kinds.index("queue") < kinds.index("move", 1)
    s = build(cols={"princess": ["princess-N9"]}, display=DISPLAY)
    s = play(s, "move:0", "gain:" + code("samurai-N6"))
    assert T("samurai-N6") not in s.display and s.pending == ((0, T("samurai-N6")),)


def test_d20_marker_at_the_last_position_cannot_advance() -> None:
    s = build(cols={"princess": ["princess-N7"]}, animals={"panda": [(0, 7)]}, display=DISPLAY)
    s = play(s, "move:0")
    assert ("skip", T("princess-N7"), 0) in s.events and marker(s, "panda") == 7
    s = build(cols={"princess": ["sumotori-N7"]}, animals={"panda": [(0, 7)]}, display=DISPLAY)
    s = play(s, "move:0")
    assert "animal:panda" not in legal_codes(s) and len(legal_codes(s)) == 3


def test_d21_any_column_target_fixed_at_gain_time() -> None:
    s = build(
        cols={"princess": ["princess-N10"], "fisherman": filler(8, [*DISPLAY, "princess-N10"])},
        display=DISPLAY,
    )
    s = play(s, "move:0", "side:a", "gain:" + code("batchan-N2"))
    assert s.phase == Phase.COL and legal_codes(s) == ["col:0", "col:1", "col:3", "col:4"]
    s = play(s, "col:4")
    assert s.pending == ((4, T("batchan-N2")),)
    s = play(s, "draw:" + code("fisherman-N1"))
    assert col(s, "sumotori") == ["batchan-N2"]


def test_d22_eligibility_counts_pending_and_placement_order_is_forced() -> None:
    s = build(cols={"fisherman": ["princess-N1"]}, display=DISPLAY)
    s = replace(
        s,
        phase=Phase.GAIN,
        pending=((2, T("batchan-N8")),),
        todo=(EmptyGain(2),),
    )
    # height 1 + pending 1 + 1 = 3 >= 3: level 1 is eligible only thanks to the pending tile
    assert "gain:ach:fisherman:1" in legal_codes(s)
    s = play(s, "gain:ach:fisherman:1")
    assert s.phase == Phase.PLACE and s.place_column() == 2
    assert legal_codes(s) == ["place:" + code("batchan-N8")]  # the achievement cannot go on space 2
    s = play(s, "place:" + code("batchan-N8"))
    assert col(s, "fisherman") == ["princess-N1", "batchan-N8", "fisherman:L1"]


def test_d22_free_choice_of_order_when_both_orders_are_valid() -> None:
    s = build(cols={"fisherman": filler(3, DISPLAY)}, display=DISPLAY)
    s = replace(
        s,
        phase=Phase.GAIN,
        pending=((2, T("batchan-N8")),),
        todo=(EmptyGain(2),),
    )
    s = play(s, "gain:ach:fisherman:1")
    assert legal_codes(s) == ["place:" + code("batchan-N8"), "place:ach:fisherman:1"]


def test_d23_trigger_mid_turn_and_the_turn_is_finished() -> None:
    s = build(
        cols={"princess": ["samurai-N8"]},
        animals={"panda": [(0, 3)], "fox": [(0, 4)], "cat": [(0, 4)], "rabbit": [(0, 4)]},
        others={0: {"fisherman": ["princess-N3", "batchan-N3", "fisherman:L1"]}},
        display=DISPLAY,
    )
    s = play(s, "move:0", "animal:panda")
    assert ("trigger", "achievements") in s.events and s.end_after == 4
    # the queued samurai move still happens in the same turn
    assert s.phase == Phase.GAIN and kpos(s, "samurai") == 0
    assert ("move", 3, 0, 1) in s.events


def test_d24_track_height_is_not_cumulative() -> None:
    assert [track_height_points(D, h) for h in range(9)] == [0, 0, 0, 3, 3, 5, 5, 7, 7]


def test_d25_no_leader_bonus_when_nobody_moved() -> None:
    s = build()
    assert E.breakdown(s, 0)["leaders"] == 0 and E.breakdown(s, 1)["leaders"] == 0
    s = build(animals={"cat": [(1, 1)]})
    assert E.breakdown(s, 1)["leaders"] == 3


def test_d26_orthogonal_adjacency_only_achievement_tiles_count() -> None:
    diagonal = build(
        cols={"princess": ["samurai-N1", "princess-N1"], "batchan": ["batchan-N1", "samurai-N2"]}
    )
    assert E.breakdown(diagonal, 0)["adjacency"] == 0
    with_ach = build(cols={"princess": ["batchan-N1", "princess-N1", "princess:L1"]})
    assert E.breakdown(with_ach, 0)["adjacency"] == -3


def _over(s):
    return replace(s, phase=Phase.OVER)


def test_d27_tiebreak_more_achievements_then_fewer_pairs_then_shared() -> None:
    a_ach = _over(build(animals={"panda": [(0, 4)]}, happiness=(0, 7)))
    assert E.scores(a_ach) == (7, 7) and E.winners(a_ach) == (0,)
    pairs = _over(build(cols={"princess": ["princess-N1", "princess-N2"]}, happiness=(3, 0)))
    assert E.scores(pairs) == (0, 0) and E.winners(pairs) == (1,)
    assert E.winners(_over(build())) == (0, 1)
    assert E.winners(build()) == ()
    assert tiebreak(D, a_ach) == "achievements" and tiebreak(D, pairs) == "pairs"
    assert tiebreak(D, _over(build())) is None
    assert tiebreak(D, _over(build(happiness=(1, 0)))) is None  # no tie on points


def test_achievement_count_includes_pending_and_midlines() -> None:
    s = build(
        animals={"fox": [(0, 4)]}, cols={"batchan": ["princess-N1", "batchan-N5", "batchan:L1"]}
    )
    assert achievement_count(D, s, 0) == 2
    assert ANIMALS[1] == "fox" and load() is D


def test_four_players_trigger_at_four_achievements() -> None:
    """§12: one player with 4 achievements ends a 4-player game (5 with 2 or 3 players)."""
    animals = {a: [(0, 4)] for a in ("panda", "fox", "cat")}
    s = build(
        seats=4,
        cols={"fisherman": ["samurai-N2", "batchan-N5"]},
        pos={"fisherman": 2},
        display=DISPLAY,
        animals=animals,
    )
    s4 = play(s, "move:2", "gain:ach:fisherman:1")
    assert ("trigger", "achievements") in s4.events and s4.end_after == 8
    s3 = play(
        replace(
            s,
            seats=3,
            boards=s.boards[:3],
            pos=s.pos[:3],
            happiness=(0, 0, 0),
            animals=tuple(tuple(e for e in tr if e[0] < 3) for tr in s.animals),
        ),
        "move:2",
        "gain:ach:fisherman:1",
    )
    assert s3.end_after == NONE


def test_chance_draws_come_from_the_sorted_bag() -> None:
    s = play(E.initial_state(2, {}), "first:0")
    legal = E.legal_actions(s)
    assert [a.values[0] for a in legal] == sorted(s.bag)
    a = E.sample_chance(s, Rng.for_step(9, 1))
    assert a in legal and a == E.sample_chance(s, Rng.for_step(9, 1))
    assert E.encode_action(a).startswith("draw:t")
