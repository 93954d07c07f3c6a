"""Harmonies board renderer: PNG validity, size, determinism, legibility and alt text."""

from __future__ import annotations

import importlib
import io
import pkgutil
import random

import pytest
from PIL import Image

import render.canvas as canvas
from engines.base import CHANCE, TERMINAL
from engines.harmonies.actions import decode
from engines.harmonies.rules import HarmoniesEngine
from engines.harmonies.state import HarmoniesState
from engines.rng import Rng
from i18n import Translator
from render import harmonies
from render.canvas import encode_png

E = HarmoniesEngine()
EN = Translator("en")
NAMES = ("Alice", "Bartholomew the Magnificent", "名前", "emoji 🎲")
MAX_BYTES = 200 * 1024
HARMONIES_MODULES = [
    importlib.import_module(f"render.harmonies.{info.name}")
    for info in pkgutil.iter_modules(harmonies.__path__)
]


def states(
    seats: int, options: dict[str, object], seed: int, every: int = 25
) -> list[HarmoniesState]:
    """Every ``every``-th state of a seeded game with random legal moves, and the last one."""
    s = E.initial_state(seats, options)
    rnd = random.Random(seed)
    found = [s]
    step = 0
    while E.to_move(s) != TERMINAL:
        if E.to_move(s) == CHANCE:
            a = E.sample_chance(s, Rng.for_step(seed, step))
        else:
            legal = [a for a in E.legal_actions(s) if a.kind != "undo"]
            cubes = [a for a in legal if a.kind == "cube"]
            a = rnd.choice(cubes or legal)
        s = E.apply(s, a)
        step += 1
        if step % every == 0:
            found.append(s)
    found.append(s)
    return found


@pytest.fixture(scope="module")
def sample() -> list[HarmoniesState]:
    return (
        states(4, {}, 1)
        + states(2, {"side": "B", "spirits": True}, 2)
        + states(3, {"side": "B"}, 3, every=60)
        + states(1, {"spirits": True}, 4, every=40)
    )


def png(state: HarmoniesState, **kwargs: object) -> bytes:
    return encode_png(harmonies.draw(state, EN, **kwargs))


def test_valid_png_of_the_right_size(sample: list[HarmoniesState]) -> None:
    for state in sample[::3]:
        data = png(state, names=NAMES[: state.seats])
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.width == harmonies.SHARED_W and image.height > image.width  # portrait
        assert image.mode == "P"
        assert len(data) <= MAX_BYTES


def test_same_state_same_bytes_even_with_cold_caches(sample: list[HarmoniesState]) -> None:
    state = sample[5]
    first = png(state)
    assert png(state) == first
    for cached in (
        canvas._face,
        canvas._text_layout,
        canvas.shape_mask,
        harmonies.stack_sprite,
        harmonies.disc_sprite,
        harmonies.card_sprite,
        harmonies.empty_board,
    ):
        cached.cache_clear()
    assert png(E.decode_state(E.encode_state(state))) == first


def test_different_states_give_different_pictures() -> None:
    s = states(2, {}, 9, every=10**6)[0]
    while E.to_move(s) == CHANCE:
        s = E.apply(s, E.sample_chance(s, Rng.for_step(9, 0)))
    pictures = [png(s)]
    s = E.apply(s, decode("take:1"))
    pictures.append(png(s))
    place = next(a for a in E.legal_actions(s) if a.kind == "place")
    s = E.apply(s, place)
    pictures.append(png(s))
    card = next(a for a in E.legal_actions(s) if a.kind == "card")
    pictures.append(png(E.apply(s, card)))
    assert len(set(pictures)) == len(pictures)


def test_focus_seat_and_names_change_the_picture(sample: list[HarmoniesState]) -> None:
    state = sample[4]
    assert png(state, focus_seat=0) != png(state, focus_seat=1)
    assert png(state, focus_seat=state.active) == png(state)
    assert png(state, names=["Ann", "Bo", "Cy", "Di"]) != png(state)


def test_no_text_smaller_than_a_fortieth_of_the_height(
    sample: list[HarmoniesState], monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes: list[int] = []
    real = canvas.draw_text

    def spy(image, xy, text, size, *args, **kwargs):  # type: ignore[no-untyped-def]
        sizes.append(size)
        return real(image, xy, text, size, *args, **kwargs)

    for module in (canvas, harmonies, *HARMONIES_MODULES):
        if hasattr(module, "draw_text"):
            monkeypatch.setattr(module, "draw_text", spy)
    harmonies.empty_board.cache_clear()
    harmonies.card_sprite.cache_clear()
    for state in sample:
        harmonies.draw(state, EN, names=NAMES[: state.seats])
    assert sizes and min(sizes) >= harmonies.HEIGHT / 40


def test_describe(sample: list[HarmoniesState]) -> None:
    for state in sample:
        text = harmonies.describe(state, EN, NAMES[: state.seats])
        assert text.startswith("Harmonies board") and len(text) <= 1024
    assert "Player A" in harmonies.describe(sample[0], EN)
