"""Rows and the store contract (``bot.storage.store`` implements it once for both backends)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    display_name: str
    bot_level: str | None = None
    stand_in: str | None = None  # 'turn' or 'seat': a computer opponent plays for the player
    stood_in: bool = False  # a computer opponent has played for this seat at least once
    #: a time bank game: what the seat's bank holds for its next turn (None: the start)
    bank_left: float | None = None


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
    clock_seconds: int | None = None  # the turn clock (None: no clock)
    deadline: float | None = None  # when the turn of the seat to move runs out (unix time)
    clock_left: float | None = None  # seconds left on a clock stopped while its player is away
    rematch_of: int | None = None  # the finished game this lobby replays (Rematch button)
    #: a time bank (migration 0012): added per turn, never above the cap (seconds; both None:
    #: ``clock_seconds`` is per move; else it is each seat's start)
    bank_increment: int | None = None
    bank_cap: int | None = None
    rest_days: str | None = None  # weekdays the clocks stand still ("5,6"; migration 0013)
    rest_timezone: str | None = None  # the IANA zone those days are read in (the host's)
    seats: tuple[SeatRow, ...] = ()


@dataclass(frozen=True, slots=True)
class TimerRow:
    """Something that falls due at ``due`` (unix seconds); see migration 0006."""

    id: int
    due: float
    kind: str
    game_id: int | None = None
    guild_id: int | None = None
    user_id: int | None = None
    version: int = 0
    data: str = "{}"
    attempts: int = 0


@dataclass(frozen=True, slots=True)
class VoteRow:
    id: int
    game_id: int
    kind: str  # 'expiry' | 'abandon'
    version: int
    seat: int | None
    opened_by: int | None
    opened_at: float
    outcome: str | None = None
    channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerSettingsRow:
    user_id: int
    reminders: str = "channel"  # 'channel' | 'dm' | 'off'
    quiet_start: str | None = None  # "23:00"
    quiet_end: str | None = None
    timezone: str | None = None
    # the digest across servers (migration 0014)
    digest: str = "off"  # 'off' | 'daily' | 'twice'
    digest_at: str | None = None  # "08:00" in ``timezone`` (UTC without one)
    digest_only: bool = False  # instead of per-game reminders (False: beside them)
    digest_locale: str | None = None  # the language the player chose it in
    dm_channel_id: int | None = None  # their DM channel with the bot, once known


@dataclass(frozen=True, slots=True)
class ServerPlayRow:
    """A server's defaults for asynchronous play (None: the built-in default)."""

    guild_id: int
    default_clock: int | None = None
    default_action: str | None = None
    lobby_expiry: int | None = None
    allow_dm: bool | None = None
    away_days: int | None = None  # the yearly away budget per player (migration 0011)
    #: the default clock is a time bank starting at ``default_clock`` hours (migration 0012)
    default_bank_increment: int | None = None
    default_bank_cap: int | None = None
    rest_days: str | None = None  # new tables rest on these weekdays ("5,6"; migration 0013)
    rest_timezone: str | None = None  # ... read in this IANA zone (else the host's own)
    stand_in_level: str | None = None  # the level of a stand-in bot (migration 0016)


@dataclass(frozen=True, slots=True)
class AwayPeriodRow:
    """One away period of a player on a server (``until``: when it ends or ended)."""

    since: float
    until: float
    told_low: bool = False


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


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord gateway shards one bot process runs: ``ids`` of ``count`` shards in all; a
    guild is on shard ``(guild_id >> 22) % count``."""

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int | None) -> bool:
        """Is the game of this guild this process's own (a game without a guild: shard 0's, as
        Discord sends direct messages on shard 0)? Recovery and the sweep use this."""
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def serves(self, guild_id: int | None) -> bool:
        """May this process handle a timer of this guild? One without a guild: any process
        (the claim on a due timer keeps it to one)."""
        return guild_id is None or (guild_id >> 22) % self.count in self.ids


#: the stores (by id) whose write transaction the current task is inside
_HOLDING_WRITE: ContextVar[frozenset[int]] = ContextVar("holding_write", default=frozenset())


class SecondConnection(RuntimeError):
    """A read or write of a store was started inside a write transaction of the same task.

    Work inside a write goes through its transaction: outside it, PostgreSQL takes a second
    pooled connection while holding one (a pool of one waits for itself), SQLite reads a
    snapshot without the transaction's own changes, and a second write waits for the first
    for ever."""


def not_inside_a_write(store: object) -> None:
    """Refuse a read or write of ``store`` by a task inside one of its write transactions."""
    if id(store) in _HOLDING_WRITE.get():
        raise SecondConnection(
            "the store was used inside a write transaction: use the transaction (tx) instead"
        )


@contextmanager
def holding_write(store: object) -> Iterator[None]:
    """Mark the current task as inside a write transaction of ``store`` for the block."""
    token = _HOLDING_WRITE.set(_HOLDING_WRITE.get() | {id(store)})
    try:
        yield
    finally:
        _HOLDING_WRITE.reset(token)


class StoreUnavailable(Exception):
    """The database cannot be reached (e.g. it is restarting); nothing of the transaction that
    was under way is kept."""


class VersionConflict(Exception):
    """The game's version moved on between load and write (optimistic concurrency)."""


class OpenGameExists(Exception):
    """The channel already has an open lobby or running game."""


class Tx(Protocol):
    """One write transaction."""

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the transaction has committed (never if it rolls back)."""
        ...

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

    # --------------------------------------------------------- asynchronous play

    async def set_clock(
        self, game_id: int, *, deadline: float | None, clock_left: float | None
    ) -> None: ...

    async def set_clock_seconds(self, game_id: int, clock_seconds: int | None) -> None: ...

    async def set_bank_left(self, game_id: int, seat: int, bank_left: float | None) -> None:
        """What the seat's time bank holds for its next turn."""

    async def set_stand_in(self, game_id: int, seat: int, stand_in: str | None) -> None:
        """A computer opponent plays for the seat ('turn' or 'seat'), or (None) no longer."""
        ...

    async def add_timer(self, row: TimerRow) -> int: ...

    async def load_timer(self, timer_id: int) -> TimerRow | None: ...

    async def delete_timer(self, timer_id: int) -> None: ...

    async def reschedule_timer(self, timer_id: int, due: float, attempts: int) -> None: ...

    async def clear_timers(self, game_id: int, kinds: Sequence[str]) -> None: ...

    async def carry_timers(self, game_id: int, old_version: int, new_version: int) -> None:
        """The game moved on within a turn: its timers set for ``old_version`` still hold."""
        ...

    async def user_timers(self, user_id: int, kinds: Sequence[str]) -> list[TimerRow]: ...

    async def open_vote(self, row: VoteRow) -> int: ...

    async def load_vote(self, vote_id: int) -> VoteRow | None: ...

    async def open_vote_of(self, game_id: int, kind: str) -> VoteRow | None: ...

    async def close_vote(self, vote_id: int, outcome: str) -> None: ...

    async def set_vote_message(self, vote_id: int, channel_id: int, message_id: int) -> None: ...

    async def cast_ballot(self, vote_id: int, user_id: int, choice: str) -> None: ...

    async def ballots(self, vote_id: int) -> dict[int, str]: ...

    async def set_away(self, guild_id: int, user_id: int, since: float, until: float) -> None: ...

    async def clear_away(self, guild_id: int, user_id: int) -> None: ...

    async def away_until(self, guild_id: int, user_id: int) -> float | None: ...

    async def away_periods(self, guild_id: int, user_id: int, after: float) -> list[AwayPeriodRow]:
        """The player's away periods on the server that started after ``after``, oldest first
        (migration 0011)."""
        ...

    async def add_away_period(
        self, guild_id: int, user_id: int, since: float, until: float, *, forget_before: float
    ) -> None:
        """Record an away period, and forget the player's periods that started at or before
        ``forget_before`` (they no longer count)."""
        ...

    async def end_away_period(
        self, guild_id: int, user_id: int, since: float, until: float
    ) -> None:
        """The away period that started at ``since`` ends at ``until`` instead."""
        ...

    async def told_budget_low(self, guild_id: int, user_id: int, since: float) -> None:
        """The player heard their budget is nearly spent after the period started at ``since``."""
        ...

    async def set_player_settings(self, row: PlayerSettingsRow, updated_at: str) -> None: ...

    async def reminded_at(self, user_id: int, game_id: int) -> float | None:
        """When the player was last reminded of the game (None: never)."""
        ...

    async def set_reminded(self, user_id: int, game_id: int, at: float) -> None: ...

    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Remember the player's DM channel with the bot (their other choices stay)."""
        ...

    async def set_server_play(self, row: ServerPlayRow, updated_at: str) -> None: ...

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

    async def rematch_of(self, game_id: int) -> GameRow | None:
        """The newest game opened as a rematch of ``game_id`` and not cancelled (None: none)."""
        ...


class GameStore(Protocol):
    """What the service needs from the store (``SqliteStore`` or ``PostgresStore``)."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    def write(self, *, synced: bool = True) -> AbstractAsyncContextManager[Tx]:
        """``async with store.write() as tx:`` one serialised write transaction. ``synced=False``:
        a write the bot repairs itself if a power cut loses it (a post's record: the board is
        posted again), committed without waiting for the disk where the backend allows it."""
        ...

    async def load_game(self, game_id: int) -> GameRow | None: ...

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def last_ended_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    async def moves(self, game_id: int, from_seq: int = 0) -> list[MoveRow]:
        """The game's move log in order, from move ``from_seq`` on (0: the whole log)."""
        ...

    async def newest_finished_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[GameRow]:
        """A server's newest finished games, newest first (with ``user_id``: only the games that
        user had a seat in)."""
        ...

    async def open_games(self, shards: Shards | None = None) -> list[int]:
        """Ids of the running games (of guilds on ``shards`` only, when given)."""
        ...

    async def games_with_state(self) -> list[int]:
        """Ids of every game that has a stored state (running or over)."""
        ...

    async def posted_version(self, game_id: int) -> int | None:
        """The newest version a public (channel) post shows; private posts do not count."""
        ...

    async def private_versions(self, game_id: int, after: int) -> list[int]:
        """The versions newer than ``after`` that a private post shows (private steps inside a
        turn, which the channel is not meant to see), in order."""
        ...

    async def unshown_games(
        self, changed_since: str | None = None, shards: Shards | None = None
    ) -> list[int]:
        """Games committed at a version the channel has not seen: no public post shows it, and
        not every version since the newest public post is a private step (see ``Store``)."""
        ...

    async def latest_post(self, game_id: int) -> tuple[int, int] | None: ...

    async def server_locale(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its public messages (None: not chosen)."""
        ...

    async def set_server_locale(self, guild_id: int, locale: str | None, updated_at: str) -> None:
        """Choose (or, with None, forget) the language of a server's public messages."""
        ...

    # --------------------------------------------------------- asynchronous play

    async def meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def running_games_with_computers(self, shards: Shards | None = None) -> list[int]:
        """Running games with a computer opponent or a stand-in at the table (of guilds on
        ``shards`` only, when given: ``Shards.owns``)."""
        ...

    async def next_due(self, shards: Shards | None = None) -> float | None:
        """When the earliest timer falls due (None: there is none)."""
        ...

    async def due_timers(
        self, now: float, limit: int, shards: Shards | None = None
    ) -> list[TimerRow]:
        """Timers due at ``now`` or earlier, earliest first."""
        ...

    async def timers_of_game(self, game_id: int) -> list[TimerRow]: ...

    async def vote(self, vote_id: int) -> VoteRow | None: ...

    async def away_of(self, guild_id: int, user_id: int) -> float | None:
        """Until when the player is away on the server (None: not away)."""
        ...

    async def away_periods(self, guild_id: int, user_id: int, after: float) -> list[AwayPeriodRow]:
        """The player's away periods on the server that started after ``after``, oldest first."""
        ...

    async def player_settings(self, user_id: int) -> PlayerSettingsRow | None: ...

    async def server_play(self, guild_id: int) -> ServerPlayRow | None: ...

    async def games_of_user_everywhere(self, user_id: int) -> list[GameRow]:
        """Every running game, on any server, in which the user has a seat."""
        ...

    async def reminded_at(self, user_id: int, game_id: int) -> float | None: ...

    async def games_of_user(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The server's running games in which the user has a seat."""

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
