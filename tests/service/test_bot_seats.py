"""Computer opponents seated through the service play their turns and are logged like people."""

from __future__ import annotations

import pytest

from bot.service import errors
from bot.service.bots import bot_to_move, play_bot_turn
from bot.service.games import GameService
from bot.storage.base import GameStore

HOST = 11


async def test_one_person_against_two_bots_to_the_end(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=3, host_id=HOST, host_name="Host", game="cantstop"
    )
    await service.add_bot(lobby.id, HOST, "medium", "Bot 2")
    await service.add_bot(lobby.id, HOST, "hard", "Bot 3")
    snap = (await service.start(lobby.id, HOST)).after
    assert [s.is_bot for s in snap.seats] == [False, True, True]
    for _ in range(2000):
        if snap.status != "active":
            break
        if bot_to_move(snap) is not None:
            turn = await play_bot_turn(service, snap.id)
            assert turn is not None and turn.outcome.moves
            assert turn.outcome.after.to_move != turn.outcome.before.to_move or (
                turn.outcome.after.status == "finished"
            )
            snap = turn.outcome.after
        else:  # the person plays safe: one move, then stop
            action = "stop" if "stop" in snap.legal else snap.legal[0]
            snap = (await service.act(snap.id, HOST, action, snap.version)).after
    assert snap.status == "finished"
    assert await service.verify(snap.id)
    history = await service.history(snap.id)
    assert {m.seat for m in history} >= {0, 1, 2, None}


async def test_only_the_host_adds_bots_and_levels_are_checked(
    service: GameService, store: GameStore
) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=4, host_id=HOST, host_name="Host", game="cantstop", players=2
    )
    await service.join(lobby.id, 12, "Guest")
    with pytest.raises(errors.LobbyFull):
        await service.add_bot(lobby.id, HOST, "easy", "Bot")
    await service.leave(lobby.id, 12)
    with pytest.raises(errors.NotHost):
        await service.add_bot(lobby.id, 12, "easy", "Bot")
    with pytest.raises(errors.BadOption):
        await service.add_bot(lobby.id, HOST, "grandmaster", "Bot")


async def test_a_person_cannot_act_for_a_bot(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=5, host_id=HOST, host_name="Host", game="cantstop"
    )
    await service.add_bot(lobby.id, HOST, "easy", "Bot")
    snap = (await service.start(lobby.id, HOST)).after
    snap = (await service.act(snap.id, HOST, "roll", snap.version)).after
    while snap.to_move == 0:
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        snap = (await service.act(snap.id, HOST, action, snap.version)).after
    with pytest.raises(errors.NotYourTurn):
        await service.act(snap.id, HOST, "roll", snap.version)
