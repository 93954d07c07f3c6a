"""The store, once for both backends: ``StoreTx`` runs the statements of one write transaction,
``Store`` the reads. A backend (``bot.storage.sqlite``, ``bot.storage.postgres``) supplies the
connections: ``Store._read`` runs a read on one, ``Store.write`` opens a transaction on one.

A new statement is a constant in ``bot.storage.statements`` and a method here; nothing else.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import fields, replace
from typing import Any, TypeVar

from bot.storage import statements as sql
from bot.storage.base import (
    AwayPeriodRow,
    GameRow,
    MoveRow,
    OpenGameExists,
    PlayerSettingsRow,
    RatingRow,
    ResultRow,
    SeatRow,
    ServerPlayRow,
    Shards,
    TimerRow,
    VoteRow,
)
from bot.storage.connection import Connection

T = TypeVar("T")

#: tables whose ``id`` comes from a counter (copied ids must not come round again)
COUNTED = ("games", "timers", "votes")
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


def quoted(name: str) -> str:
    if not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"not a table or column name: {name!r}")
    return f'"{name}"'


def _on_shards(shards: Shards | None, clause: str) -> tuple[str, dict[str, Any]]:
    if shards is None:
        return "", {}
    return clause, {"shard_count": shards.count, "shard_ids": list(shards.ids)}


async def _seats(db: Connection, game_id: int) -> tuple[SeatRow, ...]:
    return tuple(
        SeatRow(seat, user, name, level, stand_in, bool(stood), bank)
        for seat, user, name, level, stand_in, stood, bank in await db.rows(
            sql.SEATS, game_id=game_id
        )
    )


async def _game(db: Connection, statement: str, **params: Any) -> GameRow | None:
    row = await db.row(statement, **params)
    if row is None:
        return None
    return replace(GameRow(*row), seats=await _seats(db, row[0]))


async def _games(db: Connection, statement: str, **params: Any) -> list[GameRow]:
    return [
        replace(GameRow(*row), seats=await _seats(db, row[0]))
        for row in await db.rows(statement, **params)
    ]


async def _away_periods(
    db: Connection, guild_id: int, user_id: int, after: float
) -> list[AwayPeriodRow]:
    rows = await db.rows(sql.AWAY_PERIODS, guild_id=guild_id, user_id=user_id, after=after)
    return [AwayPeriodRow(since, until, bool(told)) for since, until, told in rows]


def _player_settings(row: Sequence[Any]) -> PlayerSettingsRow:
    values = dict(zip(sql.PLAYER_SETTINGS_COLUMNS, row, strict=True))
    values["digest_only"] = bool(values["digest_only"])
    return PlayerSettingsRow(**values)


async def _reminded_at(db: Connection, user_id: int, game_id: int) -> float | None:
    at: float | None = await db.value(sql.REMINDED_AT, user_id=user_id, game_id=game_id)
    return at


def _result(row: Sequence[Any]) -> ResultRow:
    game_id, seat, guild_id, game, user_id, score, rank, won, extras_json = row
    return ResultRow(game_id, seat, guild_id, game, user_id, score, rank, bool(won), extras_json)


#: the settings of ``ServerPlayRow`` that are yes or no (stored as 1 or 0)
_SERVER_PLAY_FLAGS = frozenset(
    f.name for f in fields(ServerPlayRow) if str(f.type).startswith("bool")
)


def _server_play(row: Sequence[Any]) -> ServerPlayRow:
    values: dict[str, Any] = {
        name: bool(value) if name in _SERVER_PLAY_FLAGS and value is not None else value
        for name, value in zip(sql.SERVER_PLAY_COLUMNS, row, strict=True)
    }
    return ServerPlayRow(**values)


class StoreTx:
    """The statements of one write transaction (``Store.write``)."""

    def __init__(self, db: Connection) -> None:
        self._db = db
        self._after_commit: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this transaction has committed (never if it rolls back)."""
        self._after_commit.append(callback)

    def committed(self) -> None:
        for callback in self._after_commit:
            callback()

    # ------------------------------------------------------------ games

    async def load_game(self, game_id: int) -> GameRow | None:
        """The game; on PostgreSQL its row stays locked until the transaction ends (writers of
        one game take turns, in one process or several)."""
        return await _game(self._db, sql.GAME_TO_WRITE, id=game_id)

    async def insert_game(self, row: GameRow) -> int:
        try:
            game_id: int = await self._db.value(
                sql.INSERT_GAME,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game=row.game,
                rules_version=row.rules_version,
                host_id=row.host_id,
                options_json=row.options_json,
                capacity=row.capacity,
                seed=row.seed,
                status=row.status,
                version=row.version,
                move_count=row.move_count,
                state_json=row.state_json,
                created_at=row.created_at,
                updated_at=row.updated_at,
                clock_seconds=row.clock_seconds,
                rematch_of=row.rematch_of,
                bank_increment=row.bank_increment,
                bank_cap=row.bank_cap,
                rest_days=row.rest_days,
                rest_timezone=row.rest_timezone,
            )
        except self._db.duplicate_key as exc:
            raise OpenGameExists(row.channel_id) from exc
        return game_id

    async def set_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._db.run(sql.DELETE_SEATS, game_id=game_id)
        await self._db.run_many(
            sql.INSERT_SEAT,
            [
                {
                    "game_id": game_id,
                    "seat": s.seat,
                    "user_id": s.user_id,
                    "display_name": s.display_name,
                    "bot_level": s.bot_level,
                    "stand_in": s.stand_in,
                    "stood_in": int(s.stood_in),
                    "bank_left": s.bank_left,
                }
                for s in seats
            ],
        )

    async def append_moves(self, game_id: int, first_seq: int, moves: Sequence[MoveRow]) -> None:
        await self._db.run_many(
            sql.INSERT_MOVE,
            [
                {
                    "game_id": game_id,
                    "seq": m.seq,
                    "seat": m.seat,
                    "action": m.action,
                    "created_at": m.created_at,
                }
                for m in moves
            ],
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
        return await self._db.run(
            sql.UPDATE_GAME,
            status=status,
            state_json=state_json,
            move_count=move_count,
            updated_at=updated_at,
            id=game_id,
            expected=expected_version,
        )

    async def set_ended_by(self, game_id: int, user_id: int) -> None:
        await self._db.run(sql.SET_ENDED_BY, user_id=user_id, id=game_id)

    async def record_post(
        self, game_id: int, version: int, channel_id: int, message_id: int, public: bool = True
    ) -> None:
        if not public:  # one row per version: an edited private message shows each in turn
            await self._db.run(
                sql.INSERT_PRIVATE_STEP, game_id=game_id, version=version, message_id=message_id
            )
            return
        await self._db.value(sql.LOCK_GAME, id=game_id)
        await self._db.run(sql.DELETE_POST, game_id=game_id, message_id=message_id)
        await self._db.run(
            sql.INSERT_POST,
            game_id=game_id,
            version=version,
            channel_id=channel_id,
            message_id=message_id,
            public=int(public),
        )

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        await self._db.run(
            sql.SET_SERVER_LOCALE, guild_id=guild_id, locale=locale, updated_at=updated_at
        )

    async def replace_state(self, game_id: int, version: int, state_json: str) -> int:
        """The same position in a newer encoding: no version bump; 0 if the version moved on."""
        return await self._db.run(
            sql.REPLACE_STATE, state_json=state_json, id=game_id, version=version
        )

    async def rematch_of(self, game_id: int) -> GameRow | None:
        return await _game(self._db, sql.REMATCH_OF, game_id=game_id)

    # ------------------------------------------------------------ asynchronous play

    async def set_clock(
        self, game_id: int, *, deadline: float | None, clock_left: float | None
    ) -> None:
        await self._db.run(sql.SET_CLOCK, deadline=deadline, clock_left=clock_left, id=game_id)

    async def set_clock_seconds(self, game_id: int, clock_seconds: int | None) -> None:
        await self._db.run(sql.SET_CLOCK_SECONDS, clock_seconds=clock_seconds, id=game_id)

    async def set_bank_left(self, game_id: int, seat: int, bank_left: float | None) -> None:
        await self._db.run(sql.SET_BANK_LEFT, bank_left=bank_left, game_id=game_id, seat=seat)

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str | None) -> None:
        await self._db.run(
            sql.SET_STAND_IN,
            stand_in=stand_in,
            stood_in=int(stand_in is not None),
            game_id=game_id,
            seat=seat,
        )

    async def add_timer(self, row: TimerRow) -> int:
        timer_id: int = await self._db.value(
            sql.INSERT_TIMER,
            due=row.due,
            kind=row.kind,
            game_id=row.game_id,
            guild_id=row.guild_id,
            user_id=row.user_id,
            version=row.version,
            data=row.data,
            attempts=row.attempts,
        )
        return timer_id

    async def load_timer(self, timer_id: int) -> TimerRow | None:
        """The timer, claimed for this transaction; None when it is gone or (PostgreSQL)
        another process holds it right now: two processes never both act on one timer."""
        row = await self._db.row(sql.TIMER_TO_WRITE, id=timer_id)
        return TimerRow(*row) if row else None

    async def delete_timer(self, timer_id: int) -> None:
        await self._db.run(sql.DELETE_TIMER, id=timer_id)

    async def reschedule_timer(self, timer_id: int, due: float, attempts: int) -> None:
        await self._db.run(sql.RESCHEDULE_TIMER, due=due, attempts=attempts, id=timer_id)

    async def clear_timers(self, game_id: int, kinds: Sequence[str]) -> None:
        await self._db.run(sql.CLEAR_TIMERS, game_id=game_id, kinds=list(kinds))

    async def carry_timers(self, game_id: int, old_version: int, new_version: int) -> None:
        """The game moved on within a turn: its timers set for ``old_version`` still hold."""
        await self._db.run(
            sql.CARRY_TIMERS, new_version=new_version, game_id=game_id, old_version=old_version
        )

    async def user_timers(self, user_id: int, kinds: Sequence[str]) -> list[TimerRow]:
        rows = await self._db.rows(sql.USER_TIMERS, user_id=user_id, kinds=list(kinds))
        return [TimerRow(*row) for row in rows]

    async def open_vote(self, row: VoteRow) -> int:
        vote_id: int = await self._db.value(
            sql.INSERT_VOTE,
            game_id=row.game_id,
            kind=row.kind,
            version=row.version,
            seat=row.seat,
            opened_by=row.opened_by,
            opened_at=row.opened_at,
        )
        return vote_id

    async def load_vote(self, vote_id: int) -> VoteRow | None:
        row = await self._db.row(sql.VOTE, id=vote_id)
        return VoteRow(*row) if row else None

    async def open_vote_of(self, game_id: int, kind: str) -> VoteRow | None:
        row = await self._db.row(sql.OPEN_VOTE_OF, game_id=game_id, kind=kind)
        return VoteRow(*row) if row else None

    async def close_vote(self, vote_id: int, outcome: str) -> None:
        await self._db.run(sql.CLOSE_VOTE, outcome=outcome, id=vote_id)

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None:
        await self._db.run(
            sql.SET_VOTE_MESSAGE, channel_id=channel_id, message_id=message_id, id=vote_id
        )

    async def cast_ballot(self, vote_id: int, user_id: int, choice: str) -> None:
        await self._db.run(sql.CAST_BALLOT, vote_id=vote_id, user_id=user_id, choice=choice)

    async def ballots(self, vote_id: int) -> dict[int, str]:
        return {user: choice for user, choice in await self._db.rows(sql.BALLOTS, vote_id=vote_id)}

    async def set_away(self, guild_id: int, user_id: int, since: float, until: float) -> None:
        await self._db.run(
            sql.SET_AWAY, guild_id=guild_id, user_id=user_id, since=since, until=until
        )

    async def clear_away(self, guild_id: int, user_id: int) -> None:
        await self._db.run(sql.CLEAR_AWAY, guild_id=guild_id, user_id=user_id)

    async def away_until(self, guild_id: int, user_id: int) -> float | None:
        until: float | None = await self._db.value(
            sql.AWAY_UNTIL, guild_id=guild_id, user_id=user_id
        )
        return until

    async def away_periods(self, guild_id: int, user_id: int, after: float) -> list[AwayPeriodRow]:
        return await _away_periods(self._db, guild_id, user_id, after)

    async def add_away_period(
        self, guild_id: int, user_id: int, since: float, until: float, *, forget_before: float
    ) -> None:
        player = {"guild_id": guild_id, "user_id": user_id}
        await self._db.run(sql.FORGET_AWAY_PERIODS, before=forget_before, **player)
        await self._db.run(sql.ADD_AWAY_PERIOD, since=since, until=until, **player)

    async def end_away_period(
        self, guild_id: int, user_id: int, since: float, until: float
    ) -> None:
        await self._db.run(
            sql.END_AWAY_PERIOD, guild_id=guild_id, user_id=user_id, since=since, until=until
        )

    async def told_budget_low(self, guild_id: int, user_id: int, since: float) -> None:
        await self._db.run(sql.TOLD_BUDGET_LOW, guild_id=guild_id, user_id=user_id, since=since)

    async def set_player_settings(self, row: PlayerSettingsRow, updated_at: str) -> None:
        values = {name: getattr(row, name) for name in sql.PLAYER_SETTINGS_COLUMNS}
        values["digest_only"] = int(row.digest_only)
        await self._db.run(sql.SET_PLAYER_SETTINGS, updated_at=updated_at, **values)

    async def reminded_at(self, user_id: int, game_id: int) -> float | None:
        return await _reminded_at(self._db, user_id, game_id)

    async def set_reminded(self, user_id: int, game_id: int, at: float) -> None:
        await self._db.run(sql.SET_REMINDED, user_id=user_id, game_id=game_id, at=at)

    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        await self._db.run(sql.SET_DM_CHANNEL, user_id=user_id, channel_id=channel_id)

    async def set_server_play(self, row: ServerPlayRow, updated_at: str) -> None:
        values = {name: getattr(row, name) for name in sql.SERVER_PLAY_COLUMNS}
        for name in _SERVER_PLAY_FLAGS:
            values[name] = None if values[name] is None else int(values[name])
        await self._db.run(sql.SET_SERVER_PLAY, updated_at=updated_at, **values)

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.run(sql.SET_META, key=key, value=value)

    # ------------------------------------------------------------ results and ratings

    async def load_moves(self, game_id: int) -> list[MoveRow]:
        """The move log as this transaction sees it."""
        rows = await self._db.rows(sql.MOVES, game_id=game_id, from_seq=0)
        return [MoveRow(*row) for row in rows]

    async def outcome_recorded(self, game_id: int) -> bool:
        return await self._db.value(sql.OUTCOME_RECORDED, game_id=game_id) is not None

    async def record_outcome(
        self,
        game_id: int,
        guild_id: int | None,
        game: str,
        rated: bool,
        finished_at: str,
        results: Sequence[ResultRow],
    ) -> None:
        await self._db.run(
            sql.INSERT_OUTCOME,
            game_id=game_id,
            guild_id=guild_id,
            game=game,
            rated=int(rated),
            finished_at=finished_at,
        )
        await self._db.run_many(
            sql.INSERT_RESULT,
            [
                {
                    "game_id": r.game_id,
                    "seat": r.seat,
                    "guild_id": r.guild_id,
                    "game": r.game,
                    "user_id": r.user_id,
                    "score": r.score,
                    "rank": r.rank,
                    "won": int(r.won),
                    "extras_json": r.extras_json,
                }
                for r in results
            ],
        )

    async def load_ratings(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRow]:
        """The players' ratings (absent: never rated), and the right to change them until this
        transaction ends: two games of one server and game finishing at once in two processes
        would otherwise both read the old ratings, and the later commit undo the earlier one."""
        await self._db.serialise_ratings(guild_id, game)
        rows = await self._db.rows(
            sql.RATINGS_OF, guild_id=guild_id, game=game, user_ids=list(user_ids)
        )
        found = {row[2]: RatingRow(*row) for row in rows}
        return {user_id: found[user_id] for user_id in user_ids if user_id in found}

    async def save_rating(self, game_id: int, row: RatingRow) -> None:
        """Store a player's rating after ``game_id`` and add it to their rating history."""
        await self._db.run(
            sql.SAVE_RATING,
            guild_id=row.guild_id,
            game=row.game,
            user_id=row.user_id,
            mu=row.mu,
            sigma=row.sigma,
            games=row.games,
            wins=row.wins,
            updated_at=row.updated_at,
        )
        await self._db.run(
            sql.INSERT_RATING_HISTORY,
            game_id=game_id,
            user_id=row.user_id,
            guild_id=row.guild_id,
            game=row.game,
            mu=row.mu,
            sigma=row.sigma,
        )

    async def clear_outcomes(self) -> None:
        """Forget every outcome, result, rating and rating history (before a rebuild)."""
        await self._db.serialise_rating_rebuild()
        for statement in sql.CLEAR_OUTCOMES:
            await self._db.run(statement)

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
    ) -> None:
        """Rows of a table as they are (ids included), for ``bot.storage.copy``."""
        names = ", ".join(quoted(c) for c in columns)
        marks = ", ".join(f":{c}" for c in columns)  # names checked by quoted()
        await self._db.run_many(
            f"INSERT INTO {quoted(table)} ({names}) VALUES ({marks})",  # noqa: S608
            [dict(zip(columns, row, strict=True)) for row in rows],
        )

    async def after_copy(self) -> None:
        """Move the id counters past the copied ids."""
        await self._db.after_copy(COUNTED)


class Store(ABC):
    """Reads of the store; a backend supplies ``_read`` and ``write``."""

    @abstractmethod
    async def _read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``work`` on a connection that reads what is committed (refused inside a write
        of this store: ``bot.storage.base.not_inside_a_write``)."""

    @abstractmethod
    def write(self, *, synced: bool = True) -> AbstractAsyncContextManager[StoreTx]:
        """``async with store.write() as tx:`` one write transaction, committed at the end
        (``synced``: see ``base.Store.write``)."""

    async def _ids(self, statement: str, **params: Any) -> list[int]:
        rows = await self._read(lambda db: db.rows(statement, **params))
        return [row[0] for row in rows]

    async def _value(self, statement: str, **params: Any) -> Any:
        return await self._read(lambda db: db.value(statement, **params))

    async def _row(self, statement: str, **params: Any) -> Sequence[Any] | None:
        return await self._read(lambda db: db.row(statement, **params))

    async def _rows(self, statement: str, **params: Any) -> Sequence[Sequence[Any]]:
        return await self._read(lambda db: db.rows(statement, **params))

    # ------------------------------------------------------------ games

    async def load_game(self, game_id: int) -> GameRow | None:
        return await self._read(lambda db: _game(db, sql.GAME, id=game_id))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._read(
            lambda db: _game(db, sql.OPEN_GAME_IN_CHANNEL, channel_id=channel_id)
        )

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's newest game that was played and has ended (won or abandoned)."""
        return await self._read(
            lambda db: _game(db, sql.LAST_ENDED_GAME_IN_CHANNEL, channel_id=channel_id)
        )

    async def newest_finished_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRow]:
        """A server's newest finished games, newest first (with ``user_id``: only the games that
        user had a seat in)."""
        return await self._read(
            lambda db: _games(
                db, sql.NEWEST_FINISHED_GAMES, guild_id=guild_id, user_id=user_id, limit=limit
            )
        )

    async def games_of_user(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The server's running games in which the user has a seat."""

        async def work(db: Connection) -> list[GameRow]:
            ids = await db.rows(sql.GAMES_OF_USER, guild_id=guild_id, user_id=user_id)
            found = [await _game(db, sql.GAME, id=row[0]) for row in ids]
            return [row for row in found if row is not None]

        return await self._read(work)

    async def moves(self, game_id: int, from_seq: int = 0) -> list[MoveRow]:
        """The game's move log in order, from move ``from_seq`` on (0: the whole log)."""
        rows = await self._rows(sql.MOVES, game_id=game_id, from_seq=from_seq)
        return [MoveRow(*row) for row in rows]

    async def open_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of the running games (of guilds on ``shards`` only, when given)."""
        clause, params = _on_shards(shards, sql.GAME_ON_SHARDS)
        return await self._ids(sql.OPEN_GAMES + clause + sql.BY_ID, **params)

    async def games_with_state(self) -> list[int]:
        """Ids of every game that has a stored state (running or over)."""
        return await self._ids(sql.GAMES_WITH_STATE + sql.BY_ID)

    async def running_games_with_computers(self, shards: Shards | None = None) -> list[int]:
        """Running games with a computer opponent or a stand-in at the table (of guilds on
        ``shards`` only, when given: ``Shards.owns``)."""
        clause, params = _on_shards(shards, sql.GAME_ON_SHARDS)
        return await self._ids(sql.RUNNING_GAMES_WITH_COMPUTERS + clause + sql.BY_ID, **params)

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games whose newest version the channel has not seen (``statements.UNSHOWN_GAMES``):
        running ones, and finished ones (changed at ``changed_since`` or later, when given) still
        the newest in their channel."""
        clause, params = _on_shards(shards, sql.GAME_ON_SHARDS)
        return await self._ids(
            sql.UNSHOWN_GAMES + clause + sql.BY_ID, since=changed_since, **params
        )

    # ------------------------------------------------------------ posts

    async def posted_version(self, game_id: int) -> int | None:
        """The newest version a public (channel) post shows; private posts do not count."""
        version: int | None = await self._value(sql.POSTED_VERSION, game_id=game_id)
        return version

    async def private_versions(self, game_id: int, after: int) -> list[int]:
        """The versions newer than ``after`` that a private post shows, in order."""
        return await self._ids(sql.PRIVATE_VERSIONS, game_id=game_id, after=after)

    async def latest_post(self, game_id: int) -> tuple[int, int] | None:
        """(channel_id, message_id) of the newest message posted for the game."""
        row = await self._row(sql.LATEST_POST, game_id=game_id)
        return (row[0], row[1]) if row else None

    # ------------------------------------------------------------ settings

    async def server_locale(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its public messages (None: not chosen)."""
        locale: str | None = await self._value(sql.SERVER_LOCALE, guild_id=guild_id)
        return locale

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        """Choose (or, with None, forget) the language of a server's public messages."""
        async with self.write() as tx:
            await tx.set_server_locale(guild_id, locale, updated_at)

    async def meta(self, key: str) -> str | None:
        value: str | None = await self._value(sql.META, key=key)
        return value

    async def set_meta(self, key: str, value: str) -> None:
        async with self.write() as tx:
            await tx.set_meta(key, value)

    async def away_of(self, guild_id: int, user_id: int) -> float | None:
        """Until when the player is away on the server (None: not away)."""
        until: float | None = await self._value(sql.AWAY_UNTIL, guild_id=guild_id, user_id=user_id)
        return until

    async def away_periods(self, guild_id: int, user_id: int, after: float) -> list[AwayPeriodRow]:
        return await self._read(lambda db: _away_periods(db, guild_id, user_id, after))

    async def player_settings(self, user_id: int) -> PlayerSettingsRow | None:
        row = await self._row(sql.PLAYER_SETTINGS, user_id=user_id)
        return _player_settings(row) if row else None

    async def reminded_at(self, user_id: int, game_id: int) -> float | None:
        return await self._read(lambda db: _reminded_at(db, user_id, game_id))

    async def games_of_user_everywhere(self, user_id: int) -> list[GameRow]:
        """Every running game, on any server, in which the user has a seat."""

        async def work(db: Connection) -> list[GameRow]:
            ids = await db.rows(sql.GAMES_OF_USER_EVERYWHERE, user_id=user_id)
            found = [await _game(db, sql.GAME, id=row[0]) for row in ids]
            return [row for row in found if row is not None]

        return await self._read(work)

    async def server_play(self, guild_id: int) -> ServerPlayRow | None:
        row = await self._row(sql.SERVER_PLAY, guild_id=guild_id)
        return _server_play(row) if row else None

    # ------------------------------------------------------------ timers and votes

    async def next_due(self, shards: Shards | None = None) -> float | None:
        """When the earliest timer falls due (None: there is none)."""
        clause, params = _on_shards(shards, sql.TIMER_ON_SHARDS)
        due: float | None = await self._value(sql.NEXT_DUE + clause + sql.BY_DUE, limit=1, **params)
        return due

    async def due_timers(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[TimerRow]:
        """Timers due at ``now`` or earlier, earliest first."""
        clause, params = _on_shards(shards, sql.TIMER_ON_SHARDS)
        rows = await self._rows(
            sql.DUE_TIMERS + clause + sql.BY_DUE, now=now, limit=limit, **params
        )
        return [TimerRow(*row) for row in rows]

    async def timers_of_game(self, game_id: int) -> list[TimerRow]:
        return [TimerRow(*row) for row in await self._rows(sql.TIMERS_OF_GAME, game_id=game_id)]

    async def vote(self, vote_id: int) -> VoteRow | None:
        row = await self._row(sql.VOTE, id=vote_id)
        return VoteRow(*row) if row else None

    # ------------------------------------------------------------ results and ratings

    async def finished_games(self, *, unrecorded_only: bool = False) -> list[int]:
        """Ids of the finished games in the order they finished (``updated_at``, then id);
        ``unrecorded_only``: those whose outcome is not written yet."""
        return await self._ids(sql.FINISHED_GAMES, unrecorded_only=int(unrecorded_only))

    async def player_results(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[ResultRow]:
        """A player's results in a server (one game, or all), oldest first."""
        rows = await self._rows(sql.PLAYER_RESULTS, guild_id=guild_id, user_id=user_id, game=game)
        return [_result(row) for row in rows]

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        row = await self._row(sql.RATING, guild_id=guild_id, game=game, user_id=user_id)
        return RatingRow(*row) if row else None

    async def rating_history(
        self, guild_id: int, game: str, user_id: int
    ) -> list[tuple[float, float]]:
        """(mu, sigma) after each rated game of the player, oldest first."""
        rows = await self._rows(sql.RATING_HISTORY, guild_id=guild_id, game=game, user_id=user_id)
        return [(row[0], row[1]) for row in rows]

    async def leaderboard(
        self, guild_id: int, game: str, min_games: int, limit: int
    ) -> list[RatingRow]:
        """The best ratings (by mu - 3 sigma) among players with at least ``min_games``."""
        rows = await self._rows(
            sql.LEADERBOARD, guild_id=guild_id, game=game, min_games=min_games, limit=limit
        )
        return [RatingRow(*row) for row in rows]

    async def all_ratings(self) -> list[RatingRow]:
        """Every rating row (ordered by server, game, player)."""
        return [RatingRow(*row) for row in await self._rows(sql.ALL_RATINGS)]

    # ------------------------------------------------------------ copying (boardroom copy-db)

    async def table_columns(self, table: str) -> list[str]:
        """The table's columns in their order (empty when there is no such table)."""
        return await self._read(lambda db: db.table_columns(table))

    async def table_rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of the table (those columns), in the order they were written."""
        names = ", ".join(quoted(c) for c in columns)
        order = sql.COPY_ORDER.get(table) or ("1, 2" if len(columns) > 1 else "1")
        rows = await self._rows(f"SELECT {names} FROM {quoted(table)} ORDER BY {order}")  # noqa: S608
        return [tuple(row) for row in rows]
