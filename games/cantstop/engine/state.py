"""Can't Stop state: frozen, hashable, JSON-codable."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

COLUMNS: tuple[int, ...] = tuple(range(2, 13))
HEIGHTS: dict[int, int] = {2: 3, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13, 8: 11, 9: 9, 10: 7, 11: 5, 12: 3}
RUNNERS = 3
COLUMNS_TO_WIN = 3
NO_OWNER = -1
#: the state encoding; 2 added ``turn`` (states stored before it are rebuilt from the move log)
ENCODING = 2


class Phase(StrEnum):
    """Where a turn stands; the values are what the stored JSON holds."""

    ROLL = "roll"  # start of a turn: the active player must roll
    DICE = "dice"  # chance: the dice are in the air
    MOVE = "move"  # the player picks one of the legal moves for the dice
    DECIDE = "decide"  # after a move: roll again or stop
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Options:
    force_max_runner_placement: bool = False
    must_use_both_sums: bool = True
    auto_stop_on_win: bool = False
    no_stop_on_occupied_space: bool = False
    #: show the chance that the next roll busts on the Roll again button (display only)
    odds: bool = True


#: the names of the options, in order (how a state's options are written down)
OPTION_FIELDS = tuple(f.name for f in fields(Options))


@dataclass(frozen=True, slots=True)
class CantStopState:
    """One moment of a game.

    ``saved[p]`` and ``claimed`` are indexed by column - 2. ``runners`` holds (column, height)
    pairs sorted by column. ``dice`` is the last roll (kept after a bust so the board can show it),
    ``last_move`` the column steps of the last move this turn, ``bust`` whether the previous turn
    ended in a bust. ``turns[p]`` counts the turns each seat has finished, ``turn`` the turns
    finished by anyone (the contract's turn counter; the winning stop ends a turn too).
    """

    seats: int
    options: Options
    saved: tuple[tuple[int, ...], ...]
    claimed: tuple[int, ...]
    runners: tuple[tuple[int, int], ...] = ()
    active: int = 0
    phase: Phase = Phase.ROLL
    dice: tuple[int, ...] = ()
    last_move: tuple[int, ...] = ()
    bust: bool = False
    turns: tuple[int, ...] = ()
    turn: int = 0
    winner: int = NO_OWNER
    v: int = ENCODING

    def runner_at(self, column: int) -> int | None:
        for col, height in self.runners:
            if col == column:
                return height
        return None

    def position(self, column: int) -> int:
        """Where the active player's piece stands in ``column`` this turn (runner first)."""
        height = self.runner_at(column)
        return height if height is not None else self.saved[self.active][column - 2]

    def owner(self, column: int) -> int:
        return self.claimed[column - 2]

    def claimed_by(self, seat: int) -> tuple[int, ...]:
        return tuple(col for col in COLUMNS if self.claimed[col - 2] == seat)
