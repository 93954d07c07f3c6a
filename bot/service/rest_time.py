"""Rest days: weekdays on which a table's clocks stand still, in the host's time zone.

A table that rests on Saturdays and Sundays keeps every clock still from Saturday 00:00 to
Monday 00:00 on the wall clock of its time zone (a day is the time between two midnights: 23 or
25 hours on the days the clocks change). Two questions are asked of it, and every deadline,
reminder, vote end and left-over clock is worked out through them:

- ``deadline_after(start, running)``: the instant at which ``running`` seconds of running clock
  have passed since ``start``, rest skipped (a turn that starts during rest starts its clock when
  the rest ends; a clock that would run out during rest runs out after it);
- ``running_between(a, b)``: how many seconds of running clock lie between two instants.

A table rests on at most six days a week: the clock always runs on some day.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Literal
from zoneinfo import ZoneInfo

from babel.dates import get_day_names

from bot.service.errors import UserFacingError
from bot.service.quiet import check_timezone, wall_instant

HOUR = 3600.0
#: weekdays as ``datetime.weekday()`` counts them: Monday 0 ... Sunday 6
WEEKDAYS = tuple(range(7))
WEEKEND = frozenset({5, 6})
MAX_REST_DAYS = 6
#: the time zone of a table whose host named none
DEFAULT_TIMEZONE = "UTC"
#: the languages whose day names are understood (the bot's catalogues)
_LANGUAGES = ("en", "de", "fr", "ja")
_WEEKEND_WORDS = ("weekend", "week-end", "wochenende", "週末", "土日")
_NONE_WORDS = ("none", "no", "off", "-", "keine", "kein", "aucun", "aucune", "なし")
_SEPARATORS = re.compile(r"[\s,;/+&、・]+|\band\b|\bund\b|\bet\b|と")


class BadRestDays(UserFacingError):
    """Carries ``value``: what was typed (shortened)."""

    key = "error.bad_rest_days"


@dataclass(frozen=True, slots=True)
class GameTime:
    """Where the calendar is read in game time.

    With real hours (``hour`` = 3600) game time is the wall clock. With scaled hours
    (``BOARDROOM_TEST_HOUR_SECONDS``: an hour of game time lasts ``hour`` wall seconds) the
    calendar runs that much faster, from an anchor: at the wall instant ``wall_anchor`` the game
    calendar reads ``game_anchor``, and

        game time = game_anchor + (wall − wall_anchor) × 3600 / hour

    so a test places its table on a chosen weekday (``BOARDROOM_TEST_CALENDAR_ANCHOR``: "the
    calendar reads Friday 20:00 now") and a whole weekend of rest passes in 48 scaled hours.
    """

    hour: float = HOUR
    wall_anchor: float = 0.0
    game_anchor: float = 0.0

    @property
    def rate(self) -> float:
        """Game seconds per wall second."""
        return HOUR / self.hour

    def game(self, wall: float) -> float:
        return self.game_anchor + (wall - self.wall_anchor) * self.rate

    def wall(self, game: float) -> float:
        return self.wall_anchor + (game - self.game_anchor) / self.rate


def to_stored(days: Iterable[int]) -> str | None:
    """Rest days as the database keeps them: ``"5,6"`` (None: no rest)."""
    chosen = sorted(set(days))
    return ",".join(str(d) for d in chosen) if chosen else None


def from_stored(text: str | None) -> frozenset[int]:
    if not text:
        return frozenset()
    return frozenset(int(part) for part in text.split(",") if part.strip().isdigit()) & set(
        WEEKDAYS
    )


@cache
def _names(lang: str) -> dict[str, int]:
    names: dict[str, int] = {}
    widths: tuple[Literal["wide", "abbreviated", "short", "narrow"], ...] = (
        "wide",
        "abbreviated",
        "short",
    )
    if lang == "ja":
        widths += ("narrow",)  # 土, 日
    for width in widths:
        for day, name in get_day_names(width, locale=lang).items():
            names[str(name).lower().rstrip(".")] = int(day)
    return names


def _day(word: str, lang: str) -> int | None:
    """The weekday a word names: in the reader's language first, then in any other one where
    it is not ambiguous (``di`` is Tuesday in German but Sunday in French)."""
    own = _names(lang).get(word) if lang in _LANGUAGES else None
    if own is not None:
        return own
    found = {_names(other)[word] for other in _LANGUAGES if word in _names(other)}
    return found.pop() if len(found) == 1 else None


def parse_rest_days(text: str, lang: str = "en") -> frozenset[int]:
    """Weekdays named in ``text`` (``"Sat, Sun"``, ``"weekend"``, ``"samedi et dimanche"``,
    ``"土日"``; ``"none"``: no rest) read in ``lang`` and the bot's other languages;
    ``BadRestDays`` for a word that names no day, or for all seven days."""
    typed = (text or "").strip().lower()
    if typed in _NONE_WORDS:
        return frozenset()
    days: set[int] = set()
    for word in _SEPARATORS.split(typed):
        word = word.strip().rstrip(".")
        if not word:
            continue
        if word in _WEEKEND_WORDS:
            days |= WEEKEND
            continue
        day = _day(word, lang)
        if day is None:
            raise BadRestDays(value=str(text)[:40])
        days.add(day)
    if not days or len(days) > MAX_REST_DAYS:
        raise BadRestDays(value=str(text)[:40])
    return frozenset(days)


class RestCalendar:
    """The running clock of one table: its rest days in its time zone, read in game time."""

    def __init__(
        self,
        days: Iterable[int] = (),
        timezone: str | None = None,
        game_time: GameTime | None = None,
    ) -> None:
        self.days = frozenset(days) & set(WEEKDAYS)
        if len(self.days) > MAX_REST_DAYS:
            raise ValueError("a table rests on at most six days a week")
        self.timezone = check_timezone(timezone) if timezone else DEFAULT_TIMEZONE
        self.zone = ZoneInfo(self.timezone)
        self.time = game_time or GameTime()

    @property
    def rests(self) -> bool:
        return bool(self.days)

    # ------------------------------------------------------------ in game time

    def _midnight(self, day: date) -> float:
        return wall_instant(day, time(0), self.zone)

    def _span(self, at: float) -> tuple[float, float]:
        """The rest (consecutive rest days, merged) that ``at`` falls in, or else the next one;
        game time, ``start <= at`` when resting."""
        day = datetime.fromtimestamp(at, self.zone).date()
        if day.weekday() in self.days:
            while (day - timedelta(days=1)).weekday() in self.days:
                day -= timedelta(days=1)
        else:
            while day.weekday() not in self.days:
                day += timedelta(days=1)
        end = day
        while end.weekday() in self.days:
            end += timedelta(days=1)
        return self._midnight(day), self._midnight(end)

    # ------------------------------------------------------------ in wall time

    def deadline_after(self, start: float, running: float) -> float:
        """The wall instant when ``running`` (wall) seconds of clock have run from ``start``:
        rest skipped, and never during rest (a clock that would run out as a rest begins runs
        out when it ends)."""
        if not self.days:
            return start + running
        at, left = self.time.game(start), running * self.time.rate
        while True:
            rest_start, rest_end = self._span(at)
            if rest_start <= at:
                at = rest_end
                continue
            if at + left < rest_start:
                return self.time.wall(at + left)
            left -= rest_start - at
            at = rest_end

    def running_between(self, a: float, b: float) -> float:
        """Wall seconds of running clock from ``a`` to ``b`` (negative when ``b`` is earlier)."""
        if not self.days:
            return b - a
        if b < a:
            return -self.running_between(b, a)
        at, end = self.time.game(a), self.time.game(b)
        total = 0.0
        while at < end:
            rest_start, rest_end = self._span(at)
            if rest_start > at:
                total += min(rest_start, end) - at
            at = rest_end
        return total / self.time.rate

    def resting_until(self, at: float) -> float | None:
        """When the rest that ``at`` falls in ends (wall time), or None when the clock runs."""
        if not self.days:
            return None
        game = self.time.game(at)
        rest_start, rest_end = self._span(game)
        return self.time.wall(rest_end) if rest_start <= game else None


def lobby_rest(
    typed_days: str | None,
    typed_zone: str | None,
    lang: str,
    *,
    server_days: str | None = None,
    server_zone: str | None = None,
    host_zone: str | None = None,
) -> tuple[frozenset[int], str | None]:
    """The rest days a new lobby gets and the time zone they are read in: those typed (checked:
    ``BadRestDays``, ``BadTimeZone``), else the server's days; the zone typed, else the host's
    own (``/settings quiet``), else the server's, else UTC. No rest days: no zone."""
    days = from_stored(server_days) if typed_days is None else parse_rest_days(typed_days, lang)
    zone = check_timezone(typed_zone) if typed_zone is not None else None
    if not days:
        return days, None
    return days, zone or host_zone or server_zone or DEFAULT_TIMEZONE
