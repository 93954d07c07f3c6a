"""aiosqlite backend: WAL, one writer connection behind a lock, ``BEGIN IMMEDIATE`` writes.

A second connection serves reads, so a read never sees another coroutine's half-done
transaction (aiosqlite runs the calls of one connection in order, interleaving coroutines).

``synchronous=FULL`` (the default) syncs the write-ahead log at every commit, so a move the
players were shown survives a power cut, not only a killed process; ``NORMAL`` syncs only at
checkpoints and may lose the last commits on power loss (``bench/service.py`` measures the cost).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.base import holding_write, not_inside_a_write
from bot.storage.connection import Connection
from bot.storage.dialect import SQLITE
from bot.storage.migrate import migrate
from bot.storage.store import Store, StoreTx

T = TypeVar("T")

_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
#: how hard each commit is pushed to the disk (``PRAGMA synchronous``)
SYNCHRONOUS = ("FULL", "NORMAL")


class SqliteConnection:
    """An aiosqlite connection running the store's statements (``bot.storage.connection``)."""

    duplicate_key: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, /, **params: Any) -> Sequence[Sequence[Any]]:
        text, args = SQLITE.compile(sql, params)
        return await self.conn.execute_fetchall(text, args)  # type: ignore[return-value]

    async def row(self, sql: str, /, **params: Any) -> Sequence[Any] | None:
        found = await self.rows(sql, **params)
        return found[0] if found else None

    async def value(self, sql: str, /, **params: Any) -> Any:
        found = await self.rows(sql, **params)
        return found[0][0] if found else None

    async def run(self, sql: str, /, **params: Any) -> int:
        text, args = SQLITE.compile(sql, params)
        cursor = await self.conn.execute(text, args)
        return cursor.rowcount

    async def run_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        await self.conn.executemany(SQLITE.text(sql), rows)

    async def script(self, sql: str) -> None:
        for statement in _statements(SQLITE.text(sql)):
            await self.conn.execute(statement)

    async def table_columns(self, table: str) -> list[str]:
        rows = await self.rows(
            "SELECT name FROM pragma_table_info(:table) ORDER BY cid", table=table
        )
        return [row[0] for row in rows]

    async def serialise_ratings(self, guild_id: int, game: str) -> None:
        """Nothing to do: SQLite runs one write transaction at a time."""

    async def serialise_rating_rebuild(self) -> None:
        """Nothing to do: SQLite runs one write transaction at a time."""

    async def after_copy(self, counted: Sequence[str]) -> None:
        """Nothing to do: SQLite's AUTOINCREMENT follows the highest id inserted."""


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]


async def _connect(path: Path, synchronous: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    for pragma in _PRAGMAS:
        await conn.execute(pragma)
    await conn.execute(f"PRAGMA synchronous={synchronous}")  # one of SYNCHRONOUS, checked
    return conn


class SqliteStore(Store):
    """The game store on one SQLite file."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = await _connect(self.path, self.synchronous)
        await migrate(_Migrating(SqliteConnection(self._writer)))
        self._reader = await _connect(self.path, self.synchronous)

    async def close(self) -> None:
        for conn in (self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._reader = self._writer = None

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run a read on the reader connection, one read at a time.

        Statements of concurrent coroutines would otherwise interleave on the connection and
        share one read transaction, so a read could miss a write committed just before it.
        """
        assert self._reader is not None, "store is not open"
        not_inside_a_write(self)
        async with self._read_lock:
            return await work(SqliteConnection(self._reader))

    @asynccontextmanager
    async def write(self) -> AsyncIterator[StoreTx]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        assert self._writer is not None, "store is not open"
        not_inside_a_write(self)
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            tx = StoreTx(SqliteConnection(self._writer))
            try:
                with holding_write(self):
                    yield tx
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")
        tx.committed()


class _Migrating:
    """Migrations on the writer connection, each in its own ``BEGIN IMMEDIATE`` transaction
    (another process opening the same file waits for it)."""

    def __init__(self, db: SqliteConnection) -> None:
        self.db = db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        await self.db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            await self.db.conn.execute("ROLLBACK")
            raise
        await self.db.conn.execute("COMMIT")
