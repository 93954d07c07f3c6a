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
