"""SQLite backend: WAL, one writer connection behind a lock, ``BEGIN IMMEDIATE`` writes.

A second connection serves reads, so a read never sees another coroutine's half-done
transaction.

Statements run on the event loop's own thread: on a local file they take microseconds, less
than handing each to a worker thread and back (with aiosqlite that hand-over was a fifth of
the bot's main-thread time per move under load; docs/decisions.md). The two calls that can
wait run on the store's one worker thread instead, so the loop never waits for the disk or for
another process: a commit (it syncs the log to disk) and a ``BEGIN IMMEDIATE`` that finds the
database locked by another process (it then waits up to ``BUSY_TIMEOUT_MS`` there).

``synchronous=FULL`` (the default) syncs the write-ahead log at every commit, so a move the
players were shown survives a power cut, not only a killed process; ``NORMAL`` syncs only at
checkpoints and may lose the last commits on power loss (``bench/service.py`` measures the cost).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.storage.base import holding_write, not_inside_a_write
from bot.storage.connection import Connection
from bot.storage.dialect import SQLITE
from bot.storage.migrate import migrate
from bot.storage.store import Store, StoreTx

T = TypeVar("T")

_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
)
#: how hard each commit is pushed to the disk (``PRAGMA synchronous``)
SYNCHRONOUS = ("FULL", "NORMAL")
#: how long a write (on the worker thread) or a read waits for a lock another process holds
BUSY_TIMEOUT_MS = 5000
#: pages of log after which a commit copies the log into the database (SQLite's default)
WAL_AUTOCHECKPOINT = 1000


class SqliteConnection:
    """A sqlite3 connection running the store's statements (``bot.storage.connection``) on
    the event loop's thread."""

    duplicate_key: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, /, **params: Any) -> Sequence[Sequence[Any]]:
        text, args = SQLITE.compile(sql, params)
        return self.conn.execute(text, args).fetchall()

    async def row(self, sql: str, /, **params: Any) -> Sequence[Any] | None:
        found = await self.rows(sql, **params)
        return found[0] if found else None

    async def value(self, sql: str, /, **params: Any) -> Any:
        found = await self.rows(sql, **params)
        return found[0][0] if found else None

    async def run(self, sql: str, /, **params: Any) -> int:
        text, args = SQLITE.compile(sql, params)
        return self.conn.execute(text, args).rowcount

    async def run_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        self.conn.executemany(SQLITE.text(sql), rows)

    async def script(self, sql: str) -> None:
        for statement in _statements(SQLITE.text(sql)):
            self.conn.execute(statement)

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


def _connect(path: Path, synchronous: str, busy_timeout_ms: int) -> sqlite3.Connection:
    """A connection in autocommit mode (the store says BEGIN and COMMIT itself), usable from
    the loop's thread and the worker thread (never both at once: the store's locks see to it)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        for pragma in _PRAGMAS:
            conn.execute(pragma)
        conn.execute(f"PRAGMA synchronous={synchronous}")  # one of SYNCHRONOUS, checked
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    except BaseException:
        conn.close()
        raise
    return conn


class _Writer:
    """The writer connection and the worker thread for its calls that may wait."""

    def __init__(self, conn: sqlite3.Connection, worker: ThreadPoolExecutor) -> None:
        self.conn = conn
        self.worker = worker

    async def _off_loop(self, call: Callable[[], T]) -> T:
        """``call`` on the worker thread. Cancelled, it still waits for the call to end, so the
        connection is never used from both threads at once."""
        future = asyncio.get_running_loop().run_in_executor(self.worker, call)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await future
            raise

    async def begin(self) -> None:
        """``BEGIN IMMEDIATE``: at once when the database is free (the connection does not wait
        for a lock on the loop), else on the worker thread, waiting as long as a read would."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            await self._off_loop(self._begin_waiting)

    def _begin_waiting(self) -> None:
        self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        finally:
            self.conn.execute("PRAGMA busy_timeout=0")

    async def commit(self) -> None:
        """COMMIT on the worker thread: it writes and syncs the log."""
        await self._off_loop(lambda: self.conn.execute("COMMIT"))

    @contextlib.contextmanager
    def unsynced(self, synchronous: str) -> Iterator[None]:
        """Commits in the block do not sync the log (``synchronous=NORMAL``) and leave
        checkpoints (which do) to the next synced commit, so they take no time on the disk and
        run on the loop. Back to ``synchronous`` after the block."""
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA wal_autocheckpoint=0")
        try:
            yield
        finally:
            self.conn.execute(f"PRAGMA synchronous={synchronous}")  # one of SYNCHRONOUS
            self.conn.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")

    def commit_unsynced(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


class SqliteStore(Store):
    """The game store on one SQLite file."""

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous
        self._writer: _Writer | None = None
        self._reader: sqlite3.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()

    async def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        worker = ThreadPoolExecutor(1, thread_name_prefix="sqlite-commit")
        loop = asyncio.get_running_loop()
        try:  # opening may wait for the file's locks: not on the loop
            conn = await loop.run_in_executor(worker, _connect, self.path, self.synchronous, 0)
            self._writer = _Writer(conn, worker)
            await migrate(_Migrating(self._writer))
            self._reader = await loop.run_in_executor(
                worker, _connect, self.path, self.synchronous, BUSY_TIMEOUT_MS
            )
        except BaseException:
            await self.close()
            worker.shutdown(wait=False)
            raise

    async def close(self) -> None:
        writer, reader = self._writer, self._reader
        self._reader = self._writer = None
        if reader is not None:
            reader.close()
        if writer is not None:
            async with self._write_lock:  # a commit under way finishes first
                writer.conn.close()
            writer.worker.shutdown(wait=False)

    async def __aenter__(self) -> SqliteStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run a read on the reader connection, one read at a time."""
        assert self._reader is not None, "store is not open"
        not_inside_a_write(self)
        async with self._read_lock:
            return await work(SqliteConnection(self._reader))

    @asynccontextmanager
    async def write(self, *, synced: bool = True) -> AsyncIterator[StoreTx]:
        """One write transaction: committed when the block ends, rolled back if it raises.
        ``synced=False``: its commit does not sync the log (``_Writer.unsynced``), unless the
        store syncs only at checkpoints anyway."""
        assert self._writer is not None, "store is not open"
        not_inside_a_write(self)
        writer = self._writer
        async with self._write_lock:
            with contextlib.ExitStack() as mode:
                if not synced and self.synchronous != "NORMAL":
                    mode.enter_context(writer.unsynced(self.synchronous))
                try:
                    await writer.begin()
                    tx = StoreTx(SqliteConnection(writer.conn))
                    with holding_write(self):
                        yield tx
                    if synced:
                        await writer.commit()
                    else:
                        writer.commit_unsynced()
                except BaseException:
                    writer.rollback()
                    raise
        tx.committed()


class _Migrating:
    """Migrations on the writer connection, each in its own ``BEGIN IMMEDIATE`` transaction
    (another process opening the same file waits for it)."""

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteConnection]:
        try:
            await self.writer.begin()
            yield SqliteConnection(self.writer.conn)
            await self.writer.commit()
        except BaseException:
            self.writer.rollback()
            raise
