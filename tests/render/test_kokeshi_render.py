"""Kokeshi board renderer: valid PNGs, size bounds, determinism, alt text and the legend."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng
from games.kokeshi import render as kokeshi
from games.kokeshi.engine.rules import KokeshiEngine
from games.kokeshi.engine.state import KokeshiState
from games.kokeshi.render.alt_text import tile_text
from games.kokeshi.render.layout import AREA_W, MIN_TEXT
from games.kokeshi.render.legend import LEGEND_W, legend
from games.kokeshi.render.sprites import draw_tile, tile_lines
from i18n import Translator
from render.canvas import encode_png

ENGINE = KokeshiEngine()
MAX_BYTES = 250 * 1024
EN = Translator("en")


def game_state(seats: int, steps: int, seed: int = 4, side: str = "basic") -> KokeshiState:
    """A seeded random game after ``steps`` actions (or at its end)."""
    s = ENGINE.initial_state(seats, {"animal_side": side})
    chooser = Rng.for_step(seed, 1 << 40)
    n = 0
    while ENGINE.to_move(s) != TERMINAL and n < steps:
        if ENGINE.to_move(s) == CHANCE:
            a = ENGINE.sample_chance(s, Rng.for_step(seed, n))
        else:
            legal = ENGINE.legal_actions(s)
            a = legal[chooser.below(len(legal))]
        s = ENGINE.apply(s, a)
        n += 1
    return s


STATES = [
    pytest.param(2, 0, id="2p-start"),
    pytest.param(2, 30, id="2p-setup"),
    pytest.param(3, 120, id="3p-mid"),
    pytest.param(4, 200, id="4p-mid"),
    pytest.param(4, 10**6, id="4p-over"),
    pytest.param(2, 10**6, id="2p-over"),
]


def png_of(s: KokeshiState, **kwargs: object) -> bytes:
    return encode_png(kokeshi.draw(s, EN, **kwargs))


@pytest.mark.parametrize(("seats", "steps"), STATES)
def test_valid_png_within_bounds(seats: int, steps: int) -> None:
    s = game_state(seats, steps)
    data = png_of(s)
    image = Image.open(io.BytesIO(data))
    image.verify()
    assert image.format == "PNG"
    assert image.width == AREA_W and image.height > image.width  # portrait, for phones
    assert len(data) < MAX_BYTES


@pytest.mark.parametrize(("seats", "steps"), STATES)
def test_same_state_same_bytes(seats: int, steps: int) -> None:
    s = game_state(seats, steps)
    again = ENGINE.decode_state(ENGINE.encode_state(s))
    assert png_of(s) == png_of(again)


def test_focus_seat_changes_the_big_board() -> None:
    s = game_state(3, 120)
    other = (s.active + 1) % 3
    assert png_of(s, focus_seat=other) != png_of(s)
    assert png_of(s, focus_seat=s.active) == png_of(s)


def test_text_is_at_least_a_fortieth_of_the_width() -> None:
    assert MIN_TEXT * 40 >= AREA_W  # every picture test_phone_width.py checks in detail


@pytest.mark.parametrize(("seats", "steps"), STATES)
def test_describe(seats: int, steps: int) -> None:
    text = kokeshi.describe(game_state(seats, steps), EN)
    assert text.startswith("Kokeshi board.") and "{" not in text


def test_unknown_locale_falls_back_to_english() -> None:
    s = game_state(2, 60)
    assert png_of(s) == encode_png(kokeshi.draw(s, Translator("xx-YY")))


def test_legend_png() -> None:
    image = legend(EN)
    data = encode_png(image)
    assert Image.open(io.BytesIO(data)).format == "PNG"
    assert image.size[0] == LEGEND_W and image.height > image.width and len(data) < MAX_BYTES


def test_every_tile_has_symbols_and_alt_text() -> None:
    image = Image.new("RGB", (200, 80))
    data = ENGINE.data
    tiles = list(range(len(data.tiles))) + [100 + 10 * c + lv for c in range(5) for lv in (1, 2, 3)]
    for tile in tiles:
        draw_tile(image, (0, 0, 140, 64), tile, EN, reserve=36)
        text = tile_text(EN, tile)
        assert text and "{" not in text
        if tile < 100:
            assert tile_lines(EN, tile)


def test_every_phase_has_a_status_line() -> None:
    from i18n import has

    for phase in ("start", "move", "side", "pick", "animal", "gain", "col", "place"):
        assert has(f"kokeshi.status.{phase}")
