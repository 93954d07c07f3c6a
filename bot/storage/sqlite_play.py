"""The SQLite statements of asynchronous play: timers, votes, away periods, player and server
settings (migration 0006). Mixed into ``SqliteTx`` (writes) and ``SqliteStore`` (reads)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiosqlite

from bot.storage.base import PlayerSettingsRow, ServerPlayRow, Shards, TimerRow, VoteRow

_TIMER_COLUMNS = "id, due, kind, game_id, guild_id, user_id, version, data, attempts"
_VOTE_COLUMNS = (
    "id, game_id, kind, version, seat, opened_by, opened_at, outcome, channel_id, message_id"
)


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" for _ in values)


def shard_clause(shards: Shards | None, column: str = "guild_id") -> tuple[str, tuple[Any, ...]]:
    """An SQL condition (and its parameters) for rows of guilds on ``shards`` (any: "1")."""
    if shards is None:
        return "1", ()
    return (
        f"({column} IS NULL OR (({column} >> 22) % ?) IN ({_marks(shards.ids)}))",
        (shards.count, *shards.ids),
    )


class PlayWrites:
    """Write statements; ``self._conn`` is the writer connection inside ``BEGIN IMMEDIATE``."""

    _conn: aiosqlite.Connection

    async def _one(self, sql: str, params: tuple[Any, ...]) -> Any:
        async with self._conn.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def set_clock(
        self, game_id: int, *, deadline: float | None, clock_left: float | None
    ) -> None:
        await self._conn.execute(
            "UPDATE games SET deadline = ?, clock_left = ? WHERE id = ?",
            (deadline, clock_left, game_id),
        )

    async def set_clock_seconds(self, game_id: int, clock_seconds: int | None) -> None:
        await self._conn.execute(
            "UPDATE games SET clock_seconds = ? WHERE id = ?", (clock_seconds, game_id)
        )

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str | None) -> None:
        await self._conn.execute(
            "UPDATE seats SET stand_in = ?, stood_in = MAX(stood_in, ?)"
            " WHERE game_id = ? AND seat = ?",
            (stand_in, int(stand_in is not None), game_id, seat),
        )

    async def add_timer(self, row: TimerRow) -> int:
        cursor = await self._conn.execute(
            "INSERT INTO timers (due, kind, game_id, guild_id, user_id, version, data, attempts)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.due,
                row.kind,
                row.game_id,
                row.guild_id,
                row.user_id,
                row.version,
                row.data,
                row.attempts,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def load_timer(self, timer_id: int) -> TimerRow | None:
        row = await self._one(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE id = ?",  # noqa: S608
            (timer_id,),
        )
        return TimerRow(*row) if row else None

    async def delete_timer(self, timer_id: int) -> None:
        await self._conn.execute("DELETE FROM timers WHERE id = ?", (timer_id,))

    async def reschedule_timer(self, timer_id: int, due: float, attempts: int) -> None:
        await self._conn.execute(
            "UPDATE timers SET due = ?, attempts = ? WHERE id = ?", (due, attempts, timer_id)
        )

    async def clear_timers(self, game_id: int, kinds: Sequence[str]) -> None:
        await self._conn.execute(
            f"DELETE FROM timers WHERE game_id = ? AND kind IN ({_marks(kinds)})",  # noqa: S608
            (game_id, *kinds),
        )

    async def carry_timers(self, game_id: int, old_version: int, new_version: int) -> None:
        await self._conn.execute(
            "UPDATE timers SET version = ? WHERE game_id = ? AND version = ?",
            (new_version, game_id, old_version),
        )

    async def user_timers(self, user_id: int, kinds: Sequence[str]) -> list[TimerRow]:
        async with self._conn.execute(
            f"SELECT {_TIMER_COLUMNS} FROM timers"  # noqa: S608
            f" WHERE user_id = ? AND kind IN ({_marks(kinds)}) ORDER BY due",
            (user_id, *kinds),
        ) as cursor:
            return [TimerRow(*row) for row in await cursor.fetchall()]

    async def open_vote(self, row: VoteRow) -> int:
        cursor = await self._conn.execute(
            "INSERT INTO votes (game_id, kind, version, seat, opened_by, opened_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (row.game_id, row.kind, row.version, row.seat, row.opened_by, row.opened_at),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def load_vote(self, vote_id: int) -> VoteRow | None:
        row = await self._one(
            f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = ?",  # noqa: S608
            (vote_id,),
        )
        return VoteRow(*row) if row else None

    async def open_vote_of(self, game_id: int, kind: str) -> VoteRow | None:
        row = await self._one(
            f"SELECT {_VOTE_COLUMNS} FROM votes"  # noqa: S608
            " WHERE game_id = ? AND kind = ? AND outcome IS NULL ORDER BY id DESC LIMIT 1",
            (game_id, kind),
        )
        return VoteRow(*row) if row else None

    async def close_vote(self, vote_id: int, outcome: str) -> None:
        await self._conn.execute("UPDATE votes SET outcome = ? WHERE id = ?", (outcome, vote_id))

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self._conn.execute(
            "UPDATE votes SET channel_id = ?, message_id = ? WHERE id = ?",
            (channel_id, message_id, vote_id),
        )

    async def cast_ballot(self, vote_id: int, user_id: int, choice: str) -> None:
        await self._conn.execute(
            "INSERT INTO ballots (vote_id, user_id, choice) VALUES (?, ?, ?)"
            " ON CONFLICT (vote_id, user_id) DO UPDATE SET choice = excluded.choice",
            (vote_id, user_id, choice),
        )

    async def ballots(self, vote_id: int) -> dict[int, str]:
        async with self._conn.execute(
            "SELECT user_id, choice FROM ballots WHERE vote_id = ?", (vote_id,)
        ) as cursor:
            return {user: choice for user, choice in await cursor.fetchall()}

    async def set_away(self, guild_id: int, user_id: int, since: float, until: float) -> None:
        await self._conn.execute(
            "INSERT INTO away (guild_id, user_id, since, until) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET until = excluded.until",
            (guild_id, user_id, since, until),
        )

    async def clear_away(self, guild_id: int, user_id: int) -> None:
        await self._conn.execute(
            "DELETE FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )

    async def away_until(self, guild_id: int, user_id: int) -> float | None:
        row = await self._one(
            "SELECT until FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return row[0] if row else None

    async def set_player_settings(self, row: PlayerSettingsRow, updated_at: str) -> None:
        await self._conn.execute(
            "INSERT INTO player_settings"
            " (user_id, reminders, quiet_start, quiet_end, timezone, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " reminders = excluded.reminders, quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, timezone = excluded.timezone,"
            " updated_at = excluded.updated_at",
            (row.user_id, row.reminders, row.quiet_start, row.quiet_end, row.timezone, updated_at),
        )

    async def set_meta(self, key: str, value: str) -> None:
        await self._conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def set_server_play(self, row: ServerPlayRow, updated_at: str) -> None:
        allow = None if row.allow_dm is None else int(row.allow_dm)
        await self._conn.execute(
            "INSERT INTO server_settings"
            " (guild_id, default_clock, default_action, lobby_expiry, allow_dm, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " default_clock = excluded.default_clock, default_action = excluded.default_action,"
            " lobby_expiry = excluded.lobby_expiry, allow_dm = excluded.allow_dm,"
            " updated_at = excluded.updated_at",
            (
                row.guild_id,
                row.default_clock,
                row.default_action,
                row.lobby_expiry,
                allow,
                updated_at,
            ),
        )


class PlayReads:
    """Reads on the reader connection (``self._reading()``)."""

    def _reading(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        raise NotImplementedError

    async def _rows(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        async with self._reading() as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def meta(self, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def running_games_with_computers(self, shards: Shards | None = None) -> list[int]:
        rows = await self._rows(
            "SELECT DISTINCT g.id, g.guild_id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.status = 'active' AND (s.bot_level IS NOT NULL OR s.stand_in IS NOT NULL)"
            " ORDER BY g.id",
            (),
        )
        return [row[0] for row in rows if shards is None or shards.owns(row[1])]

    async def next_due(self, shards: Shards | None = None) -> float | None:
        where, params = shard_clause(shards)
        rows = await self._rows(
            f"SELECT due FROM timers WHERE {where} ORDER BY due LIMIT 1",  # noqa: S608
            params,
        )
        return rows[0][0] if rows else None

    async def due_timers(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[TimerRow]:
        where, params = shard_clause(shards)
        rows = await self._rows(
            f"SELECT {_TIMER_COLUMNS} FROM timers"  # noqa: S608
            f" WHERE due <= ? AND {where} ORDER BY due LIMIT ?",
            (now, *params, limit),
        )
        return [TimerRow(*row) for row in rows]

    async def timers_of_game(self, game_id: int) -> list[TimerRow]:
        rows = await self._rows(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY due",  # noqa: S608
            (game_id,),
        )
        return [TimerRow(*row) for row in rows]

    async def vote(self, vote_id: int) -> VoteRow | None:
        rows = await self._rows(
            f"SELECT {_VOTE_COLUMNS} FROM votes WHERE id = ?",  # noqa: S608
            (vote_id,),
        )
        return VoteRow(*rows[0]) if rows else None

    async def away_of(self, guild_id: int, user_id: int) -> float | None:
        rows = await self._rows(
            "SELECT until FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return rows[0][0] if rows else None

    async def player_settings(self, user_id: int) -> PlayerSettingsRow | None:
        rows = await self._rows(
            "SELECT user_id, reminders, quiet_start, quiet_end, timezone FROM player_settings"
            " WHERE user_id = ?",
            (user_id,),
        )
        return PlayerSettingsRow(*rows[0]) if rows else None

    async def server_play(self, guild_id: int) -> ServerPlayRow | None:
        rows = await self._rows(
            "SELECT guild_id, default_clock, default_action, lobby_expiry, allow_dm"
            " FROM server_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return None
        guild, clock, action, expiry, allow = rows[0]
        return ServerPlayRow(guild, clock, action, expiry, None if allow is None else bool(allow))
