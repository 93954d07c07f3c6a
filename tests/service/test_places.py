"""Inputs for a game count only from its own channel (or a thread of it), and change nothing
otherwise."""

from __future__ import annotations

import pytest

from bot.service import errors
from bot.service.games import GameService

CHANNEL, THREAD_PARENT_ELSEWHERE, OTHER = 10, 77, 11


async def stored(service: GameService, game_id: int) -> tuple:
    snap = await service.game(game_id)
    return snap.version, snap.status, snap.seats, await service.history(game_id)


async def test_moves_and_lobby_presses_from_elsewhere_are_refused(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=1, host_name="A", game="cantstop"
    )
    for press in (
        service.join(lobby.id, 2, "B", where=(OTHER,)),
        service.add_bot(lobby.id, 1, "easy", "Bot", where=(OTHER, THREAD_PARENT_ELSEWHERE)),
        service.cancel(lobby.id, 1, where=()),  # a DM is no channel of the game
        service.start(lobby.id, 1, where=(OTHER,)),
    ):
        before = await stored(service, lobby.id)
        with pytest.raises(errors.WrongChannel) as refused:
            await press
        assert refused.value.params == {"channel_id": CHANNEL}
        assert await stored(service, lobby.id) == before
    await service.join(lobby.id, 2, "B", where=(CHANNEL,))
    first = (await service.start(lobby.id, 1, where=(OTHER, CHANNEL))).after  # from a thread

    before = await stored(service, lobby.id)
    with pytest.raises(errors.WrongChannel):
        await service.act(lobby.id, 1, "roll", first.version, where=(OTHER,))
    assert await stored(service, lobby.id) == before
    after = await service.act(lobby.id, 1, "roll", first.version, where=(CHANNEL,))
    assert after.after.version == first.version + 1
