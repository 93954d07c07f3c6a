"""The Kokeshi ``hard`` bot: its position value and its look-ahead past the end of its turn.

The value is the one of ``bots.Evaluator`` (score lead plus what each seat's position may still
be worth) computed with per-board caches, and with the potential of a seat fading out over its
last turns once the end is triggered: a kokeshi standing ready is worth nothing when no turn is
left to use it.

The look-ahead values each end-of-turn position by the best whole next turn this seat could play
from it (searched like its own turn, one sampled draw), against the best next move of the seat to
play next (played greedily), so that a turn that sets up the next one is preferred.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.bots.search import Budget, derive
from engines.rng import Rng
from games.kokeshi.bots import TurnSearchBot, Weights
from games.kokeshi.engine.actions import Action
from games.kokeshi.engine.cascade import perform
from games.kokeshi.engine.data import Data, ach_level, ach_tile, is_ach, load
from games.kokeshi.engine.scoring import adjacency_pairs, track_height_points
from games.kokeshi.engine.state import NONE, KokeshiState, Phase
from games.kokeshi.engine.work import Work

Board = tuple[tuple[int, ...], ...]


class FastRules:
    """The engine's moves without re-checking legality: the search applies only offered actions."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.data: Data = engine.data

    def to_move(self, s: KokeshiState) -> int:
        return int(self.engine.to_move(s))

    def legal_actions(self, s: KokeshiState) -> tuple[Action, ...]:
        return tuple(self.engine.legal_actions(s))

    def sample_chance(self, s: KokeshiState, rng: Rng) -> Action:
        action: Action = self.engine.sample_chance(s, rng)
        return action

    def apply(self, s: KokeshiState, a: Action) -> KokeshiState:
        w = Work(s, self.data)
        perform(w, a)
        return w.freeze()


def turns_left(s: KokeshiState, seat: int) -> int | None:
    """Turns ``seat`` still starts once the end is triggered (None before)."""
    if s.end_after == NONE:
        return None
    return sum(1 for t in range(s.turns, s.end_after) if (s.first + t) % s.seats == seat)


class HardValue:
    """``bots.Evaluator``'s value with board caches and end-game fading (module docstring)."""

    def __init__(self, data: Data, w: Weights, horizon: float = 3.0) -> None:
        self.data = data
        self.w = w
        self.horizon = horizon
        self._boards: dict[Board, tuple[int, float]] = {}

    def board_points(self, board: Board) -> tuple[int, float]:
        """(points the board scores now, height potential) of one workshop board."""
        found = self._boards.get(board)
        if found is None:
            d = self.data
            heights = self.w.height
            points = d.adjacency * adjacency_pairs(d, board)
            potential = 0.0
            for column in board:
                points += track_height_points(d, len(column))
                potential += heights[min(len(column), len(heights) - 1)]
                points += sum(d.ach_points[ach_level(t)] for t in column if is_ach(t))
            found = (points, potential)
            if len(self._boards) > 200_000:
                self._boards.clear()
            self._boards[board] = found
        return found

    def fade(self, s: KokeshiState, seat: int) -> float:
        left = turns_left(s, seat)
        return 1.0 if left is None else min(1.0, left / self.horizon)

    def seat_values(self, s: KokeshiState) -> list[tuple[float, float]]:
        """(score now, potential) of every seat."""
        d, w = self.data, self.w
        seats = s.seats
        where = [[0] * len(s.animals) for _ in range(seats)]
        lead = [NONE] * len(s.animals)
        for a, track in enumerate(s.animals):
            best = 0
            for who, p in track:
                where[who][a] = p
                if p > best:
                    best, lead[a] = p, who
        owners = [0] * len(d.columns)
        for board in s.boards:
            for c, column in enumerate(board):
                if any(is_ach(t) for t in column):
                    owners[c] += 1
        cap = d.max_owners[seats]
        points = d.animal_points[s.side]
        out = []
        for seat in range(seats):
            board = s.boards[seat]
            score, potential = self.board_points(board)
            score += s.happiness[seat]
            pos = s.pos[seat]
            value = float(potential)
            for c, column in enumerate(board):
                h = len(column)
                if h < d.spaces and pos[c] == h:
                    value += w.ready
                if w.ach_open and owners[c] < cap and not any(is_ach(t) for t in column):
                    best_points = 0
                    for level in d.levels:
                        if ach_tile(c, level) in s.ach_supply:
                            gap = max(0, d.yellow[level] - (h + 1))
                            best_points = max(best_points, d.ach_points[level] // (1 + gap))
                    value += w.ach_open * best_points
            for a in range(len(s.animals)):
                p = where[seat][a]
                score += points[p]
                if lead[a] == seat:
                    score += d.leader_bonus
                if p < d.top_index:
                    value += w.animal_next * max(0, points[p + 1] - points[p])
                if w.lead_race and lead[a] == seat:
                    second = max((q for who, q in s.animals[a] if who != seat), default=0)
                    if p - second <= 1:
                        value -= w.lead_race * d.leader_bonus
            out.append((float(score), value * self.fade(s, seat)))
        return out

    def __call__(self, s: KokeshiState, me: int) -> float:
        d = self.data
        values = self.seat_values(s)
        mine = values[me][0] + values[me][1]
        if s.active == me and s.pending:
            mine += sum(d.ach_points[ach_level(t)] if is_ach(t) else 0.5 for _, t in s.pending)
        if s.seats == 1:
            return mine
        others = max(score + pot for seat, (score, pot) in enumerate(values) if seat != me)
        return mine - self.w.opponents * others


class HardBot(TurnSearchBot):
    """Own-turn search, leaves re-ranked by the next turn (module docstring)."""

    def __init__(
        self,
        w: Weights,
        own_next: float = 1.0,
        their_next: float = 0.5,
        nodes: int = 1500,
        next_nodes: int = 300,
        rerank: int = 4,
    ) -> None:
        super().__init__("kokeshi-hard", w, samples=2, nodes=nodes, next_move=1.0, rerank=rerank)
        self.value = HardValue(load(), w)  # type: ignore[assignment]
        self.own_next = own_next
        self.their_next = their_next
        self.next_nodes = next_nodes

    def choose(self, engine: Any, state: KokeshiState, rng: Rng) -> Action:
        return super().choose(FastRules(engine), state, rng)

    def _next_gain(self, engine: Any, s: KokeshiState, me: int, rng: Rng) -> float:
        if engine.to_move(s) != s.active or s.phase != Phase.MOVE:
            return 0.0
        gain = 0.0
        if self.own_next and turns_left(s, me) != 0:
            start = s if s.active == me else replace(s, active=me)
            budget = Budget(self.next_nodes)
            best, _ = self._search(engine, start, me, start.turns, derive(rng, "own"), budget, 1)
            gain += self.own_next * (best - self.value(start, me))
        if self.their_next and s.active != me and turns_left(s, s.active) != 0:
            them = s.active
            best = max(
                self._greedy(engine, engine.apply(s, a), them, s.turns, rng)
                for a in engine.legal_actions(s)
            )
            gain -= self.their_next * (best - self.value(s, them))
        return gain
