"""Can't Stop hard: plays the turn to win the race, not to make progress.

An end-of-turn position is worth the chance of winning the game from it. ``RaceModel`` (a small
table fitted offline by ``bench/cantstop_race.py`` and stored in ``race_table.json``) estimates
how many turns a player still needs from their saved markers: each open column is worth
``(p / H) ** power`` at height ``p`` of ``H``, an owned column ``claim``; turns left are a cubic in
that sum plus a term per column others own, with a variance that grows with the estimate. The
chance of winning after this seat's turn is the chance that no opponent wins on their very next
turn (``planner.next_turn_threat``, which the smooth table cannot see) times, per opponent, the
chance of needing fewer turns than they do (turns left taken as independent and roughly normal;
they move first, so a tie loses).

``RaceBot`` searches the rest of its turn (an expectimax over all 1,296 rolls, ``depth`` rolls
deep, memoised per runner position) and maximises that chance: stopping is worth the chance of
winning from the new position with the opponents to move (a claim also removes their markers
there and closes the column for them), busting the chance from the turn's starting position, and
a stop that wins is worth 1. So when an opponent may win next turn, banking small progress is
worth little and the bot rolls on; when it is well ahead it banks. In solitaire there is no race
and it plays as ``TurnPlannerBot``.

``pace``: opponents are taken to need three times the turns the table gives them, except that
the next-turn threat stays as it is. The table is fitted to this bot's own solitaire play; a
slower opponent (the Rule of 28 needs about 10.6 turns alone to its 7.9) and one whose markers
are spread over many columns, which the sum of column values flatters, both need more. Against
the Rule of 28 on the same 1,000 seeds, pace 1 won 71.0 % (seeds 1-400 only), 3 won 77.2 % and 4
won 74.2 %; without the next-turn threat, pace 3 won 76.0 %.

Measured (seeds 1-2,000, seats alternated by seed parity, ``bench.bots.play``): hard beats the
Rule of 28 76.8 % (95 % CI 74.8-78.5 %), 80.0 % as first seat (77.4-82.4 %, n=1,000) and 73.5 %
as second (70.7-76.1 %); the previous hard (``TurnPlannerBot``) won 72.4 % (78.5 % / 66.3 %) on
the same games. Over seeds 1-3,000: 76.4 % (74.9-77.9 %), 80.0 % first (77.9-81.9 %), 72.9 %
second (70.6-75.1 %). Solitaire is ``TurnPlannerBot``'s: 7.93 turns. Time per decision on two cores
shared with other work (load about 6): median 0.9 ms, p95 65 ms, p99 164 ms, slowest 1.09 s; the
table is 0.2 KB and importing this module with it takes about 50 ms and well under 1 MB.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from engines.rng import Rng
from games.cantstop.bots import stop_wins
from games.cantstop.bots.planner import (
    TurnPlannerBot,
    best_move,
    expected_roll,
    next_turn_threat,
)
from games.cantstop.engine.actions import ROLL, STOP, Action
from games.cantstop.engine.state import (
    COLUMNS,
    COLUMNS_TO_WIN,
    HEIGHTS,
    NO_OWNER,
    CantStopState,
    Phase,
)

TABLE_PATH = Path(__file__).with_name("race_table.json")
#: opponents are taken to need this many times the turns the table gives them (see ``RaceBot``)
PACE = 3.0
#: the least variance of turns left (keeps the chance of finishing first away from 0 and 1)
MIN_VARIANCE = 0.25

#: a runner position: sorted (column, height) pairs
Runners = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class RaceModel:
    """Turns a player still needs, estimated from their saved markers (see the module doc)."""

    power: float
    claim: float
    turns: tuple[float, ...]  # cubic in the value, then per column owned by others
    variance: tuple[float, float]  # variance of turns left: intercept, slope in the estimate

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> RaceModel:
        return cls(
            power=float(table["power"]),
            claim=float(table["claim"]),
            turns=tuple(float(c) for c in table["turns"]),
            variance=(float(table["variance"][0]), float(table["variance"][1])),
        )

    @property
    def column_values(self) -> dict[int, tuple[float, ...]]:
        """Per column, the value of standing at each height (an owned column at the top)."""
        return _column_values(self.power, self.claim)

    def value(self, row: Sequence[int], closed: Sequence[int]) -> float:
        """The player's progress value: their saved ``row``, with ``closed`` columns lost."""
        values = self.column_values
        return sum(values[c][row[c - 2]] for c in COLUMNS if c not in closed)

    def turns_left(self, value: float, closed: int) -> float:
        """Expected turns to finish (this turn included) at progress ``value``."""
        c0, c1, c2, c3, per_closed = self.turns
        turns = c0 + value * (c1 + value * (c2 + value * c3)) + per_closed * closed
        return max(1.0, turns)

    def spread(self, turns: float) -> float:
        return max(MIN_VARIANCE, self.variance[0] + self.variance[1] * turns)

    def first_chance(self, mine: float, theirs: float) -> float:
        """Chance of needing fewer turns than an opponent who moves first (ties lose)."""
        sigma = math.sqrt(self.spread(mine) + self.spread(theirs))
        return 0.5 * math.erfc((mine + 0.5 - theirs) / (sigma * math.sqrt(2.0)))


@cache
def _column_values(power: float, claim: float) -> dict[int, tuple[float, ...]]:
    return {c: (*((p / HEIGHTS[c]) ** power for p in range(HEIGHTS[c])), claim) for c in COLUMNS}


@cache
def race_model() -> RaceModel:
    """The fitted table, read once."""
    return RaceModel.from_table(json.loads(TABLE_PATH.read_text()))


class RaceBot:
    """Maximises the chance of winning over the rest of the turn, ``depth`` rolls deep.

    ``pace`` scales the opponents' estimated turns left (1: as fast as this bot). Deterministic:
    the same state gives the same decision, and the generator passed in is not used.
    """

    name = "cantstop-hard"

    def __init__(self, depth: int = 2, pace: float = PACE, model: RaceModel | None = None) -> None:
        self.depth = depth
        self.pace = pace
        self.model = model or race_model()
        self.solitaire = TurnPlannerBot(depth=depth)

    def wants_stop(self, s: CantStopState) -> bool:
        if stop_wins(s):
            return True
        search = _RaceSearch(self, s)
        runners = tuple(s.runners)
        return search.stop_value(runners) >= search.roll_value(runners, self.depth)

    def choose_move(self, s: CantStopState, actions: Sequence[Action]) -> Action:
        return best_move(_RaceSearch(self, s), s, actions, self.depth)

    def choose(self, engine: Any, state: CantStopState, rng: Rng) -> Action:
        if state.seats == 1:
            return self.solitaire.choose(engine, state, rng)
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.DECIDE:
            return STOP if STOP in actions and self.wants_stop(state) else ROLL
        if state.phase == Phase.MOVE:
            return self.choose_move(state, actions)
        return actions[0]


class _RaceSearch:
    """One decision's search: chances of winning, memoised per runner position."""

    def __init__(self, bot: RaceBot, s: CantStopState) -> None:
        model = bot.model
        self.model = model
        self.s = s
        self.me = s.active
        self.row = s.saved[s.active]
        self.values = model.column_values
        self.claimed = len(s.claimed_by(s.active))
        closed = tuple(c for c in COLUMNS if s.claimed[c - 2] not in (NO_OWNER, s.active))
        self.closed = len(closed)
        self.value = model.value(self.row, closed)
        self.pace = bot.pace
        self.opponents = []
        for seat in range(s.seats):
            if seat == s.active:
                continue
            theirs = tuple(c for c in COLUMNS if s.claimed[c - 2] not in (NO_OWNER, seat))
            self.opponents.append((s.saved[seat], model.value(s.saved[seat], theirs), len(theirs)))
        self.depth_memo: dict[tuple[Runners, int], float] = {}
        self.their_memo: dict[tuple[int, ...], tuple[float, list[float]]] = {}
        self.bust_value = self._chance(self.value, ())

    def _their_race(self, topped: tuple[int, ...]) -> tuple[float, list[float]]:
        """Once this seat owns the columns ``topped``: the chance that no opponent wins on their
        next turn, and each opponent's turns left if they do not (two at least)."""
        found = self.their_memo.get(topped)
        if found is None:
            values, s = self.values, self.s
            claimed = list(s.claimed)
            saved = [list(row) for row in s.saved]
            for col in topped:
                claimed[col - 2] = s.active
                for seat in range(s.seats):
                    if seat != s.active:
                        saved[seat][col - 2] = 0
            after = replace(s, claimed=tuple(claimed), saved=tuple(map(tuple, saved)))
            turns = []
            for row, value, closed in self.opponents:
                lost = sum(values[c][row[c - 2]] for c in topped)
                left = self.model.turns_left(value - lost, closed + len(topped))
                turns.append(max(2.0, self.pace * left))
            found = (1.0 - next_turn_threat(after), turns)
            self.their_memo[topped] = found
        return found

    def _chance(self, value: float, topped: tuple[int, ...]) -> float:
        mine = self.model.turns_left(value, self.closed)
        chance, turns = self._their_race(topped)
        for theirs in turns:
            chance *= self.model.first_chance(mine, theirs)
        return chance

    def stop_value(self, runners: Runners) -> float:
        topped = tuple(c for c, h in runners if h >= HEIGHTS[c])
        if self.claimed + len(topped) >= COLUMNS_TO_WIN:
            return 1.0
        values, row = self.values, self.row
        value = self.value + sum(values[c][h] - values[c][row[c - 2]] for c, h in runners)
        return self._chance(value, topped)

    def worth(self, runners: Runners, depth: int) -> float:
        """Value of standing at ``runners`` after a move: the better of stopping and rolling."""
        stop = self.stop_value(runners)
        if stop >= 1.0:
            return stop
        return max(stop, self.roll_value(runners, depth))

    def roll_value(self, runners: Runners, depth: int) -> float:
        """Chance of winning if the player rolls from ``runners`` and plays on ``depth`` rolls."""
        key = (runners, depth)
        found = self.depth_memo.get(key)
        if found is not None:
            return found
        value = expected_roll(self, runners, depth, self.bust_value)
        self.depth_memo[key] = value
        return value
