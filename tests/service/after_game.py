"""Playing whole games through the service, for the tests of what comes after the last move."""

from __future__ import annotations

import random

from bot.service.games import GameService

GUILD, OTHER_GUILD = 1, 2
CHANNEL = 555
ALICE, BOB, CAROL, EVE = 101, 102, 103, 999


async def open_game(
    service: GameService,
    game: str = "cantstop",
    *,
    players: tuple[tuple[int, str], ...] = ((ALICE, "Alice"), (BOB, "Bob")),
    bots: tuple[str, ...] = (),
    channel_id: int = CHANNEL,
    guild_id: int = GUILD,
    options: dict[str, object] | None = None,
) -> int:
    """A started game: the first player hosts, the others join, then the bots sit down."""
    (host, host_name), *others = players
    lobby = await service.open_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host,
        host_name=host_name,
        game=game,
        options=options,
        players=len(players) + len(bots),
    )
    for user_id, name in others:
        await service.join(lobby.id, user_id, name)
    for n, level in enumerate(bots):
        await service.add_bot(lobby.id, host, level, f"Bot {n + 1}")
    return (await service.start(lobby.id, host)).after.id


async def play_out(service: GameService, game_id: int, *, seed: int = 7, limit: int = 5000) -> int:
    """Random legal moves for every seat (bots too, through ``act_as_bot``) until the game
    ends; returns how many actions were played."""
    pick = random.Random(seed)
    for count in range(limit):
        snap = await service.game(game_id)
        if snap.status != "active":
            return count
        assert snap.to_move is not None, snap
        action = pick.choice(sorted(snap.legal))
        # Can't Stop: stop now and then, so columns get claimed and the game ends
        if "stop" in snap.legal and pick.random() < 0.5:
            action = "stop"
        seat = snap.seats[snap.to_move]
        if seat.is_bot:
            await service.act_as_bot(game_id, seat.seat, action, snap.version)
        else:
            assert seat.user_id is not None
            await service.act(game_id, seat.user_id, action, snap.version)
    raise AssertionError(f"game {game_id} did not end in {limit} actions")
