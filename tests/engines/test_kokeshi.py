"""Kokeshi rules: the worked examples of games/kokeshi/rules.md §13, one by one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng
from games.kokeshi.engine.data import parse, raw_data
from games.kokeshi.engine.rules import KokeshiEngine
from games.kokeshi.engine.state import NONE, Phase
from tests.engines.kokeshi_positions import (
    COLS,
    D,
    E,
    T,
    build,
    code,
    col,
    disp,
    filler,
    kpos,
    legal_codes,
    marker,
    play,
)

DISPLAY6 = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]


def with_pos(s, seat: int, name: str, p: int):
    pos = [list(row) for row in s.pos]
    pos[seat][COLS.index(name)] = p
    return replace(s, pos=tuple(tuple(r) for r in pos))


def achievements(s, seat: int = 0) -> int:
    from games.kokeshi.engine.scoring import achievement_count

    return achievement_count(D, s, seat)


def finish_randomly(s, seed: int = 1):
    """Play on with random legal actions to the end; returns (state, seats of finished turns)."""
    order = []
    step = 0
    rng = Rng.for_step(seed, 10**6)
    while E.to_move(s) != TERMINAL:
        if E.to_move(s) == CHANCE:
            a = E.sample_chance(s, Rng.for_step(seed, step))
        else:
            if s.phase == Phase.MOVE:
                order.append(s.active)
            legal = E.legal_actions(s)
            a = legal[rng.below(len(legal))]
        s = E.apply(s, a)
        step += 1
    return s, order


# -- Example 1 ---------------------------------------------------------------------------------


def test_example1_empty_space_gain_and_refill() -> None:
    s = build(
        cols={"princess": ["batchan-N3"]},
        display=["samurai-N9", "princess-N7", "sumotori-N4", "batchan-N6"],
    )
    s = play(s, "move:2")
    assert s.phase == Phase.GAIN
    assert kpos(s, "fisherman") == 0
    assert not any("ach" in c for c in legal_codes(s))  # 0 + 0 + 1 < 3
    s = play(s, "gain:" + code("princess-N7"))
    assert E.to_move(s) == CHANCE
    s = play(s, "draw:" + code("fisherman-N1"))
    assert disp(s) == {"samurai-N9", "sumotori-N4", "batchan-N6", "fisherman-N1"}
    assert col(s, "fisherman") == ["princess-N7"]
    assert s.pos[0] == (0, 0, 0, 0, 0)
    assert s.happiness[0] == 0 and achievements(s) == 0 and s.end_after == NONE
    assert s.phase == Phase.MOVE and s.active == 1


# -- Example 2 ---------------------------------------------------------------------------------


def test_example2_cascade_left_right_and_chained_empty_landing() -> None:
    s = build(
        cols={"princess": ["batchan-N8"], "batchan": ["fisherman-N5"]},
        display=DISPLAY6,
    )
    s = play(s, "move:0")
    assert legal_codes(s) == ["animal:panda", "animal:fox", "animal:cat", "animal:rabbit"]
    s = play(s, "animal:fox")
    assert marker(s, "fox") == 1
    assert legal_codes(s) == ["pick:k2", "pick:k3", "pick:k4"]  # right of column 1
    s = play(s, "pick:k2", "gain:" + code("samurai-N6"), "draw:" + code("batchan-N3"))
    assert (kpos(s, "princess"), kpos(s, "batchan"), kpos(s, "fisherman")) == (1, 1, 0)
    assert col(s, "fisherman") == ["samurai-N6"]
    assert s.happiness[0] == 0 and s.phase == Phase.MOVE


def test_example2_left_arrow_in_leftmost_column_does_nothing() -> None:
    s = build(cols={"princess": ["princess-N6"]}, display=DISPLAY6)
    s = play(s, "move:0")
    assert kpos(s, "princess") == 1
    assert ("skip", T("princess-N6"), 0) in s.events
    assert s.phase == Phase.MOVE and s.active == 1
    assert s.display == build(display=DISPLAY6).display


def _fifo_engine() -> KokeshiEngine:
    raw = raw_data()
    raw["normal_tiles"].append(
        {
            "id": "test-both",
            "colour": "princess",
            "kind": "X",
            "mode": "both",
            "effects": [
                {"type": "move_kokeshi", "kokeshi": "batchan", "steps": 1},
                {"type": "move_kokeshi", "kokeshi": "fisherman", "steps": 1},
            ],
        }
    )
    return KokeshiEngine(parse(raw))


def test_example2_fifo_synthetic_queue_order() -> None:
    """§13 Example 2 note: two queued moves run first-in first-out; the achievement step is
    immediate (D15)."""
    engine = _fifo_engine()
    s = build(
        cols={
            "batchan": ["samurai-N7", "princess-N7", "batchan:L1", "sumotori-N1"],
        },
        pos={"batchan": 2},
        display=DISPLAY6,
    )
    board = [list(c) for c in s.boards[0]]
    board[0] = [50]
    s = replace(s, boards=(tuple(tuple(c) for c in board), *s.boards[1:]))
    s = play(s, "move:0", engine=engine)
    landings = [e[1] for e in s.events if e[0] == "move"]
    # princess, batchan (onto the achievement tile), batchan (extra step), fisherman; sumotori waits
    assert landings == [0, 1, 1, 2]
    s = play(s, "gain:" + code("samurai-N6"), "draw:" + code("batchan-N3"), engine=engine)
    landings = [e[1] for e in s.events if e[0] == "move"]
    assert landings == [0, 1, 1, 2, 4]
    s = play(s, "gain:" + code("princess-N9"), "draw:" + code("fisherman-N1"), engine=engine)
    assert s.phase == Phase.MOVE
    assert col(s, "fisherman") == ["samurai-N6"] and col(s, "sumotori") == ["princess-N9"]
    assert (kpos(s, "batchan"), kpos(s, "fisherman"), kpos(s, "sumotori")) == (4, 0, 0)


# -- Example 3 ---------------------------------------------------------------------------------


def test_example3a_two_step_move_past_the_top() -> None:
    s = build(
        cols={"samurai": filler(8, ["sumotori-N4", *DISPLAY6]), "princess": ["sumotori-N4"]},
        pos={"samurai": 7},
        display=DISPLAY6,
    )
    s = play(s, "move:0")
    assert legal_codes(s) == [f"pick:k{c}" for c in range(5)]
    s = play(s, "pick:k3")
    assert s.happiness[0] == 3 and kpos(s, "samurai") == 0
    assert s.phase == Phase.MOVE and len(s.pending) == 0 and disp(s) == set(DISPLAY6)


def test_example3b_achievement_extra_step() -> None:
    s = build(
        cols={"fisherman": ["samurai-N7", "princess-N7", "fisherman:L1", "batchan-N1"]},
        pos={"fisherman": 2},
        display=DISPLAY6,
    )
    s = play(s, "move:2")
    assert ("extra", 2, 3) in s.events
    assert kpos(s, "fisherman") == 4 and s.phase == Phase.GAIN
    assert not any("ach" in c for c in legal_codes(s))
    s = play(s, "gain:" + code("samurai-N6"), "draw:" + code("batchan-N3"))
    assert kpos(s, "fisherman") == 4 and kpos(s, "batchan") == 0
    assert len(col(s, "batchan")) == 1
    assert all(marker(s, a) == 0 for a in D.animals)


def test_example3c_taking_an_achievement_tile() -> None:
    t1, t2 = "samurai-N2", "batchan-N5"
    s = build(cols={"fisherman": [t1, t2]}, pos={"fisherman": 2}, display=DISPLAY6)
    s = play(s, "move:2")
    codes = legal_codes(s)
    assert "gain:ach:fisherman:1" in codes
    assert "gain:ach:fisherman:2" not in codes and "gain:ach:fisherman:3" not in codes
    s = play(s, "gain:ach:fisherman:1")
    assert col(s, "fisherman") == [t1, t2, "fisherman:L1"]
    assert achievements(s) == 1 and disp(s) == set(DISPLAY6)
    assert s.phase == Phase.MOVE


def test_example3d_colour_cap_three_players() -> None:
    s = build(
        seats=3,
        cols={"fisherman": ["samurai-N2", "batchan-N5"]},
        others={
            1: {"fisherman": filler(4, DISPLAY6)},
            2: {"fisherman": filler(6, DISPLAY6)[::-1]},
        },
        pos={"fisherman": 2},
        display=DISPLAY6,
    )
    s = with_pos(with_pos(s, 1, "fisherman", 4), 2, "fisherman", 6)
    s = play(s, "move:2", "gain:ach:fisherman:1")
    assert s.active == 1
    s = play(s, "move:2")
    assert "gain:ach:fisherman:2" in legal_codes(s)
    s = play(s, "gain:ach:fisherman:2")
    assert T("fisherman:L3") in s.removed and T("fisherman:L3") not in s.ach_supply
    s = play(s, "move:2")  # C: 6 -> 7, empty; L3 would fit but is gone
    assert s.phase == Phase.GAIN and not any("ach" in c for c in legal_codes(s))


# -- Example 4 ---------------------------------------------------------------------------------


def _b_about_to_trigger(display_bag_empty: bool = False):
    """3 players, B (seat 1) in round 6 (turn index 16) one achievement short."""
    animals = {a: [(1, 4)] for a in ("panda", "fox", "cat", "rabbit")}
    s = build(
        seats=3,
        cols={"fisherman": ["samurai-N2", "batchan-N5"]},
        pos={"fisherman": 2},
        display=DISPLAY6,
        animals=animals,
        active=1,
        turns=16,
    )
    if display_bag_empty:
        s = replace(s, bag=())
    return s


def test_example4_end_trigger_timing_achievements() -> None:
    s = _b_about_to_trigger()
    s = play(s, "move:2", "gain:ach:fisherman:1")
    assert ("trigger", "achievements") in s.events
    assert s.end_after == 21  # rest of round 6 (C), then round 7 (A, B, C)
    s, order = finish_randomly(s)
    assert order == [2, 0, 1, 2]
    assert s.turns == 21 and all(s.turns // 3 == 7 for _ in range(3))


def test_example4_end_trigger_timing_display() -> None:
    s = _b_about_to_trigger(display_bag_empty=True)
    s = play(s, "move:2", "gain:" + code("samurai-N6"))
    assert ("trigger", "display") in s.events and len(s.display) == 3
    assert s.end_after == 21
    s, order = finish_randomly(s)
    assert order == [2, 0, 1, 2]


# -- Example 5 ---------------------------------------------------------------------------------


def example5_state():
    s = build(
        cols={
            "princess": ["samurai-N3", "samurai-N5", "princess:L1"],
            "batchan": ["samurai-N1", "fisherman-N9"],
            "fisherman": ["fisherman-N2", "fisherman-N6"],
        },
        animals={
            "panda": [(1, 4), (0, 4)],
            "fox": [(1, 0), (0, 1)],
            "rabbit": [(0, 0), (1, 2)],
        },
    )
    return s


def test_example5_final_scoring() -> None:
    s = example5_state()
    parts = E.breakdown(s, 0)
    assert parts == {
        "happiness": 0,
        "height": 3,
        "achievements": 5,
        "animals": 5,
        "leaders": 3,
        "adjacency": -12,
        "total": 4,
    }
    assert E.scores(s)[0] == 4
    assert achievements(s, 0) == 2
    assert s.stack(D.animals.index("panda"), 4) == (1, 0)  # B below A


# -- Example 6 ---------------------------------------------------------------------------------


def test_example6a_two_steps_onto_an_empty_space() -> None:
    s = build(cols={"princess": ["sumotori-N4"], "fisherman": ["fisherman-N7"]}, display=DISPLAY6)
    s = play(s, "move:0", "pick:k2")
    assert marker(s, "cat") == 0
    assert not any("ach" in c for c in legal_codes(s))
    s = play(s, "gain:" + code("samurai-N6"), "draw:" + code("batchan-N3"))
    assert kpos(s, "princess") == 1 and kpos(s, "fisherman") == 0
    assert col(s, "fisherman") == ["fisherman-N7", "samurai-N6"]
    assert disp(s) == {"batchan-N2", "princess-N9", "sumotori-N1", "batchan-N3"}


def _full_samurai(space5: str) -> list[str]:
    tiles = filler(7, [space5, *DISPLAY6, "batchan-N3"])
    return [*tiles[:4], space5, *tiles[4:]]


def test_example6b_gain_tile_on_a_full_track_is_skipped() -> None:
    s = build(cols={"samurai": _full_samurai("samurai-N9")}, pos={"samurai": 4}, display=DISPLAY6)
    s = play(s, "move:3")
    assert kpos(s, "samurai") == 5
    assert ("skip", T("samurai-N9"), 0) in s.events
    assert disp(s) == set(DISPLAY6) and s.happiness[0] == 0 and s.phase == Phase.MOVE


def test_example6b_variant_any_column_gain_still_possible() -> None:
    s = build(cols={"samurai": _full_samurai("samurai-N10")}, pos={"samurai": 4}, display=DISPLAY6)
    s = play(s, "move:3")
    assert legal_codes(s) == ["side:a", "side:b"]
    s = play(s, "side:a", "gain:" + code("princess-N9"))
    assert s.phase == Phase.COL and legal_codes(s) == ["col:0", "col:1", "col:2", "col:4"]
    s = play(s, "col:1", "draw:" + code("batchan-N3"))
    assert col(s, "batchan") == ["princess-N9"]
    assert "batchan-N3" in disp(s)


def test_example6c_two_steps_over_an_empty_space_8() -> None:
    s = build(
        cols={"sumotori": filler(7, ["batchan-N4", *DISPLAY6]), "princess": ["batchan-N4"]},
        pos={"sumotori": 7},
        display=DISPLAY6,
    )
    s = play(s, "move:0", "pick:k4")
    assert s.happiness[0] == 3 and kpos(s, "sumotori") == 0
    assert len(col(s, "sumotori")) == 7 and disp(s) == set(DISPLAY6)
    assert s.phase == Phase.MOVE


# -- Example 7 ---------------------------------------------------------------------------------


#: §13 Example 7 names ``batchan-N3`` both on A's fisherman column and as the next bag tile;
#: a tile exists once (D5), so these tests draw ``fisherman-N1`` instead.
NEXT7 = "fisherman-N1"


def example7_state(cat_variant: bool = False):
    animals = {"panda": [(1, 4), (0, 3)], "fox": [(1, 2), (0, 4)]}
    if cat_variant:
        animals["cat"] = [(1, 0), (0, 3)]
    return build(
        cols={
            "princess": ["fisherman-N3", "samurai-N3", "princess:L1"],
            "batchan": ["fisherman-N5", "samurai-N5", "batchan:L1"],
            "fisherman": ["princess-N3", "batchan-N3", "fisherman:L1", "samurai-N4"],
            "samurai": ["samurai-N8"],
        },
        display=DISPLAY6,
        animals=animals,
        bonus={"cat": "princess-N5"} if cat_variant else None,
        turns=10,
    )


def test_example7_cascade_triggers_the_end_and_animal_tie() -> None:
    s = example7_state()
    assert achievements(s) == 4
    s = play(s, "move:3", "animal:panda")
    assert s.stack(D.animals.index("panda"), 4) == (1, 0)  # A on top of B
    assert ("trigger", "achievements") in s.events and s.end_after == 14
    assert not s.free  # the panda bonus tile is already gone
    assert not any("ach" in c for c in legal_codes(s))
    s = play(s, "gain:" + code("sumotori-N1"), "draw:" + code(NEXT7))
    assert col(s, "samurai") == ["samurai-N8", "sumotori-N1"]
    assert E.scores(s) == (29, 9)
    assert E.breakdown(s, 0)["leaders"] == 3 and E.breakdown(s, 1)["leaders"] == 3
    s, order = finish_randomly(s)
    assert order == [1, 0, 1]
    assert E.to_move(s) == TERMINAL and E.winners(s)


def test_example7_variant_free_tile_placed_after_the_column_tile() -> None:
    s = example7_state(cat_variant=True)
    s = play(s, "move:3", "animal:cat")
    assert s.free == (T("princess-N5"),) and s.end_after == 14
    s = play(s, "gain:" + code("sumotori-N1"), "draw:" + code(NEXT7))
    assert s.phase == Phase.COL
    assert col(s, "samurai") == ["samurai-N8", "sumotori-N1"]  # already placed
    assert legal_codes(s) == [f"col:{c}" for c in range(5)]
    s = play(s, "col:4")
    assert col(s, "sumotori") == ["princess-N5"]
    places = [e for e in s.events if e[0] == "place"]
    assert places == [("place", 3, 2, T("sumotori-N1")), ("place", 4, 1, T("princess-N5"))]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_initial_state_is_a_chance_step(seats: int) -> None:
    s = E.initial_state(seats, {})
    assert E.to_move(s) == CHANCE
    assert legal_codes(s) == [f"first:{i}" for i in range(seats)]


def test_todo_records_are_stored_as_the_same_triples_as_before() -> None:
    """Saved games hold the pending work as integer triples; the records read and write them."""
    from games.kokeshi.engine import todo

    stored = {
        (7, 1, 3): todo.TileEffect(7, 1, 3),
        (7, -1, 3): todo.SideChoice(7, 3),
        (-1, 2, 0): todo.EmptyGain(2),
        (-2, 0, 0): todo.Refill(),
        (-3, 17, 0): todo.ColumnChoice(17),
    }
    for triple, item in stored.items():
        assert todo.decode(list(triple)) == item
        assert todo.encode(item) == triple


# -- turns (the engine contract's count of ended turns) -----------------------------------------


def test_turn_rises_exactly_when_a_turn_ends() -> None:
    """Each seat's two setup tiles are its first turn; then every played turn counts once."""
    script = [
        ("first:1", 0),  # seat 1 goes first
        *((f"draw:t{i}", 0) for i in range(4)),  # the animal bonus tiles
        ("draw:t4", 0),
        ("draw:t5", 0),
        ("start:t4:c0", 0),
        ("start:t5:c1", 1),  # seat 1's setup is done: seat 0 takes over
        ("draw:t6", 1),
        ("draw:t7", 1),
        ("start:t6:c2", 1),
        ("start:t7:c3", 2),  # seat 0's setup is done
        *((f"draw:t{i}", 2) for i in (10, 11, 12, 13)),  # the display; seat 1 moves first
        ("move:2", 2),  # onto an empty space
        ("gain:t10", 2),
        ("draw:t14", 3),  # the refill ends seat 1's turn
        ("move:4", 3),
    ]
    s = E.initial_state(2, {})
    for text, turn in script:
        before = s
        s = play(s, text)
        assert E.turn(s) == turn, text
        assert (E.turn(s) > E.turn(before)) == (text in ("start:t5:c1", "start:t7:c3", "draw:t14"))
    assert s.active == 0 and s.phase == Phase.GAIN


def test_the_last_turn_of_the_game_counts_as_ended() -> None:
    s = build(cols={"princess": ["princess-N6"]}, turns=3, active=1, end_after=4)
    assert E.turn(s) == 5
    s = play(s, "move:0")
    assert E.to_move(s) == TERMINAL and E.turn(s) == 6 and s.turns == 4


def test_a_state_stored_before_turns_were_counted_is_an_old_encoding() -> None:
    """Stored games of the earlier encoding have no "turn": the service replays their log."""
    from engines.errors import OldEncoding

    s = play(build(display=DISPLAY6), "move:2")
    stored = E.encode_state(s)
    assert E.decode_state(stored) == s
    del stored["turn"]
    with pytest.raises(OldEncoding):
        E.decode_state(stored)


def test_new_events_are_what_one_action_added() -> None:
    from games.kokeshi.engine.state import new_events

    s = build(cols={"princess": ["batchan-N8"]}, display=DISPLAY6)
    moved = play(s, "move:0")  # a move starts the turn's events anew
    assert new_events(s, moved) == moved.events and moved.events[0] == ("move", 0, 0, 1)
    chose = play(moved, "animal:fox")
    assert new_events(moved, chose) == chose.events[len(moved.events) :]
    assert new_events(moved, chose)[0] == ("animal", 1, 1)


def test_rounds() -> None:
    s = build(seats=3, turns=7, active=1)
    assert (s.current_round(), s.last_round(), s.turns_left()) == (3, None, None)
    s = replace(s, end_after=9)
    assert (s.last_round(), s.turns_left()) == (3, 2)
