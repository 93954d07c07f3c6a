"""Every language on every board: each catalogue word drawn on a picture has its glyphs in the
bundled font (its cmap, not just "drawing raised nothing"), and no text runs out of its picture
or over other text, for every game at every seat count it allows, with long names too."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from pkgutil import walk_packages
from typing import Any

import pytest
from PIL import Image, ImageChops

import i18n
import render
from engines.base import CHANCE
from engines.registry import catalogue_homes, get_engine, part_module
from engines.rng import Rng
from i18n import Translator
from render import canvas, renderer, rules_png
from tests.per_game import games, per_game, seat_counts

LANGUAGES = ("en", "ja", "de", "fr")
LONG_NAMES = ("Bartholomew the Magnificent", "Ангелина Васильевна", "高橋みなみ子さん", "Zoë-Léa")
#: states drawn per game and seat count: spread over one seeded game, the end included
SAMPLES = 5


def states(game: str, seats: int, seed: int = 11) -> list[Any]:
    """``SAMPLES`` states of one game played at random (chance from the seed), the last one over."""
    engine = get_engine(game)
    state = engine.initial_state(seats, {})
    seen = [state]
    for step in range(5000):
        legal = engine.legal_actions(state)
        if not legal:
            break
        rng = Rng.for_step(seed, step)
        if engine.to_move(state) == CHANCE:
            action = engine.sample_chance(state, rng)
        else:
            action = legal[rng.below(len(legal))]
        state = engine.apply(state, action)
        seen.append(state)
    picks = [seen[i * (len(seen) - 1) // (SAMPLES - 1)] for i in range(SAMPLES)]
    return picks


@dataclass
class Drawn:
    """What one drawing did: the catalogue keys it read, and every text with its inked box."""

    keys: set[str] = field(default_factory=set)
    #: (the picture drawn on, the text, its inked box); pictures are kept so none is mistaken
    #: for another
    texts: list[tuple[Image.Image, str, tuple[int, int, int, int]]] = field(default_factory=list)


def renderer_modules() -> list[Any]:
    modules = [canvas]
    for game in games():
        top = import_module(part_module(game, render.PART))
        modules.append(top)
        for info in walk_packages(getattr(top, "__path__", []), top.__name__ + "."):
            modules.append(import_module(info.name))
    return modules


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    record = Drawn()
    real_t, real_draw = i18n.t, canvas.draw_text

    def t(locale: str | None, key: str, /, **params: object) -> str:
        record.keys.add(key)
        return real_t(locale, key, **params)

    def draw_text(image: Image.Image, xy: Any, text: str, size: int, *args: Any, **kw: Any) -> Any:
        box = real_draw(image, xy, text, size, *args, **kw)
        record.texts.append((image, text, box))
        return box

    monkeypatch.setattr(i18n, "t", t)
    for module in renderer_modules():
        if getattr(module, "draw_text", None) is real_draw:
            monkeypatch.setattr(module, "draw_text", draw_text)
    for module in renderer_modules():  # sprites with words are cached: draw them anew
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and value.__module__.startswith(
                ("render.", *(f"{home}." for home in catalogue_homes()))
            ):
                value.cache_clear()
    return record


def draw_everything(
    game: str, seats: int, lang: str, names: tuple[str, ...] | None, each: Any = None
) -> None:
    """Draw sample boards of ``game`` (every seat in focus) and its rules picture; ``each`` is
    called after every picture."""
    tr = Translator(lang)
    shown = None if names is None else list(names[:seats])
    for state in states(game, seats):
        for focus in (None, *range(seats)):
            render.render_png(game, state, tr, names=shown, focus_seat=focus)
            if each:
                each()
    if getattr(renderer(game), "rules_image", None) is not None:
        rules_png(game, tr)
        if each:
            each()


def catalogue_texts(key: str, lang: str) -> list[str]:
    """Every text of ``key`` in ``lang``: one, or one per plural form."""
    words = i18n.catalogue(lang)
    base = key.rpartition(".")[0]
    if i18n.is_plural(key):
        return list(i18n.forms(key, lang).values())
    if i18n.is_plural(base) and key not in words:
        return list(i18n.forms(base, lang).values())
    return [words.get(key, i18n.catalogue("en")[key])]


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
def test_every_word_drawn_has_its_glyphs_in_the_bundled_font(
    game: str, seats: int, drawn: Drawn
) -> None:
    for lang in LANGUAGES:
        draw_everything(game, seats, lang, None)
    assert drawn.keys, "nothing was looked up"
    font = canvas.coverage(canvas.MAIN.regular)
    missing = {
        (lang, key, char)
        for key in drawn.keys
        for lang in LANGUAGES
        for text in catalogue_texts(key, lang)
        for char in text
        if not char.isspace() and ord(char) not in font
    }
    assert not missing, sorted(missing)
    # and what was drawn (words with numbers and names filled in) has a face for every letter
    undrawable = {c for _, text, _ in drawn.texts for c in text if not canvas.drawable(c)}
    assert not undrawable


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
@pytest.mark.parametrize("names", [None, LONG_NAMES], ids=["default-names", "long-names"])
def test_no_text_leaves_its_picture_or_runs_into_other_text(
    game: str, seats: int, names: tuple[str, ...] | None, drawn: Drawn
) -> None:
    problems: list[str] = []

    def check() -> None:
        by_image: dict[int, list[tuple[str, tuple[int, int, int, int]]]] = {}
        for image, text, box in drawn.texts:
            x0, y0, x1, y1 = box
            if x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height:
                problems.append(f"{lang}: {text!r} at {box} leaves its {image.size} picture")
            by_image.setdefault(id(image), []).append((text, box))
        for items in by_image.values():
            for i, (text, a) in enumerate(items):
                for other, b in items[i + 1 :]:
                    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                    overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                    if overlap_x > 1 and overlap_y > 1:
                        problems.append(f"{lang}: {text!r} {a} runs into {other!r} {b}")
        drawn.texts.clear()

    for lang in LANGUAGES:
        draw_everything(game, seats, lang, names, check)
    assert not problems, sorted(set(problems))[:60]


def test_the_bundled_font_is_the_one_drawn() -> None:
    """BIZ UDPGothic draws Latin and Japanese alike; DejaVu only what it lacks."""
    main = canvas.MAIN
    assert canvas.coverage(main.regular) == canvas.coverage(main.bold)
    for char in "あア漢ÀßçœŁ→★":
        assert ord(char) in canvas.coverage(main.regular), char
    assert [face for _, face in canvas.runs("家 ⌂ 12\u202f345")] == [
        "biz",
        "dejavu",
        "biz",
        "dejavu",
        "biz",
    ]


GOLDEN = Path(__file__).parent / "golden"
#: one board per game in Japanese: (game, seats, which sample state), names with kana and kanji
JAPANESE_GOLDENS = {"cantstop": (3, 2), "kokeshi": (3, 2), "harmonies": (2, 2), "nim": (2, 1)}
JAPANESE_NAMES = ("さくら", "Ken", "高橋みなみ")


@pytest.mark.parametrize("game", sorted(JAPANESE_GOLDENS))
def test_japanese_golden_images(game: str) -> None:
    seats, index = JAPANESE_GOLDENS[game]
    state = states(game, seats)[index]
    data = render.render_png(game, state, Translator("ja"), names=list(JAPANESE_NAMES[:seats]))
    path = GOLDEN / f"{game}_ja.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_bytes(data)
        return
    assert path.exists(), f"missing golden image {path.name}: run with UPDATE_GOLDEN=1"
    image = Image.open(io.BytesIO(data)).convert("RGB")
    expected = Image.open(path).convert("RGB")
    assert expected.size == image.size
    diff = ImageChops.difference(expected, image).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 40 else 0).histogram()[255:])
    # tolerate anti-aliasing differences from another FreeType build, not a changed board
    assert changed <= 0.002 * image.width * image.height, f"{changed} pixels differ"
