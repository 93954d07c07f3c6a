"""asyncpg backend: a connection pool, one transaction per write, row locks instead of a file lock.

The same statements and guarantees as ``SqliteStore``: a write is one transaction;
``StoreTx.load_game`` locks the game's row (``FOR NO KEY UPDATE``, the dialect's ``lock_row``),
so two writers of one game, in one process or in several, take turns and the second sees the
first one's version (the version check in ``UPDATE … WHERE version = …`` stays the last guard);
a timer read in a write is claimed (``FOR UPDATE SKIP LOCKED``); rating changes of one server
and game take turns through advisory locks; one open lobby or game per channel is a unique
partial index.

When the server goes away (a restart, a failover) the statement under way fails, its transaction
is rolled back by the server, and the caller gets ``StoreUnavailable``; the pool opens fresh
connections for the next calls. A read that fails that way is tried once more on a new
connection (reads change nothing); a write is never retried here: the player tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from bot.storage.base import StoreUnavailable, holding_write, not_inside_a_write
from bot.storage.connection import Connection
from bot.storage.dialect import POSTGRES
from bot.storage.migrate import migrate
from bot.storage.store import Store, StoreTx, quoted

log = logging.getLogger(__name__)

T = TypeVar("T")

#: a number to serialise migrations of several processes starting at once
_MIGRATION_LOCK = 0x626F617264  # "board"
#: advisory lock spaces (two int4 keys) of rating changes: one server and game's ratings
#: (the second key a hash of both), and, with the second key 0, every rating (a rebuild)
_RATINGS_LOCK = 0x72617465  # "rate"
_RATINGS_REBUILD_LOCK = 0x72656275  # "rebu"
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


class PostgresConnection:
    """An asyncpg connection running the store's statements (``bot.storage.connection``)."""

    duplicate_key: tuple[type[Exception], ...] = (asyncpg.UniqueViolationError,)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, /, **params: Any) -> Sequence[Sequence[Any]]:
        text, args = POSTGRES.compile(sql, params)
        found: Sequence[Sequence[Any]] = await self.conn.fetch(text, *args)
        return found

    async def row(self, sql: str, /, **params: Any) -> Sequence[Any] | None:
        text, args = POSTGRES.compile(sql, params)
        found: Sequence[Any] | None = await self.conn.fetchrow(text, *args)
        return found

    async def value(self, sql: str, /, **params: Any) -> Any:
        text, args = POSTGRES.compile(sql, params)
        return await self.conn.fetchval(text, *args)

    async def run(self, sql: str, /, **params: Any) -> int:
        text, args = POSTGRES.compile(sql, params)
        status: str = await self.conn.execute(text, *args)
        return _changed(status)

    async def run_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        if not rows:
            return
        text, _ = POSTGRES.compile(sql, rows[0])
        await self.conn.executemany(
            text, [POSTGRES.compile(sql, row)[1] for row in rows]
        )

    async def script(self, sql: str) -> None:
        await self.conn.execute(POSTGRES.text(sql))  # several statements, no parameters

    async def table_columns(self, table: str) -> list[str]:
        rows = await self.rows(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = :table"
            " ORDER BY ordinal_position",
            table=table,
        )
        return [row[0] for row in rows]

    async def serialise_ratings(self, guild_id: int, game: str) -> None:
        """Advisory locks held to the end of the transaction: shared against a rebuild, and
        this server and game's own."""
        await self.conn.execute("SELECT pg_advisory_xact_lock_shared($1, 0)", _RATINGS_REBUILD_LOCK)
        await self.conn.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2::text || ':' || $3))",
            _RATINGS_LOCK,
            str(guild_id),
            game,
        )

    async def serialise_rating_rebuild(self) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _RATINGS_REBUILD_LOCK)

    async def after_copy(self, counted: Sequence[str]) -> None:
        """Move the identity counters past the copied ids."""
        for table in counted:
            await self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{quoted(table)}', 'id'),"  # noqa: S608
                f" COALESCE((SELECT MAX(id) FROM {quoted(table)}), 0) + 1, false)"
            )


def _changed(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1`` (0 for ``CREATE TABLE``)."""
    count = status.rsplit(" ", 1)[-1]
    return int(count) if count.isdigit() else 0


class PostgresStore(Store):
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
                reset=_nothing_to_reset,
            )
        except _GONE as exc:
            raise StoreUnavailable(type(exc).__name__) from exc
        async with self._pool.acquire() as conn:
            await migrate(_Migrating(conn))

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

    async def _read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run a read on a pooled connection; once more on a fresh one if the first was gone."""
        not_inside_a_write(self)
        pool = self._the_pool()
        for attempt in (1, 2):
            try:
                async with pool.acquire(timeout=self.connect_timeout) as conn:
                    return await work(PostgresConnection(conn))
            except _GONE as exc:
                if attempt == 2:
                    raise StoreUnavailable(type(exc).__name__) from exc
                log.warning("database connection lost during a read; trying again")
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def write(self, *, synced: bool = True) -> AsyncIterator[StoreTx]:
        """One write transaction: committed when the block ends, rolled back if it raises. A
        lost connection raises ``StoreUnavailable``: the server keeps none of the transaction.
        ``synced`` changes nothing here: every commit waits for the server's log."""
        not_inside_a_write(self)
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
            tx = StoreTx(PostgresConnection(conn))
            try:
                with holding_write(self):
                    yield tx
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
        tx.committed()


class _Migrating:
    """The migrations of a start-up in one transaction, under an advisory lock: processes
    starting at once take turns, and the later ones find nothing left to do."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        async with self.conn.transaction():
            await self.conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            yield PostgresConnection(self.conn)


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """What a connection going back to the pool needs beyond asyncpg's own rollback of an open
    transaction: nothing. The store sets no session state (no SET, LISTEN, cursor or session
    advisory lock; its advisory locks end with their transaction), so the default reset query
    (RESET ALL, UNLISTEN, CLOSE ALL, …) would be one more round trip for every read and write."""


async def _quietly_roll_back(transaction: Any) -> None:
    try:
        await transaction.rollback()
    except _GONE:
        pass  # the server has dropped the connection, and the transaction with it
    except asyncpg.InterfaceError:
        pass
