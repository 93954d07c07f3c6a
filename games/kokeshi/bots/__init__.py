"""Computer opponents for Kokeshi.

A Kokeshi turn is one kokeshi move followed by the choices its cascade asks for (sides, targets,
animals, tiles, columns, placement order), with bag draws in between when the display refills.

* ``easy``   - random legal choices with mild preferences: it takes the best achievement tile
  when one is offered and, when it picks a column for a tile, prefers one where the tile does
  not touch a tile of its colour.
* ``medium`` - greedy over its own turn: searches every sequence of its own choices up to the
  end of the turn (a bag draw is sampled once) and keeps the one with the best score lead
  (its running total minus the best opponent's), plus a little progress towards the next
  height level of each track.
* ``hard``   - the same turn search with two sampled bag draws at the first draw, on a richer
  value: height progress, kokeshi standing ready to claim a new tile, achievement tiles still
  open in each colour, the next step of each animal track and thin animal leads at risk, all of
  it fading out over a seat's last turns once the end is triggered. The best few end-of-turn
  positions are then re-ranked by the best whole next turn it could play from there (searched
  like its own turn, one sampled draw) against the best next move of the seat to play next
  (``games.kokeshi.bots.hard``).

Measured with ``python -m bench.bots_games --only kokeshi`` (seed 1, n=200, seats alternated,
2-core machine shared with other work): hard beats medium 89.5% (95% CI 84.5%-93.0%; the
previous hard, one greedy move ahead and no end-game fading, 78.8%, 72.6%-83.9%, on the same
seeds), mean margin 17.0 points. Time per hard decision, median / p95 / p99: 44 / 178 / 295 ms
(medium 2.3 / 23 / 93 ms). Against two mediums (``--seats 3``, n=60) hard wins 61.7% (49.0%-72.9%)
with mean rank 1.40 (1.27-1.53), the previous hard 53.3% and 1.60; against three (``--seats 4``,
n=60) 60.0% (47.4%-71.4%), mean rank 1.65 (1.41-1.89), the previous hard 51.7% and 1.90; p99 of
a decision 334 and 453 ms there.

Searches are bounded by a node budget, never by the clock, so decisions do not depend on the
speed of the machine. Every sampled draw comes from a generator derived from the
``Rng`` passed in, so a decision is a pure function of the state and that generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.base import CHANCE, TERMINAL
from engines.bots.search import Budget, derive
from engines.rng import Rng
from games.kokeshi.engine.actions import Action
from games.kokeshi.engine.data import Data, ach_level, ach_tile, is_ach, load
from games.kokeshi.engine.scoring import adjacency_pairs, leader, totals
from games.kokeshi.engine.state import KokeshiState, Phase
from games.kokeshi.engine.todo import ColumnChoice, head


@dataclass(frozen=True, slots=True)
class Weights:
    """Knobs of the position value, in points."""

    height: tuple[float, ...] = (0.0, 0.5, 1.5, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0)
    ready: float = 0.0  # a kokeshi whose next step lands on the empty space above its tiles
    ach_open: float = 0.0  # share of an achievement tile the seat can still take, per colour
    animal_next: float = 0.0  # share of the next animal-track gain
    lead_race: float = 0.0  # share of a leader bonus held by a thin margin at risk
    opponents: float = 1.0  # weight of the best opponent's score in the lead


MEDIUM_WEIGHTS = Weights()
HARD_WEIGHTS = Weights(
    height=(0.0, 1.0, 2.0, 0.0, 1.2, 0.0, 1.2, 0.0, 0.0),
    ready=1.0,
    ach_open=0.25,
    animal_next=0.3,
    lead_race=0.3,
)


def seat_potential(data: Data, s: KokeshiState, seat: int, w: Weights) -> float:
    """What a seat's position may still be worth beyond its running total."""
    value = 0.0
    board = s.boards[seat]
    pos = s.pos[seat]
    cap = data.max_owners[s.seats]
    for c, column in enumerate(board):
        h = len(column)
        value += w.height[min(h, len(w.height) - 1)]
        if h < data.spaces and pos[c] == h:
            value += w.ready
        if w.ach_open and not any(is_ach(t) for t in column):
            owners = sum(
                1 for other in range(s.seats) if any(is_ach(t) for t in s.boards[other][c])
            )
            if owners < cap:
                best = 0
                for level in data.levels:
                    if ach_tile(c, level) in s.ach_supply:
                        # closer levels are likelier; weight by how near the height is
                        gap = max(0, data.yellow[level] - (h + 1))
                        best = max(best, data.ach_points[level] // (1 + gap))
                value += w.ach_open * best
    if w.animal_next or w.lead_race:
        points = data.animal_points[s.side]
        for a in range(len(s.animals)):
            where = s.animal_pos(a, seat)
            if where < data.top_index:
                value += w.animal_next * max(0, points[where + 1] - points[where])
            if w.lead_race and leader(s, a) == seat:
                second = max((p for who, p in s.animals[a] if who != seat), default=0)
                if where - second <= 1:
                    value -= w.lead_race * data.leader_bonus
    return value


class Evaluator:
    """Score lead of ``me`` (its total minus the best opponent's) plus potentials."""

    def __init__(self, data: Data, w: Weights) -> None:
        self.data = data
        self.w = w

    def __call__(self, s: KokeshiState, me: int) -> float:
        data = self.data
        scores = totals(data, s)
        pending = 0.0
        if s.active == me and s.pending:
            pending = sum(data.ach_points[ach_level(t)] if is_ach(t) else 0.5 for _, t in s.pending)
        mine = scores[me] + pending + seat_potential(data, s, me, self.w)
        if s.seats == 1:
            return mine
        others = max(
            scores[o] + seat_potential(data, s, o, self.w) for o in range(s.seats) if o != me
        )
        return mine - self.w.opponents * others


class TurnSearchBot:
    """Searches the rest of its own turn (see the module docstring).

    With ``next_move`` set, a position reached at the end of the turn is also valued by the
    best single move each side could make next (the opponent to move first, then this seat),
    each played out greedily to the end of that turn with one sampled draw.
    """

    def __init__(
        self,
        name: str,
        w: Weights,
        samples: int,
        nodes: int,
        next_move: float = 0.0,
        rerank: int = 4,
    ) -> None:
        self.name = name
        self.rerank = rerank
        self.samples = samples
        self.nodes = nodes
        self.next_move = next_move
        self.value = Evaluator(load(), w)

    def choose(self, engine: Any, state: KokeshiState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if len(actions) == 1:
            return actions[0]
        me = state.active
        budget = Budget(self.nodes)
        found: list[tuple[float, int, KokeshiState]] = []
        for i, action in enumerate(actions):
            sub = derive(rng, f"k:{i}")
            v, leaf = self._search(
                engine, engine.apply(state, action), me, state.turns, sub, budget, 0
            )
            found.append((v, i, leaf))
        if self.next_move:
            ranked = sorted(found, key=lambda item: (-item[0], item[1]))[: self.rerank]
            sub = derive(rng, "next")
            found = [(v + self._next_gain(engine, leaf, me, sub), i, leaf) for v, i, leaf in ranked]
        best = max(found, key=lambda item: (item[0], -item[1]))
        return actions[best[1]]

    def _search(
        self,
        engine: Any,
        s: KokeshiState,
        me: int,
        turn: int,
        rng: Rng,
        budget: Budget,
        draws: int,
    ) -> tuple[float, KokeshiState]:
        """(value, a best end-of-turn state) of the rest of ``me``'s turn from ``s``."""
        who = engine.to_move(s)
        if who == TERMINAL or s.turns != turn or (who != CHANCE and who != me):
            return self.value(s, me), s
        if not budget.spend():
            return self.value(s, me), s
        if who == CHANCE:
            k = self.samples if draws == 0 else 1
            total = 0.0
            leaf = s
            for j in range(k):
                outcome = engine.sample_chance(s, derive(rng, f"c:{j}"))
                v, end = self._search(
                    engine, engine.apply(s, outcome), me, turn, rng, budget, draws + 1
                )
                total += v
                if j == 0:
                    leaf = end
            return total / k, leaf
        best: tuple[float, KokeshiState] | None = None
        for a in engine.legal_actions(s):
            v, end = self._search(engine, engine.apply(s, a), me, turn, rng, budget, draws)
            if best is None or v > best[0] + 1e-9:
                best = (v, end)
        assert best is not None
        return best

    def _next_gain(self, engine: Any, s: KokeshiState, me: int, rng: Rng) -> float:
        """How much better the next moves are for ``me`` than for the opponent to move."""
        if engine.to_move(s) != s.active or s.phase != Phase.MOVE:
            return 0.0
        gain = 0.0
        for seat in (s.active, me) if s.active != me else (me,):
            sign = 1.0 if seat == me else -1.0
            start = s if seat == s.active else replace(s, active=seat)
            best = max(
                self._greedy(engine, engine.apply(start, a), seat, start.turns, rng)
                for a in engine.legal_actions(start)
            )
            gain += sign * (best - self.value(start, seat))
        return self.next_move * gain

    def _greedy(self, engine: Any, s: KokeshiState, seat: int, turn: int, rng: Rng) -> float:
        """Finish ``seat``'s turn with one-step greedy choices and one sampled draw each."""
        for _ in range(50):
            who = engine.to_move(s)
            if who == TERMINAL or s.turns != turn or (who != CHANCE and who != seat):
                break
            if who == CHANCE:
                s = engine.apply(s, engine.sample_chance(s, rng))
                continue
            options = [engine.apply(s, a) for a in engine.legal_actions(s)]
            s = max(options, key=lambda o: self.value(o, seat)) if len(options) > 1 else options[0]
        return self.value(s, seat)


class EasyBot:
    """Random legal choices with mild preferences (see the module docstring)."""

    name = "kokeshi-easy"

    def __init__(self) -> None:
        self.data = load()

    def choose(self, engine: Any, state: KokeshiState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.GAIN:
            ach = [a for a in actions if is_ach(a.values[0])]
            if ach:
                return max(ach, key=lambda a: a.values[0])
        if state.phase in (Phase.COL, Phase.START):
            calm = [a for a in actions if not self._clash(state, a)]
            if calm:
                return rng.choice(calm)
        return rng.choice(actions)

    def _clash(self, s: KokeshiState, a: Action) -> bool:
        """Whether the tile going in with ``a`` would touch a tile of its colour."""
        data = self.data
        if s.phase == Phase.START:
            tile, column = a.values
        else:
            column = a.values[0]
            if s.todo:
                tile = head(s.todo, ColumnChoice).tile
            elif s.free:
                tile = s.free[0]
            else:
                return False
        board = s.boards[s.active]
        trial = tuple((*col, tile) if c == column else col for c, col in enumerate(board))
        return adjacency_pairs(data, trial) > adjacency_pairs(data, board)


def make_bot(level: str) -> Any:
    """The Kokeshi bot for ``level`` (easy, medium or hard)."""
    if level == "easy":
        return EasyBot()
    if level == "medium":
        return TurnSearchBot("kokeshi-medium", MEDIUM_WEIGHTS, samples=1, nodes=3000)
    if level == "hard":
        from games.kokeshi.bots.hard import HardBot  # hard builds on this module's search

        return HardBot(HARD_WEIGHTS)
    raise KeyError(f"unknown bot level {level!r}")
