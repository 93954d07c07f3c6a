"""What the service hands out: plain frozen dataclasses, no Discord types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    user_id: int | None  # None for a computer opponent
    name: str
    bot_level: str | None = None
    stand_in: str | None = None  # 'turn' or 'seat': a computer opponent plays for the player
    #: a time bank game: what the seat's bank holds for its next turn, in seconds (None: the
    #: bank's start, or no bank) and in hours of game time as players read it (None: no bank)
    bank_left: float | None = None
    bank_hours: float | None = None

    @property
    def is_bot(self) -> bool:
        """Does a computer play this seat now (a computer opponent, or one standing in)?"""
        return self.bot_level is not None or self.stand_in is not None

    @property
    def is_human(self) -> bool:
        """A person sits here (even while a computer stands in for them)."""
        return self.user_id is not None


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One line of the move log; ``seat`` is None for chance (dice, bag draws)."""

    seq: int
    seat: int | None
    action: str


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """A lobby or game as stored at ``version``; ``state`` is None while in the lobby."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    host_id: int
    status: str
    version: int
    capacity: int
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    state: Any = None
    #: how many moves of the log ``state`` is (None: not said, e.g. a snapshot made by hand)
    move_count: int | None = None
    to_move: int | None = None  # a seat, or None when nobody is to move (lobby, over)
    legal: tuple[str, ...] = ()
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    turn: int = 0  # how many turns have ended (the engine's turn counter)
    ended_by: int | None = None  # the user who abandoned the game, if someone did
    clock_seconds: int | None = None  # the turn clock (None: no clock)
    #: the turn clock in hours of game time, as players read it (None: no clock)
    clock_hours: float | None = None
    deadline: float | None = None  # when the turn of the seat to move runs out (unix time)
    clock_left: float | None = None  # the player to move is away: what their stopped clock had left
    #: a time bank (``clock_seconds`` its start): what a turn adds and the cap, in seconds and
    #: in hours of game time as players read them (all None: a per-move clock)
    bank_increment: int | None = None
    bank_cap: int | None = None
    bank_hours: tuple[float, float] | None = None
    #: SHA-256 of the seed with the game's prefix (``bot.service.fairness``): safe to show
    commitment: str = ""
    #: the seed, only once the game has ended (finished or abandoned); None while it may run
    revealed_seed: int | None = None
    #: the finished game this lobby or game replays (Rematch), if any
    rematch_of: int | None = None
    #: weekdays on which the table's clocks stand still (Monday 0), read in ``rest_timezone``
    rest_days: frozenset[int] = frozenset()
    rest_timezone: str | None = None
    #: the table rests now (a running game with a clock): until then (unix time)
    resting_until: float | None = None

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    @property
    def is_lobby(self) -> bool:
        return self.status == "lobby"

    @property
    def is_over(self) -> bool:
        return self.status in ("finished", "abandoned", "cancelled")

    def player_to_move(self) -> Seat | None:
        return self.seats[self.to_move] if self.to_move is not None else None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of an accepted action: the state before, the moves it logged, the state after."""

    before: GameSnapshot
    after: GameSnapshot
    moves: tuple[LoggedMove, ...]

    @property
    def ended_turn(self) -> bool:
        """Did this action end a turn (or the game): the engine's turn counter rose, or the
        game is no longer running."""
        return self.after.turn > self.before.turn or self.after.status != "active"
