"""How a resting table says so: the lobby, the turn message (and during a rest, until when), the
server settings, in every language, weekdays named and listed the language's way."""

from __future__ import annotations

import pytest

from bot.adapter.messages import clock_lines, lobby_content
from bot.adapter.settings_command import server_text
from bot.service.models import GameSnapshot, Seat
from bot.service.preferences import server_play_of
from bot.storage.base import ServerPlayRow
from i18n import t

WEEKEND = frozenset({5, 6})
DAYS = {
    "en": "Saturday and Sunday",
    "de": "Samstag und Sonntag",
    "fr": "samedi et dimanche",
    "ja": "土曜日、日曜日",
}


def game(status: str = "active", **changes: object) -> GameSnapshot:
    base = {
        "id": 1,
        "guild_id": 1,
        "channel_id": 2,
        "game": "cantstop",
        "host_id": 5,
        "status": status,
        "version": 3,
        "capacity": 2,
        "options": {},
        "seats": (Seat(0, 5, "Ann"), Seat(1, 6, "Ben")),
        "to_move": 0 if status == "active" else None,
        "clock_seconds": 86400,
        "clock_hours": 24.0,
        "deadline": 1_800_000_000.0 if status == "active" else None,
        "rest_days": WEEKEND,
        "rest_timezone": "Europe/Berlin",
    }
    base.update(changes)
    return GameSnapshot(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("locale", list(DAYS))
def test_the_turn_message_says_the_table_rests(locale: str) -> None:
    days = DAYS[locale]
    lines = clock_lines(locale, game())
    said = t(locale, "clock.rest_days", days=days, timezone="Europe/Berlin")
    assert said in lines and days in said
    assert not any("1800086400" in line for line in lines)  # not resting: no "until"
    resting = clock_lines(locale, game(resting_until=1_800_086_400.0))
    assert t(locale, "clock.resting", until="<t:1800086400:F>") in resting
    # the rewrite of an away player's clock line leaves the rest lines as they were
    assert clock_lines(locale, game(), rest=False) == lines[:-1]


def test_no_rest_days_or_no_clock_say_nothing_of_rest() -> None:
    assert not any("💤" in line for line in clock_lines("en", game(rest_days=frozenset())))
    unclocked = game(clock_seconds=None, clock_hours=None, deadline=None)
    assert not any("💤" in line for line in clock_lines("en", unclocked))


@pytest.mark.parametrize("locale", list(DAYS))
def test_the_lobby_names_the_rest_days(locale: str) -> None:
    lobby = lobby_content(locale, game("lobby", seats=(Seat(0, 5, "Ann"),)))
    assert t(locale, "lobby.rest", days=DAYS[locale], timezone="Europe/Berlin") in lobby
    plain = lobby_content(locale, game("lobby", rest_days=frozenset()))
    assert DAYS[locale] not in plain


@pytest.mark.parametrize("locale", list(DAYS))
def test_the_server_settings_show_the_default_rest(locale: str) -> None:
    resting = server_play_of(ServerPlayRow(1, rest_days="5,6", rest_timezone="Asia/Tokyo"))
    said = server_text(locale, resting).splitlines()[-1]
    assert said == t(locale, "settings.server.rest", days=DAYS[locale], timezone="Asia/Tokyo")
    plain = server_text(locale, server_play_of(None)).splitlines()[-1]
    assert plain == t(locale, "settings.server.no_rest")
