"""aiosqlite backend: WAL, one writer connection behind a lock, ``BEGIN IMMEDIATE`` writes.

A second connection serves reads, so a read never sees another coroutine's half-done
transaction (aiosqlite runs the calls of one connection in order, interleaving coroutines).

``synchronous=FULL`` (the default) syncs the write-ahead log at every commit, so a move the
players were shown survives a power cut, not only a killed process; ``NORMAL`` syncs only at
checkpoints and may lose the last commits on power loss (``bench/service.py`` measures the cost).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import aiosqlite

from bot.storage.base import (
    GameRow,
    MoveRow,
    OpenGameExists,
    RatingRow,
    ResultRow,
    SeatRow,
    Shards,
    holding_write,
    not_inside_a_write,
)
from bot.storage.migrate import migrate
from bot.storage.sqlite_play import PlayReads, PlayWrites

_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def _quoted(name: str) -> str:
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"not a table or column name: {name!r}")
    return f'"{name}"'

_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, rules_version, host_id, options_json, capacity, seed,"
    " status, version, move_count, state_json, created_at, updated_at, ended_by,"
    " clock_seconds, deadline, clock_left, rematch_of"
)
_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)
_RESULT_COLUMNS = "game_id, seat, guild_id, game, user_id, score, rank, won, extras_json"
_RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, wins, updated_at"
#: the order of a table's rows where its first two columns do not give one (``table_rows``)
_COPY_ORDER = {"posts": "rowid", "rating_history": "rowid", "ratings": "guild_id, game, user_id"}
#: how hard each commit is pushed to the disk (``PRAGMA synchronous``)
SYNCHRONOUS = ("FULL", "NORMAL")


async def _connect(path: Path, synchronous: str) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    for pragma in _PRAGMAS:
        await conn.execute(pragma)
    await conn.execute(f"PRAGMA synchronous={synchronous}")  # one of SYNCHRONOUS, checked
    return conn


async def _seats(conn: aiosqlite.Connection, game_id: int) -> tuple[SeatRow, ...]:
    async with conn.execute(
        "SELECT seat, user_id, display_name, bot_level, stand_in, stood_in FROM seats"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    ) as cursor:
        return tuple(
            SeatRow(seat, user, name, level, stand_in, bool(stood))
            for seat, user, name, level, stand_in, stood in await cursor.fetchall()
        )


async def _game(
    conn: aiosqlite.Connection, where: str, params: tuple[object, ...]
) -> GameRow | None:
    # ``where`` is always one of this module's literal clauses; values travel as parameters.
    async with conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params) as cursor:  # noqa: S608
        row = await cursor.fetchone()
    if row is None:
        return None
    return replace(GameRow(*row), seats=await _seats(conn, row[0]))


class SqliteTx(PlayWrites):
    """The statements of one write transaction (see ``SqliteStore.write``)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._after_commit: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this transaction has committed (never if it rolls back)."""
        self._after_commit.append(callback)

    def committed(self) -> None:
        for callback in self._after_commit:
            callback()

    async def load_game(self, game_id: int) -> GameRow | None:
        return await _game(self._conn, "id = ?", (game_id,))

    async def insert_game(self, row: GameRow) -> int:
        try:
            cursor = await self._conn.execute(
                "INSERT INTO games (guild_id, channel_id, game, rules_version, host_id,"
                " options_json, capacity, seed, status, version, move_count, state_json,"
                " created_at, updated_at, clock_seconds, rematch_of)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
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
                    row.clock_seconds,
                    row.rematch_of,
                ),
            )
        except sqlite3.IntegrityError as exc:
            raise OpenGameExists(row.channel_id) from exc
        game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._conn.executemany(
            "INSERT INTO seats"
            " (game_id, seat, user_id, display_name, bot_level, stand_in, stood_in)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.user_id, s.display_name, s.bot_level, s.stand_in, s.stood_in)
                for s in seats
            ],
        )

    async def append_moves(self, game_id: int, first_seq: int, moves: Sequence[MoveRow]) -> None:
        await self._conn.executemany(
            "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
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
        cursor = await self._conn.execute(
            "UPDATE games SET status = ?, state_json = ?, move_count = ?, updated_at = ?,"
            " version = version + 1 WHERE id = ? AND version = ?",
            (status, state_json, move_count, updated_at, game_id, expected_version),
        )
        return cursor.rowcount

    async def set_ended_by(self, game_id: int, user_id: int) -> None:
        await self._conn.execute("UPDATE games SET ended_by = ? WHERE id = ?", (user_id, game_id))

    async def record_post(
        self, game_id: int, version: int, channel_id: int, message_id: int, public: bool = True
    ) -> None:
        await self._conn.execute(
            "INSERT OR REPLACE INTO posts (game_id, version, channel_id, message_id, public)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, version, channel_id, message_id, int(public)),
        )

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        await self._conn.execute(
            "INSERT INTO server_settings (guild_id, locale, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
            " updated_at = excluded.updated_at",
            (guild_id, locale, updated_at),
        )

    async def replace_state(self, game_id: int, version: int, state_json: str) -> int:
        cursor = await self._conn.execute(
            "UPDATE games SET state_json = ? WHERE id = ? AND version = ?",
            (state_json, game_id, version),
        )
        return cursor.rowcount

    async def load_moves(self, game_id: int) -> list[MoveRow]:
        async with self._conn.execute(
            "SELECT seq, seat, action, created_at FROM moves WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ) as cursor:
            return [MoveRow(*row) for row in await cursor.fetchall()]

    async def outcome_recorded(self, game_id: int) -> bool:
        async with self._conn.execute(
            "SELECT 1 FROM game_outcomes WHERE game_id = ?", (game_id,)
        ) as cursor:
            return await cursor.fetchone() is not None

    async def record_outcome(
        self,
        game_id: int,
        guild_id: int | None,
        game: str,
        rated: bool,
        finished_at: str,
        results: Sequence[ResultRow],
    ) -> None:
        await self._conn.execute(
            "INSERT INTO game_outcomes (game_id, guild_id, game, rated, finished_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, guild_id, game, int(rated), finished_at),
        )
        await self._conn.executemany(
            f"INSERT INTO game_results ({_RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",  # noqa: S608
            [
                (r.game_id, r.seat, r.guild_id, r.game, r.user_id, r.score, r.rank, int(r.won),
                 r.extras_json)
                for r in results
            ],
        )

    async def load_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]:
        found: dict[int, RatingRow] = {}
        for user_id in user_ids:
            async with self._conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                " WHERE guild_id = ? AND game = ? AND user_id = ?",
                (guild_id, game, user_id),
            ) as cursor:
                row = await cursor.fetchone()
            if row is not None:
                found[user_id] = RatingRow(*row)
        return found

    async def save_rating(self, game_id: int, row: RatingRow) -> None:
        await self._conn.execute(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"  # noqa: S608
            " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
            " updated_at = excluded.updated_at",
            (row.guild_id, row.game, row.user_id, row.mu, row.sigma, row.games, row.wins,
             row.updated_at),
        )
        await self._conn.execute(
            "INSERT INTO rating_history (game_id, user_id, guild_id, game, mu, sigma)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, row.user_id, row.guild_id, row.game, row.mu, row.sigma),
        )

    async def clear_outcomes(self) -> None:
        for table in ("rating_history", "ratings", "game_results", "game_outcomes"):
            await self._conn.execute(f"DELETE FROM {table}")  # noqa: S608 (names above)

    async def rematch_of(self, game_id: int) -> GameRow | None:
        return await _game(
            self._conn,
            "rematch_of = ? AND status != 'cancelled' ORDER BY id DESC LIMIT 1",
            (game_id,),
        )

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        """Rows of a table as they are (ids included), for ``bot.storage.copy``."""
        names = ", ".join(_quoted(c) for c in columns)
        marks = ", ".join("?" for _ in columns)
        await self._conn.executemany(
            f"INSERT INTO {_quoted(table)} ({names}) VALUES ({marks})",  # noqa: S608
            [tuple(r) for r in rows],
        )

    async def after_copy(self) -> None:
        """Nothing to do: SQLite's AUTOINCREMENT follows the highest id inserted."""


class SqliteStore(PlayReads):
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
        await migrate(self._writer)
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

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The reader connection, one read at a time.

        Statements of concurrent coroutines would otherwise interleave on the connection and
        share one read transaction, so a read could miss a write committed just before it.
        """
        assert self._reader is not None, "store is not open"
        not_inside_a_write(self)
        async with self._read_lock:
            yield self._reader

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTx]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        assert self._writer is not None, "store is not open"
        not_inside_a_write(self)
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            tx = SqliteTx(self._writer)
            try:
                with holding_write(self):
                    yield tx
            except BaseException:
                await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")
        tx.committed()

    async def load_game(self, game_id: int) -> GameRow | None:
        async with self._reading() as conn:
            return await _game(conn, "id = ?", (game_id,))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        async with self._reading() as conn:
            return await _game(
                conn, "channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
            )

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's newest game that was played and has ended (won or abandoned)."""
        async with self._reading() as conn:
            return await _game(
                conn,
                "channel_id = ? AND status IN ('finished', 'abandoned') ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )

    async def newest_finished_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRow]:
        """A server's newest finished games, newest first (``games_finished_by_guild``; with
        ``user_id``, only the games with a seat of that user, through ``seats_by_user``)."""
        async with self._reading() as conn:
            async with conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'finished'"  # noqa: S608
                " AND (? IS NULL OR id IN (SELECT game_id FROM seats WHERE user_id = ?))"
                " ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, user_id, limit),
            ) as cursor:
                rows = await cursor.fetchall()
            return [replace(GameRow(*row), seats=await _seats(conn, row[0])) for row in rows]

    async def open_games(self, shards: Shards | None = None) -> list[int]:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT id, guild_id FROM games WHERE status = 'active' ORDER BY id"
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [row[0] for row in rows if shards is None or shards.owns(row[1])]

    async def games_with_state(self) -> list[int]:
        async with (
            self._reading() as conn,
            conn.execute("SELECT id FROM games WHERE state_json IS NOT NULL ORDER BY id") as cur,
        ):
            return [row[0] for row in await cur.fetchall()]

    async def moves(self, game_id: int, from_seq: int = 0) -> list[MoveRow]:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT seq, seat, action, created_at FROM moves"
                " WHERE game_id = ? AND seq >= ? ORDER BY seq",
                (game_id, from_seq),
            ) as cursor,
        ):
            return [MoveRow(*row) for row in await cursor.fetchall()]

    async def posted_version(self, game_id: int) -> int | None:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT MAX(version) FROM posts WHERE game_id = ? AND public = 1", (game_id,)
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return row[0] if row else None

    async def private_versions(self, game_id: int, after: int) -> list[int]:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT DISTINCT version FROM posts WHERE game_id = ? AND public = 0"
                " AND version > ? ORDER BY version",
                (game_id, after),
            ) as cursor,
        ):
            return [row[0] for row in await cursor.fetchall()]

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games whose newest version the channel has not seen: running ones, and finished ones
        (changed at ``changed_since`` or later, when given) still the newest in their channel.
        Seen: a public post shows that version (or a newer one), or every version since the
        newest public post is a private step shown to its player (a private copy of a board is
        not a step: it shows the channel nothing)."""
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT g.id, g.guild_id FROM ("
                "   SELECT g.id, g.guild_id, g.version, COALESCE((SELECT MAX(p.version)"
                "     FROM posts p WHERE p.game_id = g.id AND p.public = 1), -1) AS seen"
                "   FROM games g"
                "   WHERE (g.status = 'active'"
                "          OR (g.status = 'finished' AND (? IS NULL OR g.updated_at >= ?)))"
                "   AND g.id = (SELECT MAX(n.id) FROM games n WHERE n.channel_id = g.channel_id)"
                " ) g"
                " WHERE g.version > g.seen AND g.version - g.seen > ("
                "   SELECT COUNT(DISTINCT q.version) FROM posts q WHERE q.game_id = g.id"
                "   AND q.public = 0 AND q.version > g.seen AND q.version <= g.version)"
                " ORDER BY g.id",
                (changed_since, changed_since),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [row[0] for row in rows if shards is None or shards.owns(row[1])]

    async def latest_post(self, game_id: int) -> tuple[int, int] | None:
        """(channel_id, message_id) of the newest message posted for the game."""
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT channel_id, message_id FROM posts WHERE game_id = ? AND public = 1"
                " ORDER BY version DESC, rowid DESC LIMIT 1",
                (game_id,),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return (row[0], row[1]) if row else None

    async def server_locale(self, guild_id: int) -> str | None:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT locale FROM server_settings WHERE guild_id = ?", (guild_id,)
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        async with self.write() as tx:
            await tx.set_server_locale(guild_id, locale, updated_at)

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def table_columns(self, table: str) -> list[str]:
        """The table's columns in their order (empty when there is no such table)."""
        async with (
            self._reading() as conn,
            conn.execute("SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,)) as cur,
        ):
            return [row[0] for row in await cur.fetchall()]

    async def table_rows(self, table: str, columns: Sequence[str]) -> list[tuple[object, ...]]:
        """Every row of the table (those columns), in the order they were written."""
        names = ", ".join(_quoted(c) for c in columns)
        order = _COPY_ORDER.get(table) or ("1, 2" if len(columns) > 1 else "1")
        async with (
            self._reading() as conn,
            conn.execute(f"SELECT {names} FROM {_quoted(table)} ORDER BY {order}") as cur,  # noqa: S608
        ):
            return [tuple(row) for row in await cur.fetchall()]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.write() as tx:
            await tx.set_meta(key, value)

    async def games_of_user(self, guild_id: int, user_id: int) -> list[GameRow]:
        async with self._reading() as conn:
            async with conn.execute(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
                " WHERE g.guild_id = ? AND g.status = 'active' AND s.user_id = ? ORDER BY g.id",
                (guild_id, user_id),
            ) as cursor:
                ids = [row[0] for row in await cursor.fetchall()]
            found = [await _game(conn, "id = ?", (game_id,)) for game_id in ids]
        return [row for row in found if row is not None]

    async def finished_games(self, *, unrecorded_only: bool = False) -> list[int]:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT g.id FROM games g WHERE g.status = 'finished' AND (? = 0 OR NOT EXISTS"
                " (SELECT 1 FROM game_outcomes o WHERE o.game_id = g.id))"
                " ORDER BY g.updated_at, g.id",
                (int(unrecorded_only),),
            ) as cursor,
        ):
            return [row[0] for row in await cursor.fetchall()]

    async def player_results(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[ResultRow]:
        async with (
            self._reading() as conn,
            conn.execute(
                f"SELECT {', '.join('r.' + c for c in _RESULT_COLUMNS.split(', '))}"  # noqa: S608
                " FROM game_results r JOIN game_outcomes o ON o.game_id = r.game_id"
                " WHERE r.guild_id = ? AND r.user_id = ? AND (? IS NULL OR r.game = ?)"
                " ORDER BY o.finished_at, r.game_id",
                (guild_id, user_id, game, game),
            ) as cursor,
        ):
            return [
                ResultRow(
                    game_id=row[0],
                    seat=row[1],
                    guild_id=row[2],
                    game=row[3],
                    user_id=row[4],
                    score=row[5],
                    rank=row[6],
                    won=bool(row[7]),
                    extras_json=row[8],
                )
                for row in await cursor.fetchall()
            ]

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        async with (
            self._reading() as conn,
            conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                " WHERE guild_id = ? AND game = ? AND user_id = ?",
                (guild_id, game, user_id),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return RatingRow(*row) if row else None

    async def rating_history(
        self, guild_id: int, game: str, user_id: int
    ) -> list[tuple[float, float]]:
        async with (
            self._reading() as conn,
            conn.execute(
                "SELECT mu, sigma FROM rating_history"
                " WHERE guild_id = ? AND game = ? AND user_id = ? ORDER BY rowid",
                (guild_id, game, user_id),
            ) as cursor,
        ):
            return [(row[0], row[1]) for row in await cursor.fetchall()]

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[RatingRow]:
        async with (
            self._reading() as conn,
            conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                " WHERE guild_id = ? AND game = ? AND games >= ?"
                " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?",
                (guild_id, game, min_games, limit),
            ) as cursor,
        ):
            return [RatingRow(*row) for row in await cursor.fetchall()]

    async def all_ratings(self) -> list[RatingRow]:
        async with (
            self._reading() as conn,
            conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings ORDER BY guild_id, game, user_id"  # noqa: S608
            ) as cursor,
        ):
            return [RatingRow(*row) for row in await cursor.fetchall()]
