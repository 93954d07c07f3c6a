"""Harmonies words and controls: exactly the legal actions reachable, Discord's limits kept."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.adapter.messages import left_out_line
from bot.present import get_presenter
from bot.present.base import (
    Button,
    ControlRows,
    Select,
)
from bot.service.models import LoggedMove
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from games.harmonies.engine.cards import BOARD_CELLS, hex_code
from games.harmonies.engine.state import HarmoniesState, Phase
from games.harmonies.present import layout
from i18n import Translator, t
from tests.bot.controls import check_limits, reachable

ENGINE = get_engine("harmonies")
PRESENTER = get_presenter("harmonies")
NAMES = ["Ann", "Ben", "Cat", "Dan"]
MENTIONS = ["<@1>", "<@2>", "<@3>", "<@4>"]
MAX_TEXT = 1500
EN = Translator("en")


def legal_codes(s: HarmoniesState) -> list[str]:
    return [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]


def choose(rnd: random.Random, legal: list[str]) -> str:
    """A player who likes cubes and cards, sometimes undoes, and ends turns readily."""
    cubes = [c for c in legal if c.startswith(("cube:", "card:", "keep:"))]
    if cubes and rnd.random() < 0.8:
        return rnd.choice(cubes)
    if "undo" in legal and rnd.random() < 0.08:
        return "undo"
    if "end" in legal and rnd.random() < 0.7:
        return "end"
    return rnd.choice([c for c in legal if c != "undo"] or legal)


Step = tuple[HarmoniesState, list[LoggedMove], HarmoniesState]


def playout(seed: int, seats: int, options: dict[str, object]) -> Iterator[Step]:
    """(before, moves, after) for every player action, chance steps folded into ``end``."""
    rnd = random.Random(seed)
    s = ENGINE.initial_state(seats, options)
    step = 0
    while ENGINE.to_move(s) == CHANCE:
        s = ENGINE.apply(s, ENGINE.sample_chance(s, Rng.for_step(seed, step)))
        step += 1
    while ENGINE.to_move(s) != TERMINAL:
        before = s
        code = choose(rnd, legal_codes(s))
        moves = [LoggedMove(step, s.active, code)]
        s = ENGINE.apply(s, ENGINE.decode_action(code))
        step += 1
        while ENGINE.to_move(s) == CHANCE:
            chance = ENGINE.sample_chance(s, Rng.for_step(seed, step))
            moves.append(LoggedMove(step, None, ENGINE.encode_action(chance)))
            s = ENGINE.apply(s, chance)
            step += 1
        yield before, moves, s
        assert step < 5000


GAMES = [
    (1, 2, {}),
    (2, 2, {"side": "B"}),
    (3, 1, {}),
    (4, 1, {"side": "B", "spirits": True}),
    (5, 3, {"spirits": True}),
    (6, 4, {"side": "B"}),
    (7, 2, {"spirits": True, "river_loops_diameter": True}),
    (8, 4, {"spirits": True}),
]


@pytest.mark.parametrize(("seed", "seats", "options"), GAMES)
def test_every_state_of_a_playout(seed: int, seats: int, options: dict[str, object]) -> None:
    kinds_seen: set[str] = set()
    last: HarmoniesState | None = None
    for before, moves, after in playout(seed, seats, options):
        legal = legal_codes(before)
        rows, dropped = layout(before, legal, EN)
        check_limits(rows)
        offered = reachable(rows)
        assert len(offered) == len(set(offered))
        assert sorted(offered + list(dropped)) == sorted(legal)
        # documented truncation: cube placements go first, and the Discord message says so
        assert bool(left_out_line("en", legal, rows)) == bool(dropped)
        assert "/game" not in PRESENTER.prompt(before, MENTIONS, "en")
        assert rows == PRESENTER.controls(before, legal, "en")
        prompt = PRESENTER.prompt(before, MENTIONS, "en")
        assert f"<@{before.active + 1}>" in prompt
        extras = any(c.startswith(("card:", "cube:", "discard:")) for c in legal)
        offers = ("first is fine", "you may also", "take a card", "place cubes")
        assert extras == any(words in prompt for words in offers), (prompt, legal)
        lines = PRESENTER.events(before, moves, after, NAMES[:seats], "en")
        assert lines and all(lines)
        assert len("\n".join(lines)) < MAX_TEXT
        for move in moves:
            assert PRESENTER.describe_move(None, move, "en")
        assert PRESENTER.describe_move(before, moves[0], "en")
        if after.phase == Phase.OVER:  # the final scores follow: no "score so far"
            told = "\n".join(lines)
            assert "score so far" not in told and "ended the last turn of the game" in told
        kinds_seen.add(moves[0].action.split(":")[0])
        last = after
    assert last is not None and last.phase == Phase.OVER
    assert {"take", "place", "end"} <= kinds_seen
    over = PRESENTER.prompt(last, MENTIONS, "en")
    assert "Game over" in over


def test_playouts_cover_every_kind_of_move() -> None:
    seen = {
        moves[0].action.split(":")[0]
        for seed, seats, options in GAMES
        for _, moves, _ in playout(seed, seats, options)
    }
    assert seen == {"keep", "take", "place", "card", "cube", "discard", "undo", "end"}


def test_solo_game_ends_with_suns_and_scores() -> None:
    *_, (before, moves, after) = playout(3, 1, {})
    lines = PRESENTER.events(before, moves, after, NAMES[:1], "en")
    text = "\n".join(lines)
    assert "Game over. Points per category:" in text
    assert "suns" in text and "Ann:" in text and "trees" in text
    assert "spirit" not in text.split("Ann:")[1]  # no spirit column without the module


def test_a_whole_turn_in_one_outcome_is_told_once() -> None:
    """A computer seat's turn arrives as one outcome: every step once, then the end."""
    steps = list(playout(1, 2, {}))
    start = next(i for i, st in enumerate(steps) if st[1][0].action == "end") + 1
    stop = next(i for i in range(start, len(steps)) if steps[i][1][0].action == "end")
    before = steps[start][0]
    moves = [m for _, ms, _ in steps[start : stop + 1] for m in ms]
    lines = PRESENTER.events(before, moves, steps[stop][2], NAMES[:2], "en")
    text = "\n".join(lines)
    assert text.count("took space") == 1 and text.count("ended the turn") == 1
    assert text.count("Central board refilled") == 1


def test_turn_summary_on_end_tells_everyone_the_whole_turn() -> None:
    steps = list(playout(1, 2, {}))
    (index, (before, moves, after)) = next(
        (i, st) for i, st in enumerate(steps) if st[1][0].action == "end"
    )
    lines = PRESENTER.events(before, moves, after, NAMES[:2], "en")
    player = NAMES[before.active]
    assert any(line.startswith(f"{player} took space") for line in lines)
    assert any(line.startswith(f"{player} placed ") for line in lines)
    assert any("ended the turn" in line for line in lines)
    assert any(line.startswith("Central board refilled: space") for line in lines)
    assert index > 0


def test_words_of_a_first_turn() -> None:
    s = next(playout(1, 2, {}))[0]
    legal = legal_codes(s)
    rows = PRESENTER.controls(s, legal, "en")
    buttons = [c for row in rows.rows for c in row if isinstance(c, Button)]
    take = next(b for b in buttons if b.action == "take:2")
    colours = ", ".join(t("en", f"harmonies.colour.{c}") for c in s.central[1])
    assert take.label == f"Space 2: {colours}"
    opening = PRESENTER.prompt(s, MENTIONS, "en")
    assert "take the tokens of one space" in opening
    # the first board says who was drawn to start; no later prompt repeats it
    assert opening.startswith(f"🎲 <@{s.active + 1}> was drawn to start.\n"), opening
    after = ENGINE.apply(s, ENGINE.decode_action("take:2"))
    assert "drawn to start" not in PRESENTER.prompt(after, MENTIONS, "en")
    line = PRESENTER.events(s, [LoggedMove(9, s.active, "take:2")], after, NAMES, "en")[0]
    assert line.startswith(f"{NAMES[s.active]} took space 2: ")
    rows = PRESENTER.controls(after, legal_codes(after), "en")
    selects = [c for row in rows.rows for c in row if isinstance(c, Select)]
    places = [sel for sel in selects if sel.options[0].action.startswith("place:")]
    assert len(places) == len(set(after.hand))
    first = places[0].options[0]
    assert first.label == first.action.split(":")[2]
    assert first.description and first.description.startswith("empty hex → ")
    assert "place your 3 tokens" in PRESENTER.prompt(after, MENTIONS, "en")


def test_crowded_menus_merge_then_leave_out_the_cube_placements() -> None:
    s = next(playout(1, 2, {}))[0]
    cells = [hex_code(c) for c in BOARD_CELLS["A"]]
    places = [f"place:{colour}:{h}" for colour in ("blue", "grey", "green") for h in cells]
    cards = [f"card:{n}" for n in (3, 5, 7, 9, 11)]
    few_cubes = [f"cube:5:{h}" for h in cells[:3]]
    legal = [*places, *cards, *few_cubes, "undo", "end"]
    rows, dropped = layout(s, legal, EN)
    check_limits(rows)
    assert not dropped and sorted(reachable(rows)) == sorted(legal)
    merged = rows.rows[-1][0]
    assert isinstance(merged, Select) and merged.placeholder == "More actions…"
    assert {o.action for o in merged.options} == set(cards + few_cubes)

    many_cubes = [f"cube:{n}:{h}" for n in (5, 6) for h in cells[:20]]
    legal = [*places, *cards, *many_cubes, "undo", "end"]
    rows, dropped = layout(s, legal, EN)
    check_limits(rows)
    assert dropped and all(code.startswith("cube:") for code in dropped)
    assert sorted(reachable(rows) + list(dropped)) == sorted(legal)
    assert set(places + cards) <= set(reachable(rows))


def test_moves_left_out_are_named_by_the_discord_message_not_the_prompt() -> None:
    """The prompt is also the terminal's (``boardroom play``), which lists every move: only
    the Discord message names ``/game move``, for the moves its menus leave out."""
    s = next(playout(1, 2, {}))[0]
    legal = legal_codes(s)
    assert left_out_line("en", legal, PRESENTER.controls(s, legal, "en")) == []
    crowded = ControlRows(((Button("end", "End turn"),),))  # the others left out
    (line,) = left_out_line("en", legal, crowded)
    assert "`/game move`" in line
    assert "/game" not in PRESENTER.prompt(s, MENTIONS, "en")


def test_spirit_choice_and_undo_words() -> None:
    s = next(playout(5, 3, {"spirits": True}))[0]
    legal = legal_codes(s)
    assert all(c.startswith("keep:") for c in legal)
    rows = PRESENTER.controls(s, legal, "en")
    (row,) = rows.rows
    assert [b.action for b in row] == legal
    assert all(b.label.startswith("Keep #") for b in row)
    assert "keep one of your two spirit cards" in PRESENTER.prompt(s, MENTIONS, "en")
    kept = ENGINE.apply(s, ENGINE.decode_action(legal[0]))
    taken = ENGINE.apply(kept, ENGINE.decode_action("take:1"))
    undone = ENGINE.apply(taken, ENGINE.decode_action("undo"))
    (line,) = PRESENTER.events(taken, [LoggedMove(3, 0, "undo")], undone, NAMES, "en")
    assert "took back a step: took space 1" in line


def test_describe_move_from_the_code_alone() -> None:
    cases = {
        "take:2": "took space 2",
        "place:blue:c3": "placed blue on c3",
        "card:17": "took animal card #17 boar",
        "cube:17:c3": "placed a cube from #17 boar on c3",
        "discard:5": "discarded animal card #5 frog",
        "keep:41": "kept the spirit card #41 dragonfly spirit",
        "undo": "took back the last step",
        "end": "ended the turn",
        "first:1": "player 2 goes first",
        "draw:1:blue": "blue token into space 1",
        "deal:17": "animal card #17 boar dealt",
    }
    for code, words in cases.items():
        assert PRESENTER.describe_move(None, LoggedMove(0, 0, code), "en") == words


def test_rules_summary_has_the_scoring_table() -> None:
    text = PRESENTER.rules_summary("en")
    assert len(text) < 4000
    for words in ("Trees", "Mountains", "Fields", "Buildings", "Water (A)", "Animals", "suns"):
        assert words in text


def test_events_never_raise_on_odd_input() -> None:
    s = next(playout(2, 2, {"side": "B"}))[0]
    broken = replace(s, central=())  # a take that cannot be replayed falls back to log lines
    lines = PRESENTER.events(broken, [LoggedMove(0, 0, "take:1")], s, NAMES, "en")
    assert lines == ["took space 1"]


def test_a_tie_on_points_says_how_it_was_settled(monkeypatch) -> None:
    *_, (before, moves, after) = playout(1, 2, {})
    from games.harmonies import present as harmonies

    monkeypatch.setattr(harmonies.ENGINE, "scores", lambda s: (30, 30))
    monkeypatch.setattr(harmonies.ENGINE, "winners", lambda s: (1,))
    text = "\n".join(PRESENTER.events(before, moves, after, NAMES[:2], "en"))
    assert "Ann and Ben tie on points; the most cubes on the board decides." in text
    monkeypatch.setattr(harmonies.ENGINE, "winners", lambda s: (0, 1))
    text = "\n".join(PRESENTER.events(before, moves, after, NAMES[:2], "en"))
    assert "a shared win" in text
