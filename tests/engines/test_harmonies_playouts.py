"""Harmonies random playouts: invariants at every step, replay, codecs, an independent recount."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, TERMINAL
from engines.errors import IllegalAction
from engines.replay import replay
from engines.rng import Rng
from games.harmonies.engine.actions import END, Action, decode, encode
from games.harmonies.engine.cards import ANIMAL_IDS, BOARD_CELLS, CARDS, COLOURS, SPIRIT_IDS
from games.harmonies.engine.rules import HarmoniesEngine
from games.harmonies.engine.state import HarmoniesState, Phase, TurnStep
from games.harmonies.engine.turn import ends_turn, turn_step

E = HarmoniesEngine()

LEGAL_STACKS = {
    (),
    ("blue",),
    ("yellow",),
    ("green",),
    ("brown", "green"),
    ("brown", "brown", "green"),
    ("brown",),
    ("brown", "brown"),
    ("grey",),
    ("grey", "grey"),
    ("grey", "grey", "grey"),
    ("grey", "red"),
    ("brown", "red"),
    ("red", "red"),
    ("red",),
}


def choose(s: HarmoniesState, rnd: random.Random) -> Action:
    """A random legal action, biased towards cubes, cards and stacking so games use the rules."""
    acts = E.legal_actions(s)
    by_kind: dict[str, list[Action]] = {}
    for a in acts:
        by_kind.setdefault(a.kind, []).append(a)
    roll = rnd.random()
    if "undo" in by_kind and roll < 0.04:
        return by_kind["undo"][0]
    if "cube" in by_kind and roll < 0.8:
        return rnd.choice(by_kind["cube"])
    if "card" in by_kind and roll < 0.3:
        return rnd.choice(by_kind["card"])
    if "discard" in by_kind and roll < 0.1:
        return rnd.choice(by_kind["discard"])
    if "place" in by_kind:
        places = by_kind["place"]
        cells = {c: i for i, c in enumerate(BOARD_CELLS[s.side])}
        stacked = [a for a in places if a.cell and s.player.stacks[cells[a.cell]]]
        if stacked and rnd.random() < 0.6:
            return rnd.choice(stacked)
        return rnd.choice(places)
    if "end" in by_kind:
        return by_kind["end"][0]
    return rnd.choice([a for a in acts if a.kind != "undo"] or list(acts))


def random_candidates(s: HarmoniesState, rnd: random.Random, n: int) -> Iterable[Action]:
    cells = BOARD_CELLS[s.side]
    for _ in range(n):
        kind = rnd.choice(
            ["place", "cube", "card", "take", "undo", "end", "keep", "discard", "draw", "deal"]
        )
        if kind == "place":
            yield Action("place", colour=rnd.choice(COLOURS), cell=rnd.choice(cells))
        elif kind == "cube":
            yield Action("cube", num=rnd.choice(ANIMAL_IDS + SPIRIT_IDS), cell=rnd.choice(cells))
        elif kind in ("card", "discard", "deal"):
            yield Action(kind, num=rnd.choice(ANIMAL_IDS))
        elif kind == "keep":
            yield Action(kind, num=rnd.choice(SPIRIT_IDS))
        elif kind == "take":
            yield Action(kind, num=rnd.randint(1, 5))
        elif kind == "draw":
            yield Action(kind, num=rnd.randint(1, 5), colour=rnd.choice(COLOURS))
        else:
            yield Action(kind)


def check_invariants(s: HarmoniesState) -> None:
    assert s.tokens_in_play() == 120
    assert all(n >= 0 for n in s.bag)
    for p in s.players:
        for stack, cube in zip(p.stacks, p.cubes, strict=True):
            assert stack in LEGAL_STACKS and len(stack) <= 3
            assert not cube or stack
        held = dict(p.cards)
        assert sum(1 for c in p.cubes if c) == sum(held.values())
        assert len(p.in_progress()) <= 4
    d = E.encode_state(s)
    assert E.decode_state(json.loads(json.dumps(d))) == s


def check_turn(seat: int, turn_before: int, a: Action, s: HarmoniesState) -> None:
    """After a player action and the chance steps it opened: the turn counter rose by at most
    one, exactly when the action ended the turn and (several seats) another seat is to move."""
    rise = E.turn(s) - turn_before
    assert rise in (0, 1)
    assert rise == ends_turn(a)
    if s.seats > 1 and E.to_move(s) >= 0:
        assert rise == (E.to_move(s) != seat)
    assert E.turn(s) == sum(s.turns)


def playout(
    seats: int, options: dict[str, object], seed: int, checks: bool = True
) -> tuple[HarmoniesState, list[str]]:
    s = E.initial_state(seats, options)
    rnd = random.Random(seed)
    log: list[str] = []
    mover: tuple[int, int, Action] | None = None  # the last player action and the turn before
    while E.to_move(s) != TERMINAL:
        assert len(log) < 5000
        if mover is not None and E.to_move(s) != CHANCE:
            check_turn(*mover, s)
            mover = None
        legal = E.legal_actions(s)
        assert list(legal) == sorted(set(legal))
        if checks:
            check_invariants(s)
            before = E.encode_state(s)
            for cand in random_candidates(s, rnd, 4):
                if cand in legal:
                    continue
                with pytest.raises(IllegalAction):
                    E.apply(s, cand)
            assert E.encode_state(s) == before
            if len(log) % 5 == 0:
                for legal_action in legal:  # every listed action is accepted
                    E.apply(s, legal_action)
        if E.to_move(s) == CHANCE:
            a = E.sample_chance(s, Rng.for_step(seed, len(log)))
            assert a in legal
        else:
            assert E.to_move(s) == s.active
            assert (END in legal) == (turn_step(s) is TurnStep.FINISH)
            a = choose(s, rnd)
            mover = (s.active, E.turn(s), a)
        code = encode(a)
        assert decode(code) == a and len(code) <= 60
        after = E.apply(s, a)
        assert E.turn(after) >= E.turn(s)
        assert E.to_move(s) != CHANCE or E.turn(after) == E.turn(s)
        s = after
        log.append(code)
    assert mover is not None
    check_turn(*mover, s)
    if checks:
        check_invariants(s)
    return s, log


# -- an independent recount of the final boards -------------------------------------------------

STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def _adjacent(cells: set[tuple[int, int]], q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in STEPS if (q + dq, r + dr) in cells]


def _components(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        comp = set(todo)
        while todo:
            q, r = todo.pop()
            for nb in _adjacent(left, q, r):
                left.discard(nb)
                comp.add(nb)
                todo.append(nb)
        out.append(comp)
    return out


def _river(group: set[tuple[int, int]], loops: bool) -> int:
    best = 0
    for start in group:
        dist = {start: 1}
        todo = [start]
        for cell in todo:
            for nb in _adjacent(group, *cell):
                if nb not in dist:
                    dist[nb] = dist[cell] + 1
                    todo.append(nb)
        best = max(best, *dist.values())
    if not loops:
        return best

    def chordless(path: list[tuple[int, int]]) -> bool:
        ring = set(path)
        return all(
            set(_adjacent(ring, *x)) == {path[i - 1], path[(i + 1) % len(path)]}
            for i, x in enumerate(path)
        )

    order = sorted(group)

    def walk(path: list[tuple[int, int]]) -> None:
        nonlocal best
        for nb in _adjacent(group, *path[-1]):
            if nb == path[0] and len(path) >= 3 and len(path) > best and chordless(path):
                best = len(path)
            if nb not in path and order.index(nb) > order.index(path[0]):
                walk([*path, nb])

    for start in order:
        walk([start])
    return best


def recount(s: HarmoniesState, seat: int) -> int:
    p = s.players[seat]
    board = dict(zip(BOARD_CELLS[s.side], p.stacks, strict=True))
    tops = {c: st[-1] for c, st in board.items() if st}
    total = 0
    for cell, stack in board.items():
        if tops.get(cell) == "green":
            total += {1: 1, 2: 3, 3: 7}[len(stack)]
        if tops.get(cell) == "grey" and any(
            tops.get(nb) == "grey" for nb in _adjacent(set(board), *cell)
        ):
            total += {1: 1, 2: 3, 3: 7}[len(stack)]
        if len(stack) == 2 and stack[1] == "red":
            around = {tops[nb] for nb in _adjacent(set(board), *cell) if nb in tops}
            total += 5 if len(around) >= 3 else 0
    total += 5 * sum(
        1 for g in _components({c for c, t in tops.items() if t == "yellow"}) if len(g) >= 2
    )
    if s.side == "B":
        total += 5 * len(_components({c for c in board if tops.get(c) != "blue"}))
    else:
        blue = {c for c, t in tops.items() if t == "blue"}
        length = max(
            [_river(g, not s.options.river_loops_diameter) for g in _components(blue)] or [0]
        )
        table = {0: 0, 1: 0, 2: 2, 3: 5, 4: 8, 5: 11, 6: 15}
        total += table[length] if length <= 6 else 15 + 4 * (length - 6)
    for cid, placed in p.cards:
        card = CARDS[cid]
        if not card.spirit and placed:
            total += card.track[placed - 1]
    total += E.breakdown(s)[seat]["spirit"]  # spirit rules are covered by unit tests
    return total


# -- hypothesis playouts -----------------------------------------------------------------------

PARAMS = [(seats, side) for seats in (1, 2, 3, 4) for side in ("A", "B")]


@pytest.mark.parametrize(("seats", "side"), PARAMS)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spirits=st.booleans(), diameter=st.booleans())
def test_random_playout(seats: int, side: str, seed: int, spirits: bool, diameter: bool) -> None:
    options = {"side": side, "spirits": spirits, "river_loops_diameter": diameter}
    s, log = playout(seats, options, seed)
    assert s.phase == Phase.OVER
    assert replay(E, seats, options, log) == s
    assert E.scores(s) == tuple(recount(s, seat) for seat in range(seats))
    assert E.winners(s)
    if seats > 1:
        assert max(s.turns) == min(s.turns)  # the round was completed


# -- full-game smoke tests ---------------------------------------------------------------------


def test_full_game_four_players() -> None:
    s, log = playout(4, {}, seed=2024, checks=False)
    assert s.phase == Phase.OVER and len(set(s.turns)) == 1
    assert E.winners(s) and all(score > 0 for score in E.scores(s))
    assert replay(E, 4, {}, log) == s


def test_full_game_two_players_side_b_spirits() -> None:
    options = {"side": "B", "spirits": True}
    s, log = playout(2, options, seed=7, checks=False)
    assert s.phase == Phase.OVER and s.turns[0] == s.turns[1]
    assert all(p.spirit() for p in s.players)
    assert replay(E, 2, options, log) == s
    parts = E.breakdown(s)
    assert all(b["water"] >= 5 for b in parts)


def test_full_game_solo() -> None:
    s, _ = playout(1, {}, seed=11, checks=False)
    assert s.phase == Phase.OVER
    assert E.winners(s) == (0,)
    assert 0 <= E.suns(s) <= 11
    assert s.tokens_in_play() == 120 and s.token_discard > 0
