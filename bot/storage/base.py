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
class Shards:
    """The Discord gateway shards one bot process runs: ``ids`` of ``count`` shards in all."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int | None) -> bool:
        """Discord routes a guild to shard ``(guild_id >> 22) % count`` (direct messages: 0)."""
        return ((guild_id or 0) >> 22) % self.count in self.ids


class StoreUnavailable(Exception):
    """The database cannot be reached (e.g. it is restarting); nothing of the transaction that
    was under way is kept."""


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

    async def open_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of the running games (of guilds on ``shards`` only, when given)."""
        ...

    async def games_with_state(self) -> list[int]:
        """Ids of every game that has a stored state (running or over)."""
        ...

    async def posted_version(self, game_id: int) -> int | None: ...

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games committed at a version no posted message shows yet (see ``SqliteStore``)."""
        ...

    async def latest_post(self, game_id: int) -> tuple[int, int] | None: ...

    async def server_locale(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its public messages (None: not chosen)."""
        ...

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        """Choose (or, with None, forget) the language of a server's public messages."""
        ...
