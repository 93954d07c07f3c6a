"""How a time bank reads, in every language: the lobby's line, the menus of /play and /settings
(Discord's translations of them), the server's settings, and a turn message's clock lines
(the mover's bank running out, what it held when the turn began, the others' banks)."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.adapter.messages import clock_lines, lobby_content
from bot.adapter.settings_command import server_text
from bot.adapter.words import CatalogueTranslator, clock_choice_name
from bot.service.clocks import BANK_PRESETS, CLOCK_CHOICES
from bot.service.models import GameSnapshot, Seat
from bot.service.preferences import ServerPlay
from i18n import bank_length, clock_length, t, time_left

LOCALES = ("en", "de", "fr", "ja")


def snapshot(status: str = "active", **changes: object) -> GameSnapshot:
    base: dict[str, object] = dict(
        id=1,
        guild_id=1,
        channel_id=2,
        game="cantstop",
        host_id=5,
        status=status,
        version=3,
        capacity=3,
        options={},
        seats=(
            Seat(0, 5, "Ann", bank_left=30.0, bank_hours=30.0),
            Seat(1, 6, "Ben", bank_hours=24.0),
            Seat(2, None, "Bot 3 (easy)", bot_level="easy", bank_hours=24.0),
        ),
        to_move=0 if status == "active" else None,
        clock_seconds=24,
        clock_hours=24.0,
        bank_increment=12,
        bank_cap=72,
        bank_hours=(12.0, 72.0),
        deadline=1_700_000_000.0,
    )
    base.update(changes)
    return GameSnapshot(**base)  # type: ignore[arg-type]


def test_left_in_a_bank_is_said_to_the_hour_from_a_day_on_and_to_the_minute_below() -> None:
    assert time_left("en", 72) == "3 days"
    assert time_left("en", 30.2) == "1 day 6 hours"
    assert time_left("en", 5.5) == "5 hours 30 minutes"
    assert time_left("en", 1 / 60) == "1 minute"
    assert time_left("en", 0) == "0 minutes"
    assert time_left("de", 49) == "2 Tage 1 Stunde"
    assert time_left("fr", 1.5) == "1 heure 30 minutes"
    assert time_left("ja", 26) == "1日2時間"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_bank_lobby_says_its_start_increment_and_cap(locale: str) -> None:
    lines = lobby_content(locale, snapshot(status="lobby")).splitlines()
    said = t(
        locale,
        "lobby.bank",
        start=clock_length(locale, 24),
        increment=clock_length(locale, 12),
        cap=clock_length(locale, 72),
    )
    assert said in lines
    per_move = snapshot(status="lobby", bank_hours=None, bank_increment=None, bank_cap=None)
    assert (
        t(locale, "lobby.clock", clock=clock_length(locale, 24))
        in lobby_content(locale, per_move).splitlines()
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_a_turn_message_shows_the_movers_bank_and_the_others(locale: str) -> None:
    lines = clock_lines(locale, snapshot())
    assert lines == [
        t(
            locale,
            "clock.bank_runs_out",
            player="Ann",
            when="<t:1700000000:R>",
            held=time_left(locale, 30.0),
        ),
        t(
            locale,
            "clock.banks",
            banks=t(locale, "clock.bank_of", player="Ben", left=time_left(locale, 24.0)),
        ),
    ]  # a computer opponent plays without a clock: it has no bank to show
    per_move = snapshot(bank_hours=None, bank_increment=None, bank_cap=None)
    assert clock_lines(locale, per_move) == [t(locale, "clock.runs_out", when="<t:1700000000:R>")]


def test_an_away_mover_keeps_the_stopped_line_and_the_others_banks_stay() -> None:
    lines = clock_lines("en", snapshot(deadline=None, clock_left=20.0), away_until=1_800_000_000)
    assert lines[0].startswith("⏸ Clock stopped: Ann is away until <t:1800000000:f>")
    assert lines[1] == "🏦 The others' time banks: Ben 1 day"


async def test_menus_and_settings_name_every_bank_in_every_language() -> None:
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.choice_name, None
    )
    assert CLOCK_CHOICES[-3:] == ("bank-1d", "bank-3d", "bank-7d")
    for choice, bank in BANK_PRESETS.items():
        name = clock_choice_name(choice)
        assert name.message == "Time bank {} (+{} a move, at most {})".format(
            clock_length("en", bank.start),
            clock_length("en", bank.increment),
            clock_length("en", bank.cap),
        )
        assert len(name.message) <= 100  # Discord's limit for a choice's name
        for locale in LOCALES:
            words = bank_length(locale, bank.start, bank.increment, bank.cap)
            if locale != "en":
                said = await translator.translate(name, discord.Locale(locale), context)
                assert said == words and len(said) <= 100, (locale, said)
            play = ServerPlay(clock=choice, action="wait", lobby_hours=24, allow_dm=True)
            assert words in server_text(locale, play)
    assert clock_choice_name("3d").message == "3 days"  # a per-move clock reads as before


def test_going_away_rewrites_the_movers_bank_line_and_keeps_the_others() -> None:
    from bot.adapter.away_boards import rewritten

    running, stopped = snapshot(), snapshot(deadline=None, clock_left=20.0)
    away = 1_800_000_000.0
    board = ["**Ben** stopped.", *clock_lines("en", running), "<@5>, it is your turn."]
    after = rewritten(
        "\n".join(board), [clock_lines("en", running)], [clock_lines("en", stopped, away)]
    )
    assert after == "\n".join(
        ["**Ben** stopped.", *clock_lines("en", stopped, away), "<@5>, it is your turn."]
    )
    assert after is not None and "Ben 1 day" in after and "time bank runs out" not in after


def test_after_downtime_a_bank_board_names_the_postponed_deadline_and_keeps_what_it_held() -> None:
    from bot.adapter.away_boards import rewritten

    shown, postponed = snapshot(), snapshot(deadline=1_700_090_000.0)  # as boards_after_downtime
    board = ["**Ben** stopped.", *clock_lines("en", shown), "<@5>, it is your turn."]
    before = [clock_lines(lang, shown, rest=False) for lang in LOCALES]
    after = [clock_lines(lang, postponed, rest=False) for lang in LOCALES]
    moved = rewritten("\n".join(board), before, after)
    assert moved is not None and "<t:1700090000:R>" in moved and "<t:1700000000:R>" not in moved
    assert moved == "\n".join(board).replace("<t:1700000000:R>", "<t:1700090000:R>")
    assert "1 day 6 hours" in moved and "Ben 1 day" in moved  # the banks as they were
