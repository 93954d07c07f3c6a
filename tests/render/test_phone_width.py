"""Legible on a phone: scaled to 400 px wide, every text and symbol that carries game information
stays at least 10 px tall. The sizes are the renderer's own: ``render.canvas`` notes each text's
font size and each symbol's height as it draws them (cached sprites replay theirs), and the rule
is checked against the width of the picture they ended up on, for real positions of every game at
every seat count, drawn as the channel shows them: the pictures of a turn that ended (the mover's
board with their turn marked), of a turn in progress and of ``/game board`` (``render.turn_views``
and ``render.board_views``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engines.registry import get_engine
from i18n import Translator
from render import _call, board_views, renderer, turn_views
from render.canvas import Mark, measuring
from render.stats_card import CardGame
from render.stats_card import draw as stats_card
from tests.per_game import games, per_game
from tests.render.phone import MIN_PHONE_PX, PHONE_WIDTH, spread, turn_ends

NAMES = ("Bartholomew the Magnificent", "Zoë-Léa", "高橋みなみ子さん", "Ann")
PER_SEATS = 6


#: options that change what is drawn: Harmonies' B side and spirit cards, Kokeshi's advanced
#: animal side
LAYOUT_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "harmonies": ({"side": "B", "spirits": True},),
    "kokeshi": ({"animal_side": "advanced"},),
}


def cases() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for game in games():
        info = get_engine(game).info
        for seats in range(info.min_seats, info.max_seats + 1):
            for options in ({}, *LAYOUT_OPTIONS.get(game, ())):
                yield game, seats, options


def smallest(marks: list[Mark], width: int) -> tuple[float, Mark]:
    mark = min(marks, key=lambda m: m[1])
    return mark[1] * PHONE_WIDTH / width, mark


def pictures(game: str, end: Any, tr: Translator) -> Iterator[tuple[str, Any, list[Mark]]]:
    """(what, image, the sizes noted while drawing it) for each picture the bot posts of the
    position: the end-of-turn views, the views of a turn in progress and ``/game board``'s."""
    module = renderer(game)
    names = list(NAMES)
    view_sets = [
        (f"turn view {i}", v)
        for i, v in enumerate(turn_views(game, end.state, end.since, end.mover))
    ]
    for focus in (None, end.mover):
        for table in (False, True):
            for i, view in enumerate(board_views(game, end.state, focus, table)):
                view_sets.append((f"board view {i} (table: {table}, focus: {focus})", view))
    for what, view in view_sets:
        with measuring() as marks:
            image = _call(module.draw, end.state, tr, {"names": names, **view})
        yield what, image, marks


@per_game
@pytest.mark.parametrize(("game", "seats", "options"), list(cases()))
def test_every_text_and_symbol_reads_at_phone_width(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    ends = spread(turn_ends(game, seats, seed=5, options=options), PER_SEATS)
    assert ends, "the playout ended no turn"
    for lang in ("en", "ja"):
        tr = Translator(lang)
        for end in ends:
            for what, image, marks in pictures(game, end, tr):
                assert marks, f"{game} {what}: nothing noted"
                shown, mark = smallest(marks, image.width)
                assert shown >= MIN_PHONE_PX, (
                    f"{game} {seats}p {options} {what} ({lang}): a {mark[0]} {mark[1]} px tall on a "
                    f"{image.width} px wide picture is {shown:.1f} px on a phone"
                )


def test_the_rule_fails_a_picture_too_wide_for_its_text() -> None:
    """The check is not vacuous: the old 1400 px Kokeshi layout with 25 px text fails it."""
    assert smallest([("text", 25, "Round 6")], 1400)[0] < MIN_PHONE_PX
    assert smallest([("text", 25, "Round 6"), ("symbol", 40, "")], 1000)[0] >= MIN_PHONE_PX


@per_game
@pytest.mark.parametrize("game", [g for g in games() if hasattr(renderer(g), "rules_image")])
@pytest.mark.parametrize("lang", ["en", "ja", "de", "fr"])
def test_the_rules_pictures_read_at_phone_width(game: str, lang: str) -> None:
    """``/rules`` pictures (the Kokeshi legend) keep the rule too, in every language."""
    with measuring() as marks:
        image = renderer(game).rules_image(Translator(lang))
    shown, mark = smallest(marks, image.width)
    assert shown >= MIN_PHONE_PX, f"{game} rules ({lang}): {mark} on {image.width} px"


def test_the_stats_card_reads_at_phone_width() -> None:
    """``/stats`` keeps the rule too, with a long name and a game's own averages."""
    games = [
        CardGame("cantstop", 10, 4, 2.5, 3, 21.5, 8, (20.0, 21.0, 21.5)),
        CardGame("harmonies", 4, 1, 78.5, 96, None, 0, (), {"trees": 12.5, "water": 14.0}),
    ]
    for lang in ("en", "ja", "de", "fr"):
        with measuring() as marks:
            image = stats_card(NAMES[0], games, Translator(lang))
        shown, mark = smallest(marks, image.width)
        assert shown >= MIN_PHONE_PX, f"stats card ({lang}): {mark} on {image.width} px"
