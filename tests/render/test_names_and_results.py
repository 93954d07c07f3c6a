"""Names in any script and the result of a game, as the pictures show them.

What a picture shows is read from the drawing helper's own report (``canvas.writing``): every
text drawn with the face that drew each run, every text shortened to fit, every winner's row
marked. Names are Discord display names: any script, often with emoji.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

import render
from engines.registry import get_engine, part_module
from i18n import Translator
from render import canvas
from render.names import fit_name, sentence_names
from tests.per_game import per_game, seat_counts
from tests.render.test_languages_render import LANGUAGES, LONG_NAMES, states

#: real-looking names in the scripts Discord names use, and the faces that must draw them
CORPUS: dict[str, set[str]] = {
    "Дмитрий Соколов": {"dejavu"},
    "Γιώργος": {"dejavu"},
    "김민준": {"noto-cjk"},
    "王小明": {"biz"},
    "张伟": {"biz", "noto-cjk"},
    "محمد": {"noto-arabic"},
    "דוד": {"noto-hebrew"},
    "Zoë-Louise 🔥": {"biz", "noto-emoji"},
    "😀 Sam": {"noto-emoji", "biz"},
    "Bartholomew the Magnificent": {"biz"},
    "👩‍👩‍👧 Family": {"noto-emoji", "biz"},
    "🇫🇷 Léa": {"noto-emoji", "biz"},
}
#: the corpus dealt out four to a table
TABLES = [list(CORPUS)[i : i + 4] for i in range(0, len(CORPUS), 4)]


def pictures(
    game: str, state: Any, tr: Translator, names: list[str] | None, views: list[Any] | None = None
) -> list[list[Any]]:
    """What each picture of ``state`` wrote (``views``; by default every view a turn's end and
    ``/game board`` post)."""
    if views is None:
        views = render.turn_views(game, state, state, state.seats - 1)
        views += render.board_views(game, state, None, table=True)
    written = []
    for view in views:
        with canvas.writing() as items:
            render.render_png(game, state, tr, names=names, **view)
        written.append(list(items))
    return written


def drawn_runs(written: list[Any]) -> list[tuple[str, str]]:
    return [run for item in written if isinstance(item, canvas.Drawn) for run in item.runs]


def test_every_corpus_name_is_covered_by_the_faces_that_draw_it() -> None:
    for name, faces in CORPUS.items():
        runs = canvas.runs(name)
        assert "".join(run for run, _ in runs) == name
        assert {face for run, face in runs if run.strip()} <= faces, (name, runs)
        for run, face in runs:
            for char in run:
                assert canvas.covers(canvas._BY_NAME[face], char), (name, char, face)


def test_an_emoji_is_drawn_in_colour_and_a_name_in_its_script_is_not_tofu() -> None:
    image = Image.new("RGB", (200, 60), canvas.WHITE)
    canvas.draw_text(image, (10, 30), "😀 Sam", 30, canvas.INK)
    colours = image.getcolors(20000) or []
    assert any(r > 200 and g > 150 and b < 90 for _, (r, g, b) in colours), "no yellow face"
    # a character no face has would be drawn as the main face's empty box: none here
    for name in CORPUS:
        assert all(canvas.drawable(char) for char in name), name


def test_without_raqm_a_right_to_left_name_is_still_drawn_in_reading_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pillow without libraqm (no fribidi on the machine) lays text out left to right: the run
    is reversed, so Hebrew (whose letters do not join) looks as it does shaped."""
    shaped = canvas.text_mask("דוד", 40, True)
    monkeypatch.setattr(canvas, "SHAPING", False)
    canvas._face.cache_clear()
    canvas._text_layout.cache_clear()
    try:
        plain = canvas.text_mask("דוד", 40, True)
        face = canvas._face(40, True, "noto-hebrew")
        unreversed = Image.new("L", plain.size)
        ImageDraw.Draw(unreversed).text((0, 0), "דוד", font=face, fill=255)
    finally:
        canvas._face.cache_clear()
        canvas._text_layout.cache_clear()

    def distance(a: Image.Image, b: Image.Image) -> int:
        a, b = a.crop(a.getbbox()), b.crop(b.getbbox())
        return sum(ImageStat.Stat(ImageChops.difference(a, b.resize(a.size))).sum)

    assert abs(plain.width - shaped.width) <= 2
    assert distance(plain, shaped) * 3 < distance(unreversed, shaped)


def test_shortening_never_splits_a_character() -> None:
    for name in ("👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧", "🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷🇫🇷", "Zoë-Louise 🔥🔥🔥"):
        for width in range(30, 200, 7):
            shown = fit_name(name, 20, True, width)
            kept = shown.removesuffix("…")
            assert kept == "".join(canvas.graphemes(name)[: len(canvas.graphemes(kept))])
            assert canvas.text_width(shown, 20, True) <= width or len(kept) == 0


def test_a_name_in_a_sentence_is_cut_by_the_one_helper() -> None:
    tr = Translator("en")
    with canvas.writing() as items:
        shown = sentence_names(tr, 2, ["Bartholomew the Magnificent", "Ann"], 24)
    assert shown[1] == "Ann"
    assert shown[0].endswith("…") and "Bartholomew".startswith(shown[0][:5])
    assert items == [canvas.Cut("Bartholomew the Magnificent", shown[0])]


@per_game
@pytest.mark.parametrize(("game", "seats"), [c for c in seat_counts() if c[1] > 1])
@pytest.mark.parametrize("table", range(len(TABLES)))
def test_names_in_every_script_are_drawn_by_faces_that_have_them(
    game: str, seats: int, table: int
) -> None:
    names = TABLES[table][:seats]
    tr = Translator("en")
    for state in (states(game, seats)[2], states(game, seats)[-1]):
        written = [item for picture in pictures(game, state, tr, names) for item in picture]
        runs = drawn_runs(written)
        for run, face in runs:  # no tofu: every character drawn by a face that has it
            for char in run:
                assert canvas.covers(canvas._BY_NAME[face], char), (run, char, face)
        if not _built_in(game):  # the sample plugin draws one name, the player to move's
            continue
        # a sentence with a name in it (a prompt, "Next: …") is never cut: the name is cut first
        cuts = [item for item in written if isinstance(item, canvas.Cut)]
        first_words = [canvas.graphemes(name)[0] for name in names]
        sentences = [
            c for c in cuts if c.asked not in names and any(w in c.asked for w in first_words)
        ]
        assert not sentences, sentences
        for name in names:  # each name is on the pictures, drawn by the faces its script uses
            first = canvas.graphemes(name)[0]
            used = {face for run, face in runs if first in run}
            assert used & CORPUS[name], (name, used)


def _draws_names(game: str) -> bool:
    accepted = render._accepted(render.renderer(game).draw)
    return accepted is None or "names" in accepted


def _built_in(game: str) -> bool:
    """A game of the project's own (the sample plugin Nim has no row per player to mark)."""
    return part_module(game, render.PART).startswith("games.")


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
@pytest.mark.parametrize("names", [None, LONG_NAMES], ids=["default-names", "long-names"])
def test_final_pictures_lead_with_the_whole_result(
    game: str, seats: int, names: tuple[str, ...] | None
) -> None:
    """At the end every winner is named in full, every winner's row is marked, and no text
    that was shortened lost a number or a winner's name."""
    state = states(game, seats)[-1]
    engine = get_engine(game)
    assert engine.winners(state) or seats == 1, "the sample game did not end"
    problems = []
    for lang in LANGUAGES:
        tr = Translator(lang)
        shown = None if names is None else list(names[:seats])
        winners = [tr.player(seat, shown) for seat in engine.winners(state)]
        marked: set[int] = set()
        posts = [  # what a turn's end posts, and what /game board posts
            render.turn_views(game, state, state, seats - 1),
            render.board_views(game, state, None, table=True),
        ]
        for views in posts:
            drawn = []
            for picture in pictures(game, state, tr, shown, views):
                texts = [item.text for item in picture if isinstance(item, canvas.Drawn)]
                drawn.append((" ".join(texts), "".join(texts)))
                marked |= {item.seat for item in picture if isinstance(item, canvas.Winner)}
                for cut in (item for item in picture if isinstance(item, canvas.Cut)):
                    if _numbers(cut.asked) != _numbers(cut.shown):
                        problems.append(f"{lang}: a number cut: {cut.asked!r} -> {cut.shown!r}")
                    if any(w in cut.asked and w != cut.asked for w in winners):
                        problems.append(f"{lang}: the result cut: {cut.asked!r} -> {cut.shown!r}")
            for winner in winners if seats > 1 and _draws_names(game) else ():
                if not any(winner in spaced or winner in joined for spaced, joined in drawn):
                    problems.append(f"{lang}: {winner!r} not named in full in {views}")
        if seats > 1 and _built_in(game) and marked != set(engine.winners(state)):
            problems.append(f"{lang}: rows marked {marked}, winners {engine.winners(state)}")
    assert not problems, problems
