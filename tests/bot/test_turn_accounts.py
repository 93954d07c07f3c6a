"""The account of a whole turn and "since your last turn", built by each game's presenter from
the move log cut into turns (``bot.service.turns``), and the lines of the message that pings."""

from __future__ import annotations

import random

import pytest

from bot.adapter.messages import recap_line, turn_lines
from bot.games import load_games
from bot.present import get_presenter
from bot.service.models import GameSnapshot, LoggedMove, Seat
from bot.service.turns import PlayedTurn, last_ended, split_turns
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng

NAMES = ["alice", "bob", "carol"]

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


def cantstop_turns(script=CANTSTOP) -> list[PlayedTurn]:
    return split_turns("cantstop", 3, {}, logged(script))


def snapshot(game: str, state, seats: int = 3) -> GameSnapshot:
    engine = get_engine(game)
    mover = engine.to_move(state)
    return GameSnapshot(
        id=1, guild_id=1, channel_id=2, game=game, host_id=100,
        status="active" if mover != TERMINAL else "finished", version=len(CANTSTOP),
        capacity=seats, options={},
        seats=tuple(Seat(n, 100 + n, NAMES[n] if n < 3 else f"p{n}") for n in range(seats)),
        state=state, to_move=mover if mover >= 0 else None,
        legal=tuple(engine.encode_action(a) for a in engine.legal_actions(state)),
        turn=engine.turn(state),
    )  # fmt: skip


def played(game: str, seats: int, actions: int, seed: int = 1) -> list[LoggedMove]:
    """A log of ``actions`` random player moves (chance resolved as the service does)."""
    engine = get_engine(game)
    state, moves, rnd = engine.initial_state(seats, {}), [], random.Random(seed)
    while engine.to_move(state) != TERMINAL and len(moves) < actions:
        mover = engine.to_move(state)
        if mover == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, len(moves)))
        else:
            legal = [a for a in engine.legal_actions(state) if engine.encode_action(a) != "undo"]
            action = rnd.choice(legal)
        moves.append(LoggedMove(len(moves), None if mover == CHANCE else mover,
                                engine.encode_action(action)))  # fmt: skip
        state = engine.apply(state, action)
    return moves


def test_cantstop_accounts_tell_each_roll_and_how_the_turn_ended() -> None:
    alice, bob, carol = cantstop_turns()
    cs = get_presenter("cantstop")
    account = cs.turn_account(alice.start, alice.moves, alice.end, NAMES, "en")
    assert account == [
        "**alice**: rolled 3-4-4-6 → 7+10 · rolled 1-2-5-6 → 7+7 · stopped: 7 at 3 and 10 at 1"
    ]
    assert cs.turn_account(bob.start, bob.moves, bob.end, NAMES, "en") == [
        "**bob**: rolled 1-1-2-2 → 2+4 · rolled 3-4-3-4 → 7+7 · rolled 6-6-6-6 · 💥 bust"
    ]
    assert cs.turn_account(carol.start, carol.moves, carol.end, NAMES, "en") == [
        "**carol**: rolled 1-1-1-1 → 2+2 · rolled 1-1-1-1 → 2 · stopped: 2 at 3",
        "🏁 carol claims column 2!",
    ]
    assert cs.turn_account(carol.start, carol.moves, carol.end, NAMES, "de")[0] == (
        "**carol**: würfelte 1-1-1-1 → 2+2 · würfelte 1-1-1-1 → 2 · stoppte: 2 auf 3"
    )


def test_cantstop_turn_so_far_and_a_long_turn_clipped() -> None:
    cs = get_presenter("cantstop")
    (so_far,) = cantstop_turns(CANTSTOP[:5])
    assert not so_far.ended
    assert cs.turn_account(so_far.start, so_far.moves, so_far.end, NAMES, "en") == [
        "**alice**: rolled 3-4-4-6 → 7+10 · rolled 1-2-5-6"
    ]
    # six rolls up column 7: the first, "… 2 more rolls", then the last three
    long = [step for _ in range(6) for step in ((0, "roll"), (None, "dice:1-6-1-6"), (0, "move:7+7"))]
    (turn,) = cantstop_turns([*long, (0, "stop")])
    (line,) = cs.turn_account(turn.start, turn.moves, turn.end, NAMES, "en")
    roll = "rolled 1-6-1-6 → 7+7"
    assert line == f"**alice**: {roll} · … 2 more rolls · {roll} · {roll} · {roll} · stopped: 7 at 12"


def test_cantstop_recap_one_item_per_turn_in_every_language() -> None:
    turns = cantstop_turns()
    cs = get_presenter("cantstop")
    assert cs.recap(turns[1:], NAMES, "en") == [
        "bob busted after 3 rolls", "carol claimed column 2"
    ]
    assert cs.recap(turns[:1], NAMES, "en") == ["alice stopped: 7 at 3 and 10 at 1"]
    assert cs.recap(turns[1:], NAMES, "fr") == [
        "bob a chuté après 3 lancers", "carol a remporté la colonne 2"
    ]
    assert cs.recap(turns[1:], NAMES, "ja") == ["bobは3回振ってバースト", "carolが2の列を確保"]


def test_the_message_that_pings_alice_tells_what_the_others_did() -> None:
    turns = cantstop_turns()
    snap = snapshot("cantstop", turns[-1].end)
    assert snap.to_move == 0
    lines = turn_lines("en", snap, None, turns)
    assert lines == [
        "**carol**: rolled 1-1-1-1 → 2+2 · rolled 1-1-1-1 → 2 · stopped: 2 at 3",
        "🏁 carol claims column 2!",
        "🕑 Since your last turn: bob busted after 3 rolls · carol claimed column 2",
        "<@100>, your turn: roll the dice.",
    ]
    # Bob's first turn came after one other turn only: that turn is the account, no recap
    after_alice = cantstop_turns(CANTSTOP[:7])
    assert recap_line("en", snapshot("cantstop", after_alice[-1].end), after_alice, 1) is None
    # Carol's first turn: two turns happened before it
    first = recap_line("en", snapshot("cantstop", turns[1].end), turns[:2], 2)
    assert first == (
        "🕑 Before your first turn: alice stopped: 7 at 3 and 10 at 1 · bob busted after 3 rolls"
    )
    # in the middle of Alice's next turn (shown in place): the last turn, the turn so far
    middle = cantstop_turns([*CANTSTOP, (0, "roll"), (None, "dice:3-4-4-6")])
    lines = turn_lines("en", snapshot("cantstop", middle[-1].end), None, middle)
    assert lines[0].startswith("**carol**:") and lines[2] == "**alice**: rolled 3-4-4-6"
    assert lines[-1] == "<@100>, choose how to use your dice."


@pytest.mark.parametrize("game", ["kokeshi", "harmonies"])
def test_recap_items_name_the_player_and_the_score(game: str) -> None:
    load_games(())
    engine = get_engine(game)
    turns = [t for t in split_turns(game, 3, {}, played(game, 3, 400)) if t.ended and t.mover is not None]
    presenter = get_presenter(game)
    items = presenter.recap(turns[-3:], NAMES, "en")
    assert len(items) == 3
    for item, turn in zip(items, turns[-3:], strict=True):
        score = engine.scores(turn.end)[turn.mover]
        assert item.startswith(NAMES[turn.mover]) and f"{score}" in item and len(item) <= 160
        assert "**" not in item
    assert all(presenter.recap(turns[-2:], NAMES, lang) for lang in ("de", "fr", "ja"))


def test_harmonies_recap_counts_tokens_and_cards() -> None:
    turns = [t for t in split_turns("harmonies", 3, {}, played("harmonies", 3, 400)) if t.ended]
    presenter = get_presenter("harmonies")
    for turn in turns[1:6]:
        seat = turn.mover
        tokens = sum(len(s) for s in turn.end.players[seat].stacks) - sum(
            len(s) for s in turn.start.players[seat].stacks
        )
        (item,) = presenter.recap([turn], NAMES, "en")
        assert f"placed {tokens} token" in item, item


def test_harmonies_account_leaves_out_the_steps_taken_back() -> None:
    """A turn with a step taken back: the account tells where the tokens are at End turn."""
    engine = get_engine("harmonies")
    moves = played("harmonies", 2, 0)
    state = engine.initial_state(2, {})
    seq = 0

    def do(seat, code):
        nonlocal state, seq
        moves.append(LoggedMove(seq, seat, code))
        state = engine.apply(state, engine.decode_action(code))
        seq += 1

    while engine.to_move(state) == CHANCE:
        do(None, engine.encode_action(engine.sample_chance(state, Rng.for_step(3, seq))))
    seat = engine.to_move(state)
    codes = lambda: [engine.encode_action(a) for a in engine.legal_actions(state)]  # noqa: E731
    do(seat, next(c for c in codes() if c.startswith("take:")))
    first = next(c for c in codes() if c.startswith("place:"))
    do(seat, first)
    do(seat, "undo")
    while "end" not in codes() or any(c.startswith("place:") for c in codes()):
        do(seat, next(c for c in codes() if c.startswith("place:")))
    do(seat, "end")
    turn = last_ended(split_turns("harmonies", 2, {}, moves))
    assert turn is not None
    presenter = get_presenter("harmonies")
    account = presenter.turn_account(turn.start, turn.moves, turn.end, NAMES, "en")
    every_step = presenter.events(turn.start, turn.moves, turn.end, NAMES, "en")
    assert any("took back" in line for line in every_step)
    assert not any("took back" in line for line in account)
    assert sum("placed" in line for line in account) == 1 and account[-1].startswith(NAMES[seat])


def test_kokeshi_account_tells_the_cascade_step_by_step() -> None:
    turns = [t for t in split_turns("kokeshi", 3, {}, played("kokeshi", 3, 200)) if t.ended]
    presenter = get_presenter("kokeshi")
    turn = next(t for t in turns if not t.start.in_setup and len(t.moves) > 2)
    account = presenter.turn_account(turn.start, turn.moves, turn.end, NAMES, "en")
    assert account[0].startswith(f"**{NAMES[turn.mover]}** moves the ")
    assert len(account) > 1 and all(line.startswith("→") for line in account[1:])
    (item,) = presenter.recap([turn], NAMES, "en")
    assert item.startswith(account[0].replace("**", ""))


def test_nim_account_and_recap() -> None:
    load_games(("tests.games.nim",))
    moves = logged([(None, "first:1"), (1, "take:3:2"), (0, "take:1:3")])
    turns = split_turns("nim", 2, {}, moves)
    presenter = get_presenter("nim")
    last = last_ended(turns)
    assert last is not None and last.mover == 0
    assert presenter.turn_account(last.start, last.moves, last.end, NAMES, "en") == [
        "alice took 3 from heap 1."
    ]
    assert presenter.recap(turns, NAMES, "en") == [
        "bob took 2 from heap 3", "alice took 3 from heap 1"
    ]
