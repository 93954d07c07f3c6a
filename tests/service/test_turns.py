"""The service says when an action ended a turn from the engine's turn counter alone: the one
rule that decides what the channel sees (steps inside a turn stay private where a game wants)."""

from __future__ import annotations

import random

import pytest

from bot.service.games import GameService
from engines.registry import get_engine
from tests.per_game import games, per_game


async def _table(service: GameService, game: str, seats: int):
    snap = await service.open_lobby(
        guild_id=1, channel_id=7, host_id=100, host_name="Host", game=game, players=seats
    )
    for n in range(1, seats):
        snap = await service.join(snap.id, 100 + n, f"P{n}")
    return (await service.start(snap.id, 100)).after


@per_game
@pytest.mark.parametrize("game", games())
async def test_a_turn_ends_exactly_when_the_counter_rises(service: GameService, game: str) -> None:
    engine = get_engine(game)
    seats = max(engine.info.min_seats, 2) if engine.info.max_seats > 1 else 1
    snap = await _table(service, game, seats)
    rnd = random.Random(game)
    ended = 0
    for _ in range(400):
        if snap.to_move is None:
            break
        user = snap.seats[snap.to_move].user_id
        outcome = await service.act(snap.id, user, rnd.choice(snap.legal), snap.version)
        after = outcome.after
        rose = engine.turn(after.state) > engine.turn(outcome.before.state)
        assert outcome.ended_turn == (rose or after.status != "active")
        if after.to_move is not None and after.to_move != outcome.before.to_move:
            assert outcome.ended_turn, "another seat took over inside a turn"
        ended += outcome.ended_turn
        snap = after
    assert ended > 0


async def test_solo_harmonies_end_turn_is_public_though_the_same_seat_plays_on(
    service: GameService,
) -> None:
    snap = await _table(service, "harmonies", 1)
    steps = 0
    while "end" not in snap.legal:
        outcome = await service.act(snap.id, 100, snap.legal[0], snap.version)
        assert not outcome.ended_turn
        snap = outcome.after
        steps += 1
    outcome = await service.act(snap.id, 100, "end", snap.version)
    assert outcome.ended_turn and outcome.after.to_move == 0 and steps > 0
