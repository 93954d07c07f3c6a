"""Computer opponents for Can't Stop.

* ``easy``   - random legal moves; stops with a probability that grows with the steps taken
  this turn.
* ``medium`` - Michael Keller's "Rule of 28" (see ``RuleOf28Bot``).
* ``hard``   - ``race.RaceBot``: searches the rest of its turn for the best chance of winning the
  race, from a small fitted table of the turns each player still needs (it wins about three in
  four against the Rule of 28; see ``race``). ``planner.TurnPlannerBot`` (expectimax over the turn
  on ``LookaheadBot``'s progress values, with a rough next-turn threat) was ``hard`` before it and
  still plays hard's solitaire; it stays in the benchmark as ``hard-planner``. ``LookaheadBot``
  (the one-roll lookahead), hard before that, stays as ``hard-old``.

Every bot stops at once when stopping wins the game. Only the engine's own move generator decides
what is legal; the bots never construct an action the engine did not offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

from engines.rng import Rng
from games.cantstop.engine.actions import ROLL, STOP, Action
from games.cantstop.engine.rules import moves_for_dice
from games.cantstop.engine.state import (
    COLUMNS,
    COLUMNS_TO_WIN,
    HEIGHTS,
    NO_OWNER,
    RUNNERS,
    CantStopState,
    Options,
    Phase,
)

ALL_ROLL_COUNT = 6**4

# --------------------------------------------------------------------------------------------
# shared helpers


def steps_this_turn(s: CantStopState) -> int:
    """Spaces the runners have climbed this turn."""
    row = s.saved[s.active]
    return sum(height - row[col - 2] for col, height in s.runners)


def stop_wins(s: CantStopState) -> bool:
    """Whether stopping now gives the active seat its third column."""
    topped = sum(1 for col, height in s.runners if height >= HEIGHTS[col])
    return len(s.claimed_by(s.active)) + topped >= COLUMNS_TO_WIN


def after_move(s: CantStopState, columns: Sequence[int]) -> dict[int, int]:
    """Runner heights (column -> height) after making the column steps ``columns``."""
    runners = dict(s.runners)
    row = s.saved[s.active]
    for col in columns:
        pos = runners.get(col, row[col - 2])
        runners[col] = min(pos + 1, HEIGHTS[col])
    return runners


def _would_win(s: CantStopState, runners: dict[int, int]) -> bool:
    topped = sum(1 for col, height in runners.items() if height >= HEIGHTS[col])
    return len(s.claimed_by(s.active)) + topped >= COLUMNS_TO_WIN


def _multisets() -> tuple[tuple[tuple[int, ...], int], ...]:
    """The 126 sorted four-dice rolls with how many of the 1,296 ordered rolls give each."""
    out = []
    for dice in combinations_with_replacement(range(1, 7), 4):
        ways = factorial(4)
        for face in set(dice):
            ways //= factorial(dice.count(face))
        out.append((dice, ways))
    return tuple(out)


_ROLLS = _multisets()

#: (bust weight out of 1,296, distinct moves, groups of (weight, indices into the moves))
MoveTable = tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, tuple[int, ...]], ...]]


@lru_cache(maxsize=8192)
def _move_table(
    options: Options,
    runner_cols: tuple[int, ...],
    topped: tuple[int, ...],
    claimed: tuple[int, ...],
) -> MoveTable:
    """Every roll's legal moves for one runner configuration, from the engine's move generator.

    Moves depend only on which columns hold runners, which are closed (claimed, or topped this
    turn) and the rule switches, so a synthetic state with runners low in their columns stands in
    for all positions; the one difference (a double one space below the top makes one step) is
    the same move once steps are capped at the top, which is how moves are valued here.
    """
    state = CantStopState(
        seats=1,
        options=options,
        saved=((0,) * len(COLUMNS),),
        claimed=tuple(0 if col in claimed else NO_OWNER for col in COLUMNS),
        runners=tuple((col, HEIGHTS[col] if col in topped else 1) for col in runner_cols),
        phase=Phase.MOVE,
        turns=(0,),
    )
    moves: dict[tuple[int, ...], int] = {}
    groups: dict[tuple[int, ...], int] = {}
    bust = 0
    for dice, ways in _ROLLS:
        found = moves_for_dice(state, dice)
        if not found:
            bust += ways
            continue
        key = tuple(sorted(moves.setdefault(m, len(moves)) for m in found))
        groups[key] = groups.get(key, 0) + ways
    return bust, tuple(moves), tuple((w, idx) for idx, w in groups.items())


def _table_for(s: CantStopState, runners: dict[int, int]) -> MoveTable:
    cols = tuple(sorted(runners))
    topped = tuple(c for c in cols if runners[c] >= HEIGHTS[c])
    claimed = tuple(c for c in COLUMNS if s.claimed[c - 2] != NO_OWNER)
    return _move_table(s.options, cols, topped, claimed)


def bust_probability(s: CantStopState, runners: dict[int, int] | None = None) -> float:
    """Exact chance that the next roll busts, over all 1,296 rolls."""
    table = _table_for(s, dict(s.runners) if runners is None else runners)
    return table[0] / ALL_ROLL_COUNT


def _move_action(columns: tuple[int, ...]) -> Action:
    return Action("move", columns)


# --------------------------------------------------------------------------------------------
# easy


class CautiousRandomBot:
    """Random legal moves; after each move stops with chance ``min(0.9, steps * step_chance)``."""

    name = "cantstop-easy"

    def __init__(self, step_chance: float = 0.08) -> None:
        self.step_chance = step_chance

    def choose(self, engine: Any, state: CantStopState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.DECIDE and STOP in actions:
            if stop_wins(state):
                return STOP
            chance = min(0.9, steps_this_turn(state) * self.step_chance)
            return STOP if rng.below(1000) < int(chance * 1000) else ROLL
        if state.phase == Phase.DECIDE:
            return ROLL
        return rng.choice(actions)


# --------------------------------------------------------------------------------------------
# medium: the Rule of 28

#: progress weight of one step in columns 2..12 (index column - 2)
PROGRESS_WEIGHTS = (6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6)
#: move-choice value of one step in columns 2..12
CHOICE_WEIGHTS = (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
NEW_RUNNER_PENALTY = 6
THRESHOLD = 28


def rule28_progress(s: CantStopState) -> int:
    """The Rule of 28 count for the turn so far.

    Each step scores its column's progress weight and a runner's first step in a column scores
    double. Once all three runners are out: +2 if all three columns are odd, -2 if all are even,
    +4 if all are <= 7 or all are >= 7.
    """
    row = s.saved[s.active]
    total = 0
    for col, height in s.runners:
        climbed = height - row[col - 2]
        total += (climbed + 1) * PROGRESS_WEIGHTS[col - 2]
    cols = [col for col, _ in s.runners]
    if len(cols) == RUNNERS:
        if all(c % 2 for c in cols):
            total += 2
        elif not any(c % 2 for c in cols):
            total -= 2
        if all(c <= 7 for c in cols) or all(c >= 7 for c in cols):
            total += 4
    return total


def rule28_choice(s: CantStopState, columns: tuple[int, ...]) -> int:
    """Move value: column values 2/12 -> 1 up to 7 -> 6 per step, minus 6 per new runner."""
    placed = {c for c in columns if s.runner_at(c) is None}
    return sum(CHOICE_WEIGHTS[c - 2] for c in columns) - NEW_RUNNER_PENALTY * len(placed)


class RuleOf28Bot:
    """Michael Keller's Rule of 28.

    Roll or stop: stop at once when stopping wins. Otherwise count the turn's progress with
    ``rule28_progress``: a step in column c scores ``PROGRESS_WEIGHTS`` (7 -> 1 out to 2/12 -> 6),
    a runner's first step in a column scores double (so a double that places a runner scores
    three times the weight), and once all three runners are out the count gets +2 when all three
    columns are odd, -2 when all are even and +4 when all are <= 7 or all are >= 7 (combinations
    that bust more often push toward stopping sooner). Stop when the count reaches 28. While a
    runner is still free and there is an open column for it, keep rolling whatever the count, as
    J. Glenn's reference implementation of the rule does (over 4,000 solitaire games this made no
    measurable difference: 10.70 vs 10.73 turns).

    Move: the legal move with the highest ``rule28_choice`` - ``CHOICE_WEIGHTS`` per step
    (7 -> 6 down to 2/12 -> 1) minus 6 per new runner - taking the first in the engine's order on
    a tie. The bot keeps no memory: the count is recomputed from the runners and saved markers.
    """

    name = "cantstop-medium"

    def __init__(self, threshold: int = THRESHOLD, place_all_runners: bool = True) -> None:
        self.threshold = threshold
        self.place_all_runners = place_all_runners

    def wants_stop(self, s: CantStopState) -> bool:
        if stop_wins(s):
            return True
        if self.place_all_runners and len(s.runners) < RUNNERS:
            runner_cols = {c for c, _ in s.runners}
            open_cols = sum(
                1
                for c in COLUMNS
                if s.claimed[c - 2] == NO_OWNER
                and (c not in runner_cols or (s.runner_at(c) or 0) < HEIGHTS[c])
            )
            if open_cols > len(s.runners):
                return False
        return rule28_progress(s) >= self.threshold

    def choose(self, engine: Any, state: CantStopState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.DECIDE:
            return STOP if STOP in actions and self.wants_stop(state) else ROLL
        if state.phase == Phase.MOVE:
            return max(actions, key=lambda a: rule28_choice(state, a.values))
        return actions[0]


# --------------------------------------------------------------------------------------------
# hard: bust odds and a one-roll lookahead


class LookaheadBot:
    """Values positions by column progress and looks one roll ahead with exact odds.

    A column at height ``p`` of ``H`` is worth ``(p / H) ** power`` (convex: finishing a column
    beats spreading out), plus ``claim_bonus`` at the top. Against opponents a column is worth
    less when someone else is close to claiming it (``threat``), and claiming a column also
    removes the opponents' progress there (``denial``). The turn's gain is the value of stopping
    now minus the value at the start of the turn.

    Roll or stop: roll when ``boost`` times the expected extra gain of one more roll (over the
    1,296 rolls, playing the best move for each) is larger than the chance of busting times the
    gain at risk (``boost`` = 1 is the plain one-roll lookahead). Moves: the one whose resulting
    position is worth most, counting the better of stopping there or rolling once more. Stops at
    once when stopping wins. Each roll's legal moves come from the engine's move generator and are
    cached per (runner columns, closed columns, rule switches).

    The defaults were tuned by solitaire and heads-up play against ``RuleOf28Bot``; see
    ``bench/bots.py`` for the figures.
    """

    name = "cantstop-hard-old"

    def __init__(
        self,
        power: float = 1.6,
        claim_bonus: float = 0.5,
        boost: float = 1.0,
        threat: float = 0.6,
        denial: float = 0.5,
    ) -> None:
        self.power = power
        self.claim_bonus = claim_bonus
        self.boost = boost
        self.threat = threat
        self.denial = denial

    # -- position value -----------------------------------------------------------------------

    def column_values(self, s: CantStopState) -> dict[int, tuple[float, ...]]:
        """For each open column, the value of the active seat standing at each height."""
        me = s.active
        values: dict[int, tuple[float, ...]] = {}
        for col in COLUMNS:
            if s.claimed[col - 2] != NO_OWNER:
                continue
            height = HEIGHTS[col]
            others = [s.saved[p][col - 2] / height for p in range(s.seats) if p != me]
            lead = max(others, default=0.0)
            scale = 1.0 - self.threat * lead**3
            row = [scale * (p / height) ** self.power for p in range(height + 1)]
            row[height] = 1.0 + self.claim_bonus + self.denial * sum(f**self.power for f in others)
            values[col] = tuple(row)
        return values

    # -- lookahead ----------------------------------------------------------------------------

    def _gain(
        self, s: CantStopState, runners: dict[int, int], values: dict[int, tuple[float, ...]]
    ) -> float:
        row = s.saved[s.active]
        return sum(values[c][h] - values[c][row[c - 2]] for c, h in runners.items())

    def roll_gain(
        self, s: CantStopState, runners: dict[int, int], values: dict[int, tuple[float, ...]]
    ) -> tuple[float, float]:
        """(bust probability, expected extra gain of one roll when it does not bust)."""
        bust, moves, groups = _table_for(s, runners)
        row = s.saved[s.active]
        deltas = []
        for move in moves:
            delta = 0.0
            pos_now: dict[int, int] = {}
            for col in move:
                start = pos_now.get(col, runners.get(col, row[col - 2]))
                pos_now[col] = min(start + 1, HEIGHTS[col])
            for col, new in pos_now.items():
                old = runners.get(col, row[col - 2])
                delta += values[col][new] - values[col][old]
            deltas.append(delta)
        expected = sum(w * max(deltas[i] for i in idx) for w, idx in groups)
        return bust / ALL_ROLL_COUNT, expected / ALL_ROLL_COUNT

    def _worth(
        self, s: CantStopState, runners: dict[int, int], values: dict[int, tuple[float, ...]]
    ) -> float:
        """Value of a mid-turn position: the better of stopping and rolling once more."""
        gain = self._gain(s, runners, values)
        p_bust, extra = self.roll_gain(s, runners, values)
        return max(gain, gain * (1.0 - p_bust) + self.boost * extra)

    def wants_stop(self, s: CantStopState) -> bool:
        if stop_wins(s):
            return True
        values = self.column_values(s)
        runners = dict(s.runners)
        gain = self._gain(s, runners, values)
        p_bust, extra = self.roll_gain(s, runners, values)
        return p_bust * gain >= self.boost * extra

    def choose(self, engine: Any, state: CantStopState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase == Phase.DECIDE:
            return STOP if STOP in actions and self.wants_stop(state) else ROLL
        if state.phase == Phase.MOVE:
            values = self.column_values(state)
            best, best_value = actions[0], float("-inf")
            for action in actions:
                runners = after_move(state, action.values)
                if _would_win(state, runners):
                    return action
                worth = self._worth(state, runners, values)
                if worth > best_value:
                    best, best_value = action, worth
            return best
        return actions[0]


def make_bot(level: str) -> Any:
    """The Can't Stop bot for ``level``: easy, medium, hard, or (for the benchmark) the earlier
    hard bots ``hard-planner`` and ``hard-old``."""
    if level == "easy":
        return CautiousRandomBot()
    if level == "medium":
        return RuleOf28Bot()
    if level == "hard":
        from games.cantstop.bots.race import RaceBot  # it builds on this module's helpers

        return RaceBot()
    if level == "hard-planner":
        from games.cantstop.bots.planner import TurnPlannerBot

        return TurnPlannerBot()
    if level == "hard-old":
        return LookaheadBot()
    raise KeyError(f"unknown bot level {level!r}")
