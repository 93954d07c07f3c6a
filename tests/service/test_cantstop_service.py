"""The service end to end with the real Can't Stop engine and a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import errors
from bot.service.games import GameService
from bot.storage import open_store
from bot.storage.base import GameStore

ALICE, BOB, CAROL, EVE = 101, 102, 103, 999
CHANNEL = 555


async def dump(store: GameStore) -> dict[str, list[tuple]]:
    """Every row of every table, read on a connection other than the writer's."""
    found = {}
    for table in ("games", "seats", "moves", "posts"):
        columns = await store.table_columns(table)  # type: ignore[attr-defined]
        found[table] = await store.table_rows(table, columns)  # type: ignore[attr-defined]
    return found


async def started(service: GameService, players: int = 2) -> int:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", game="cantstop"
    )
    await service.join(lobby.id, BOB, "Bob")
    if players > 2:
        await service.join(lobby.id, CAROL, "Carol")
    outcome = await service.start(lobby.id, ALICE)
    return outcome.after.id


async def test_lobby_then_first_turn(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", game="cantstop"
    )
    assert lobby.is_lobby and [s.name for s in lobby.seats] == ["Alice"]
    lobby = await service.join(lobby.id, BOB, "Bob")
    outcome = await service.start(lobby.id, ALICE)
    snap = outcome.after
    assert snap.status == "active" and snap.to_move == 0 and snap.legal == ("roll",)


async def test_roll_resolves_dice_in_the_same_commit(service: GameService) -> None:
    game_id = await started(service)
    snap = await service.game(game_id)
    outcome = await service.act(game_id, ALICE, "roll", snap.version)
    assert [m.action.split(":")[0] for m in outcome.moves] == ["roll", "dice"]
    assert outcome.moves[1].seat is None
    assert outcome.after.version == snap.version + 1
    assert [m.action for m in await service.history(game_id)] == [m.action for m in outcome.moves]


@pytest.mark.parametrize(
    "case",
    ["not_your_turn", "not_seated", "stale", "illegal", "garbage", "unknown_game"],
)
async def test_bad_input_changes_nothing(
    service: GameService, store: GameStore, case: str
) -> None:
    game_id = await started(service)
    version = (await service.game(game_id)).version
    before = await dump(store)
    expected, call = {
        "not_your_turn": (errors.NotYourTurn, (game_id, BOB, "roll", version)),
        "not_seated": (errors.NotSeated, (game_id, EVE, "roll", version)),
        "stale": (errors.StaleBoard, (game_id, ALICE, "roll", version - 1)),
        "illegal": (errors.IllegalMove, (game_id, ALICE, "stop", version)),
        "garbage": (errors.BadActionText, (game_id, ALICE, "move:99+x", version)),
        "unknown_game": (errors.GameNotFound, (4242, ALICE, "roll", 0)),
    }[case]
    with pytest.raises(expected):
        await service.act(*call)
    assert await dump(store) == before


async def test_lobby_errors_change_nothing(service: GameService, store: GameStore) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", game="cantstop", players=2
    )
    before = await dump(store)
    with pytest.raises(errors.TooFewPlayers):
        await service.start(lobby.id, ALICE)
    with pytest.raises(errors.AlreadySeated):
        await service.join(lobby.id, ALICE, "Alice")
    with pytest.raises(errors.NotInLobby):
        await service.leave(lobby.id, BOB)
    with pytest.raises(errors.HostCannotLeave):
        await service.leave(lobby.id, ALICE)
    with pytest.raises(errors.ChannelBusy):
        await service.open_lobby(
            guild_id=1, channel_id=CHANNEL, host_id=BOB, host_name="Bob", game="cantstop"
        )
    assert await dump(store) == before
    await service.join(lobby.id, BOB, "Bob")
    before = await dump(store)
    with pytest.raises(errors.LobbyFull):
        await service.join(lobby.id, CAROL, "Carol")
    with pytest.raises(errors.NotHost):
        await service.start(lobby.id, BOB)
    with pytest.raises(errors.NotHost):
        await service.cancel(lobby.id, BOB)
    assert await dump(store) == before


async def test_no_game_in_channel(service: GameService) -> None:
    with pytest.raises(errors.NoActiveGame):
        await service.current(777)
    with pytest.raises(errors.NoActiveGame):
        await service.abandon(777, ALICE, can_manage_channel=True)


async def test_unknown_game_and_bad_options(service: GameService) -> None:
    with pytest.raises(errors.UnknownGameType):
        await service.open_lobby(
            guild_id=1, channel_id=1, host_id=ALICE, host_name="A", game="chess"
        )
    with pytest.raises(errors.BadOption):
        await service.open_lobby(
            guild_id=1, channel_id=1, host_id=ALICE, host_name="A", game="cantstop", players=7
        )
    with pytest.raises(errors.BadOption):
        await service.open_lobby(
            guild_id=1,
            channel_id=1,
            host_id=ALICE,
            host_name="A",
            game="cantstop",
            options={"auto_stop_on_win": "perhaps"},
        )


async def test_double_click_exactly_one_applied(service: GameService) -> None:
    game_id = await started(service)
    version = (await service.game(game_id)).version
    results = await asyncio.gather(
        service.act(game_id, ALICE, "roll", version),
        service.act(game_id, ALICE, "roll", version),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert sum(isinstance(r, errors.StaleBoard) for r in results) == 1
    assert len(await service.history(game_id)) == 2  # one roll + its dice


async def test_abandon_rights(service: GameService) -> None:
    game_id = await started(service)
    with pytest.raises(errors.NotAllowedToAbandon):
        await service.abandon(CHANNEL, BOB, can_manage_channel=False)
    snap = await service.abandon(CHANNEL, BOB, can_manage_channel=True)
    assert snap.id == game_id and snap.status == "abandoned"
    with pytest.raises(errors.GameOver):
        await service.act(game_id, ALICE, "roll", snap.version)


async def play_to_end(service: GameService, game_id: int) -> None:
    """Both players roll; they stop after two moves in a turn (never busting forever)."""
    steps = 0
    while True:
        snap = await service.game(game_id)
        if snap.status != "active":
            return
        user = snap.seats[snap.to_move].user_id
        moves_this_turn = len(snap.state.runners)
        action = "stop" if "stop" in snap.legal and moves_this_turn >= 2 else snap.legal[0]
        await service.act(game_id, user, action, snap.version)
        steps += 1
        assert steps < 5000


async def test_whole_game_and_restart(database: str) -> None:
    async with open_store(database) as store:
        service = GameService(store, new_seed=lambda: 7)
        game_id = await started(service, players=3)
        for _ in range(5):
            snap = await service.game(game_id)
            await service.act(
                game_id, snap.seats[snap.to_move].user_id, snap.legal[0], snap.version
            )
        mid = await service.game(game_id)
    async with open_store(database) as store:  # a restart: a new connection sees the same game
        service = GameService(store)
        again = await service.game(game_id)
        assert again.state == mid.state and again.version == mid.version
        await play_to_end(service, game_id)
        final = await service.game(game_id)
        assert final.status == "finished" and len(final.winners) == 1
        assert final.scores[final.winners[0]] >= 3
        assert await service.verify(game_id)
        with pytest.raises(errors.NoActiveGame):
            await service.current(CHANNEL)


async def test_a_lobby_nobody_saw_is_withdrawn_unless_it_changed(service: GameService) -> None:
    """``withdraw_lobby`` closes the lobby at the version it was opened at (the channel is free
    at once, its expiry timer gone), and does nothing to one that changed since (someone saw it
    and joined) or is no longer a lobby."""
    lobby = await service.open_lobby(
        guild_id=1,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="Alice",
        game="cantstop",
        expires_after=600,
    )
    assert await service.withdraw_lobby(lobby.id, lobby.version)
    assert (await service.game(lobby.id)).status == "cancelled"
    assert await service.store.timers_of_game(lobby.id) == []
    assert not await service.withdraw_lobby(lobby.id, lobby.version + 1)  # closed already
    again = await service.open_lobby(  # the channel is free
        guild_id=1, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", game="cantstop"
    )
    joined = await service.join(again.id, BOB, "Bob")
    assert not await service.withdraw_lobby(again.id, again.version)  # Bob saw it
    assert (await service.game(again.id)).status == "lobby"
    assert not await service.withdraw_lobby(again.id + 1, 0)  # no such game
    assert joined.version == again.version + 1
