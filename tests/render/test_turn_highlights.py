"""The end-of-turn picture marks what the mover did: each renderer's pure ``highlights`` checked
against the rules on real played turns and on hand-made ones, and the marks really drawn."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from engines.registry import get_engine
from games.cantstop import render as cantstop
from games.cantstop.engine.state import NO_OWNER, Phase
from games.harmonies import render as harmonies
from games.harmonies.engine.cards import CARDS
from games.kokeshi import render as kokeshi
from i18n import Translator
from render import render_png
from render.canvas import encode_png, measuring
from tests.per_game import games, per_game
from tests.render.phone import turn_ends

EN = Translator("en")
NAMES = ["Ann", "Bob", "Cy", "Dee"]


# -- Can't Stop ----------------------------------------------------------------------------------

CANTSTOP = get_engine("cantstop")


def cantstop_position(saved0: dict[int, int], claimed: dict[int, int] | None = None):
    s = CANTSTOP.initial_state(2, {})
    row = [0] * 11
    for col, h in saved0.items():
        row[col - 2] = h
    owners = [NO_OWNER] * 11
    for col, owner in (claimed or {}).items():
        owners[col - 2] = owner
    return replace(s, saved=(tuple(row), s.saved[1]), claimed=tuple(owners))


def test_cantstop_marks_the_climb_and_the_claim() -> None:
    since = cantstop_position({7: 3, 12: 1})
    after = cantstop_position({7: 6, 12: 3}, claimed={12: 0})
    after = replace(after, active=1)
    assert cantstop.highlights(since, after, 0) == {
        ("to", 7, 6),
        ("passed", 7, 4),
        ("passed", 7, 5),
        ("to", 12, 3),
        ("claimed", 12, 0),
    }
    assert cantstop.highlights(since, after, 1) == frozenset()  # Bob did nothing
    assert cantstop.highlights(None, after, 0) == frozenset()


def test_cantstop_mid_turn_counts_the_runners() -> None:
    since = cantstop_position({5: 2})
    during = replace(since, runners=((5, 4), (9, 1)), phase=Phase.DECIDE, last_move=(5, 9))
    assert cantstop.highlights(since, during, 0) == {
        ("to", 5, 4),
        ("passed", 5, 3),
        ("to", 9, 1),
    }


def test_cantstop_played_turns_a_bust_marks_nothing_a_stop_marks_the_saved_climb() -> None:
    ends = turn_ends("cantstop", 3, seed=7)
    busts = [e for e in ends if e.state.bust]
    stops = [e for e in ends if not e.state.bust]
    assert busts and stops
    for end in busts:
        assert cantstop.highlights(end.since, end.state, end.mover) == frozenset()
    for end in stops:
        marks = cantstop.highlights(end.since, end.state, end.mover)
        climbed = {
            c
            for c in range(2, 13)
            if end.state.saved[end.mover][c - 2] > end.since.saved[end.mover][c - 2]
        }
        assert {c for kind, c, _ in marks if kind == "to"} == climbed
        assert 1 <= len(climbed) <= 3  # three runners at most


def test_cantstop_draws_the_marks_in_the_moved_colour() -> None:
    since = cantstop_position({7: 3})
    after = replace(cantstop_position({7: 6}), active=1)
    plain = cantstop.draw_rgb(after, EN)
    marked = cantstop.draw_rgb(after, EN, focus_seat=0, since=since)
    x0, y0, x1, _ = cantstop.cell_box(7, 5)  # climbed through: filled with the trail colour
    assert plain.getpixel(((x0 + x1) // 2, y0 + 4)) != marked.getpixel(((x0 + x1) // 2, y0 + 4))
    assert "7 at 6 of 13" in cantstop.describe(after, EN, NAMES, focus_seat=0, since=since)


# -- Kokeshi -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 4])
def test_kokeshi_marks_exactly_the_tiles_placed_and_the_cascade_in_order(seats: int) -> None:
    ends = turn_ends("kokeshi", seats, seed=3)
    assert ends
    saw_path = 0
    for end in ends:
        marks = kokeshi.highlights(end.since, end.state, end.mover)
        new_tiles = {
            (c, space)
            for c in range(5)
            for space in range(
                len(end.since.boards[end.mover][c]) + 1, len(end.state.boards[end.mover][c]) + 1
            )
        }
        assert {(m[1], m[2]) for m in marks if m[0] == "tile"} == new_tiles
        orders = sorted(m[-1] for m in marks if m[0] in ("step", "top"))
        assert orders == list(range(1, len(orders) + 1))  # numbered 1, 2, 3 ... without gaps
        saw_path += bool(orders)
        for other in range(seats):  # nobody else's workshop changed
            if other != end.mover:
                assert not [
                    m for m in kokeshi.highlights(end.since, end.state, other) if m[0] == "tile"
                ]
    assert saw_path > len(ends) // 2


def test_kokeshi_turn_picture_names_the_mover_and_the_next_player() -> None:
    end = turn_ends("kokeshi", 3, seed=3)[6]
    with measuring() as marks:
        image = kokeshi.draw(end.state, EN, focus_seat=end.mover, since=end.since, names=NAMES)
    texts = {text for _kind, _size, text in marks}
    assert f"{NAMES[end.mover]}'s workshop" in texts
    assert f"Next: {NAMES[end.state.active]}" in texts
    for seat in range(3):  # every small panel names its owner
        assert NAMES[seat] in texts or f"{NAMES[seat]}'s workshop" in texts
    plain = kokeshi.draw(end.state, EN, focus_seat=end.mover, names=NAMES)
    assert encode_png(plain) != encode_png(image)
    text = kokeshi.describe(end.state, EN, NAMES, focus_seat=end.mover, since=end.since)
    assert "The cascade landed" in text or "placed" in text


def test_kokeshi_views_are_the_two_halves_of_the_board() -> None:
    end = turn_ends("kokeshi", 2, seed=3)[4]
    views = kokeshi.views(end.state, end.since, end.mover)
    assert [v.get("area") for v in views] == ["player", "shared"]
    halves = [kokeshi.draw(end.state, EN, names=NAMES, **v) for v in views]
    whole = kokeshi.draw(end.state, EN, names=NAMES, focus_seat=end.mover, since=end.since)
    assert sum(h.height for h in halves) == whole.height
    assert all(h.width == whole.width for h in halves)


# -- Harmonies -----------------------------------------------------------------------------------


def test_harmonies_marks_the_hexes_of_the_three_tokens() -> None:
    ends = turn_ends("harmonies", 2, seed=4)
    assert len(ends) > 10
    for end in ends[:-1]:  # the last turn may end the game early
        marks = harmonies.highlights(end.since, end.state, end.mover)
        before, after = end.since.players[end.mover], end.state.players[end.mover]
        grew = sum(len(a) - len(b) for a, b in zip(after.stacks, before.stacks, strict=True))
        assert grew == 3  # a turn places the three tokens taken
        hexes = {i for kind, i in marks if kind == "token"}
        assert 1 <= len(hexes) <= 3
        assert all(len(after.stacks[i]) > len(before.stacks[i]) for i in hexes)
        for kind, cid in marks:
            if kind == "done":
                assert after.placed(cid) == len(CARDS[cid].track)


def test_harmonies_marks_are_drawn_and_told() -> None:
    end = next(e for e in turn_ends("harmonies", 2, seed=4) if e.mover == 0)
    view = harmonies.views(end.state, end.since, end.mover)[0]
    marked = harmonies.draw_rgb(end.state, EN, names=NAMES, **{**view})
    plain = harmonies.draw_rgb(end.state, EN, end.mover, NAMES, None, "player")
    assert marked.size == plain.size
    assert marked.tobytes() != plain.tobytes()
    cells = [i for kind, i in harmonies.highlights(end.since, end.state, 0) if kind == "token"]
    assert cells
    text = harmonies.describe(end.state, EN, NAMES, focus_seat=0, since=end.since)
    assert "This turn Ann placed tokens on" in text


@per_game
@pytest.mark.parametrize("game", games())
def test_every_picture_is_a_png_under_the_size_budget(game: str) -> None:
    info = get_engine(game).info
    ends = turn_ends(game, max(info.min_seats, min(4, info.max_seats)), seed=2)
    for end in ends[:11:5]:
        data = render_png(game, end.state, EN, names=NAMES, focus_seat=end.mover, since=end.since)
        assert data.startswith(b"\x89PNG") and len(data) <= 150 * 1024
        assert Image.open(io.BytesIO(data)).mode == "P"
