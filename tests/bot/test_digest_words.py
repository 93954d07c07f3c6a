"""The digest's words in every language: "your move in N games" by the language's plural rules
(French "1 partie", "2 parties", "1 000 000 de parties"; Japanese one form), and the player's
digest choice in words, as ``/settings digest`` answers it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.adapter.settings_command import digest_text
from bot.storage.base import PlayerSettingsRow
from i18n import t

LANGUAGES = ("en", "de", "fr", "ja")


@pytest.mark.parametrize(
    ("lang", "one", "two", "million"),
    [
        ("en", "Your move in 1 game", "Your move in 2 games", "Your move in 1,000,000 games"),
        ("de", "Du bist in 1 Partie am Zug", "Du bist in 2 Partien am Zug", "1.000.000 Partien"),
        ("fr", "dans 1 partie", "dans 2 parties", "1\u202f000\u202f000 de parties"),
        ("ja", "1ゲームであなたの番です", "2ゲームであなたの番です", "1,000,000ゲーム"),
    ],
)
def test_your_move_in_n_games_follows_each_languages_plural_rules(
    lang: str, one: str, two: str, million: str
) -> None:
    assert one in t(lang, "digest.title", count=1)
    assert two in t(lang, "digest.title", count=2)
    assert million in t(lang, "digest.title", count=1_000_000)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_digest_choice_in_words(lang: str) -> None:
    row = PlayerSettingsRow(1, timezone="Asia/Tokyo")
    assert digest_text(lang, row) == t(lang, "settings.digest.line.off")
    twice = replace(row, digest="twice", digest_at="07:30", digest_only=True)
    said = digest_text(lang, twice)
    assert "07:30" in said and "19:30" in said and "Asia/Tokyo" in said
    assert t(lang, "settings.digest.instead") in said
    daily = replace(row, digest="daily", digest_at="21:05")
    said = digest_text(lang, daily)
    assert "21:05" in said and t(lang, "settings.digest.beside") in said
    assert "09:05" not in said
