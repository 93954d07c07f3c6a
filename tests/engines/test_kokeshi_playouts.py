"""Random Kokeshi playouts: invariants, codecs, replay and scoring recounts."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, TERMINAL
from engines.errors import BadActionText, IllegalAction
from engines.replay import replay
from engines.rng import Rng
from games.kokeshi.engine.data import ach_colour, ach_level, ach_tile, is_ach
from games.kokeshi.engine.state import Phase
from games.kokeshi.engine.todo import ColumnChoice
from tests.engines.kokeshi_positions import D, E

#: codes that are never legal in a running game (bad seat / tile / column) or sometimes legal
PROBES = (
    "first:9",
    "draw:t99",
    "move:7",
    "side:b",
    "pick:k4",
    "animal:rabbit",
    "col:3",
    "gain:ach:sumotori:3",
    "place:t0",
    "start:t1:c1",
)


def conservation(s) -> None:
    """Every normal tile is in exactly one place; achievement tiles likewise."""
    where: list[int] = list(s.bag) + list(s.display) + list(s.removed) + list(s.hand)
    where += [t for t in s.bonus if t >= 0] + list(s.free) + [t for _, t in s.pending]
    where += [t for board in s.boards for col in board for t in col]
    where += list(s.ach_supply) + [t.tile for t in s.todo if isinstance(t, ColumnChoice)]
    normal = sorted(t for t in where if not is_ach(t))
    ach = sorted(t for t in where if is_ach(t))
    assert normal == list(range(len(D.tiles))), "normal tiles lost or duplicated"
    assert ach == sorted(ach_tile(c, lv) for c in range(5) for lv in D.levels)


def board_invariants(s) -> None:
    for seat in range(s.seats):
        owners: set[int] = set()
        for c, column in enumerate(s.boards[seat]):
            assert len(column) <= D.spaces
            p = s.pos[seat][c]
            assert 0 <= p <= len(column)
            for space, t in enumerate(column, 1):
                if is_ach(t):
                    assert ach_colour(t) == c and space >= D.yellow[ach_level(t)]
                    assert c not in owners
                    owners.add(c)
    for colour in range(5):
        n = sum(
            1
            for seat in range(s.seats)
            if any(is_ach(t) for t in s.boards[seat][colour])
            or (
                any(is_ach(t) and ach_colour(t) == colour for _, t in s.pending)
                and seat == s.active
            )
        )
        assert n <= s.seats - 1


def recount(s, seat: int) -> int:
    """Final score recounted straight from §9, independently of games.kokeshi.engine.scoring."""
    board = s.boards[seat]
    total = s.happiness[seat]
    for column in board:
        h = len(column)
        total += 7 if h >= 7 else 5 if h >= 5 else 3 if h >= 3 else 0
        total += sum({1: 5, 2: 8, 3: 11}[t % 10] for t in column if t >= 100)
    table = {"basic": [0, 1, 2, 3, 4, 6, 8, 10], "advanced": [0, 2, 4, 6, 8, 5, 3, 1]}[s.side]
    for track in s.animals:
        mine = dict(track)[seat]
        total += table[mine]
        best = max(p for _, p in track)
        if best > 0 and next(w for w, p in track if p == best) == seat:
            total += 3

    def colour(t: int) -> int:
        return (t - 100) // 10 if t >= 100 else t // 10

    for c, column in enumerate(board):
        for i, t in enumerate(column):
            if i + 1 < len(column) and colour(column[i + 1]) == colour(t):
                total -= 3
            if c < 4 and i < len(board[c + 1]) and colour(board[c + 1][i]) == colour(t):
                total -= 3
    return total


class TurnCheck:
    """``turn`` never falls and rises by at most one per player action with its chance steps:
    exactly when the seat to move changes hands, or when the game's last action ends the turn."""

    def __init__(self) -> None:
        self.seat: int | None = None  # the seat of the last decision seen, and its turn
        self.turn = 0
        self.last = 0  # the turn of the last state seen

    def see(self, s) -> None:
        turn = E.turn(s)
        assert turn == s.setup_done + s.turns
        assert self.last <= turn <= self.turn + 1
        self.last = turn
        mover = E.to_move(s)
        if mover == CHANCE:
            return
        if self.seat is None:
            assert turn == 0
        elif mover == TERMINAL:
            assert turn == self.turn + 1
        else:
            assert turn - self.turn == (1 if mover != self.seat else 0), (self.seat, mover)
        self.seat, self.turn = mover, turn


def playout(seats: int, side: str, seed: int, check_every: int = 1):
    options = {"animal_side": side}
    s = E.initial_state(seats, options)
    log: list[str] = []
    chooser = Rng.for_step(seed, 1 << 40)
    turns = TurnCheck()
    while E.to_move(s) != TERMINAL:
        turns.see(s)
        legal = E.legal_actions(s)
        assert legal and list(legal) == sorted(legal)
        if E.to_move(s) == CHANCE:
            a = E.sample_chance(s, Rng.for_step(seed, len(log)))
            assert a in legal
        else:
            assert E.to_move(s) == s.active
            a = legal[chooser.below(len(legal))]
        text = E.encode_action(a)
        assert len(text) < 60 and E.decode_action(text) == a
        if len(log) % check_every == 0:
            for probe in PROBES:
                p = E.decode_action(probe)
                if p not in legal:
                    before = s
                    with pytest.raises(IllegalAction):
                        E.apply(s, p)
                    assert s == before
            d = json.loads(json.dumps(E.encode_state(s)))
            assert E.decode_state(d) == s
        s = E.apply(s, a)
        log.append(text)
        # a cascade always terminates: each turn stays short (5 kokeshi x 8 spaces bound it)
        assert len(s.events) < 400
        conservation(s)
        if not s.in_setup:
            board_invariants(s)
        assert len(log) <= E.info.max_moves
    turns.see(s)
    return s, log


@pytest.mark.parametrize("side", ["basic", "advanced"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_smoke_full_game(seats: int, side: str) -> None:
    s, log = playout(seats, side, seed=seats * 7 + len(side), check_every=5)
    assert s.phase == Phase.OVER and E.winners(s)
    assert s.turns % seats == 0 and s.end_after == s.turns
    assert E.scores(s) == tuple(recount(s, seat) for seat in range(seats))
    assert replay(E, seats, {"animal_side": side}, log) == s


@pytest.mark.parametrize("side", ["basic", "advanced"])
@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_playouts(seats: int, side: str, seed: int) -> None:
    s, log = playout(seats, side, seed, check_every=7)
    assert s.phase == Phase.OVER and E.legal_actions(s) == ()
    assert E.scores(s) == tuple(recount(s, seat) for seat in range(seats))
    winners = E.winners(s)
    assert winners and max(E.scores(s)) == E.scores(s)[winners[0]]
    assert replay(E, seats, {"animal_side": side}, log) == s
    assert E.decode_state(json.loads(json.dumps(E.encode_state(s)))) == s


def test_bad_action_text() -> None:
    for text in (
        "",
        "move",
        "move:x",
        "draw:17",
        "animal:dog",
        "gain:ach:red:1",
        "side:c",
        "jump:1",
    ):
        with pytest.raises(BadActionText):
            E.decode_action(text)
