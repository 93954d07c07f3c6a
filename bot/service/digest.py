"""The digest across servers: once or twice a day, one direct message listing every game, on
every server, where it is the player's move (instead of per-game reminders, or beside them).

When it comes: at the time of day the player chose (``"08:00"``; twice a day, also twelve hours
later), in their time zone (the one of their quiet hours; UTC without one), moved to the end of
their quiet hours when it falls in them. Times of day are read on the game calendar
(``rest_time.GameTime``, the wall clock with real hours), so with scaled test hours a day of
digests passes in 24 scaled hours, like every clock. It is a ``digest`` timer of the player (no
game, no server: any process may send it), written in the transaction that saves the choice and
moved on to the next moment each time it is done with, so it survives restarts.

After downtime: a digest at most half its period late (12 h for a daily one, 6 h for a twice-daily
one) is sent once, late (its list is read when it is sent, so it is true then); a later one is
skipped and the next comes at its time, so two never arrive close together. Never twice: a
digest is marked as being sent before it goes out, and one found so marked (the process died
while sending it) is taken as sent.

Besides the digest, a player who takes it hears of each game at most once a day (a day of game
time, ``TimeUnits``): a per-game reminder within a day of the last one for the same game is not
sent; with the digest instead of reminders, none is. Games on a server that does not allow
direct messages, or where the player is away, are left out of the digest, and their reminders go
on as they did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.service.clocks import TimeUnits
from bot.service.errors import UserFacingError
from bot.service.models import GameSnapshot
from bot.service.quiet import quiet_until, wall_instant
from bot.service.rest_time import GameTime
from bot.storage.base import GameRow, GameStore, PlayerSettingsRow, TimerRow, Tx

#: the timer kind of a player's next digest
DIGEST = "digest"
#: how often: not at all, once a day, twice a day
OFF, DAILY, TWICE = "off", "daily", "twice"
DIGEST_WAYS = (OFF, DAILY, TWICE)
#: the time of day a digest comes when the player did not say
DEFAULT_AT = "08:00"
#: hours between two digests
PERIOD_HOURS = {DAILY: 24.0, TWICE: 12.0}
#: a player who takes the digest hears of one game at most once in this many hours of game time
REMINDER_GAP_HOURS = 24.0

_TIME = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*$")


class BadTimeOfDay(UserFacingError):
    """Carries ``value``: what was typed (shortened)."""

    key = "error.bad_time_of_day"


def parse_time_of_day(text: str) -> str:
    """``"8"``, ``"8:30"``, ``"20.15"`` as ``"08:00"`` …; ``BadTimeOfDay`` otherwise."""
    match = _TIME.match(text or "")
    hours, minutes = (int(match.group(1)), int(match.group(2) or 0)) if match else (-1, -1)
    if not (0 <= hours <= 23 and 0 <= minutes <= 59):
        raise BadTimeOfDay(value=str(text)[:40])
    return f"{hours:02d}:{minutes:02d}"


def times_of_day(row: PlayerSettingsRow) -> list[time]:
    """The wall-clock times the player's digest comes at (none when it is off)."""
    if row.digest not in PERIOD_HOURS:
        return []
    hours, minutes = (int(part) for part in (row.digest_at or DEFAULT_AT).split(":"))
    first = time(hours, minutes)
    if row.digest == DAILY:
        return [first]
    return [first, time((hours + 12) % 24, minutes)]


def out_of_quiet(moment: float, row: PlayerSettingsRow) -> float:
    """``moment``, or the end of the player's quiet hours when it falls in them."""
    if row.quiet_start and row.quiet_end and row.timezone:
        until = quiet_until(moment, row.quiet_start, row.quiet_end, row.timezone)
        if until is not None:
            return until
    return moment


def next_digest(
    after: float, row: PlayerSettingsRow, calendar: GameTime | None = None
) -> float | None:
    """The first moment after ``after`` (unix time) at which the player's digest comes: one of
    their times of day in their time zone on the game ``calendar``, moved out of their quiet
    hours. None: no digest."""
    wanted = times_of_day(row)
    if not wanted:
        return None
    calendar = calendar or GameTime()
    zone = ZoneInfo(row.timezone or "UTC")
    today = datetime.fromtimestamp(calendar.game(after), UTC).astimezone(zone).date()
    found = [
        calendar.wall(out_of_quiet(wall_instant(today + timedelta(days=shift), at, zone), row))
        for shift in (-1, 0, 1, 2)
        for at in wanted
    ]
    return min(moment for moment in found if moment > after)


def quiet_end_of(now: float, row: PlayerSettingsRow, calendar: GameTime | None = None) -> float:
    """When a digest due ``now`` may go: now, or the end of the player's quiet hours on the game
    ``calendar`` when now falls in them."""
    calendar = calendar or GameTime()
    return calendar.wall(out_of_quiet(calendar.game(now), row))


def late_limit(row: PlayerSettingsRow, units: TimeUnits | None = None) -> float:
    """How late (seconds) a digest may still be sent: half its period (hours of game time)."""
    return (units or TimeUnits()).hours(PERIOD_HOURS.get(row.digest, 24.0) / 2)


def digest_timer(user_id: int, moment: float) -> TimerRow:
    """The timer of the player's digest due at ``moment``."""
    return TimerRow(
        id=0, due=moment, kind=DIGEST, user_id=user_id, data=json.dumps({"moment": moment})
    )


async def schedule_digest(
    tx: Tx, row: PlayerSettingsRow, now: float, calendar: GameTime | None = None
) -> TimerRow | None:
    """Replace the player's digest timer by the one their choice asks for (None: no digest)."""
    for old in await tx.user_timers(row.user_id, (DIGEST,)):
        await tx.delete_timer(old.id)
    moment = next_digest(now, row, calendar)
    if moment is None:
        return None
    timer = digest_timer(row.user_id, moment)
    timer_id = await tx.add_timer(timer)
    return TimerRow(timer_id, timer.due, timer.kind, user_id=timer.user_id, data=timer.data)


def moment_of(timer: TimerRow) -> float:
    """The moment a digest timer stands for (its due time moves while it is retried)."""
    moment = json.loads(timer.data or "{}").get("moment")
    return float(moment) if isinstance(moment, int | float) else timer.due


def was_being_sent(timer: TimerRow) -> bool:
    """Was this digest being sent when its process stopped (then it counts as sent)?"""
    return bool(json.loads(timer.data or "{}").get("sending"))


def marked_sending(timer: TimerRow) -> str:
    """The timer's data, marked as being sent."""
    return json.dumps({"moment": moment_of(timer), "sending": True})


def covers(row: PlayerSettingsRow, allow_dm: bool) -> bool:
    """Does the player's digest list their games on a server (which allows DMs or not)?"""
    return row.digest in PERIOD_HOURS and allow_dm


def holds_back_reminder(
    row: PlayerSettingsRow,
    allow_dm: bool,
    last_reminded: float | None,
    now: float,
    units: TimeUnits,
) -> bool:
    """Is a per-game reminder not to be sent because the digest covers the game? With the
    digest instead of reminders: always; beside them: within a day of the last reminder of the
    same game."""
    if not covers(row, allow_dm):
        return False
    if row.digest_only:
        return True
    return last_reminded is not None and now - last_reminded < units.hours(REMINDER_GAP_HOURS)


def its_their_move(snap: GameSnapshot, user_id: int) -> bool:
    mover = snap.player_to_move()
    return snap.status == "active" and mover is not None and mover.user_id == user_id


def soonest_first(games: Sequence[GameSnapshot]) -> list[GameSnapshot]:
    """Soonest deadline first, games without a running clock last, then oldest first."""
    return sorted(games, key=lambda g: (g.deadline is None, g.deadline or 0.0, g.id))


async def games_to_digest(
    store: GameStore, snapshot_of: Callable[[GameRow], GameSnapshot], user_id: int, now: float
) -> list[GameSnapshot]:
    """The games, on every server, where it is the player's move and the digest covers them
    (the server allows DMs, the player is not away there), soonest deadline first."""
    allowed: dict[int | None, bool] = {}
    found = []
    for row in await store.games_of_user_everywhere(user_id):
        snap = snapshot_of(row)
        if not its_their_move(snap, user_id):
            continue
        if snap.guild_id not in allowed:
            play = await store.server_play(snap.guild_id) if snap.guild_id else None
            away = await store.away_of(snap.guild_id, user_id) if snap.guild_id else None
            allowed[snap.guild_id] = (play is None or play.allow_dm is not False) and (
                away is None or away <= now
            )
        if allowed[snap.guild_id]:
            found.append(snap)
    return soonest_first(found)
