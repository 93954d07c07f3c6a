"""``/game log`` as a record: each game's one line per turn (``turn_summary``, or the default a
plugin gets), numbered by turn, chance told inside the turn it served, the final scores last;
and the record's pages and buttons."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from bot.adapter.custom_ids import LAST, PageId, parse
from bot.adapter.history_command import PAGE_CHARS, Record, log_content, page_view
from bot.games import missing_parts
from bot.present import get_presenter, turn_log
from bot.present.turn_log import LINE_CHARS, final_line, record_lines
from bot.service.models import GameSnapshot, LoggedMove, Seat
from bot.service.turns import PlayedTurn, split_turns
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from tests.games.nim.present import NimPresenter
from tests.per_game import per_game, seat_counts

LANGUAGES = ("en", "de", "fr", "ja")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]

#: Can't Stop for three: alice stops, bob busts, carol claims column 2
CANTSTOP = [
    (0, "roll"), (None, "dice:3-4-4-6"), (0, "move:7+10"),
    (0, "roll"), (None, "dice:1-2-5-6"), (0, "move:7+7"), (0, "stop"),
    (1, "roll"), (None, "dice:1-1-2-2"), (1, "move:2+4"),
    (1, "roll"), (None, "dice:3-4-3-4"), (1, "move:7+7"),
    (1, "roll"), (None, "dice:6-6-6-6"),
    (2, "roll"), (None, "dice:1-1-1-1"), (2, "move:2+2"),
    (2, "roll"), (None, "dice:1-1-1-1"), (2, "move:2"), (2, "stop"),
]  # fmt: skip


def logged(script: list[tuple[int | None, str]]) -> list[LoggedMove]:
    return [LoggedMove(seq, seat, action) for seq, (seat, action) in enumerate(script)]


def playout(game: str, seats: int, seed: int) -> list[LoggedMove]:
    """A whole random game's log (chance drawn as the service draws it), without undo."""
    engine = get_engine(game)
    state, moves, rnd = engine.initial_state(seats, {}), [], random.Random(seed)
    while engine.to_move(state) != TERMINAL:
        mover = engine.to_move(state)
        if mover == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, len(moves)))
        else:
            legal = [a for a in engine.legal_actions(state) if engine.encode_action(a) != "undo"]
            action = rnd.choice(legal)
        seat = None if mover == CHANCE else mover
        moves.append(LoggedMove(len(moves), seat, engine.encode_action(action)))
        state = engine.apply(state, action)
    return moves


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
def test_every_game_has_one_numbered_line_per_turn_in_every_language(
    game: str, seats: int
) -> None:
    moves = playout(game, seats, seed=seats * 11 + len(game))
    turns = split_turns(game, seats, {}, moves)
    played = [t for t in turns if t.mover is not None]
    assert played and all(t.ended for t in played)
    names = NAMES[:seats]
    for lang in LANGUAGES:
        lines = record_lines(game, turns, names, lang, over=True)
        assert len(lines) == len(played) < len(moves), "a line a turn, not a line a move"
        for number, (line, turn) in enumerate(zip(lines, played, strict=True), start=1):
            assert line.startswith(f"{number}. "), line
            assert "\n" not in line and "{" not in line and "}" not in line, line
            assert len(line) <= LINE_CHARS
            assert names[turn.mover] in line, line  # type: ignore[index]
        said = turn_log.summary(game, played[0], names, lang)
        assert lines[0] == f"1. {said}"


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
def test_a_turn_in_progress_waits_until_it_ends_or_the_game_stops(
    game: str, seats: int
) -> None:
    moves = playout(game, seats, seed=5)
    turns = split_turns(game, seats, {}, moves)
    ended = [t for t in turns if t.mover is not None]
    # cut before the last player move of a turn that has more than one: not ended yet
    cut = next(
        (
            [m.seq for m in t.moves if m.seat is not None][-1]
            for t in ended[1:]
            if sum(m.seat is not None for m in t.moves) > 1
        ),
        None,
    )
    if cut is None:
        pytest.skip(f"{game}: every turn is one player move")
    partial = split_turns(game, seats, {}, moves[:cut])
    assert not partial[-1].ended
    running = record_lines(game, partial, NAMES[:seats], "en", over=False)
    stopped = record_lines(game, partial, NAMES[:seats], "en", over=True)
    assert len(stopped) == len(running) + 1
    assert stopped[: len(running)] == running


def test_cantstop_lines_tell_the_rolls_the_bust_and_the_claims() -> None:
    turns = split_turns("cantstop", 3, {}, logged(CANTSTOP))
    assert record_lines("cantstop", turns, NAMES, "en", over=False) == [
        "1. Alice: rolled 3-4-4-6 → 7+10 · rolled 1-2-5-6 → 7+7 · stopped: 7 at 3 and 10 at 1",
        "2. Bob: rolled 1-1-2-2 → 2+4 · rolled 3-4-3-4 → 7+7 · rolled 6-6-6-6 · 💥 bust",
        "3. Carol: rolled 1-1-1-1 → 2+2 · rolled 1-1-1-1 → 2 · stopped: 2 at 3 · "
        "🏁 claims column 2",
    ]
    german = record_lines("cantstop", turns, NAMES, "de", over=False)
    assert german[1].endswith("💥 verzockt") and "besetzt Reihe 2" in german[2]


def test_a_long_cantstop_turn_keeps_its_end() -> None:
    script: list[tuple[int | None, str]] = [(0, "roll"), (None, "dice:1-5-4-4"), (0, "move:6+8")]
    for _ in range(8):
        script += [(0, "roll"), (None, "dice:1-5-3-4"), (0, "move:6+7")]
    script += [(0, "roll"), (None, "dice:1-1-1-1")]
    (turn,) = split_turns("cantstop", 2, {}, logged(script))
    (line,) = record_lines("cantstop", [turn], NAMES, "en", over=False)
    assert "… 6 more rolls" in line and line.endswith("rolled 1-1-1-1 · 💥 bust")


def test_harmonies_lines_fold_the_draws_into_the_turn() -> None:
    moves = playout("harmonies", 2, seed=3)
    turns = split_turns("harmonies", 2, {}, moves)
    lines = record_lines("harmonies", turns, NAMES, "en", over=True)
    engine = get_engine("harmonies")
    assert all("token into space" not in line for line in lines)
    for line, turn in zip(lines, [t for t in turns if t.mover is not None], strict=True):
        assert re.search(r"took space \d \(", line), line
        assert "placed " in line
        score = engine.scores(turn.end)[turn.mover]
        assert line.endswith(f" · {score} point in all" if score == 1 else f" · {score} points in all")


def test_harmonies_line_leaves_out_a_step_taken_back() -> None:
    engine = get_engine("harmonies")
    state = engine.initial_state(2, {})
    moves: list[LoggedMove] = []

    def do(seat: int | None, code: str) -> None:
        nonlocal state
        moves.append(LoggedMove(len(moves), seat, code))
        state = engine.apply(state, engine.decode_action(code))

    while engine.to_move(state) == CHANCE:
        do(None, engine.encode_action(engine.sample_chance(state, Rng.for_step(3, len(moves)))))
    seat = engine.to_move(state)
    codes = lambda: [engine.encode_action(a) for a in engine.legal_actions(state)]  # noqa: E731
    do(seat, next(c for c in codes() if c.startswith("take:")))
    taken_back = next(c for c in codes() if c.startswith("place:"))
    do(seat, taken_back)
    do(seat, "undo")
    while "end" not in codes() or any(c.startswith("place:") for c in codes()):
        do(seat, next(c for c in codes() if c.startswith("place:")))
    placed = [m.action for m in moves[-3:]]
    do(seat, "end")
    (turn,) = [t for t in split_turns("harmonies", 2, {}, moves) if t.ended]
    line = get_presenter("harmonies").turn_summary(turn.start, turn.moves, turn.end, NAMES, "en")
    hexes = [code.split(":")[2] for code in placed]
    assert all(f" on {h}" in line for h in hexes), line
    assert line.count(" on ") == 3, line


def test_kokeshi_lines_tell_the_setup_and_each_move_in_one_line() -> None:
    moves = playout("kokeshi", 3, seed=9)
    turns = split_turns("kokeshi", 3, {}, moves)
    lines = record_lines("kokeshi", turns, NAMES, "en", over=True)
    setup = [line for line in lines if "starting tiles:" in line]
    assert len(setup) == 3
    moved = lines[3:]
    assert moved and all(re.match(r"\d+\. \w+: moves the ", line) for line in moved), moved
    assert all("points in all" in line or "point in all" in line for line in lines)


def test_a_plugin_without_turn_summary_gets_the_default_line() -> None:
    assert not hasattr(NimPresenter, "turn_summary")
    assert missing_parts("nim") == []
    turns = split_turns("nim", 2, {}, logged([(None, "first:1"), (1, "take:3:2"), (0, "take:1:3")]))
    assert record_lines("nim", turns, NAMES, "en", over=False) == [
        "1. Bob: seat 2 starts · took 2 from heap 3 (score 0)",
        "2. Alice: took 3 from heap 1 (score 0)",
    ]
    assert record_lines("nim", turns, NAMES, "ja", over=False)[1].startswith("2. Alice：")


def test_a_turn_summary_that_does_not_take_the_parameters_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        NimPresenter, "turn_summary", lambda self, turn, locale: "", raising=False
    )
    (problem,) = missing_parts("nim")
    assert problem.startswith("nim: its presenter has turn_summary(") and problem.endswith(
        "not taking (start, moves, end, names, locale)"
    )


def test_the_final_line_gives_the_scores_and_the_winners() -> None:
    assert final_line("en", "cantstop", NAMES[:2], (3, 1), (0,)) == (
        "🏆 Final scores: Alice 3 claimed columns, Bob 1 claimed column. Alice won."
    )
    assert final_line("en", "nim", NAMES[:2], (1, 1), (0, 1)).endswith(
        "Alice and Bob share the win."
    )
    assert final_line("de", "nim", NAMES[:2], (0, 0), ()).startswith(
        "Das Spiel wurde abgebrochen."
    )


# -- the record's pages ----------------------------------------------------------------------


def snapshot(status: str) -> GameSnapshot:
    return GameSnapshot(
        id=42, guild_id=1, channel_id=2, game="cantstop", host_id=100, status=status,
        version=1, capacity=2, options={},
        seats=(Seat(0, 100, "Alice"), Seat(1, 101, "Bob")),
        state=None, to_move=None, legal=(), turn=0,
    )  # fmt: skip


def record(count: int, status: str = "active", final: str | None = None) -> Record:
    lines = [f"{n}. Alice: rolled 1-2-3-4 → 3+7 · stopped: 3 at 1 and 7 at 1" for n in range(count)]
    return Record(snapshot(status), lines, final)


def ids(view: object) -> list[tuple[str, bool]]:
    return [(c.item.custom_id, c.item.disabled) for c in view.children]  # type: ignore[attr-defined]


def test_pages_run_from_the_first_turn_and_fit_discord() -> None:
    many = record(95)
    pages = many.pages
    assert pages[0][0] == 0 and pages[-1][1] == 95
    assert all(a[1] == b[0] for a, b in itertools.pairwise(pages))
    assert all(sum(len(x) + 1 for x in many.lines[a:b]) <= PAGE_CHARS for a, b in pages)
    for page in range(len(pages)):
        assert len(log_content("en", many, page)) <= 2000


def test_the_record_opens_on_page_one_with_jumps_to_both_ends() -> None:
    many = record(95)
    last = len(many.pages) - 1
    assert ids(page_view("en", many, 0)) == [
        ("brp:42:first", True), ("brp:42:0", True), ("brp:42:1", False), ("brp:42:last", False)
    ]
    assert ids(page_view("en", many, 1)) == [
        ("brp:42:first", False), ("brp:42:0", False), ("brp:42:2", False), ("brp:42:last", False)
    ]
    assert ids(page_view("en", many, last)) == [
        ("brp:42:first", False), (f"brp:42:{last - 1}", False), (f"brp:42:{last}", True),
        ("brp:42:last", True),
    ]  # fmt: skip
    labels = [c.item.label for c in page_view("en", many, 1).children]  # type: ignore[union-attr]
    assert labels == ["⏮ First", "◀ Previous", "Next ▶", "Last ⏭"]
    assert parse("brp:42:last") == PageId(42, LAST) and parse("brp:42:first") == PageId(42, 0)
    assert parse("brp:42:middle") is None
    assert page_view("en", record(3), 0) is None  # one page: no buttons


def test_the_heading_is_the_same_during_and_after_the_game() -> None:
    running = log_content("en", record(30), 0)
    ended = log_content("en", record(30, "finished", "🏆 Final scores: …"), 0)
    assert running.splitlines()[:2] == ended.splitlines()[:2] == [
        "**Can't Stop #42 — game record**",
        f"Turns 1 to {record(30).pages[0][1]} of 30",
    ]
    assert "Final scores" not in ended  # the last page has them
    last = len(record(30).pages) - 1
    assert log_content("en", record(30, "finished", "🏆 Final scores: …"), last).endswith(
        "🏆 Final scores: …"
    )
    assert log_content("en", record(0), 0).splitlines() == [
        "**Can't Stop #42 — game record**",
        "No turn has ended yet.",
    ]


def test_a_played_turn_type_the_record_reads() -> None:
    """The service's turns are what the record reads: it needs ``ended`` of them."""
    turn = split_turns("cantstop", 3, {}, logged(CANTSTOP))[0]
    assert isinstance(turn, PlayedTurn) and turn.ended
