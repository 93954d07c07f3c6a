"""Quiet hours: a daily period, in the player's own time zone, during which reminders wait.

A period is two wall-clock times, ``"23:00-08:00"``; it may run across midnight. Time zones are
IANA names (``Europe/Berlin``) read by ``zoneinfo``. Days on which the clocks change are handled
by working in wall-clock time: a quiet period that ends at a time the change skips (02:30 on the
night the clocks go forward) ends at the moment of the change, and a time that happens twice
(the night they go back) counts at its first occurrence.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from bot.service.errors import UserFacingError

_PERIOD = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*[-–—~〜]\s*(\d{1,2})(?:[:.h](\d{2}))?\s*$")


class BadQuietHours(UserFacingError):
    """Carries ``value``: what was typed (shortened)."""

    key = "error.bad_quiet_hours"


class BadTimeZone(UserFacingError):
    """Carries ``value``: what was typed (shortened)."""

    key = "error.bad_timezone"


def _clock(hours: str, minutes: str | None) -> str | None:
    h, m = int(hours), int(minutes or 0)
    if not (0 <= h <= 23 and 0 <= m <= 59):
        return None
    return f"{h:02d}:{m:02d}"


def parse_period(text: str) -> tuple[str, str]:
    """``"23:00-08:00"`` (also ``"23-8"``, ``"22.30 - 7.15"``) as ``("23:00", "08:00")``;
    ``BadQuietHours`` for anything else, or for a period that starts when it ends."""
    match = _PERIOD.match(text or "")
    start = _clock(match.group(1), match.group(2)) if match else None
    end = _clock(match.group(3), match.group(4)) if match else None
    if match is None or start is None or end is None or start == end:
        raise BadQuietHours(value=str(text)[:40])
    return start, end


@cache
def _zones() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}


def check_timezone(name: str) -> str:
    """The IANA name of a time zone as the database spells it (``europe/berlin`` ->
    ``Europe/Berlin``); ``BadTimeZone`` if there is no such zone."""
    found = _zones().get((name or "").strip().lower())
    if found is None:
        raise BadTimeZone(value=str(name)[:60])
    return found


def timezones_like(text: str, limit: int = 25) -> list[str]:
    """Time zone names containing ``text`` (for suggestions while typing), shortest first."""
    wanted = (text or "").strip().lower().replace(" ", "_")
    found = [
        name for low, name in _zones().items() if (wanted in low and "/" in name) or low == wanted
    ]
    return sorted(found, key=lambda n: (not n.lower().startswith(wanted), len(n), n))[:limit]


def _wall(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


def wall_instant(day: date, at: time, zone: ZoneInfo) -> float:
    """The unix time at which the wall clock in ``zone`` first shows ``at`` on ``day`` (or, if
    that time is skipped by a clock change, the moment of the change)."""
    wanted = datetime.combine(day, at)
    first = datetime.combine(day, at, tzinfo=zone)  # fold=0: the earlier reading
    stamp = first.timestamp()
    if datetime.fromtimestamp(stamp, zone).replace(tzinfo=None) == wanted:
        return stamp
    # skipped: the wall clock jumps over ``at`` somewhere between the two readings
    low = datetime.combine(day, at, tzinfo=zone).replace(fold=1).timestamp()
    high = stamp
    low, high = min(low, high), max(low, high)
    while high - low > 1.0:
        middle = (low + high) / 2
        if datetime.fromtimestamp(middle, zone).replace(tzinfo=None) >= wanted:
            high = middle
        else:
            low = middle
    return float(round(high))


def quiet_until(now: float, start: str, end: str, tz: str) -> float | None:
    """When the quiet period that ``now`` (unix time) falls in ends, or None when ``now`` is
    not in quiet hours. ``start`` and ``end`` are ``"HH:MM"``, ``tz`` an IANA name."""
    zone = ZoneInfo(tz)
    begin, finish = _wall(start), _wall(end)
    today = datetime.fromtimestamp(now, UTC).astimezone(zone).date()
    for day in (today - timedelta(days=1), today):
        opens = wall_instant(day, begin, zone)
        closes = wall_instant(day + timedelta(days=1) if finish <= begin else day, finish, zone)
        if opens <= now < closes:
            return closes
    return None
