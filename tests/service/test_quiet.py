"""Quiet hours and away durations: parsing and validation, and when a quiet period ends, at
fixed times, across midnight and on the days Europe/Berlin changes its clocks (2026: forward on
29 March at 02:00, back on 25 October at 03:00)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.preferences import BadDuration, parse_duration
from bot.service.quiet import (
    BadQuietHours,
    BadTimeZone,
    check_timezone,
    parse_period,
    quiet_until,
    timezones_like,
)

BERLIN = "Europe/Berlin"


def at(zone: str, *moment: int) -> float:
    return datetime(*moment, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[misc]


def local(zone: str, stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, ZoneInfo(zone)).isoformat()


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("23:00-08:00", ("23:00", "08:00")),
        ("23-8", ("23:00", "08:00")),
        (" 22.30 – 7.15 ", ("22:30", "07:15")),
        ("0:00-6:00", ("00:00", "06:00")),
        ("13:00~14:30", ("13:00", "14:30")),
    ],
)
def test_periods_are_read_and_written_one_way(text: str, period: tuple[str, str]) -> None:
    assert parse_period(text) == period


@pytest.mark.parametrize(
    "text", ["", "23:00", "25:00-08:00", "23:60-08:00", "8-8", "night", "23:00-08:00-09:00"]
)
def test_a_bad_period_is_refused_with_what_was_typed(text: str) -> None:
    with pytest.raises(BadQuietHours) as refused:
        parse_period(text)
    assert refused.value.params == {"value": text[:40]}


def test_time_zones_are_iana_names_in_any_case() -> None:
    assert check_timezone("europe/berlin") == BERLIN
    assert check_timezone(" Asia/Tokyo ") == "Asia/Tokyo"
    assert check_timezone("UTC") == "UTC"
    for bad in ("Europe/Atlantis", "CEST+2", "../etc/passwd", ""):
        with pytest.raises(BadTimeZone):
            check_timezone(bad)
    assert timezones_like("berl") == [BERLIN]
    assert "America/New_York" in timezones_like("new york")


def test_outside_quiet_hours_nothing_waits() -> None:
    assert quiet_until(at(BERLIN, 2026, 6, 10, 12, 0), "23:00", "08:00", BERLIN) is None
    assert quiet_until(at(BERLIN, 2026, 6, 10, 8, 0), "23:00", "08:00", BERLIN) is None  # ended
    assert quiet_until(at(BERLIN, 2026, 6, 10, 22, 59), "23:00", "08:00", BERLIN) is None


def test_a_period_across_midnight_ends_the_next_morning_from_either_side() -> None:
    evening = quiet_until(at(BERLIN, 2026, 6, 10, 23, 0), "23:00", "08:00", BERLIN)
    assert local(BERLIN, evening) == "2026-06-11T08:00:00+02:00"
    night = quiet_until(at(BERLIN, 2026, 6, 11, 3, 15), "23:00", "08:00", BERLIN)
    assert local(BERLIN, night) == "2026-06-11T08:00:00+02:00"


def test_a_period_within_one_day() -> None:
    lunch = quiet_until(at(BERLIN, 2026, 6, 10, 13, 30), "13:00", "14:00", BERLIN)
    assert local(BERLIN, lunch) == "2026-06-10T14:00:00+02:00"
    assert quiet_until(at(BERLIN, 2026, 6, 10, 14, 30), "13:00", "14:00", BERLIN) is None


def test_the_same_instant_is_quiet_in_one_zone_and_not_in_another() -> None:
    instant = at("UTC", 2026, 6, 10, 22, 0)  # midnight in Berlin, 07:00 in Tokyo
    assert local(BERLIN, quiet_until(instant, "23:00", "08:00", BERLIN)) == (
        "2026-06-11T08:00:00+02:00"
    )
    assert quiet_until(instant, "23:00", "08:00", "Asia/Tokyo") is not None  # 07:00 there
    assert quiet_until(instant, "23:00", "06:00", "Asia/Tokyo") is None


def test_the_night_the_clocks_go_forward_is_an_hour_shorter() -> None:
    start = at(BERLIN, 2026, 3, 28, 23, 0)  # CET, +01:00
    ends = quiet_until(start, "23:00", "08:00", BERLIN)
    assert local(BERLIN, ends) == "2026-03-29T08:00:00+02:00"  # CEST
    assert ends is not None and ends - start == 8 * 3600
    # 05:00 CEST, after the change
    assert quiet_until(at(BERLIN, 2026, 3, 29, 5, 0), "23:00", "08:00", BERLIN) == ends


def test_an_end_the_change_skips_is_the_moment_of_the_change() -> None:
    # 02:30 does not happen on 29 March: the wall clock jumps from 02:00 to 03:00
    ends = quiet_until(at(BERLIN, 2026, 3, 29, 1, 30), "01:00", "02:30", BERLIN)
    assert local(BERLIN, ends) == "2026-03-29T03:00:00+02:00"
    assert ends == at("UTC", 2026, 3, 29, 1, 0)


def test_the_night_the_clocks_go_back_is_an_hour_longer() -> None:
    start = at(BERLIN, 2026, 10, 24, 23, 0)  # CEST, +02:00
    ends = quiet_until(start, "23:00", "08:00", BERLIN)
    assert local(BERLIN, ends) == "2026-10-25T08:00:00+01:00"  # CET
    assert ends is not None and ends - start == 10 * 3600


def test_a_time_that_happens_twice_ends_the_period_the_first_time() -> None:
    ends = quiet_until(at(BERLIN, 2026, 10, 25, 1, 30), "23:00", "02:30", BERLIN)
    assert local(BERLIN, ends) == "2026-10-25T02:30:00+02:00"  # the first 02:30, still CEST
    later = ends + 1800  # 02:00 CET, the second time round: no longer quiet
    assert quiet_until(later, "23:00", "02:30", BERLIN) is None


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("3d", 72),
        ("12h", 12),
        ("1d12h", 36),
        ("1d 12h", 36),
        ("90m", 1.5),
        ("2D", 48),
        ("14d", 336),
        ("3日", 72),
        ("2j", 48),
        ("5t", 120),
    ],
)
def test_durations(text: str, hours: float) -> None:
    assert parse_duration(text) == hours


@pytest.mark.parametrize("text", ["", "3", "d", "0d", "3x", "-1d", "1d-2h", "soon", "1.5d"])
def test_a_bad_duration_is_refused_with_what_was_typed(text: str) -> None:
    with pytest.raises(BadDuration) as refused:
        parse_duration(text)
    assert refused.value.params == {"value": text[:40]}
