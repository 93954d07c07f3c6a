"""What players and servers chose for asynchronous play, read with their defaults and written
after validation, so the adapter only shows them.

A player chooses how reminders reach them (``channel``, ``dm`` or ``off``), their quiet hours
(a daily period in their time zone, ``bot.service.quiet``), and whether a digest of their games
on every server comes as a direct message once or twice a day (``bot.service.digest``). A server
chooses its default turn clock, what happens when nobody decides about a silent player, when an
unstarted lobby closes and whether reminders may be sent as direct messages, each player's
yearly away budget (``bot.service.away_budget``), and the level a computer opponent plays at
when it stands in for a silent player.

Stored forms (migration 0006): ``server_settings.default_clock`` is the clock in hours of game
time (0: no clock; NULL: the built-in 24 h a move; a time bank's start when
``default_bank_cap`` is set, migration 0012, with ``default_bank_increment`` a move),
``lobby_expiry`` in hours (NULL: 24), ``allow_dm`` 0/1 (NULL: allowed); ``away_days``
(migration 0011) in days (NULL: 21); ``stand_in_level`` (migration 0016) one of
``engines.bots.LEVELS`` (NULL: medium). Hours are scaled by ``TimeUnits`` where they are used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.service.away_budget import AWAY_DAYS_RANGE, DEFAULT_AWAY_DAYS
from bot.service.clocks import (
    BANK_PRESETS,
    CLOCK_CHOICES,
    CLOCK_HOURS,
    DEFAULT_CLOCK,
    GameClock,
    TimeUnits,
    TurnClock,
)
from bot.service.digest import DIGEST_WAYS, parse_time_of_day, schedule_digest
from bot.service.digest import OFF as DIGEST_OFF
from bot.service.errors import UserFacingError
from bot.service.games import utc_now
from bot.service.quiet import check_timezone, parse_period
from bot.service.rest_time import from_stored, parse_rest_days, to_stored
from bot.service.table import BOT_SEAT, BOT_TURN, DEFAULT_ACTION, END, WAIT
from bot.storage.base import GameStore, PlayerSettingsRow, ServerPlayRow
from engines.bots import LEVELS

#: how reminders reach a player
CHANNEL, DM, OFF = "channel", "dm", "off"
REMINDER_WAYS = (CHANNEL, DM, OFF)
#: what a server may make happen when nobody decides about a silent player
ACTIONS = (BOT_TURN, BOT_SEAT, END, WAIT)
#: an unstarted lobby closes after this many hours unless the server chose otherwise
LOBBY_EXPIRY_HOURS = 24
LOBBY_EXPIRY_RANGE = (1, 168)
#: the level a bot standing in for a silent player plays at unless the server chose another
DEFAULT_STAND_IN_LEVEL = "medium"

_UNITS = {
    "d": 24.0,
    "j": 24.0,  # jour
    "t": 24.0,  # Tag
    "日": 24.0,
    "h": 1.0,
    "std": 1.0,
    "時間": 1.0,
    "m": 1 / 60,
    "min": 1 / 60,
    "分": 1 / 60,
}
_PART = re.compile(r"\s*(\d{1,4})\s*(min|std|時間|[dhjtm日分])", re.IGNORECASE)


class BadDuration(UserFacingError):
    """Carries ``value``: what was typed (shortened)."""

    key = "error.bad_duration"


class QuietNeedsTimeZone(UserFacingError):
    key = "error.quiet_needs_timezone"


class BadSettingValue(UserFacingError):
    """A value no menu offers (a forged or outdated command)."""

    key = "error.bad_input"


class AwayDaysOutOfRange(UserFacingError):
    key = "error.away_days_range"

    def __init__(self) -> None:
        super().__init__(low=AWAY_DAYS_RANGE[0], high=AWAY_DAYS_RANGE[1])


class LobbyExpiryOutOfRange(UserFacingError):
    key = "error.lobby_expiry_range"

    def __init__(self) -> None:
        super().__init__(low=LOBBY_EXPIRY_RANGE[0], high=LOBBY_EXPIRY_RANGE[1])


def parse_duration(text: str) -> float:
    """Hours of game time in ``"3d"``, ``"12h"``, ``"1d12h"``, ``"90m"`` (the day letters of
    the bot's languages too: ``3j``, ``3t``, ``3日``); ``BadDuration`` otherwise or for zero."""
    given = (text or "").strip()
    hours, at = 0.0, 0
    while at < len(given):
        part = _PART.match(given, at)
        if part is None:
            raise BadDuration(value=str(text)[:40])
        hours += int(part.group(1)) * _UNITS[part.group(2).lower()]
        at = part.end()
    if hours <= 0:
        raise BadDuration(value=str(text)[:40])
    return hours


def clock_choice(
    hours: int | None, bank_increment: int | None = None, bank_cap: int | None = None
) -> str:
    """The lobby choice (a ``CLOCK_CHOICES`` key) a stored default clock stands for."""
    if hours is None:
        return DEFAULT_CLOCK
    if bank_cap is not None:
        for choice, bank in BANK_PRESETS.items():
            if (bank.start, bank.increment, bank.cap) == (hours, bank_increment or 0, bank_cap):
                return choice
        return DEFAULT_CLOCK
    for choice, value in CLOCK_HOURS.items():
        if (value or 0) == hours:
            return choice
    return DEFAULT_CLOCK


@dataclass(frozen=True, slots=True)
class ServerPlay:
    """A server's choices for asynchronous play, defaults filled in."""

    clock: str  # a key of CLOCK_CHOICES
    action: str  # one of ACTIONS
    lobby_hours: int
    allow_dm: bool
    away_days: int = DEFAULT_AWAY_DAYS  # each player's yearly away budget
    rest_days: frozenset[int] = frozenset()  # new tables rest on these weekdays (Monday 0)
    rest_timezone: str | None = None  # ... in this zone when their host named none
    stand_in_level: str = DEFAULT_STAND_IN_LEVEL  # one of LEVELS

    def game_clock(self, units: TimeUnits) -> GameClock:
        """The default clock in (scaled) seconds (per move or a bank)."""
        return units.game_clock(self.clock)

    def lobby_seconds(self, units: TimeUnits) -> float:
        """How long an unstarted lobby stays open, in (scaled) seconds."""
        return units.hours(self.lobby_hours)


def server_play_of(row: ServerPlayRow | None) -> ServerPlay:
    row = row or ServerPlayRow(0)
    return ServerPlay(
        clock=clock_choice(row.default_clock, row.default_bank_increment, row.default_bank_cap),
        action=row.default_action if row.default_action in ACTIONS else DEFAULT_ACTION,
        lobby_hours=row.lobby_expiry or LOBBY_EXPIRY_HOURS,
        allow_dm=True if row.allow_dm is None else row.allow_dm,
        away_days=DEFAULT_AWAY_DAYS if row.away_days is None else row.away_days,
        rest_days=from_stored(row.rest_days),
        rest_timezone=row.rest_timezone,
        stand_in_level=stand_in_level_of(row),
    )


def stand_in_level_of(row: ServerPlayRow | None) -> str:
    """The level a stand-in plays at on a server (a stored level no longer offered: medium)."""
    level = row.stand_in_level if row is not None else None
    return level if level in LEVELS else DEFAULT_STAND_IN_LEVEL


class Preferences:
    """Player and server choices over the store (stateless: cheap to make where needed)."""

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], str] = utc_now,
        turn_clock: TurnClock | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        #: the digest's timer is written through it (so the scheduler wakes for it)
        self.turn_clock = turn_clock or TurnClock()

    # ----------------------------------------------------------------- players

    async def player(self, user_id: int) -> PlayerSettingsRow:
        return await self.store.player_settings(user_id) or PlayerSettingsRow(user_id)

    async def _save_player(self, row: PlayerSettingsRow) -> PlayerSettingsRow:
        """Save the player's choices; their digest's timer moves to match them (its time of
        day, time zone and quiet hours)."""
        async with self.store.write() as tx:
            await tx.set_player_settings(row, self.clock())
            now, calendar = self.turn_clock.now(), self.turn_clock.units.game_time
            timer = await schedule_digest(tx, row, now, calendar)
            if timer is not None:
                due = timer.due
                tx.on_commit(lambda: self.turn_clock.on_timer(due))
        return row

    async def set_reminders(self, user_id: int, how: str) -> PlayerSettingsRow:
        if how not in REMINDER_WAYS:
            raise BadSettingValue()
        return await self._save_player(replace(await self.player(user_id), reminders=how))

    async def set_quiet(
        self, user_id: int, period: str | None, timezone: str | None = None
    ) -> PlayerSettingsRow:
        """Quiet hours ``"23:00-08:00"`` in ``timezone`` (an IANA name; the one chosen before
        when left out). ``period`` None keeps the hours and changes only the time zone."""
        row = await self.player(user_id)
        zone = check_timezone(timezone) if timezone else row.timezone
        start, end = (row.quiet_start, row.quiet_end) if period is None else parse_period(period)
        if start is not None and zone is None:
            raise QuietNeedsTimeZone()
        return await self._save_player(
            replace(row, quiet_start=start, quiet_end=end, timezone=zone)
        )

    async def clear_quiet(self, user_id: int) -> PlayerSettingsRow:
        """No quiet hours any more (the time zone is kept for next time)."""
        row = await self.player(user_id)
        return await self._save_player(replace(row, quiet_start=None, quiet_end=None))

    async def set_digest(
        self,
        user_id: int,
        how: str | None = None,
        *,
        at: str | None = None,
        instead: bool | None = None,
        timezone: str | None = None,
        locale: str | None = None,
    ) -> PlayerSettingsRow:
        """The digest across servers: ``how`` one of ``DIGEST_WAYS``, at the time of day ``at``
        (``"08:00"``) in ``timezone`` (kept when left out, shared with quiet hours),
        ``instead`` of per-game reminders or beside them, written in ``locale``. None keeps
        what was chosen. Its timer is replaced in the same transaction."""
        if how is not None and how not in DIGEST_WAYS:
            raise BadSettingValue()
        row = await self.player(user_id)
        row = replace(
            row,
            digest=row.digest if how is None else how,
            digest_at=row.digest_at if at is None else parse_time_of_day(at),
            digest_only=row.digest_only if instead is None else bool(instead),
            timezone=check_timezone(timezone) if timezone else row.timezone,
            digest_locale=locale or row.digest_locale,
        )
        return await self._save_player(row)

    # ----------------------------------------------------------------- servers

    async def server(self, guild_id: int | None) -> ServerPlay:
        return server_play_of(await self.store.server_play(guild_id) if guild_id else None)

    async def set_server(
        self,
        guild_id: int,
        *,
        clock: str | None = None,
        action: str | None = None,
        lobby_hours: int | None = None,
        allow_dm: bool | None = None,
        away_days: int | None = None,
        rest_days: str | None = None,
        rest_timezone: str | None = None,
        lang: str = "en",
        stand_in_level: str | None = None,
    ) -> ServerPlay:
        """Change the given choices (None: keep), validated; returns them all (``rest_days``
        as typed, read in ``lang``: ``bot.service.rest_time.parse_rest_days``)."""
        row = await self.store.server_play(guild_id) or ServerPlayRow(guild_id)
        if clock is not None:
            if clock not in CLOCK_CHOICES:
                raise BadSettingValue()
            bank = BANK_PRESETS.get(clock)
            row = replace(
                row,
                default_clock=bank.start if bank else CLOCK_HOURS[clock] or 0,
                default_bank_increment=bank.increment if bank else None,
                default_bank_cap=bank.cap if bank else None,
            )
        if action is not None:
            if action not in ACTIONS:
                raise BadSettingValue()
            row = replace(row, default_action=action)
        if lobby_hours is not None:
            low, high = LOBBY_EXPIRY_RANGE
            if type(lobby_hours) is not int or not low <= lobby_hours <= high:
                raise LobbyExpiryOutOfRange()
            row = replace(row, lobby_expiry=lobby_hours)
        if allow_dm is not None:
            row = replace(row, allow_dm=bool(allow_dm))
        if away_days is not None:
            low, high = AWAY_DAYS_RANGE
            if type(away_days) is not int or not low <= away_days <= high:
                raise AwayDaysOutOfRange()
            row = replace(row, away_days=away_days)
        if rest_timezone is not None:
            row = replace(row, rest_timezone=check_timezone(rest_timezone))
        if rest_days is not None:
            row = replace(row, rest_days=to_stored(parse_rest_days(rest_days, lang)))
        if stand_in_level is not None:
            if stand_in_level not in LEVELS:
                raise BadSettingValue()
            row = replace(row, stand_in_level=stand_in_level)
        async with self.store.write() as tx:
            await tx.set_server_play(row, self.clock())
        return server_play_of(row)


__all__ = [
    "ACTIONS",
    "BOT_SEAT",
    "BOT_TURN",
    "CHANNEL",
    "DEFAULT_STAND_IN_LEVEL",
    "DIGEST_OFF",
    "DIGEST_WAYS",
    "DM",
    "END",
    "OFF",
    "REMINDER_WAYS",
    "WAIT",
    "Preferences",
    "ServerPlay",
    "clock_choice",
    "parse_duration",
    "server_play_of",
    "stand_in_level_of",
]
