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
from engines.rng import Rng
from games.harmonies import render as harmonies
from games.harmonies.engine.actions import decode
from games.harmonies.engine.rules import HarmoniesEngine
from games.harmonies.engine.state import HarmoniesState
from games.harmonies.render.cards import pattern_sprite
from i18n import Translator
from render.canvas import encode_png

E = HarmoniesEngine()
EN = Translator("en")
NAMES = ("Alice", "Bartholomew the Magnificent", "名前", "emoji 🎲")
MAX_BYTES = 200 * 1024
HARMONIES_MODULES = [
    importlib.import_module(f"games.harmonies.render.{info.name}")
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
        assert image.width == harmonies.OTHERS_W + harmonies.SHARED_W  # the overview
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
        pattern_sprite,
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


def test_the_table_is_posted_as_one_picture_per_area(sample: list[HarmoniesState]) -> None:
    """During a turn the player's area and the shared area; ``/game board`` adds the other
    boards (none in a solo game); each area has its own width and alt text."""
    for state in (sample[4], sample[-1]):
        turn = harmonies.board_views(state, None)
        table = harmonies.board_views(state, None, True)
        assert [v["area"] for v in turn] == ["player", "shared"]
        expected = ["player", "shared"] + (["others"] if state.seats > 1 else [])
        assert [v["area"] for v in table] == expected
        widths = {v["area"]: harmonies.draw(state, EN, **v).width for v in table}
        assert widths["player"] == harmonies.OTHERS_W and widths["shared"] == harmonies.SHARED_W
        alts = {v["area"]: harmonies.describe(state, EN, list(NAMES), **v) for v in table}
        if state.seats > 1:
            others = [NAMES[s] for s in range(state.seats) if s != state.active]
            assert all(name in alts["others"] for name in others)
            assert NAMES[state.active] not in alts["others"]
        assert "Central board" in alts["shared"] and "Central board" not in alts["player"]


def test_the_shape_cue_of_a_token_is_measured_not_just_its_disc() -> None:
    """The phone-width rule reads the noted sizes: a stack notes its shape cue, smaller than
    the stack; a card notes the cue of each pattern hex, drawn from above."""
    with canvas.measuring() as marks:
        harmonies.stack_sprite.cache_clear()
        harmonies.stack_sprite(("brown", "green"), 40)
    assert sorted(h for _, h, _ in marks) == [13, 40]  # 0.32 of the width, and the stack
    with canvas.measuring() as marks:
        harmonies.card_sprite(3, 0, False, EN)
    cues = [h for kind, h, _ in marks if kind == "symbol"]
    assert cues and min(cues) >= 19  # 18.2 px is 10 px on a phone in the 728 px shared area
