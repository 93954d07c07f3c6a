"""Kokeshi words and controls: exactly the legal actions within Discord's limits, the cascade told
in order, and the rules with their legend picture."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.present import get_presenter
from bot.present.base import (
    Button,
    Select,
)
from bot.service.models import LoggedMove
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from games.kokeshi.engine.state import KokeshiState, Phase
from i18n import Translator, t
from render import rules_png
from tests.bot.controls import check_limits, reachable
from tests.engines.kokeshi_positions import build, code, play

ENGINE = get_engine("kokeshi")
PRESENTER = get_presenter("kokeshi")
NAMES = ["Ann", "Ben", "Cid", "Dee"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def playout(seed: int, seats: int, side: str):
    """(state before, logged moves, state after) of every player action of a random game, the
    chance steps that follow each action included (as the service logs them)."""
    s = ENGINE.initial_state(seats, {"animal_side": side})
    choice = Rng.for_step(seed, 10**6)
    step = 0
    while ENGINE.to_move(s) == CHANCE:
        s = ENGINE.apply(s, ENGINE.sample_chance(s, Rng.for_step(seed, step)))
        step += 1
    while ENGINE.to_move(s) != TERMINAL:
        before = s
        legal = ENGINE.legal_actions(s)
        action = legal[choice.below(len(legal))]
        moves = [LoggedMove(step, s.active, ENGINE.encode_action(action))]
        s = ENGINE.apply(s, action)
        step += 1
        while ENGINE.to_move(s) == CHANCE:
            chance = ENGINE.sample_chance(s, Rng.for_step(seed, step))
            moves.append(LoggedMove(step, None, ENGINE.encode_action(chance)))
            s = ENGINE.apply(s, chance)
            step += 1
        yield before, moves, s


@pytest.mark.parametrize(
    ("seed", "seats", "side"),
    [
        (1, 2, "basic"),
        (2, 2, "advanced"),
        (3, 3, "basic"),
        (4, 3, "advanced"),
        (5, 4, "basic"),
        (6, 4, "advanced"),
    ],
)
def test_random_playouts_controls_words_and_limits(seed: int, seats: int, side: str) -> None:
    names = NAMES[:seats]
    kinds = set()
    last = None
    for before, moves, after in playout(seed, seats, side):
        legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(before)]
        rows = PRESENTER.controls(before, legal, "en")
        got = reachable(rows)
        assert sorted(got) == sorted(legal) and len(got) == len(set(got)), (got, legal)
        check_limits(rows)
        kinds.add(legal[0].split(":")[0])
        assert PRESENTER.prompt(before, names, "en").strip()
        lines = PRESENTER.events(before, moves, after, names, "en")
        assert lines and all(line.strip() for line in lines), moves
        assert len("\n".join(lines)) <= 1600
        for move in moves:
            assert PRESENTER.describe_move(before, move, "en").strip()
            assert PRESENTER.describe_move(None, move, "en").strip()
        last = after
    assert last is not None and last.phase == Phase.OVER
    assert PRESENTER.controls(last, [], "en").rows == ()
    assert "won" in PRESENTER.prompt(last, names, "en")
    final = PRESENTER.events(before, moves, last, names, "en")
    assert any("Final scoring" in line for line in final)
    assert any("🏆" in line for line in final)
    assert {"start", "move", "gain"} <= kinds


def test_move_buttons_name_the_colour_and_the_space() -> None:
    s = build(cols={"princess": ["batchan-N8"]}, pos={"samurai": 0})
    s = _with_pos(s, 3, 8)
    rows = PRESENTER.controls(s, [f"move:{c}" for c in range(5)], "en")
    (row,) = rows.rows
    labels = [b.label for b in row]
    assert labels[0] == "Princess (pink) home → 1"
    assert labels[3] == "Samurai (green) 8 → top (+3)"
    assert all(isinstance(b, Button) for b in row)


def _with_pos(s: KokeshiState, column: int, position: int) -> KokeshiState:
    from dataclasses import replace

    pos = [list(p) for p in s.pos]
    pos[s.active][column] = position
    return replace(s, pos=tuple(tuple(p) for p in pos))


def test_sides_and_gains_are_labelled_with_their_effects() -> None:
    display = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]
    s = build(cols={"princess": ["samurai-N2"]}, display=display)
    s = play(s, "move:0")
    rows = PRESENTER.controls(s, ["side:a", "side:b"], "en")
    labels = [b.label for b in rows.rows[0]]
    assert labels == ["A: move the Sumotori up 1", "B: move the Princess up 1"]
    assert "choice" in PRESENTER.prompt(s, NAMES[:2], "en")
    # an empty landing: a select of display tiles, each with its effect in words
    s = play(build(display=display), "move:2")
    legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]
    rows = PRESENTER.controls(s, legal, "en")
    ((select,),) = rows.rows
    assert isinstance(select, Select)
    texts = {o.action: o.label for o in select.options}
    assert texts["gain:" + code("princess-N9")] == (
        "Princess tile (gain a display tile for this column)"
    )
    assert "empty space" in PRESENTER.prompt(s, NAMES[:2], "en")


def test_example2_cascade_is_told_in_order() -> None:
    """games/kokeshi/rules.md §13 Example 2, played with the same choices as the spec."""
    display = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]
    start = build(cols={"princess": ["batchan-N8"], "batchan": ["fisherman-N5"]}, display=display)
    steps = ["move:0", "animal:fox", "pick:k2", "gain:" + code("samurai-N6")]
    states = [start]
    for text in steps:
        states.append(play(states[-1], text))
    draw = "draw:" + code("batchan-N3")
    end = play(states[-1], draw)
    assert end.phase == Phase.MOVE and end.active == 1
    # private steps: each answer tells only what the last choice set off
    first = PRESENTER.events(states[0], [LoggedMove(0, 0, "move:0")], states[1], NAMES[:2], "en")
    assert first == [
        "**Ann** moves the Princess (pink) from home to space 1.",
        "→ the tile there fires: Batchan tile (advance on any animal track, then move the"
        " Batchan up 1).",
    ]
    # the public message at the end of the turn tells the whole cascade, step by step
    moves = [LoggedMove(3, 0, steps[-1]), LoggedMove(4, None, draw)]
    lines = PRESENTER.events(states[3], moves, end, NAMES[:2], "en")
    expected = [
        "**Ann** moves the Princess (pink) from home to space 1.",
        "→ the tile there fires: Batchan tile (advance on any animal track, then move the"
        " Batchan up 1).",
        "→ Ann advances on the Fox track to 1.",
        "→ the Batchan (purple) moves up from home to space 1.",
        "→ the tile there fires: Fisherman tile (move a kokeshi to the right up 1).",
        "→ the Fisherman (blue) moves up from home to space 1.",
        "→ space 1 is empty: the Fisherman (blue) goes home and Ann gains a tile for its column.",
        "→ Ann gains Samurai tile (move a kokeshi to the left up 1) for the Fisherman column.",
        "→ the display is refilled: Batchan tile.",
        "→ Samurai tile goes to space 1 of the Fisherman column.",
    ]
    assert lines == expected
    # with a bot (one outcome for the whole turn) the replay tells the same story
    all_moves = [LoggedMove(i, 0, text) for i, text in enumerate(steps)]
    all_moves.append(LoggedMove(4, None, draw))
    assert PRESENTER.events(start, all_moves, end, NAMES[:2], "en") == expected
    assert PRESENTER.describe_move(start, all_moves[0], "en") == (
        "moves the Princess (pink) from home to space 1"
    )


def test_top_trigger_and_final_scoring_are_announced() -> None:
    # Example 3a: a two-step move past the top, as the last turn of the game
    s = build(
        cols={"samurai": [f"princess-N{i}" for i in range(1, 9)], "princess": ["sumotori-N4"]},
        turns=3,
        active=1,
        end_after=4,
    )
    s = _with_pos(s, 3, 7)
    before = play(s, "move:0")
    after = play(before, "pick:k3")
    assert after.phase == Phase.OVER
    lines = PRESENTER.events(before, [LoggedMove(9, 1, "pick:k3")], after, NAMES[:2], "en")
    assert lines[0] == "**Ben** moves the Princess (pink) from home to space 1."
    assert "past the top: +3 for Ben" in lines[2]
    assert "Final scoring" in lines[3]
    assert lines[5].startswith("Ben: **")
    assert lines[6].startswith("🏆 ")


def test_setup_placements() -> None:
    s = ENGINE.initial_state(2, {})
    step = 0
    while ENGINE.to_move(s) == CHANCE:
        s = ENGINE.apply(s, ENGINE.sample_chance(s, Rng.for_step(9, step)))
        step += 1
    seat = s.active
    prompt = PRESENTER.prompt(s, NAMES[:2], "en")
    assert prompt.startswith(f"{NAMES[seat]}: place your starting tile") and "(1 of 2)" in prompt
    legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]
    assert all(c.startswith("start:") for c in legal)
    assert sorted(reachable(PRESENTER.controls(s, legal, "en"))) == sorted(legal)
    one = ENGINE.apply(s, ENGINE.decode_action(legal[0]))
    lines = PRESENTER.events(s, [LoggedMove(step, seat, legal[0])], one, NAMES[:2], "en")
    assert lines[0].startswith(f"{NAMES[seat]} places ") and "column" in lines[0]
    assert "(2 of 2)" in PRESENTER.prompt(one, NAMES[:2], "en")
    second = ENGINE.encode_action(ENGINE.legal_actions(one)[0])
    two = ENGINE.apply(one, ENGINE.decode_action(second))
    moves = [LoggedMove(step + 1, seat, second)]
    while ENGINE.to_move(two) == CHANCE:
        chance = ENGINE.sample_chance(two, Rng.for_step(9, 50))
        moves.append(LoggedMove(step + 2, None, ENGINE.encode_action(chance)))
        two = ENGINE.apply(two, chance)
    lines = PRESENTER.events(one, moves, two, NAMES[:2], "en")
    assert lines[0].startswith(f"{NAMES[seat]}'s starting tiles: ") and " and " in lines[0]


def test_long_cascades_are_summarised() -> None:
    from games.kokeshi.present.report import summarise

    lines = [(f"→ step {i} " + "x" * 60, i % 2 == 1) for i in range(60)]
    out = summarise(lines, ["tail"], Translator("en"))
    assert len("\n".join(out)) <= 1500
    assert out[0] == lines[0][0] and out[-1] == "tail"
    assert any("more steps" in line for line in out)


def test_rules_summary_and_legend_image() -> None:
    summary = PRESENTER.rules_summary("en")
    assert 200 < len(summary) < 4000
    assert "cascade" in summary and "achievement" in summary
    png = rules_png("kokeshi")
    assert png is not None and png.startswith(PNG_MAGIC)
    assert rules_png("cantstop") is None
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert image.size[0] > 500


def test_placement_order_is_a_menu_and_told() -> None:
    """games/kokeshi/rules.md D22: two tiles pending for one column, the player picks the first."""
    from dataclasses import replace

    from games.kokeshi.engine.state import Phase
    from games.kokeshi.engine.todo import EmptyGain
    from tests.engines.kokeshi_positions import T, filler

    display = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]
    s = build(cols={"fisherman": filler(3, display)}, display=display)
    s = replace(
        s,
        phase=Phase.GAIN,
        pending=((2, T("batchan-N8")),),
        todo=(EmptyGain(2),),
    )
    before = play(s, "gain:ach:fisherman:1")
    assert before.phase == Phase.PLACE
    legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(before)]
    assert len(legal) == 2
    rows = PRESENTER.controls(before, legal, "en")
    ((select,),) = rows.rows
    assert isinstance(select, Select) and sorted(reachable(rows)) == sorted(legal)
    labels = {o.label for o in select.options}
    assert "Fisherman achievement tile, level 1 (5 pts)" in labels
    assert "Choose the one placed first" in PRESENTER.prompt(before, NAMES[:2], "en")
    after = play(before, "place:ach:fisherman:1")
    lines = PRESENTER.events(
        before, [LoggedMove(7, 0, "place:ach:fisherman:1")], after, NAMES, "en"
    )
    assert "→ Fisherman achievement 1 goes to space 4 of the Fisherman column." in lines
    assert PRESENTER.describe_move(None, LoggedMove(7, 0, "place:ach:fisherman:1"), "en") == (
        "places Fisherman achievement tile, level 1 (5 pts) first"
    )


def test_bonus_tile_trigger_and_free_column() -> None:
    """games/kokeshi/rules.md §13 Example 7 variant: an animal midline triggers the end, the bonus
    tile is placed last in a column of the player's choice."""
    display = ["batchan-N2", "samurai-N6", "princess-N9", "sumotori-N1"]
    s = build(
        cols={
            "princess": ["fisherman-N3", "samurai-N3", "princess:L1"],
            "batchan": ["fisherman-N5", "samurai-N5", "batchan:L1"],
            "fisherman": ["princess-N3", "batchan-N3", "fisherman:L1", "samurai-N4"],
            "samurai": ["samurai-N8"],
        },
        display=display,
        animals={"panda": [(1, 4), (0, 3)], "fox": [(1, 2), (0, 4)], "cat": [(1, 0), (0, 3)]},
        bonus={"cat": "princess-N5"},
        turns=10,
    )
    s = play(s, "move:3")
    rows = PRESENTER.controls(s, [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)], "en")
    labels = [b.label for b in rows.rows[0]]
    assert "Cat 3 → 4 + bonus tile" in labels
    s = play(s, "animal:cat", "gain:" + code("sumotori-N1"), "draw:" + code("batchan-N1"))
    prompt = PRESENTER.prompt(s, NAMES[:2], "en")
    assert prompt.startswith("Ann: choose the column for the bonus tile, Princess tile")
    before = s
    after = play(s, "col:4")
    lines = PRESENTER.events(before, [LoggedMove(20, 0, "col:4")], after, NAMES[:2], "en")
    text = "\n".join(lines)
    order = [
        "**Ann** moves the Samurai (green) from home to space 1.",
        "→ Ann advances on the Cat track to 4, past the midline: an achievement!",
        "→ first past the middle of the Cat track, Ann takes the bonus tile there",
        "⏳ Ann has 5 achievements: the game ends after round 7.",
        "→ Ann gains Sumotori tile",
        "→ Princess tile goes to space 1 of the Sumotori column.",
    ]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions), text


def test_final_scoring_names_the_tiebreak_that_decided() -> None:
    from dataclasses import replace

    tied = replace(build(animals={"panda": [(0, 4)]}, happiness=(0, 7)), phase=Phase.OVER)
    before = replace(tied, phase=Phase.MOVE)
    lines = PRESENTER.events(before, [], tied, NAMES[:2], "en")
    assert lines[-2].startswith("🏆 ") and "Ann" in lines[-2]
    assert lines[-1] == t("en", "kokeshi.ui.event.tiebreak_achievements")
