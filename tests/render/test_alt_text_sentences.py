"""Alt text reads as sentences: a status that ends in "!" or "。" gets no extra full stop."""

from __future__ import annotations

import random

import pytest

from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from i18n import end_sentence, translator
from render import describe
from tests.per_game import games, per_game


def finished_state(game: str, seats: int, seed: int) -> object:
    engine = get_engine(game)
    rnd = random.Random(seed)
    state = engine.initial_state(seats, {})
    for step in range(20000):
        mover = engine.to_move(state)
        if mover == TERMINAL:
            return state
        if mover == CHANCE:
            state = engine.apply(state, engine.sample_chance(state, Rng.for_step(seed, step)))
        else:
            state = engine.apply(state, rnd.choice(list(engine.legal_actions(state))))
    raise AssertionError("the game did not end")


@per_game
@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("locale", ["en", "ja", "de", "fr"])
def test_alt_text_of_a_finished_game_has_no_doubled_punctuation(game: str, locale: str) -> None:
    alt = describe(game, finished_state(game, 2, 3), translator(locale))
    for doubled in ("!.", "?.", "。.", "!。", "..", "。。", "！.", "！。"):
        assert doubled not in alt, (doubled, alt)
    if locale == "ja":
        assert "ラウンド." not in alt and "番." not in alt  # a Japanese sentence ends in 。


def test_end_sentence() -> None:
    assert end_sentence("alice wins!") == "alice wins!"
    assert end_sentence("Bob's turn") == "Bob's turn."
    assert end_sentence("終了しました。", "ja") == "終了しました。"
    assert end_sentence("第32ラウンド", "ja") == "第32ラウンド。"
