"""The lobby message in words: seats, host, and the options that differ from the defaults."""

from __future__ import annotations


def test_lobby_shows_changed_options_in_words() -> None:
    from bot.adapter.messages import lobby_content
    from bot.service.models import GameSnapshot, Seat

    snap = GameSnapshot(
        id=1,
        guild_id=1,
        channel_id=2,
        game="harmonies",
        host_id=5,
        status="lobby",
        version=0,
        capacity=4,
        options={"side": "B", "spirits": True, "river_loops_diameter": False},
        seats=(Seat(0, 5, "Ann"),),
    )
    text = lobby_content("en", snap)
    assert "Options: Board side: B and Spirit cards: on" in text
    assert "river" not in text.lower()  # unchanged options are not listed


def test_lobby_for_exactly_the_players_a_game_needs_gives_one_number() -> None:
    from bot.adapter.messages import lobby_content
    from bot.service.models import GameSnapshot, Seat

    def hint(game: str, capacity: int, locale: str = "en") -> str:
        snap = GameSnapshot(
            id=1,
            guild_id=1,
            channel_id=2,
            game=game,
            host_id=5,
            status="lobby",
            version=0,
            capacity=capacity,
            options={},
            seats=(Seat(0, 5, "Ann"),),
        )
        return lobby_content(locale, snap).splitlines()[-1]

    assert "when 2 players are seated" in hint("cantstop", 2)
    assert "2 to 4 players" in hint("cantstop", 4)
    assert hint("harmonies", 1) == "The host presses Start when ready: this game is for 1 player."
    for locale in ("ja", "de", "fr"):
        assert "1〜1" not in hint("harmonies", 1, locale)
        assert "2 bis 2" not in hint("cantstop", 2, locale)
        assert "de 2 à 2" not in hint("cantstop", 2, locale)


async def test_a_clock_length_has_one_wording_in_lobby_settings_and_menus() -> None:
    """"1 day" in the lobby, in /settings and in the menus of /play and /settings alike (one
    formatter: ``i18n.clock_length``), in every language; a length that is not whole days is
    said in hours."""
    import discord
    from discord import app_commands

    from bot.adapter.messages import lobby_content
    from bot.adapter.settings_command import server_text
    from bot.adapter.words import CatalogueTranslator, clock_choice_name
    from bot.service.clocks import CLOCK_HOURS, TimeUnits
    from bot.service.models import GameSnapshot, Seat
    from bot.service.preferences import ServerPlay
    from i18n import clock_length

    assert [clock_length("en", h) for h in CLOCK_HOURS.values()] == [
        "No clock", "1 hour", "12 hours", "1 day", "3 days", "7 days"
    ]
    assert clock_length("en", 36) == "36 hours" and clock_length("ja", 72) == "3日"
    assert clock_length("de", 24) == "1 Tag" and clock_length("fr", 48) == "2 jours"
    units = TimeUnits(hour=0.5)  # a test hour: the lobby still reads hours of game time
    snap = GameSnapshot(
        id=1, guild_id=1, channel_id=2, game="cantstop", host_id=5, status="lobby", version=0,
        capacity=4, options={}, seats=(Seat(0, 5, "Ann"),),
        clock_seconds=units.clock_seconds("24h"),
        clock_hours=units.in_hours(units.clock_seconds("24h")),
    )
    translator = CatalogueTranslator()
    for locale in ("en", "ja", "de", "fr"):
        day = clock_length(locale, 24)
        assert f"{day}" in lobby_content(locale, snap).splitlines()[3], locale
        play = ServerPlay(clock="24h", action="wait", lobby_hours=24, allow_dm=True, away_days=5)
        summary = server_text(locale, play)
        assert summary.count(day) == 2, summary  # the clock, and how long a lobby stays open
        name = clock_choice_name("24h")
        if locale == "en":
            assert name.message == day
        else:
            context = app_commands.TranslationContext(
                app_commands.TranslationContextLocation.choice_name, None
            )
            said = await translator.translate(name, discord.Locale(locale if locale != "en" else "en-US"), context)
            assert said == day, (locale, said)
