"""Every game can be played by a person against computer opponents through the service."""

from __future__ import annotations

import pytest

from bot.service.bots import bot_to_move, play_bot_turn
from bot.service.games import GameService
from engines.rng import Rng

HOST = 21


@pytest.mark.parametrize(
    ("game", "levels", "options"),
    [
        ("harmonies", ["easy"], {"side": "B", "spirits": True}),
        ("kokeshi", ["easy", "medium"], {"animal_side": "advanced"}),
    ],
)
async def test_a_person_against_bots_to_the_end(
    service: GameService, game: str, levels: list[str], options: dict
) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=9, host_id=HOST, host_name="Host", game=game, options=options
    )
    for n, level in enumerate(levels, start=2):
        await service.add_bot(lobby.id, HOST, level, f"Bot {n}")
    snap = (await service.start(lobby.id, HOST)).after
    for step in range(5000):
        if snap.status != "active":
            break
        if bot_to_move(snap) is not None:
            turn = await play_bot_turn(service, snap.id)
            assert turn is not None
            snap = turn.outcome.after
        else:  # the person picks at random among the legal actions
            code = Rng.for_step(5, step).choice(snap.legal)
            snap = (await service.act(snap.id, HOST, code, snap.version)).after
    assert snap.status == "finished"
    assert await service.verify(snap.id)
