"""asyncpg backend: a connection pool, one transaction per write, row locks instead of a file lock.

The same guarantees as ``SqliteStore``: a write is one transaction; ``Tx.load_game`` locks the
game's row (``FOR UPDATE``), so two writers of one game, in one process or in several, take turns
and the second sees the first one's version (the version check in ``UPDATE … WHERE version = $n``
stays the last guard); one open lobby or game per channel is a unique partial index; migrations
are the numbered files of ``migrations_pg/``, recorded in ``schema_migrations``.

When the server goes away (a restart, a failover) the statement under way fails, its transaction
is rolled back by the server, and the caller gets ``StoreUnavailable``; the pool opens fresh
connections for the next calls. A read that fails that way is tried once more on a new
connection (reads change nothing); a write is never retried here: the player tries again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from importlib import resources
from typing import Any, TypeVar

import asyncpg

from bot.storage.base import GameRow, MoveRow, OpenGameExists, SeatRow, Shards, StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")

_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, rules_version, host_id, options_json, capacity, seed,"
    " status, version, move_count, state_json, created_at, updated_at, ended_by"
)
#: a number to serialise migrations of several processes starting at once
_MIGRATION_LOCK = 0x626F617264  # "board"
#: the failures that mean "the database is not there right now" (not "your SQL is wrong")
_GONE: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,  # a connection left mid-protocol by the server
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    asyncpg.exceptions.InsufficientResourcesError,  # too many connections
    ConnectionError,
    OSError,
    asyncio.TimeoutError,
)
_UNSHOWN = (
    "SELECT g.id FROM games g"
    " WHERE (g.status = 'active'"
    "        OR (g.status = 'finished' AND ($1::text IS NULL OR g.updated_at >= $1)))"
    " AND g.version > COALESCE("
    "     (SELECT MAX(p.version) FROM posts p WHERE p.game_id = g.id), -1)"
    " AND g.id = (SELECT MAX(n.id) FROM games n WHERE n.channel_id = g.channel_id)"
)
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def migration_scripts() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every bundled PostgreSQL migration, in order."""
    folder = resources.files(__package__).joinpath("migrations_pg")
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(conn: asyncpg.Connection) -> list[str]:
    """Bring the schema up to date; returns the names of the migrations applied now."""
    applied = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        for number, name, sql in migration_scripts():
            if number in done:
                continue
            await conn.execute(sql)  # a script of several statements, no parameters
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", number, name
            )
            log.info("applied migration %s", name)
            applied.append(name)
    return applied


def _shard_clause(shards: Shards | None, first: int) -> tuple[str, list[object]]:
    """`` AND guild on these shards`` with its parameters numbered from ``$first``."""
    if shards is None:
        return "", []
    return (
        f" AND ((COALESCE(g.guild_id, 0) >> 22) % ${first}) = ANY(${first + 1}::int[])",
        [shards.count, list(shards.ids)],
    )


async def _seats(conn: asyncpg.Connection, game_id: int) -> tuple[SeatRow, ...]:
    rows = await conn.fetch(
        "SELECT seat, user_id, display_name, bot_level FROM seats WHERE game_id = $1 ORDER BY seat",
        game_id,
    )
    return tuple(SeatRow(*row) for row in rows)


async def _game(conn: asyncpg.Connection, where: str, *params: object) -> GameRow | None:
    # ``where`` is always one of this module's literal clauses; values travel as parameters.
    row = await conn.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE {where}", *params)  # noqa: S608
    if row is None:
        return None
    return replace(GameRow(*row), seats=await _seats(conn, row[0]))


class PostgresTx:
    """The statements of one write transaction (see ``PostgresStore.write``)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def load_game(self, game_id: int) -> GameRow | None:
        """The game, its row locked until the transaction ends (writers of it take turns)."""
        return await _game(self._conn, "id = $1 FOR UPDATE", game_id)

    async def insert_game(self, row: GameRow) -> int:
        try:
            game_id: int = await self._conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, rules_version, host_id,"
                " options_json, capacity, seed, status, version, move_count, state_json,"
                " created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
                " RETURNING id",
                row.guild_id,
                row.channel_id,
                row.game,
                row.rules_version,
                row.host_id,
                row.options_json,
                row.capacity,
                row.seed,
                row.status,
                row.version,
                row.move_count,
                row.state_json,
                row.created_at,
                row.updated_at,
            )
        except asyncpg.UniqueViolationError as exc:
            raise OpenGameExists(row.channel_id) from exc
        return game_id

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await self._conn.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, bot_level)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(game_id, s.seat, s.user_id, s.display_name, s.bot_level) for s in seats],
        )

    async def append_moves(self, game_id: int, first_seq: int, moves: Sequence[MoveRow]) -> None:
        await self._conn.executemany(
            "INSERT INTO moves (game_id, seq, seat, action, created_at)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(game_id, m.seq, m.seat, m.action, m.created_at) for m in moves],
        )

    async def update_game(
        self,
        game_id: int,
        expected_version: int,
        *,
        status: str,
        state_json: str | None,
        move_count: int,
        updated_at: str,
    ) -> int:
        """Bump the version if it is still ``expected_version``; returns rows changed (0 or 1)."""
        result = await self._conn.execute(
            "UPDATE games SET status = $1, state_json = $2, move_count = $3, updated_at = $4,"
            " version = version + 1 WHERE id = $5 AND version = $6",
            status,
            state_json,
            move_count,
            updated_at,
            game_id,
            expected_version,
        )
        return _changed(result)

    async def set_ended_by(self, game_id: int, user_id: int) -> None:
        await self._conn.execute("UPDATE games SET ended_by = $1 WHERE id = $2", user_id, game_id)

    async def record_post(
        self, game_id: int, version: int, channel_id: int, message_id: int, public: bool = True
    ) -> None:
        # SQLite's INSERT OR REPLACE: the row goes and comes back as the newest one
        await self._conn.execute(
            "DELETE FROM posts WHERE game_id = $1 AND message_id = $2", game_id, message_id
        )
        await self._conn.execute(
            "INSERT INTO posts (game_id, version, channel_id, message_id, public)"
            " VALUES ($1, $2, $3, $4, $5)",
            game_id,
            version,
            channel_id,
            message_id,
            int(public),
        )

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        await self._conn.execute(
            "INSERT INTO server_settings (guild_id, locale, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
            " updated_at = excluded.updated_at",
            guild_id,
            locale,
            updated_at,
        )

    async def replace_state(self, game_id: int, version: int, state_json: str) -> int:
        result = await self._conn.execute(
            "UPDATE games SET state_json = $1 WHERE id = $2 AND version = $3",
            state_json,
            game_id,
            version,
        )
        return _changed(result)

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        """Rows of a table as they are (ids included), for ``bot.storage.copy``."""
        names = ", ".join(_quoted(c) for c in columns)
        marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
        await self._conn.executemany(
            f"INSERT INTO {_quoted(table)} ({names}) VALUES ({marks})",  # noqa: S608
            [tuple(r) for r in rows],
        )

    async def after_copy(self) -> None:
        """Move the games' id counter past the copied ids."""
        await self._conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'),"
            " COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)"
        )


def _changed(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1``."""
    return int(status.rsplit(" ", 1)[-1])


def _quoted(name: str) -> str:
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"not a table or column name: {name!r}")
    return f'"{name}"'


class PostgresStore:
    """The game store on one PostgreSQL database (``postgresql://user@host/db``)."""

    def __init__(self, url: str, *, pool_size: int = 5, connect_timeout: float = 10.0) -> None:
        if pool_size < 1:
            raise ValueError("pool_size must be at least 1")
        self.url = url
        self.pool_size = pool_size
        self.connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None

    def __repr__(self) -> str:  # the URL may carry a password
        return f"PostgresStore(pool_size={self.pool_size})"

    async def open(self) -> None:
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                timeout=self.connect_timeout,
                statement_cache_size=256,
            )
        except _GONE as exc:
            raise StoreUnavailable(type(exc).__name__) from exc
        async with self._pool.acquire() as conn:
            await migrate(conn)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
        self._pool = None

    async def __aenter__(self) -> PostgresStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _the_pool(self) -> asyncpg.Pool:
        assert self._pool is not None, "store is not open"
        return self._pool

    async def _read(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run a read on a pooled connection; once more on a fresh one if the first was gone."""
        pool = self._the_pool()
        for attempt in (1, 2):
            try:
                async with pool.acquire(timeout=self.connect_timeout) as conn:
                    return await work(conn)
            except _GONE as exc:
                if attempt == 2:
                    raise StoreUnavailable(type(exc).__name__) from exc
                log.warning("database connection lost during a read; trying again")
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PostgresTx]:
        """One write transaction: committed when the block ends, rolled back if it raises. A
        lost connection raises ``StoreUnavailable``: the server keeps none of the transaction."""
        pool = self._the_pool()
        try:
            conn = await pool.acquire(timeout=self.connect_timeout)
        except _GONE as exc:
            raise StoreUnavailable(type(exc).__name__) from exc
        try:
            transaction = conn.transaction()
            try:
                await transaction.start()
            except _GONE as exc:
                raise StoreUnavailable(type(exc).__name__) from exc
            try:
                yield PostgresTx(conn)
            except _GONE as exc:
                await _quietly_roll_back(transaction)
                raise StoreUnavailable(type(exc).__name__) from exc
            except BaseException:
                await _quietly_roll_back(transaction)
                raise
            try:
                await transaction.commit()
            except _GONE as exc:
                raise StoreUnavailable(type(exc).__name__) from exc
        finally:
            await pool.release(conn)

    async def load_game(self, game_id: int) -> GameRow | None:
        return await self._read(lambda conn: _game(conn, "id = $1", game_id))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._read(
            lambda conn: _game(
                conn, "channel_id = $1 AND status IN ('lobby', 'active')", channel_id
            )
        )

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's newest game that was played and has ended (won or abandoned)."""
        return await self._read(
            lambda conn: _game(
                conn,
                "channel_id = $1 AND status IN ('finished', 'abandoned') ORDER BY id DESC LIMIT 1",
                channel_id,
            )
        )

    async def _ids(self, sql: str, *params: object) -> list[int]:
        rows = await self._read(lambda conn: conn.fetch(sql, *params))
        return [row[0] for row in rows]

    async def open_games(self, shards: Shards | None = None) -> list[int]:
        clause, params = _shard_clause(shards, 1)
        return await self._ids(
            f"SELECT g.id FROM games g WHERE g.status = 'active'{clause} ORDER BY g.id",  # noqa: S608
            *params,
        )

    async def games_with_state(self) -> list[int]:
        return await self._ids("SELECT id FROM games WHERE state_json IS NOT NULL ORDER BY id")

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT seq, seat, action, created_at FROM moves WHERE game_id = $1 ORDER BY seq",
                game_id,
            )
        )
        return [MoveRow(*row) for row in rows]

    async def posted_version(self, game_id: int) -> int | None:
        version: int | None = await self._read(
            lambda conn: conn.fetchval(
                "SELECT MAX(version) FROM posts WHERE game_id = $1", game_id
            )
        )
        return version

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games whose newest version no posted message shows: running ones, and finished ones
        (changed at ``changed_since`` or later, when given) still the newest in their channel."""
        clause, params = _shard_clause(shards, 2)
        return await self._ids(
            f"{_UNSHOWN}{clause} ORDER BY g.id",
            changed_since,
            *params,
        )

    async def latest_post(self, game_id: int) -> tuple[int, int] | None:
        """(channel_id, message_id) of the newest message posted for the game."""
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT channel_id, message_id FROM posts WHERE game_id = $1 AND public = 1"
                " ORDER BY version DESC, posted_order DESC LIMIT 1",
                game_id,
            )
        )
        return (row[0], row[1]) if row else None

    async def server_locale(self, guild_id: int) -> str | None:
        locale: str | None = await self._read(
            lambda conn: conn.fetchval(
                "SELECT locale FROM server_settings WHERE guild_id = $1", guild_id
            )
        )
        return locale

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        async with self.write() as tx:
            await tx.set_server_locale(guild_id, locale, updated_at)

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def table_columns(self, table: str) -> list[str]:
        """The table's columns in their order (empty when there is no such table)."""
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = $1"
                " ORDER BY ordinal_position",
                table,
            )
        )
        return [row[0] for row in rows]

    async def table_rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of the table (those columns), in the order they were written."""
        names = ", ".join(_quoted(c) for c in columns)
        order = "posted_order" if table == "posts" else ("1, 2" if len(columns) > 1 else "1")
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {names} FROM {_quoted(table)} ORDER BY {order}"  # noqa: S608
            )
        )
        return [tuple(row) for row in rows]


async def _quietly_roll_back(transaction: Any) -> None:
    try:
        await transaction.rollback()
    except _GONE:
        pass  # the server has dropped the connection, and the transaction with it
    except asyncpg.InterfaceError:
        pass
