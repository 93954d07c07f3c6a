"""asyncpg backend: a connection pool, one transaction per write, row locks instead of a file lock.

The same guarantees as ``SqliteStore``: a write is one transaction; ``Tx.load_game`` locks the
game's row (``FOR NO KEY UPDATE``), so two writers of one game, in one process or in several,
take turns and the second sees the first one's version (the version check in ``UPDATE … WHERE
version = $n`` stays the last guard); one open lobby or game per channel is a unique partial
index; migrations are the numbered files of ``migrations_pg/``, recorded in
``schema_migrations``.

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

from bot.storage.base import (
    GameRow,
    MoveRow,
    OpenGameExists,
    PlayerSettingsRow,
    RatingRow,
    ResultRow,
    SeatRow,
    ServerPlayRow,
    Shards,
    StoreUnavailable,
    TimerRow,
    VoteRow,
    holding_write,
    not_inside_a_write,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


_GAME_COLUMNS = (
    "id, guild_id, channel_id, game, rules_version, host_id, options_json, capacity, seed,"
    " status, version, move_count, state_json, created_at, updated_at, ended_by,"
    " clock_seconds, deadline, clock_left, rematch_of"
)
_RESULT_COLUMNS = "game_id, seat, guild_id, game, user_id, score, rank, won, extras_json"
_RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, wins, updated_at"
_TIMER_COLUMNS = "id, due, kind, game_id, guild_id, user_id, version, data, attempts"
_VOTE_COLUMNS = (
    "id, game_id, kind, version, seat, opened_by, opened_at, outcome, channel_id, message_id"
)
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
#: as ``SqliteStore``: the channel has not seen the version unless a public post shows it or
#: every version since the newest public post is a private step
_UNSHOWN = (
    "SELECT g.id FROM ("
    "   SELECT g.id, g.guild_id, g.version, COALESCE((SELECT MAX(p.version)"
    "     FROM posts p WHERE p.game_id = g.id AND p.public = 1), -1) AS seen"
    "   FROM games g"
    "   WHERE (g.status = 'active'"
    "          OR (g.status = 'finished' AND ($1::text IS NULL OR g.updated_at >= $1)))"
    "   AND g.id = (SELECT MAX(n.id) FROM games n WHERE n.channel_id = g.channel_id)"
    " ) g"
    " WHERE g.version > g.seen AND g.version - g.seen > ("
    "   SELECT COUNT(DISTINCT q.version) FROM posts q WHERE q.game_id = g.id"
    "   AND q.public = 0 AND q.version > g.seen AND q.version <= g.version)"
)
#: tables whose ``id`` comes from a counter (copied ids must not come round again)
_COUNTED = ("games", "timers", "votes")
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")
#: the order of a table's rows where its first two columns do not give one (``table_rows``;
#: as ``SqliteStore`` orders them: rowid, and text byte by byte)
_COPY_ORDER = {
    "posts": "posted_order",
    "rating_history": "saved_order",
    "ratings": 'guild_id, game COLLATE "C", user_id',
}


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
    """`` AND the game's guild is on these shards`` (``Shards.owns``), parameters from
    ``$first``."""
    if shards is None:
        return "", []
    return (
        f" AND ((COALESCE(g.guild_id, 0) >> 22) % ${first}) = ANY(${first + 1}::int[])",
        [shards.count, list(shards.ids)],
    )


def _timer_shard_clause(shards: Shards | None, first: int) -> tuple[str, list[object]]:
    """`` AND the timer's guild is on these shards or it has none`` (``Shards.serves``)."""
    if shards is None:
        return "", []
    return (
        f" AND (guild_id IS NULL OR ((guild_id >> 22) % ${first}) = ANY(${first + 1}::int[]))",
        [shards.count, list(shards.ids)],
    )


async def _seats(conn: asyncpg.Connection, game_id: int) -> tuple[SeatRow, ...]:
    rows = await conn.fetch(
        "SELECT seat, user_id, display_name, bot_level, stand_in, stood_in FROM seats"
        " WHERE game_id = $1 ORDER BY seat",
        game_id,
    )
    return tuple(
        SeatRow(seat, user, name, level, stand_in, bool(stood))
        for seat, user, name, level, stand_in, stood in rows
    )


async def _game(conn: asyncpg.Connection, where: str, *params: object) -> GameRow | None:
    # ``where`` is always one of this module's literal clauses; values travel as parameters.
    row = await conn.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games g WHERE {where}", *params)  # noqa: S608
    if row is None:
        return None
    return replace(GameRow(*row), seats=await _seats(conn, row[0]))


class _PlayWrites:
    """The write statements of asynchronous play (timers, votes, away, settings), in the
    transaction of ``self._conn``; the same names and meaning as ``sqlite_play.PlayWrites``."""

    _conn: asyncpg.Connection

    async def set_clock(
        self, game_id: int, *, deadline: float | None, clock_left: float | None
    ) -> None:
        await self._conn.execute(
            "UPDATE games SET deadline = $1, clock_left = $2 WHERE id = $3",
            deadline,
            clock_left,
            game_id,
        )

    async def set_clock_seconds(self, game_id: int, clock_seconds: int | None) -> None:
        await self._conn.execute(
            "UPDATE games SET clock_seconds = $1 WHERE id = $2", clock_seconds, game_id
        )

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str | None) -> None:
        await self._conn.execute(
            "UPDATE seats SET stand_in = $1, stood_in = GREATEST(stood_in, $2)"
            " WHERE game_id = $3 AND seat = $4",
            stand_in,
            int(stand_in is not None),
            game_id,
            seat,
        )

    async def add_timer(self, row: TimerRow) -> int:
        timer_id: int = await self._conn.fetchval(
            "INSERT INTO timers (due, kind, game_id, guild_id, user_id, version, data, attempts)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            row.due,
            row.kind,
            row.game_id,
            row.guild_id,
            row.user_id,
            row.version,
            row.data,
            row.attempts,
        )
        return timer_id

    async def load_timer(self, timer_id: int) -> TimerRow | None:
        """The timer, claimed for this transaction; None when it is gone or another process
        holds it right now (``SKIP LOCKED``: two processes never both act on one timer)."""
        row = await self._conn.fetchrow(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE id = $1 FOR UPDATE SKIP LOCKED",  # noqa: S608
            timer_id,
        )
        return TimerRow(*row) if row else None

    async def delete_timer(self, timer_id: int) -> None:
        await self._conn.execute("DELETE FROM timers WHERE id = $1", timer_id)

    async def reschedule_timer(self, timer_id: int, due: float, attempts: int) -> None:
        await self._conn.execute(
            "UPDATE timers SET due = $1, attempts = $2 WHERE id = $3", due, attempts, timer_id
        )

    async def clear_timers(self, game_id: int, kinds: Sequence[str]) -> None:
        await self._conn.execute(
            "DELETE FROM timers WHERE game_id = $1 AND kind = ANY($2::text[])",
            game_id,
            list(kinds),
        )

    async def carry_timers(self, game_id: int, old_version: int, new_version: int) -> None:
        await self._conn.execute(
            "UPDATE timers SET version = $1 WHERE game_id = $2 AND version = $3",
            new_version,
            game_id,
            old_version,
        )

    async def user_timers(self, user_id: int, kinds: Sequence[str]) -> list[TimerRow]:
        rows = await self._conn.fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers"  # noqa: S608
            " WHERE user_id = $1 AND kind = ANY($2::text[]) ORDER BY due",
            user_id,
            list(kinds),
        )
        return [TimerRow(*row) for row in rows]

    async def open_vote(self, row: VoteRow) -> int:
        vote_id: int = await self._conn.fetchval(
            "INSERT INTO votes (game_id, kind, version, seat, opened_by, opened_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            row.game_id,
            row.kind,
            row.version,
            row.seat,
            row.opened_by,
            row.opened_at,
        )
        return vote_id

    async def load_vote(self, vote_id: int) -> VoteRow | None:
        row = await self._conn.fetchrow(
            f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = $1",  # noqa: S608
            vote_id,
        )
        return VoteRow(*row) if row else None

    async def open_vote_of(self, game_id: int, kind: str) -> VoteRow | None:
        row = await self._conn.fetchrow(
            f"SELECT {_VOTE_COLUMNS} FROM votes"  # noqa: S608
            " WHERE game_id = $1 AND kind = $2 AND outcome IS NULL ORDER BY id DESC LIMIT 1",
            game_id,
            kind,
        )
        return VoteRow(*row) if row else None

    async def close_vote(self, vote_id: int, outcome: str) -> None:
        await self._conn.execute("UPDATE votes SET outcome = $1 WHERE id = $2", outcome, vote_id)

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self._conn.execute(
            "UPDATE votes SET channel_id = $1, message_id = $2 WHERE id = $3",
            channel_id,
            message_id,
            vote_id,
        )

    async def cast_ballot(self, vote_id: int, user_id: int, choice: str) -> None:
        await self._conn.execute(
            "INSERT INTO ballots (vote_id, user_id, choice) VALUES ($1, $2, $3)"
            " ON CONFLICT (vote_id, user_id) DO UPDATE SET choice = excluded.choice",
            vote_id,
            user_id,
            choice,
        )

    async def ballots(self, vote_id: int) -> dict[int, str]:
        rows = await self._conn.fetch(
            "SELECT user_id, choice FROM ballots WHERE vote_id = $1", vote_id
        )
        return {user: choice for user, choice in rows}

    async def set_away(self, guild_id: int, user_id: int, since: float, until: float) -> None:
        await self._conn.execute(
            "INSERT INTO away (guild_id, user_id, since, until) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET until = excluded.until",
            guild_id,
            user_id,
            since,
            until,
        )

    async def clear_away(self, guild_id: int, user_id: int) -> None:
        await self._conn.execute(
            "DELETE FROM away WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
        )

    async def away_until(self, guild_id: int, user_id: int) -> float | None:
        until: float | None = await self._conn.fetchval(
            "SELECT until FROM away WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
        )
        return until

    async def set_player_settings(self, row: PlayerSettingsRow, updated_at: str) -> None:
        await self._conn.execute(
            "INSERT INTO player_settings"
            " (user_id, reminders, quiet_start, quiet_end, timezone, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET"
            " reminders = excluded.reminders, quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, timezone = excluded.timezone,"
            " updated_at = excluded.updated_at",
            row.user_id,
            row.reminders,
            row.quiet_start,
            row.quiet_end,
            row.timezone,
            updated_at,
        )

    async def set_meta(self, key: str, value: str) -> None:
        await self._conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def set_server_play(self, row: ServerPlayRow, updated_at: str) -> None:
        await self._conn.execute(
            "INSERT INTO server_settings"
            " (guild_id, default_clock, default_action, lobby_expiry, allow_dm, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id) DO UPDATE SET"
            " default_clock = excluded.default_clock, default_action = excluded.default_action,"
            " lobby_expiry = excluded.lobby_expiry, allow_dm = excluded.allow_dm,"
            " updated_at = excluded.updated_at",
            row.guild_id,
            row.default_clock,
            row.default_action,
            row.lobby_expiry,
            None if row.allow_dm is None else int(row.allow_dm),
            updated_at,
        )


class PostgresTx(_PlayWrites):
    """The statements of one write transaction (see ``PostgresStore.write``)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn
        self._after_commit: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this transaction has committed (never if it rolls back)."""
        self._after_commit.append(callback)

    def committed(self) -> None:
        for callback in self._after_commit:
            callback()

    async def load_game(self, game_id: int) -> GameRow | None:
        """The game, its row locked until the transaction ends (writers of it take turns; the
        NO KEY lock still lets other transactions add moves and posts that point at it)."""
        return await _game(self._conn, "id = $1 FOR NO KEY UPDATE", game_id)

    async def insert_game(self, row: GameRow) -> int:
        try:
            game_id: int = await self._conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, rules_version, host_id,"
                " options_json, capacity, seed, status, version, move_count, state_json,"
                " created_at, updated_at, clock_seconds, rematch_of)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
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
                row.clock_seconds,
                row.rematch_of,
            )
        except asyncpg.UniqueViolationError as exc:
            raise OpenGameExists(row.channel_id) from exc
        return game_id

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await self._conn.executemany(
            "INSERT INTO seats"
            " (game_id, seat, user_id, display_name, bot_level, stand_in, stood_in)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [
                (
                    game_id,
                    s.seat,
                    s.user_id,
                    s.display_name,
                    s.bot_level,
                    s.stand_in,
                    int(s.stood_in),
                )
                for s in seats
            ],
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

    # ------------------------------------------------------------ results and ratings

    async def load_moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._conn.fetch(
            "SELECT seq, seat, action, created_at FROM moves WHERE game_id = $1 ORDER BY seq",
            game_id,
        )
        return [MoveRow(*row) for row in rows]

    async def outcome_recorded(self, game_id: int) -> bool:
        found = await self._conn.fetchval(
            "SELECT 1 FROM game_outcomes WHERE game_id = $1", game_id
        )
        return found is not None

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
            " VALUES ($1, $2, $3, $4, $5)",
            game_id,
            guild_id,
            game,
            int(rated),
            finished_at,
        )
        await self._conn.executemany(
            f"INSERT INTO game_results ({_RESULT_COLUMNS})"  # noqa: S608
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            [
                (
                    r.game_id,
                    r.seat,
                    r.guild_id,
                    r.game,
                    r.user_id,
                    r.score,
                    r.rank,
                    int(r.won),
                    r.extras_json,
                )
                for r in results
            ],
        )

    async def load_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]:
        """The players' ratings, and the right to change them until this transaction ends.

        SQLite runs one write at a time; here two games of one server and game finishing at
        once would both read the old ratings and the later commit would undo the earlier one's
        update, so the ratings of a server and game are changed by one transaction at a time
        (and none while ``clear_outcomes`` empties the tables for a rebuild)."""
        await self._conn.execute(
            "SELECT pg_advisory_xact_lock_shared($1, 0)", _RATINGS_REBUILD_LOCK
        )
        await self._conn.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2::text || ':' || $3))",
            _RATINGS_LOCK,
            str(guild_id),
            game,
        )
        rows = await self._conn.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
            " WHERE guild_id = $1 AND game = $2 AND user_id = ANY($3::bigint[])",
            guild_id,
            game,
            list(user_ids),
        )
        found = {row["user_id"]: RatingRow(*row) for row in rows}
        return {user_id: found[user_id] for user_id in user_ids if user_id in found}

    async def save_rating(self, game_id: int, row: RatingRow) -> None:
        await self._conn.execute(
            f"INSERT INTO ratings ({_RATING_COLUMNS})"  # noqa: S608
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, games = excluded.games, wins = excluded.wins,"
            " updated_at = excluded.updated_at",
            row.guild_id,
            row.game,
            row.user_id,
            row.mu,
            row.sigma,
            row.games,
            row.wins,
            row.updated_at,
        )
        await self._conn.execute(
            "INSERT INTO rating_history (game_id, user_id, guild_id, game, mu, sigma)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            game_id,
            row.user_id,
            row.guild_id,
            row.game,
            row.mu,
            row.sigma,
        )

    async def clear_outcomes(self) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1, 0)", _RATINGS_REBUILD_LOCK)
        for table in ("rating_history", "ratings", "game_results", "game_outcomes"):
            await self._conn.execute(f"DELETE FROM {table}")  # noqa: S608 (names above)

    async def rematch_of(self, game_id: int) -> GameRow | None:
        return await _game(
            self._conn,
            "rematch_of = $1 AND status != 'cancelled' ORDER BY id DESC LIMIT 1",
            game_id,
        )

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
        """Move the id counters past the copied ids."""
        for table in _COUNTED:
            await self._conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"  # noqa: S608
                f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
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
        not_inside_a_write(self)
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
            tx = PostgresTx(conn)
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

    async def newest_finished_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRow]:
        """A server's newest finished games, newest first (``games_finished_by_guild``; with
        ``user_id``, only the games with a seat of that user, through ``seats_by_user``)."""

        async def work(conn: asyncpg.Connection) -> list[GameRow]:
            rows = await conn.fetch(
                f"SELECT {_GAME_COLUMNS} FROM games"  # noqa: S608
                " WHERE guild_id = $1 AND status = 'finished' AND ($2::bigint IS NULL"
                " OR id IN (SELECT game_id FROM seats WHERE user_id = $2))"
                " ORDER BY id DESC LIMIT $3",
                guild_id,
                user_id,
                limit,
            )
            return [replace(GameRow(*row), seats=await _seats(conn, row[0])) for row in rows]

        return await self._read(work)

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

    async def moves(self, game_id: int, from_seq: int = 0) -> list[MoveRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT seq, seat, action, created_at FROM moves"
                " WHERE game_id = $1 AND seq >= $2 ORDER BY seq",
                game_id,
                from_seq,
            )
        )
        return [MoveRow(*row) for row in rows]

    async def posted_version(self, game_id: int) -> int | None:
        version: int | None = await self._read(
            lambda conn: conn.fetchval(
                "SELECT MAX(version) FROM posts WHERE game_id = $1 AND public = 1", game_id
            )
        )
        return version

    async def private_versions(self, game_id: int, after: int) -> list[int]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT DISTINCT version FROM posts WHERE game_id = $1 AND public = 0"
                " AND version > $2 ORDER BY version",
                game_id,
                after,
            )
        )
        return [row[0] for row in rows]

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games whose newest version the channel has not seen (as ``SqliteStore``): running
        ones, and finished ones (changed at ``changed_since`` or later, when given) still the
        newest in their channel."""
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

    async def games_of_user(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The server's running games in which the user has a seat."""

        async def work(conn: asyncpg.Connection) -> list[GameRow]:
            ids = await conn.fetch(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
                " WHERE g.guild_id = $1 AND g.status = 'active' AND s.user_id = $2"
                " ORDER BY g.id",
                guild_id,
                user_id,
            )
            found = [await _game(conn, "id = $1", row[0]) for row in ids]
            return [row for row in found if row is not None]

        return await self._read(work)

    # ------------------------------------------------------------ results and ratings
    # (text is ordered with COLLATE "C", byte by byte, as SQLite orders it)

    async def finished_games(self, *, unrecorded_only: bool = False) -> list[int]:
        return await self._ids(
            "SELECT g.id FROM games g WHERE g.status = 'finished' AND (NOT $1::boolean"
            " OR NOT EXISTS (SELECT 1 FROM game_outcomes o WHERE o.game_id = g.id))"
            ' ORDER BY g.updated_at COLLATE "C", g.id',
            unrecorded_only,
        )

    async def player_results(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[ResultRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {', '.join('r.' + c for c in _RESULT_COLUMNS.split(', '))}"  # noqa: S608
                " FROM game_results r JOIN game_outcomes o ON o.game_id = r.game_id"
                " WHERE r.guild_id = $1 AND r.user_id = $2 AND ($3::text IS NULL OR r.game = $3)"
                ' ORDER BY o.finished_at COLLATE "C", r.game_id',
                guild_id,
                user_id,
                game,
            )
        )
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
            for row in rows
        ]

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                " WHERE guild_id = $1 AND game = $2 AND user_id = $3",
                guild_id,
                game,
                user_id,
            )
        )
        return RatingRow(*row) if row else None

    async def rating_history(
        self, guild_id: int, game: str, user_id: int
    ) -> list[tuple[float, float]]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT mu, sigma FROM rating_history"
                " WHERE guild_id = $1 AND game = $2 AND user_id = $3 ORDER BY saved_order",
                guild_id,
                game,
                user_id,
            )
        )
        return [(row[0], row[1]) for row in rows]

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[RatingRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                " WHERE guild_id = $1 AND game = $2 AND games >= $3"
                " ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT $4",
                guild_id,
                game,
                min_games,
                limit,
            )
        )
        return [RatingRow(*row) for row in rows]

    async def all_ratings(self) -> list[RatingRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings"  # noqa: S608
                ' ORDER BY guild_id, game COLLATE "C", user_id'
            )
        )
        return [RatingRow(*row) for row in rows]

    # ------------------------------------------------------------ asynchronous play

    async def meta(self, key: str) -> str | None:
        value: str | None = await self._read(
            lambda conn: conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        )
        return value

    async def set_meta(self, key: str, value: str) -> None:
        async with self.write() as tx:
            await tx.set_meta(key, value)

    async def running_games_with_computers(self, shards: Shards | None = None) -> list[int]:
        clause, params = _shard_clause(shards, 1)
        return await self._ids(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id"  # noqa: S608
            " WHERE g.status = 'active' AND (s.bot_level IS NOT NULL OR s.stand_in IS NOT NULL)"
            f"{clause} ORDER BY g.id",
            *params,
        )

    async def next_due(self, shards: Shards | None = None) -> float | None:
        clause, params = _timer_shard_clause(shards, 1)
        due: float | None = await self._read(
            lambda conn: conn.fetchval(
                f"SELECT due FROM timers WHERE true{clause} ORDER BY due LIMIT 1",  # noqa: S608
                *params,
            )
        )
        return due

    async def due_timers(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[TimerRow]:
        clause, params = _timer_shard_clause(shards, 3)
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {_TIMER_COLUMNS} FROM timers"  # noqa: S608
                f" WHERE due <= $1{clause} ORDER BY due LIMIT $2",
                now,
                limit,
                *params,
            )
        )
        return [TimerRow(*row) for row in rows]

    async def timers_of_game(self, game_id: int) -> list[TimerRow]:
        rows = await self._read(
            lambda conn: conn.fetch(
                f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due",  # noqa: S608
                game_id,
            )
        )
        return [TimerRow(*row) for row in rows]

    async def vote(self, vote_id: int) -> VoteRow | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = $1",  # noqa: S608
                vote_id,
            )
        )
        return VoteRow(*row) if row else None

    async def away_of(self, guild_id: int, user_id: int) -> float | None:
        until: float | None = await self._read(
            lambda conn: conn.fetchval(
                "SELECT until FROM away WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
        )
        return until

    async def player_settings(self, user_id: int) -> PlayerSettingsRow | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT user_id, reminders, quiet_start, quiet_end, timezone"
                " FROM player_settings WHERE user_id = $1",
                user_id,
            )
        )
        return PlayerSettingsRow(*row) if row else None

    async def server_play(self, guild_id: int) -> ServerPlayRow | None:
        row = await self._read(
            lambda conn: conn.fetchrow(
                "SELECT guild_id, default_clock, default_action, lobby_expiry, allow_dm"
                " FROM server_settings WHERE guild_id = $1",
                guild_id,
            )
        )
        if row is None:
            return None
        guild, clock, action, expiry, allow = row
        return ServerPlayRow(guild, clock, action, expiry, None if allow is None else bool(allow))

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
        order = _COPY_ORDER.get(table) or ("1, 2" if len(columns) > 1 else "1")
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
