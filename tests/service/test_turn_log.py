"""The move log cut into turns (``bot.service.turns``) on real games played through the service:
every turn starts where the previous one ended, its moves replay from its start to its end, one
seat plays it, and the turns together are the whole log."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.service import turns as turn_log
from bot.service.games import GameService
from engines.registry import get_engine
from engines.replay import replay
from tests.per_game import games, per_game


async def _table(service: GameService, game: str, seats: int):
    snap = await service.open_lobby(
        guild_id=1, channel_id=7, host_id=100, host_name="Host", game=game, players=seats
    )
    for n in range(1, seats):
        snap = await service.join(snap.id, 100 + n, f"P{n}")
    return (await service.start(snap.id, 100)).after


async def _play(service: GameService, snap, rnd: random.Random, actions: int):
    for _ in range(actions):
        if snap.to_move is None:
            break
        user = snap.seats[snap.to_move].user_id
        snap = (await service.act(snap.id, user, rnd.choice(snap.legal), snap.version)).after
    return snap


@per_game
@pytest.mark.parametrize("game", games())
async def test_turns_cover_the_log_and_replay(service: GameService, game: str) -> None:
    engine = get_engine(game)
    seats = min(3, engine.info.max_seats) if engine.info.max_seats > 1 else 1
    seats = max(seats, engine.info.min_seats)
    snap = await _play(service, await _table(service, game, seats), random.Random(game), 300)
    turns = await turn_log.turns_of(service, snap)
    history = await service.history(snap.id)
    assert [m for t in turns for m in t.moves] == history
    assert turns[-1].end == snap.state
    for prev, turn in itertools.pairwise(turns):
        assert turn.start == prev.end
    ended = [t for t in turns if t.ended]
    assert len(ended) >= snap.turn  # a turn ends where the counter rises (or the game ends)
    for turn in turns:
        state = turn.start
        for move in turn.moves:
            if move.seat is not None:  # one seat plays the whole turn: the one to move
                assert move.seat == engine.to_move(state) == turn.mover
            state = engine.apply(state, engine.decode_action(move.action))
        assert state == turn.end
    last = turn_log.last_ended(turns)
    assert last is not None and last.ended and last.mover is not None
    assert engine.turn(last.end) > engine.turn(last.start) or snap.status == "finished"


async def test_the_log_is_read_up_to_the_snapshot_it_was_asked_for(service: GameService) -> None:
    """A snapshot read before newer moves were logged: its turns end at its own state."""
    snap = await _play(service, await _table(service, "cantstop", 3), random.Random(3), 40)
    later = await _play(service, snap, random.Random(4), 25)
    assert later.version > snap.version
    turns = await turn_log.turns_of(service, snap)
    assert turns[-1].end == snap.state
    moves = [m.action for t in turns for m in t.moves]
    engine = get_engine("cantstop")
    assert replay(engine, 3, snap.options, moves) == snap.state


async def test_since_the_last_turn_of_a_seat(service: GameService) -> None:
    """Can't Stop for three: each seat's recap is the two turns the others played since."""
    snap = await _table(service, "cantstop", 3)
    engine = get_engine("cantstop")
    for _ in range(7):  # seven whole turns: roll, take the first move, stop (or bust)
        turn = snap.turn
        while snap.turn == turn and snap.to_move is not None:
            user = snap.seats[snap.to_move].user_id
            action = "stop" if "stop" in snap.legal else snap.legal[0]
            snap = (await service.act(snap.id, user, action, snap.version)).after
    turns = await turn_log.turns_of(service, snap)
    played = [t for t in turns if t.ended]
    assert [t.mover for t in played] == [0, 1, 2, 0, 1, 2, 0]
    assert turn_log.in_progress(turns) is None
    to_move = engine.to_move(snap.state)
    assert to_move == 1
    since = turn_log.since_last_turn_of(turns, to_move)
    assert [t.mover for t in since] == [2, 0]
    assert since[-1] is turn_log.last_ended(turns)
    # the turn being played shows up once someone has rolled
    snap = (await service.act(snap.id, snap.seats[1].user_id, "roll", snap.version)).after
    turns = await turn_log.turns_of(service, snap)
    current = turn_log.in_progress(turns)
    assert current is not None and current.mover == 1 and not current.ended
    assert [m.action.split(":")[0] for m in current.moves] == ["roll", "dice"]
