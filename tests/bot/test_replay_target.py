"""Which game /game replay shows: one of this server's that has started, else a private answer."""

from __future__ import annotations

import pytest

from bot.adapter.replay_command import NoSuchGameHere, game_to_replay
from bot.service.errors import GameNotStarted, NoActiveGame
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore


async def test_replay_picks_a_started_game_of_this_server_only(tmp_path) -> None:
    async with SqliteStore(tmp_path / "b.db") as store:
        service = GameService(store)
        with pytest.raises(NoActiveGame):
            await game_to_replay(service, 1, 10, None)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=10, host_id=5, host_name="A", game="cantstop", players=2
        )
        with pytest.raises(GameNotStarted):  # nothing played yet
            await game_to_replay(service, 1, 10, None)
        await service.join(lobby.id, 6, "B")
        await service.start(lobby.id, 5)
        assert (await game_to_replay(service, 1, 10, None)).id == lobby.id  # the running one
        assert (await game_to_replay(service, 1, 99, lobby.id)).id == lobby.id  # by number
        for guild, number in ((2, lobby.id), (None, lobby.id), (1, lobby.id + 1), (1, -3)):
            with pytest.raises(NoSuchGameHere):
                await game_to_replay(service, guild, 10, number)
        await service.abandon(10, 5, False)
        assert (await game_to_replay(service, 1, 10, None)).status == "abandoned"  # the last one
