"""Each bot level says how strong it is, in words made from the game's ``levels.json`` (written by
``python -m bench.levels``, never typed in): in the lobby above the "Add bot" buttons and in
``/rules``, in every language; a game without the file says nothing about strength; and the
benchmark's smoke run writes a file the bot can read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bot.present.levels as level_words
from bench import levels as bench_levels
from bot.adapter.messages import lobby_content
from bot.present.levels import about, strength_list
from bot.service.models import GameSnapshot, Seat
from engines.bots import LEVELS
from engines.bots.strength import FILE_NAME, RANDOM, BadLevelsFile, measured_levels, parse

BUILT_IN = ("cantstop", "harmonies", "kokeshi")
LANGUAGES = ("en", "de", "fr", "ja")


def lobby(game: str) -> GameSnapshot:
    return GameSnapshot(
        id=1, guild_id=1, channel_id=2, game=game, host_id=5, status="lobby", version=0,
        capacity=2, options={}, seats=(Seat(0, 5, "Ann"),),
    )


def file_of(game: str) -> dict[str, Any]:
    return json.loads((Path(__file__).parents[2] / "games" / game / FILE_NAME).read_text())


def measured_file(hard_vs_medium: float) -> dict[str, Any]:
    """A levels.json as the benchmark writes it, with hard's win rate over medium chosen."""
    data = file_of("cantstop")
    data["levels"]["hard"]["vs"].update(wins=hard_vs_medium, low=0.0, high=1.0)
    return data


@pytest.mark.parametrize(
    ("rate", "fraction"),
    [(0.724, (3, 4)), (0.79, (4, 5)), (0.5, (1, 2)), (0.663, (2, 3)), (0.855, (9, 10)),
     (0.97, (2, 2)), (0.31, (1, 3))],
)
def test_a_win_rate_becomes_a_simple_fraction(rate: float, fraction: tuple[int, int]) -> None:
    assert about(rate) == fraction


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_built_in_game_has_a_well_formed_file_and_says_it(game: str) -> None:
    data = file_of(game)
    measured = measured_levels(game)
    assert set(measured) == set(LEVELS)
    assert [measured[level].opponent for level in LEVELS] == [RANDOM, *LEVELS[:-1]]
    for level in LEVELS:
        assert measured[level].wins == data["levels"][level]["vs"]["wins"]
        assert measured[level].n == data["games_per_pairing"] > 10
    for locale in LANGUAGES:
        shown = strength_list(locale, game, "lobby.levels")
        assert shown and shown in lobby_content(locale, lobby(game))
        for level in LEVELS:
            assert level_words.strength_sentence(locale, measured[level]) in shown


def test_the_words_come_from_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    def pretend(rate: float) -> None:
        found = parse(measured_file(rate), LEVELS)
        monkeypatch.setattr(level_words, "measured_levels", lambda game: found)

    pretend(0.724)
    en = strength_list("en", "cantstop", "rules.levels.title")
    assert "- hard: wins about 3 games in 4 against a careful player" in en.splitlines()
    assert "hard: wins about 3 games in 4" in lobby_content("en", lobby("cantstop"))
    assert "schwer: gewinnt etwa 3 von 4 Partien gegen einen umsichtigen Spieler" in (
        strength_list("de", "cantstop", "lobby.levels")
    )
    assert "difficile : gagne environ 3 parties sur 4 contre un joueur prudent" in (
        strength_list("fr", "cantstop", "lobby.levels")
    )
    assert "むずかしい：慎重なプレイヤーに4回中3回ほど勝つ" in (
        strength_list("ja", "cantstop", "lobby.levels")
    )
    pretend(0.52)  # one game in two: the singular where the language has one
    assert "hard: wins about 1 game in 2 against a careful player" in (
        strength_list("en", "cantstop", "lobby.levels")
    )
    assert "difficile : gagne environ 1 partie sur 2 contre un joueur prudent" in (
        strength_list("fr", "cantstop", "lobby.levels")
    )
    pretend(0.98)
    assert "hard: wins nearly every game against a careful player" in (
        strength_list("en", "cantstop", "lobby.levels")
    )


def test_a_game_without_the_file_says_nothing_about_strength() -> None:
    import tests.games.nim  # noqa: F401  (a plugin game with bots but no levels.json)

    assert measured_levels("nim") == {}
    assert strength_list("en", "nim", "lobby.levels") == ""
    assert "wins about" not in lobby_content("en", lobby("nim"))


def test_a_malformed_file_is_refused() -> None:
    data = file_of("cantstop")
    del data["levels"]["medium"]
    with pytest.raises(BadLevelsFile):
        parse(data, LEVELS)
    data = file_of("cantstop")
    data["levels"]["hard"]["vs"]["wins"] = 1.5
    with pytest.raises(BadLevelsFile):
        parse(data, LEVELS)


def test_the_benchmarks_smoke_run_writes_a_file_the_bot_reads(tmp_path: Path) -> None:
    assert bench_levels.main(["--smoke", "--only", "cantstop", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "cantstop" / FILE_NAME).read_text())
    measured = parse(data, LEVELS)
    assert data["game"] == "cantstop" and data["games_per_pairing"] == bench_levels.SMOKE_GAMES
    assert set(data["ratings"]) == {RANDOM, *LEVELS}
    assert len(data["pairings"]) == 6  # every pair of the four players
    assert {p["n"] for p in data["pairings"]} == {bench_levels.SMOKE_GAMES}
    for level in LEVELS:
        assert measured[level].n == bench_levels.SMOKE_GAMES
        rating = data["ratings"][level]
        assert rating["low"] < rating["mu"] < rating["high"]
    # the same file in the game's folder is read by the bot: same shape, more games
    assert set(file_of("cantstop")) == set(data)
