"""The rest calendar: deadlines skip rest days, in the table's time zone, through clock changes,
and in scaled game time."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.service.quiet import BadTimeZone
from bot.service.rest_time import (
    HOUR,
    WEEKEND,
    BadRestDays,
    GameTime,
    RestCalendar,
    from_stored,
    lobby_rest,
    parse_rest_days,
    to_stored,
)

BERLIN = "Europe/Berlin"
DAY = 24 * HOUR


def at(text: str, zone: str = BERLIN) -> float:
    """Unix time of a wall-clock reading in ``zone`` (``"2026-03-06 20:00"``)."""
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def weekend(zone: str = BERLIN, game_time: GameTime | None = None) -> RestCalendar:
    return RestCalendar(WEEKEND, zone, game_time)


# ------------------------------------------------------------------ no rest


def test_without_rest_days_the_clock_is_plain_arithmetic() -> None:
    calendar = RestCalendar()
    assert not calendar.rests
    assert calendar.deadline_after(1000.0, 50.0) == 1050.0
    assert calendar.running_between(1000.0, 1050.0) == 50.0
    assert calendar.running_between(1050.0, 1000.0) == -50.0
    assert calendar.resting_until(1000.0) is None


# ------------------------------------------------------------------ deadlines


def test_a_deadline_that_would_land_in_the_weekend_moves_past_it() -> None:
    friday_evening = at("2026-03-06 20:00")  # a Friday
    deadline = weekend().deadline_after(friday_evening, 24 * HOUR)
    # 4 hours on Friday, the weekend stands still, 20 hours on Monday
    assert deadline == at("2026-03-09 20:00")


def test_a_deadline_before_the_rest_is_untouched() -> None:
    thursday = at("2026-03-05 10:00")
    assert weekend().deadline_after(thursday, 12 * HOUR) == at("2026-03-05 22:00")


def test_a_clock_that_would_run_out_as_the_rest_begins_runs_out_after_it() -> None:
    friday = at("2026-03-06 20:00")
    assert weekend().deadline_after(friday, 4 * HOUR) == at("2026-03-09 00:00")


def test_a_turn_starting_during_rest_starts_its_clock_when_the_rest_ends() -> None:
    saturday = at("2026-03-07 15:00")
    assert weekend().deadline_after(saturday, 3 * HOUR) == at("2026-03-09 03:00")
    assert weekend().resting_until(saturday) == at("2026-03-09 00:00")
    assert weekend().resting_until(at("2026-03-09 00:00")) is None
    assert weekend().resting_until(at("2026-03-06 23:59")) is None


def test_a_long_clock_skips_every_weekend_it_spans() -> None:
    monday = at("2026-03-02 09:00")
    # 7 days of running clock: Mon–Fri is 5 days, the rest the next Monday and Tuesday
    assert weekend().deadline_after(monday, 7 * DAY) == at("2026-03-11 09:00")


def test_six_rest_days_out_of_seven_leave_only_the_one_day() -> None:
    only_wednesday = RestCalendar({0, 1, 3, 4, 5, 6}, BERLIN)
    monday = at("2026-03-02 09:00")
    assert only_wednesday.deadline_after(monday, 12 * HOUR) == at("2026-03-04 12:00")
    # 36 hours: all of one Wednesday, half of the next
    assert only_wednesday.deadline_after(monday, 36 * HOUR) == at("2026-03-11 12:00")
    assert only_wednesday.resting_until(monday) == at("2026-03-04 00:00")


def test_seven_rest_days_are_refused() -> None:
    with pytest.raises(ValueError):
        RestCalendar(range(7), BERLIN)


def test_rest_follows_the_tables_time_zone() -> None:
    friday = at("2026-03-06 20:00", "Asia/Tokyo")
    tokyo = weekend("Asia/Tokyo").deadline_after(friday, 5 * HOUR)
    assert tokyo == at("2026-03-09 01:00", "Asia/Tokyo")
    # the same instant is Friday noon in Berlin: the clock runs out before that weekend
    assert weekend().deadline_after(friday, 5 * HOUR) == friday + 5 * HOUR


# ------------------------------------------------------------------ clock changes


def test_a_rest_day_when_the_clocks_go_forward_is_23_hours_long() -> None:
    # Europe/Berlin: 29 March 2026 (a Sunday) has 23 hours
    sunday_only = RestCalendar({6}, BERLIN)
    saturday = at("2026-03-28 22:00")
    assert sunday_only.deadline_after(saturday, 4 * HOUR) == at("2026-03-30 02:00")
    rest = sunday_only.resting_until(at("2026-03-29 12:00"))
    assert rest is not None and rest - at("2026-03-29 00:00") == 23 * HOUR


def test_a_rest_day_when_the_clocks_go_back_is_25_hours_long() -> None:
    sunday_only = RestCalendar({6}, BERLIN)
    start = at("2026-10-24 23:00")
    assert sunday_only.running_between(start, at("2026-10-26 01:00")) == 2 * HOUR
    assert sunday_only.running_between(at("2026-10-25 00:00"), at("2026-10-26 00:00")) == 0.0


def test_running_days_across_a_clock_change_count_their_real_hours() -> None:
    weekdays_only = weekend()
    # Friday 27 March to Monday 30 March: the weekend (23 + 24 hours) does not count
    friday = at("2026-03-27 12:00")
    monday = at("2026-03-30 12:00")
    assert weekdays_only.running_between(friday, monday) == 24 * HOUR


# ------------------------------------------------------------------ running time


def test_running_between_leaves_out_the_rest() -> None:
    friday = at("2026-03-06 20:00")
    monday = at("2026-03-09 02:00")
    assert weekend().running_between(friday, monday) == 6 * HOUR
    assert weekend().running_between(monday, friday) == -6 * HOUR
    saturday, sunday = at("2026-03-07 01:00"), at("2026-03-08 23:00")
    assert weekend().running_between(saturday, sunday) == 0.0


@pytest.mark.parametrize("hours", [0.5, 4, 4.5, 30, 100, 24 * 9 + 7])
def test_running_between_undoes_deadline_after(hours: float) -> None:
    calendar = weekend()
    for start in (at("2026-03-06 20:00"), at("2026-03-07 12:00"), at("2026-03-26 18:30")):
        deadline = calendar.deadline_after(start, hours * HOUR)
        assert calendar.running_between(start, deadline) == pytest.approx(hours * HOUR)
        assert calendar.resting_until(deadline) is None


# ------------------------------------------------------------------ scaled game time


def test_scaled_hours_read_the_calendar_from_the_anchor() -> None:
    friday = at("2026-03-06 20:00")
    game_time = GameTime(hour=2.0, wall_anchor=1000.0, game_anchor=friday)
    calendar = weekend(game_time=game_time)
    # at wall 1000 it is Friday 20:00; 4 game hours (8 wall seconds) later the weekend begins
    assert calendar.resting_until(1000.0) is None
    assert calendar.resting_until(1009.0) == pytest.approx(1000.0 + 2 * (4 + 48))
    # a 24-hour clock (48 wall seconds) started then runs out on Monday at 20:00 game time
    deadline = calendar.deadline_after(1000.0, 48.0)
    assert deadline == pytest.approx(1000.0 + 2 * (4 + 48 + 20))
    assert game_time.game(deadline) == pytest.approx(at("2026-03-09 20:00"))
    assert calendar.running_between(1000.0, deadline) == pytest.approx(48.0)


def test_real_hours_read_the_wall_clock() -> None:
    assert GameTime().game(12345.0) == 12345.0
    assert GameTime().wall(12345.0) == 12345.0


# ------------------------------------------------------------------ naming the days


@pytest.mark.parametrize(
    ("typed", "lang", "days"),
    [
        ("Sat, Sun", "en", WEEKEND),
        ("saturday and sunday", "en", WEEKEND),
        ("weekend", "en", WEEKEND),
        ("Samstag, Sonntag", "de", WEEKEND),
        ("samedi et dimanche", "fr", WEEKEND),
        ("土曜日、日曜日", "ja", WEEKEND),
        ("土日", "ja", WEEKEND),
        ("fri", "de", frozenset({4})),  # another language's unambiguous name
        ("di", "de", frozenset({1})),  # Dienstag for a German reader ...
        ("di", "fr", frozenset({6})),  # ... dimanche for a French one
        ("mon tue wed thu fri sat", "en", frozenset(range(6))),
        ("none", "en", frozenset()),
    ],
)
def test_rest_days_are_read_in_the_readers_language(
    typed: str, lang: str, days: frozenset[int]
) -> None:
    assert parse_rest_days(typed, lang) == days


@pytest.mark.parametrize("typed", ["", "someday", "mon, tue, wed, thu, fri, sat, sun", "sat x"])
def test_unknown_or_every_day_is_refused(typed: str) -> None:
    with pytest.raises(BadRestDays):
        parse_rest_days(typed, "en")


def test_rest_days_are_stored_as_weekday_numbers() -> None:
    assert to_stored({6, 5}) == "5,6"
    assert to_stored(()) is None
    assert from_stored("5,6") == WEEKEND
    assert from_stored(None) == frozenset()


# ------------------------------------------------------------------ a new lobby's rest


def test_a_lobby_rests_as_typed_else_as_the_server_says() -> None:
    assert lobby_rest("sat, sun", "asia/tokyo", "en") == (WEEKEND, "Asia/Tokyo")
    assert lobby_rest(None, None, "en", server_days="6", server_zone=BERLIN) == (
        frozenset({6}),
        BERLIN,
    )
    assert lobby_rest("none", None, "en", server_days="5,6") == (frozenset(), None)
    assert lobby_rest(None, None, "en") == (frozenset(), None)


def test_the_zone_is_the_typed_one_else_the_hosts_else_the_servers() -> None:
    server = {"server_days": "5,6", "server_zone": "America/New_York"}
    assert lobby_rest(None, None, "en", host_zone="Asia/Tokyo", **server)[1] == "Asia/Tokyo"
    assert lobby_rest(None, None, "en", **server)[1] == "America/New_York"
    assert lobby_rest("sun", None, "en")[1] == "UTC"
    assert lobby_rest(None, "Europe/Paris", "en", host_zone="Asia/Tokyo", **server)[1] == (
        "Europe/Paris"
    )


def test_a_bad_zone_is_refused_even_without_rest_days() -> None:
    with pytest.raises(BadTimeZone):
        lobby_rest("none", "Mars/Olympus", "en")
    with pytest.raises(BadRestDays):
        lobby_rest("someday", "Europe/Paris", "en")
