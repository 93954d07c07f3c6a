"""A bot standing in for a silent player plays at the level its server chose (``/settings
server``, migration 0016), medium when the server chose none; a seated bot keeps its own level."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service.bots import decide, play_bot_turn
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.service.preferences import BadSettingValue, Preferences
from engines.bots import get_bot

HOST, GUEST = 11, 12


async def silent_guest_to_move(service: GameService, guild_id: int) -> GameSnapshot:
    """A running Can't Stop game whose second seat (a person) is to move with a stand-in."""
    lobby = await service.open_lobby(
        guild_id=guild_id, channel_id=guild_id * 10, host_id=HOST, host_name="Host",
        game="cantstop", players=2,
    )
    await service.join(lobby.id, GUEST, "Guest")
    snap = (await service.start(lobby.id, HOST)).after
    while snap.to_move == 0:
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        snap = (await service.act(snap.id, HOST, action, snap.version)).after
    async with service.store.write() as tx:
        await tx.set_stand_in(snap.id, 1, "seat")
    return await service.game(snap.id)


async def levels_that_played(service: GameService, game_id: int) -> tuple[set[str], Any]:
    """Play the stand-in's turn; the names of the bots that made its decisions."""
    thinkers: set[str] = set()

    async def think(game: str, level: str, state: Any, rng: Any) -> Any:
        thinkers.add(type(get_bot(game, level)).__name__)
        return decide(game, level, state, rng)

    turn = await play_bot_turn(service, game_id, think=think)
    assert turn is not None and turn.outcome.moves
    assert all(m.seat == 1 for m in turn.outcome.moves if m.seat is not None)
    return thinkers, turn


@pytest.mark.parametrize("level", ["easy", "hard"])
async def test_a_stand_in_plays_at_the_servers_level(service: GameService, level: str) -> None:
    await Preferences(service.store).set_server(1, stand_in_level=level)
    snap = await silent_guest_to_move(service, 1)
    thinkers, turn = await levels_that_played(service, snap.id)
    assert thinkers == {type(get_bot("cantstop", level)).__name__}
    assert await service.verify(turn.outcome.after.id)


async def test_without_a_choice_a_stand_in_plays_medium(service: GameService) -> None:
    await Preferences(service.store).set_server(2, away_days=5)  # settings, but no level
    assert (await Preferences(service.store).server(2)).stand_in_level == "medium"
    snap = await silent_guest_to_move(service, 2)
    thinkers, _ = await levels_that_played(service, snap.id)
    assert thinkers == {type(get_bot("cantstop", "medium")).__name__}


async def test_a_seated_bot_keeps_its_own_level(service: GameService) -> None:
    await Preferences(service.store).set_server(3, stand_in_level="hard")
    lobby = await service.open_lobby(
        guild_id=3, channel_id=30, host_id=HOST, host_name="Host", game="cantstop", players=2
    )
    await service.add_bot(lobby.id, HOST, "easy", "Bot 2")
    snap = (await service.start(lobby.id, HOST)).after
    while snap.to_move == 0:
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        snap = (await service.act(snap.id, HOST, action, snap.version)).after
    thinkers, _ = await levels_that_played(service, snap.id)
    assert thinkers == {type(get_bot("cantstop", "easy")).__name__}


async def test_an_unknown_level_is_refused_and_changes_nothing(service: GameService) -> None:
    prefs = Preferences(service.store)
    await prefs.set_server(4, stand_in_level="hard")
    with pytest.raises(BadSettingValue):
        await prefs.set_server(4, stand_in_level="grandmaster")
    assert (await prefs.server(4)).stand_in_level == "hard"
