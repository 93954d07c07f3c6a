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
