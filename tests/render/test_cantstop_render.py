"""Can't Stop board renderer: PNG validity, size, determinism, legibility, alt text, goldens.

Golden images live in ``tests/render/golden/cantstop_*.png``; regenerate them with
``UPDATE_GOLDEN=1 python -m pytest tests/render`` after a deliberate change to the picture.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from pkgutil import iter_modules
from types import ModuleType

import pytest
from PIL import Image, ImageChops

import render.canvas as canvas
from engines.replay import replay
from engines.rng import Rng
from games.cantstop import render as cantstop
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import HEIGHTS, CantStopState, Phase
from i18n import Translator
from render import describe as registry_describe
from render import render_png

ENGINE = CantStopEngine()
GOLDEN = Path(__file__).parent / "golden"
NAMES = ("Alice", "Bartholomew the Magnificent", "Chidi", "Dong-hyun")
MAX_BYTES = 100 * 1024
EN = Translator("en")


def game(seed: int, seats: int, max_steps: int = 3000) -> Iterator[tuple[CantStopState, list[str]]]:
    """Every state of a seeded game with its action log; decisions come from the seed too."""
    state = ENGINE.initial_state(seats, {})
    log: list[str] = []
    yield state, list(log)
    for step in range(max_steps):
        legal = ENGINE.legal_actions(state)
        if not legal:
            return
        rng = Rng.for_step(seed, step)
        if ENGINE.to_move(state) == -1:
            action = ENGINE.sample_chance(state, rng)
        elif state.phase == Phase.MOVE:
            action = rng.choice(legal)
        elif state.phase == Phase.DECIDE and len(legal) > 1:
            action = legal[-1] if len(state.runners) == 3 or rng.below(3) == 0 else legal[0]
        else:
            action = legal[0]
        log.append(ENGINE.encode_action(action))
        state = ENGINE.apply(state, action)
        yield state, list(log)


def find(seed: int, seats: int, want) -> tuple[CantStopState, list[str]]:
    """The first state of a seeded game that satisfies ``want``."""
    for state, log in game(seed, seats):
        if want(state):
            return state, log
    raise AssertionError("no such state in this game")


def sample_states(count: int = 40) -> list[CantStopState]:
    states: list[CantStopState] = []
    for seed, seats in ((1, 2), (2, 3), (3, 4), (4, 1)):
        played = [s for s, _ in game(seed, seats)]
        states += played[:: max(1, len(played) // (count // 4))][: count // 4]
        states.append(played[-1])
    return states


def png_of(state: CantStopState, names=None) -> bytes:
    return render_png("cantstop", state, names=names)


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# -- fixed positions -----------------------------------------------------------------------------


def _decide_with_runners(s: CantStopState) -> bool:
    return s.phase == Phase.DECIDE and len(s.runners) == 3 and sum(s.turns) >= 8


def _bust_with_claims(s: CantStopState) -> bool:
    return s.phase == Phase.ROLL and s.bust and len(set(s.claimed)) >= 3


GOLDEN_CASES = {
    "cantstop_decide_2p": (11, 2, _decide_with_runners, NAMES[:2]),
    "cantstop_bust_4p": (21, 4, _bust_with_claims, None),
    "cantstop_over_3p": (31, 3, lambda s: s.phase == Phase.OVER, NAMES[:3]),
}


@pytest.fixture(scope="module")
def golden_states() -> dict[str, tuple[CantStopState, list[str], tuple[str, ...] | None]]:
    found = {}
    for name, (seed, seats, want, names) in GOLDEN_CASES.items():
        state, log = find(seed, seats, want)
        found[name] = (state, log, names)
    return found


# -- tests ---------------------------------------------------------------------------------------


def test_valid_png_of_the_right_size() -> None:
    for state in sample_states():
        data = png_of(state, NAMES[: state.seats])
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        image = open_png(data)
        assert image.format == "PNG"
        assert image.size == (cantstop.WIDTH, cantstop.HEIGHT)
        assert image.mode == "P"
        assert len(data) <= MAX_BYTES


def test_draw_returns_a_palette_image() -> None:
    state = ENGINE.initial_state(2, {})
    image = cantstop.draw(state, EN)
    assert image.mode == "P" and image.size == (800, 600)


def test_same_state_same_bytes_even_with_cold_caches() -> None:
    state, log = find(5, 3, _decide_with_runners)
    first = png_of(state, NAMES[:3])
    assert png_of(state, NAMES[:3]) == first
    rebuilt = replay(ENGINE, 3, {}, log)
    assert rebuilt == state
    for cached in (canvas._face, canvas._text_layout, canvas.shape_mask, cantstop.background):
        cached.cache_clear()
    assert png_of(rebuilt, NAMES[:3]) == first


def test_each_step_of_a_game_changes_the_picture() -> None:
    previous = None
    for state, _ in game(7, 2, max_steps=150):
        data = png_of(state)
        assert data != previous, state
        previous = data


def test_names_change_the_picture_and_default_to_seat_letters() -> None:
    state = ENGINE.initial_state(2, {})
    assert png_of(state) != png_of(state, ["Alice", "Bob"])
    assert png_of(state, ["", "  "]) == png_of(state)
    assert EN.player(0, ["", "  "]) == "Player A"
    assert "Player A (A)" in cantstop.describe(state, EN)


def test_long_and_unusual_names_still_render() -> None:
    state = ENGINE.initial_state(4, {})
    names = ["W" * 80, "名前", "emoji 🎲🎲", "tab\tand\nnewline"]
    image = open_png(png_of(state, names))
    assert image.size == (800, 600)


def test_no_text_smaller_than_a_fortieth_of_the_height(monkeypatch) -> None:
    sizes: list[int] = []
    real = canvas.draw_text

    def spy(image, xy, text, size, *args, **kwargs):
        sizes.append(size)
        return real(image, xy, text, size, *args, **kwargs)

    monkeypatch.setattr(canvas, "draw_text", spy)
    for module in _renderer_modules():
        if hasattr(module, "draw_text"):
            monkeypatch.setattr(module, "draw_text", spy)
    crowded = _crowded_state()
    for state in [*sample_states(20), crowded]:
        cantstop.draw(state, EN, NAMES[: state.seats])
    assert sizes
    assert min(sizes) >= cantstop.HEIGHT / 40


def _renderer_modules() -> list[ModuleType]:
    return [import_module(f"games.cantstop.render.{m.name}") for m in iter_modules(cantstop.__path__)]


def _crowded_state() -> CantStopState:
    """Three seats on space 2 of column 7, B below with runners on 7 and 8, column 4 won by C."""
    base = ENGINE.initial_state(4, {})
    saved = []
    for seat in range(4):
        row = [0] * 11
        row[7 - 2] = 1 if seat == 1 else 2
        if seat == 2:
            row[4 - 2] = HEIGHTS[4]
        saved.append(tuple(row))
    claimed = list(base.claimed)
    claimed[4 - 2] = 2
    return replace(
        base,
        saved=tuple(saved),
        claimed=tuple(claimed),
        active=1,
        runners=((7, 4), (8, 1)),
        phase=Phase.DECIDE,
        dice=(3, 4, 1, 6),
        last_move=(7, 8),
    )


def _colour_count(image: Image.Image, box: tuple[int, int, int, int], colour) -> int:
    rgb = image.convert("RGB").crop(box)
    return sum(n for n, c in rgb.getcolors(1 << 16) or [] if c == colour)


def test_pieces_sharing_a_space_are_all_visible() -> None:
    base = _crowded_state()
    state = replace(base, runners=((7, 2),), last_move=(7,), dice=(3, 4, 1, 1))
    image = cantstop.draw(state, EN)
    x0, y0, x1, y1 = cantstop.cell_box(7, 2)
    box = (x0 - 4, y0, x1 + 4, y1)
    for seat in (0, 2, 3):  # seat 1 is the active player: its runner is here, its marker below
        assert _colour_count(image, box, canvas.PLAYER_COLOURS[seat]) > 30, seat
    assert _colour_count(image, box, canvas.WHITE) > 30  # the runner
    assert _colour_count(image, cantstop.cell_box(7, 1), canvas.PLAYER_COLOURS[1]) > 100


def test_claimed_column_shows_the_owner() -> None:
    image = cantstop.draw(_crowded_state(), EN)
    x0, y0, x1, y1 = cantstop.cell_box(4, 1)
    assert _colour_count(image, (x0, y0, x1, y1), cantstop.TINTS[2]) > 500
    label = (x0, cantstop.LABEL_Y - 18, x1, cantstop.LABEL_Y + 18)
    assert _colour_count(image, label, canvas.PLAYER_COLOURS[2]) > 300


def test_alt_text_says_whose_turn_claims_bust_and_winner() -> None:
    crowded = _crowded_state()
    text = cantstop.describe(crowded, EN, NAMES)
    assert "Bartholomew the Magnificent" in text
    assert "turn" in text
    assert "claimed 4" in text
    assert "7 and 8" in text and "column 7 at 4 of 13" in text

    bust, _ = find(21, 4, _bust_with_claims)
    assert "busted" in cantstop.describe(bust, EN)
    over, _ = find(31, 3, lambda s: s.phase == Phase.OVER)
    winner = NAMES[over.winner]
    assert f"{winner} wins" in cantstop.describe(over, EN, NAMES[:3])
    assert registry_describe("cantstop", over, EN).startswith("Can't Stop board.")
    for state in sample_states():
        assert 0 < len(cantstop.describe(state, EN, NAMES[: state.seats])) <= 1024


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_images(name: str, golden_states) -> None:
    state, log, names = golden_states[name]
    assert replay(ENGINE, state.seats, {}, log) == state
    image = open_png(png_of(state, names)).convert("RGB")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png_of(state, names))
        return
    assert path.exists(), f"missing golden image {path.name}: run with UPDATE_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    assert expected.size == image.size
    diff = ImageChops.difference(expected, image).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
    # tolerate anti-aliasing differences from another FreeType build, not a changed board
    assert changed <= 0.002 * image.width * image.height, f"{changed} pixels differ"


def test_encode_png_still_takes_rgb_images() -> None:
    image = Image.new("RGB", (40, 30), (10, 200, 30))
    data = canvas.encode_png(image)
    assert data == canvas.encode_png(image.copy())
    assert open_png(data).convert("RGB").getpixel((5, 5)) == (10, 200, 30)
