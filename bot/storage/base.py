"""Rows and the store contract, so another backend (e.g. PostgreSQL) can slot in."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    display_name: str
    bot_level: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    rules_version: int
    host_id: int
    options_json: str
    capacity: int
    seed: int
    status: str
    version: int
    move_count: int
    state_json: str | None
    created_at: str
    updated_at: str
    ended_by: int | None = None  # who abandoned the game, if someone did
    seats: tuple[SeatRow, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveRow:
    seq: int
    seat: int | None
    action: str
    created_at: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    """What a finished game meant for one human seat (``rank`` 0: a winner)."""

    game_id: int
    seat: int
    guild_id: int | None
    game: str
    user_id: int
    score: int
    rank: int
    won: bool
    extras_json: str = "{}"


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's skill rating in one server and game (openskill's mu and sigma)."""

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int
    wins: int
    updated_at: str


class VersionConflict(Exception):
    """The game's version moved on between load and write (optimistic concurrency)."""


class OpenGameExists(Exception):
    """The channel already has an open lobby or running game."""


class Tx(Protocol):
    """One write transaction."""

    async def load_game(self, game_id: int) -> GameRow | None: ...

    async def insert_game(self, row: GameRow) -> int: ...

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None: ...

    async def append_moves(
        self, game_id: int, first_seq: int, moves: Sequence[MoveRow]
    ) -> None: ...

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        status: str,
        state_json: str | None,
        move_count: int,
        updated_at: str,
    ) -> int: ...

    async def set_ended_by(self, game_id: int, user_id: int) -> None: ...

    async def record_post(
        self, game_id: int, version: int, channel_id: int, message_id: int, public: bool = True
    ) -> None: ...

    async def replace_state(self, game_id: int, version: int, state_json: str) -> int:
        """The same position in a newer encoding: no version bump; 0 if the version moved on."""
        ...

    # -- results and ratings (migration 0007)

    async def load_moves(self, game_id: int) -> list[MoveRow]:
        """The move log as this transaction sees it."""
        ...

    async def outcome_recorded(self, game_id: int) -> bool:
        """Has the game's outcome (results, rating updates) been written already?"""
        ...

    async def record_outcome(
        self,
        game_id: int,
        guild_id: int | None,
        game: str,
        rated: bool,
        finished_at: str,
        results: Sequence[ResultRow],
    ) -> None:
        """The idempotent record of a finished game and its human seats' results."""
        ...

    async def load_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]:
        """The current ratings of these players (absent: never rated)."""
        ...

    async def save_rating(self, game_id: int, row: RatingRow) -> None:
        """Store a player's rating after ``game_id`` and add it to their rating history."""
        ...

    async def clear_outcomes(self) -> None:
        """Forget every outcome, result, rating and rating history (before a rebuild)."""
        ...


class GameStore(Protocol):
    """What the service needs from a backend (SQLite today; the seam for another one)."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    def write(self) -> AbstractAsyncContextManager[Tx]:
        """``async with store.write() as tx:`` one serialised write transaction."""
        ...

    async def load_game(self, game_id: int) -> GameRow | None: ...

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def moves(self, game_id: int) -> list[MoveRow]: ...

    async def open_games(self) -> list[int]: ...

    async def games_with_state(self) -> list[int]:
        """Ids of every game that has a stored state (running or over)."""
        ...

    async def posted_version(self, game_id: int) -> int | None: ...

    async def unshown_games(self, changed_since: str | None = None) -> list[int]:
        """Games committed at a version no posted message shows yet (see ``SqliteStore``)."""
        ...

    async def latest_post(self, game_id: int) -> tuple[int, int] | None: ...

    async def server_locale(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its public messages (None: not chosen)."""
        ...

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        """Choose (or, with None, forget) the language of a server's public messages."""
        ...

    # -- results and ratings (migration 0007)

    async def finished_games(self, *, unrecorded_only: bool = False) -> list[int]:
        """Ids of the finished games in the order they finished (``updated_at``, then id);
        ``unrecorded_only``: those whose outcome is not written yet."""
        ...

    async def player_results(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[ResultRow]:
        """A player's results in a server (one game, or all), oldest first."""
        ...

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None: ...

    async def rating_history(
        self, guild_id: int, game: str, user_id: int
    ) -> list[tuple[float, float]]:
        """(mu, sigma) after each rated game of the player, oldest first."""
        ...

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[RatingRow]:
        """The best ratings (by mu - 3 sigma) among players with at least ``min_games``."""
        ...

    async def all_ratings(self) -> list[RatingRow]:
        """Every rating row (ordered by server, game, player)."""
        ...
