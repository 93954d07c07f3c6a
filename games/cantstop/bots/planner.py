"""Can't Stop hard: plans the rest of a turn a few rolls deep and weighs the race.

The turn is an expectimax tree: after each move the player may stop (keeping the turn's gain) or
roll (over all 1,296 rolls, busting with their exact chance, then taking the best legal move).
``TurnPlannerBot`` searches that tree ``depth`` rolls deep, memoised per runner position; after
the last roll it searches, a position is valued as if the player stopped there. Depth 1 is
``LookaheadBot``'s one-roll lookahead (8.18 solitaire turns over 2,000 games); the default, depth
2, finishes in 7.93 on the same games at about seven times the cost (still milliseconds). Positions
are valued with ``LookaheadBot``'s column values (convex in progress, a bonus for a claim, less
for a column an opponent is about to take, more for one whose claim removes their markers).

The race: ``next_turn_threat`` estimates the chance that an opponent wins on their very next turn.
Anything short of winning now keeps only ``1 - threat`` of its value (the game may be over before
it counts), and a stop that wins is worth ``win_bonus + race * threat`` on top of its gain. So a
bot facing an opponent one good turn from winning rolls on for its own third column where it would
otherwise bank, and with no threat on the board it keeps its solitaire caution.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from engines.rng import Rng
from games.cantstop.bots import (
    ALL_ROLL_COUNT,
    LookaheadBot,
    _table_for,
    _would_win,
    after_move,
    stop_wins,
)
from games.cantstop.engine.actions import ROLL, STOP, Action
from games.cantstop.engine.odds import ROLLS, bust_count
from games.cantstop.engine.state import (
    COLUMNS,
    COLUMNS_TO_WIN,
    HEIGHTS,
    NO_OWNER,
    RUNNERS,
    CantStopState,
    Phase,
)

#: a runner position: sorted (column, height) pairs
Runners = tuple[tuple[int, int], ...]


@cache
def _hit_chance(column: int) -> float:
    """Chance that a roll offers ``column`` in at least one pairing."""
    return 1.0 - bust_count(frozenset((column,))) / ROLLS


@lru_cache(maxsize=4096)
def _finish_chance(targets: tuple[tuple[int, int], ...], open_cols: frozenset[int]) -> float:
    """Chance of climbing ``steps`` in every ``(column, steps)`` of ``targets`` in one turn.

    A rough race model: the player keeps rolling until done, the target columns hold runners and
    one free runner at most sits in the open column that busts least with them (the others are
    taken to be spent or topped out on the way). Each roll either steps in
    one target column (chance ``hit``), busts, or changes nothing; the targets are climbed one
    after another.
    """
    cols = frozenset(c for c, _ in targets)
    spare = max(0, RUNNERS - len(cols) - 1)
    fillers = sorted(open_cols - cols, key=lambda c: -_hit_chance(c))[:spare]
    bust = bust_count(cols | frozenset(fillers)) / ROLLS
    chance = 1.0
    for col, steps in targets:
        hit = _hit_chance(col)
        chance *= (hit / (hit + bust)) ** steps
    return chance


def next_turn_threat(s: CantStopState) -> float:
    """Estimated chance that some opponent wins on their next turn (0 in solitaire)."""
    open_cols = frozenset(c for c in COLUMNS if s.claimed[c - 2] == NO_OWNER)
    safe = 1.0
    for seat in range(s.seats):
        if seat == s.active:
            continue
        needed = COLUMNS_TO_WIN - len(s.claimed_by(seat))
        if needed > RUNNERS or needed > len(open_cols):
            continue
        row = s.saved[seat]
        gaps = sorted((HEIGHTS[c] - row[c - 2], c) for c in open_cols)
        # the columns needing the fewest steps, weighted by how often they come up
        best = sorted(open_cols, key=lambda c: (HEIGHTS[c] - row[c - 2]) / _hit_chance(c))
        targets = tuple(sorted((c, HEIGHTS[c] - row[c - 2]) for c in best[:needed]))
        if sum(steps for _, steps in targets) > 4 * needed + 6 and gaps[0][0] > 6:
            continue  # hopeless in one turn; skip the estimate
        safe *= 1.0 - _finish_chance(targets, open_cols)
    return 1.0 - safe


class TurnPlannerBot:
    """Expectimax over the rest of the turn, ``depth`` rolls deep, aware of the race.

    ``values``: the column-value model (a ``LookaheadBot``, whose parameters it uses).
    ``win_bonus``: value of a winning stop over its gain; ``race``: extra value per unit of the
    opponents' next-turn win chance; ``boost``: the weight of rolling on against stopping when
    there are opponents (below 1: a little more cautious than the solitaire-best 1, which measured
    slightly better against the Rule of 28 at depth 1). Deterministic: the same state gives the
    same decision, and the generator passed in is not used.
    """

    name = "cantstop-hard-planner"

    def __init__(
        self,
        depth: int = 2,
        win_bonus: float = 1.0,
        race: float = 4.0,
        boost: float = 0.9,
        values: LookaheadBot | None = None,
    ) -> None:
        self.depth = depth
        self.win_bonus = win_bonus
        self.race = race
        self.boost = boost
        self.model = values or LookaheadBot()

    # -- the search ---------------------------------------------------------------------------

    def _search(self, s: CantStopState) -> _TurnSearch:
        nerve = 1.0 if s.seats == 1 else self.boost
        return _TurnSearch(self, s, self.model.column_values(s), next_turn_threat(s), nerve)

    def wants_stop(self, s: CantStopState) -> bool:
        if stop_wins(s):
            return True
        search = self._search(s)
        runners = tuple(s.runners)
        return search.stop_value(runners) >= search.nerve * search.roll_value(runners, self.depth)

    def choose_move(self, s: CantStopState, actions: Sequence[Action]) -> Action:
        return best_move(self._search(s), s, actions, self.depth)

    def choose(self, engine: Any, state: CantStopState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.DECIDE:
            return STOP if STOP in actions and self.wants_stop(state) else ROLL
        if state.phase == Phase.MOVE:
            return self.choose_move(state, actions)
        return actions[0]


class _TurnSearch:
    """One decision's search: values relative to the turn's start, memoised per position."""

    def __init__(
        self,
        bot: TurnPlannerBot,
        s: CantStopState,
        values: dict[int, tuple[float, ...]],
        threat: float,
        nerve: float = 1.0,
    ) -> None:
        self.nerve = nerve
        self.bot = bot
        self.s = s
        self.values = values
        self.keep = 1.0 - threat
        self.win_value = bot.win_bonus + bot.race * threat
        self.row = s.saved[s.active]
        self.claimed = len(s.claimed_by(s.active))
        self.memo: dict[tuple[Runners, int], float] = {}

    def _gain(self, runners: Runners) -> float:
        values, row = self.values, self.row
        return sum(values[c][h] - values[c][row[c - 2]] for c, h in runners)

    def _wins(self, runners: Runners) -> bool:
        topped = sum(1 for c, h in runners if h >= HEIGHTS[c])
        return self.claimed + topped >= COLUMNS_TO_WIN

    def stop_value(self, runners: Runners) -> float:
        gain = self._gain(runners)
        if self._wins(runners):
            return gain + self.win_value
        return self.keep * gain

    def worth(self, runners: Runners, depth: int) -> float:
        """Value of standing at ``runners`` after a move: the better of stopping and rolling."""
        stop = self.stop_value(runners)
        if self._wins(runners):
            return stop
        return max(stop, self.nerve * self.roll_value(runners, depth))

    def roll_value(self, runners: Runners, depth: int) -> float:
        """Expected value of rolling from ``runners`` and playing on ``depth`` rolls deep."""
        key = (runners, depth)
        found = self.memo.get(key)
        if found is not None:
            return found
        value = expected_roll(self, runners, depth)
        self.memo[key] = value
        return value


def best_move(search: Any, s: CantStopState, actions: Sequence[Action], depth: int) -> Action:
    """The move whose position ``search.worth`` values most (a move that wins is taken at
    once; on a tie, the first in the engine's order)."""
    best, best_value = actions[0], float("-inf")
    for action in actions:
        runners = after_move(s, action.values)
        if _would_win(s, runners):
            return action
        worth = search.worth(tuple(sorted(runners.items())), depth)
        if worth > best_value:
            best, best_value = action, worth
    return best


def expected_roll(search: Any, runners: Runners, depth: int, bust_value: float = 0.0) -> float:
    """The expectimax step of a turn search: the value of rolling from ``runners`` over all
    1,296 rolls, a bust worth ``bust_value`` and otherwise the best legal move, each leaf valued
    by ``search.stop_value`` after the last roll searched (``depth``) and by ``search.worth``
    before it. ``search`` has ``s`` (the state) and ``row`` (the mover's saved markers)."""
    as_dict = dict(runners)
    bust, moves, groups = _table_for(search.s, as_dict)
    outcomes: list[float] = []
    for move in moves:
        after = dict(as_dict)
        for col in move:
            start = after.get(col, search.row[col - 2])
            after[col] = min(start + 1, HEIGHTS[col])
        nxt = tuple(sorted(after.items()))
        outcomes.append(search.stop_value(nxt) if depth <= 1 else search.worth(nxt, depth - 1))
    total: float = bust * bust_value + sum(w * max(outcomes[i] for i in idx) for w, idx in groups)
    return total / ALL_ROLL_COUNT
