"""Can't Stop rules: move generation (M1-M3), busts, stopping, claims and the win.

Follows ``games/cantstop/rules.md``: each of the three pairings is judged on its own with the greedy
"both sums, else the ones that fit" rule (M2) and the legal set is the union (M3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from itertools import product
from typing import Any

from engines.base import CHANCE, TERMINAL, GameInfo, OptionSpec
from engines.errors import BadOptions, IllegalAction, OldEncoding
from engines.rng import Rng
from games.cantstop.engine import actions as act
from games.cantstop.engine.actions import ROLL, STOP, Action
from games.cantstop.engine.state import (
    COLUMNS,
    COLUMNS_TO_WIN,
    HEIGHTS,
    NO_OWNER,
    OPTION_FIELDS,
    RUNNERS,
    CantStopState,
    Options,
    Phase,
)

ALL_ROLLS: tuple[tuple[int, ...], ...] = tuple(product(range(1, 7), repeat=4))

INFO = GameInfo(
    name="cantstop",
    title="Can't Stop",
    min_seats=2,
    max_seats=4,
    max_moves=100_000,
    rules_version=1,
    options=(
        OptionSpec("force_max_runner_placement", "bool", False),
        OptionSpec("must_use_both_sums", "bool", True),
        OptionSpec("auto_stop_on_win", "bool", False),
        OptionSpec("no_stop_on_occupied_space", "bool", False),
        OptionSpec("odds", "bool", True),
    ),
)


#: a split of the four dice into two pairs, as dice indices
Split = tuple[tuple[int, int], tuple[int, int]]
#: the three splits (rule §4.2), in this order
SPLITS: tuple[Split, ...] = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def _sums(dice: tuple[int, ...], split: Split) -> tuple[int, int]:
    (a, b), (c, d) = split
    return dice[a] + dice[b], dice[c] + dice[d]


def pairings(dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The distinct ways to split four dice into two sums, each as a sorted pair."""
    found = {tuple(sorted(_sums(dice, split))) for split in SPLITS}
    return tuple(sorted(found))  # type: ignore[arg-type]


def split_of_move(dice: tuple[int, ...], steps: tuple[int, ...]) -> Split | None:
    """The split of ``dice`` behind a move's column ``steps`` (the first that fits), if any.

    A one-step move fits a split that has its sum (one sum of a pairing, or a double that lost
    its second step at the top).
    """
    if len(dice) != 4 or not steps:
        return None
    for split in SPLITS:
        sums = sorted(_sums(dice, split))
        if sorted(steps) == sums or (len(steps) == 1 and steps[0] in sums):
            return split
    return None


def _is_open(s: CantStopState, column: int, runners: Mapping[int, int], free: int) -> bool:
    """Open for one step: unclaimed, not topped this turn, and a runner there or one free."""
    if s.claimed[column - 2] != NO_OWNER:
        return False
    pos = runners.get(column, s.saved[s.active][column - 2])
    if pos >= HEIGHTS[column]:
        return False
    return column in runners or free > 0


def _pairing_moves(
    s: CantStopState, pair: tuple[int, int], must_use_both: bool
) -> list[tuple[int, ...]]:
    """Rule M2 for one pairing: the column-step multisets it allows.

    With ``must_use_both`` off, a pairing that makes two steps, a double included, may also make
    just one of them (§9).
    """
    runners = dict(s.runners)
    free = RUNNERS - len(runners)
    s1, s2 = pair
    if s1 == s2:
        if not _is_open(s, s1, runners, free):
            return []
        pos = runners.get(s1, s.saved[s.active][s1 - 2])
        if pos + 1 >= HEIGHTS[s1]:
            return [(s1,)]  # one space left: the second step is lost
        return [(s1, s1)] if must_use_both else [(s1, s1), (s1,)]
    open1 = _is_open(s, s1, runners, free)
    open2 = _is_open(s, s2, runners, free)
    new_needed = (s1 not in runners) + (s2 not in runners)
    if open1 and open2 and new_needed <= free:
        return [(s1, s2)] if must_use_both else [(s1, s2), (s1,), (s2,)]
    return [(c,) for c, ok in ((s1, open1), (s2, open2)) if ok]


def moves_for_dice(s: CantStopState, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Rule M3: the union over pairings, each move a sorted tuple of column steps."""
    found: set[tuple[int, ...]] = set()
    for pair in pairings(dice):
        found.update(_pairing_moves(s, pair, s.options.must_use_both_sums))
    if s.options.force_max_runner_placement and found:
        placed = {m: len({c for c in m if s.runner_at(c) is None}) for m in found}
        most = max(placed.values())
        found = {m for m in found if placed[m] == most}
    return tuple(sorted(found))


def _step(runners: dict[int, int], saved_row: tuple[int, ...], column: int) -> None:
    if column in runners:
        runners[column] = min(runners[column] + 1, HEIGHTS[column])
    else:
        runners[column] = saved_row[column - 2] + 1


def _next_seat(s: CantStopState) -> int:
    return (s.active + 1) % s.seats


def previous_seat(s: CantStopState) -> int:
    """The seat that played the turn before the active seat's (itself in solitaire)."""
    return (s.active - 1) % s.seats


def _turn_ended(s: CantStopState) -> dict[str, Any]:
    """The counters of a state whose active seat has just finished its turn."""
    turns = tuple(t + (i == s.active) for i, t in enumerate(s.turns))
    return {"turns": turns, "turn": s.turn + 1}


def _end_turn(s: CantStopState, **changes: Any) -> CantStopState:
    return replace(
        s,
        runners=(),
        phase=Phase.ROLL,
        active=_next_seat(s),
        last_move=(),
        **_turn_ended(s),
        **changes,
    )


def _would_win(s: CantStopState) -> bool:
    topped = sum(1 for col, h in s.runners if h >= HEIGHTS[col])
    return len(s.claimed_by(s.active)) + topped >= COLUMNS_TO_WIN


def _stop(s: CantStopState) -> CantStopState:
    saved = [list(row) for row in s.saved]
    claimed = list(s.claimed)
    for col, height in s.runners:
        saved[s.active][col - 2] = height
        if height >= HEIGHTS[col]:
            claimed[col - 2] = s.active
            for seat in range(s.seats):
                if seat != s.active:
                    saved[seat][col - 2] = 0
    s2 = replace(s, saved=tuple(map(tuple, saved)), claimed=tuple(claimed))
    if len(s2.claimed_by(s.active)) >= COLUMNS_TO_WIN:
        return replace(s2, runners=(), phase=Phase.OVER, winner=s.active, **_turn_ended(s))
    return _end_turn(s2, dice=())


def _stop_allowed(s: CantStopState) -> bool:
    if not s.options.no_stop_on_occupied_space:
        return True
    for col, height in s.runners:
        for seat in range(s.seats):
            if seat != s.active and s.saved[seat][col - 2] == height:
                return False
    return True


class CantStopEngine:
    """Pure Can't Stop rules behind the engine contract."""

    info = INFO

    def initial_state(self, seats: int, options: Mapping[str, object]) -> CantStopState:
        if not 1 <= seats <= INFO.max_seats:  # 1 = solitaire, used by bots and benchmarks
            raise BadOptions(f"Can't Stop takes 1-{INFO.max_seats} seats, not {seats}")
        try:
            opts = Options(**INFO.normalize_options(options))  # type: ignore[arg-type]
        except ValueError as exc:
            raise BadOptions(str(exc)) from exc
        empty = (0,) * len(COLUMNS)
        return CantStopState(
            seats=seats,
            options=opts,
            saved=(empty,) * seats,
            claimed=(NO_OWNER,) * len(COLUMNS),
            turns=(0,) * seats,
        )

    def to_move(self, s: CantStopState) -> int:
        if s.phase == Phase.OVER:
            return TERMINAL
        if s.phase == Phase.DICE:
            return CHANCE
        return s.active

    def turn(self, s: CantStopState) -> int:
        """Turns ended so far: a stop (the winning one too) or a bust ends a turn."""
        return s.turn

    def legal_actions(self, s: CantStopState) -> tuple[Action, ...]:
        if s.phase == Phase.ROLL:
            return (ROLL,)
        if s.phase == Phase.DICE:
            return tuple(act.dice(*d) for d in ALL_ROLLS)
        if s.phase == Phase.MOVE:
            return tuple(act.move(*m) for m in moves_for_dice(s, s.dice))
        if s.phase == Phase.DECIDE:
            return (ROLL, STOP) if _stop_allowed(s) else (ROLL,)
        return ()

    def apply(self, s: CantStopState, a: Action) -> CantStopState:
        if (s.phase == Phase.ROLL and a == ROLL) or (s.phase == Phase.DECIDE and a == ROLL):
            return replace(s, phase=Phase.DICE, bust=False)
        if s.phase == Phase.DICE and a.kind == "dice" and len(a.values) == 4:
            if not all(1 <= d <= 6 for d in a.values):
                raise IllegalAction(act.encode(a))
            dice = a.values
            if not moves_for_dice(s, dice):
                return _end_turn(s, dice=dice, bust=True)
            return replace(s, phase=Phase.MOVE, dice=dice, last_move=())
        if s.phase == Phase.MOVE and a.kind == "move":
            if a.values not in moves_for_dice(s, s.dice):
                raise IllegalAction(act.encode(a))
            runners = dict(s.runners)
            for column in a.values:
                _step(runners, s.saved[s.active], column)
            moved = replace(
                s, runners=tuple(sorted(runners.items())), phase=Phase.DECIDE, last_move=a.values
            )
            if s.options.auto_stop_on_win and _would_win(moved) and _stop_allowed(moved):
                return _stop(moved)  # only a stop the player could have made themselves
            return moved
        if s.phase == Phase.DECIDE and a == STOP and _stop_allowed(s):
            return _stop(s)
        raise IllegalAction(act.encode(a))

    def sample_chance(self, s: CantStopState, rng: Rng) -> Action:
        if s.phase != Phase.DICE:
            raise IllegalAction("no chance step here")
        return act.dice(*(rng.randint(1, 6) for _ in range(4)))

    def scores(self, s: CantStopState) -> tuple[int, ...]:
        """Columns claimed per seat."""
        return tuple(len(s.claimed_by(seat)) for seat in range(s.seats))

    def winners(self, s: CantStopState) -> tuple[int, ...]:
        return (s.winner,) if s.winner != NO_OWNER else ()

    def encode_action(self, a: Action) -> str:
        return act.encode(a)

    def decode_action(self, text: str) -> Action:
        return act.decode(text)

    def encode_state(self, s: CantStopState) -> dict[str, Any]:
        # written out field by field: dataclasses.asdict deep-copies every value, and this runs
        # at every move (tests/engines/test_cantstop_rules.py checks it against asdict)
        return {
            "seats": s.seats,
            "options": {name: getattr(s.options, name) for name in OPTION_FIELDS},
            "saved": [list(r) for r in s.saved],
            "claimed": list(s.claimed),
            "runners": [list(r) for r in s.runners],
            "active": s.active,
            "phase": s.phase.value,
            "dice": list(s.dice),
            "last_move": list(s.last_move),
            "bust": s.bust,
            "turns": list(s.turns),
            "turn": s.turn,
            "winner": s.winner,
            "v": s.v,
        }

    def decode_state(self, d: Mapping[str, Any]) -> CantStopState:
        if "turn" not in d:
            raise OldEncoding(f"Can't Stop state of encoding {d.get('v', 1)}, before turn")
        return CantStopState(
            seats=d["seats"],
            options=Options(**d["options"]),
            saved=tuple(tuple(r) for r in d["saved"]),
            claimed=tuple(d["claimed"]),
            runners=tuple((c, h) for c, h in d["runners"]),
            active=d["active"],
            phase=Phase(d["phase"]),
            dice=tuple(d["dice"]),
            last_move=tuple(d["last_move"]),
            bust=d["bust"],
            turns=tuple(d["turns"]),
            turn=d["turn"],
            winner=d["winner"],
            v=d["v"],
        )

    def view(self, s: CantStopState, seat: int | None) -> CantStopState:
        return s  # nothing is hidden in Can't Stop
