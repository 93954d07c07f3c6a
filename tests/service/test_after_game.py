"""After the last move, on each backend: rematch, history, the export and its proof."""

from __future__ import annotations

import copy
import hashlib
import sqlite3

import pytest

from bot.service import errors, fairness, history
from bot.service.clocks import LOBBY_EXPIRY
from bot.service.games import GameService
from bot.service.preferences import Preferences
from bot.service.rematch import (
    NoSuchGameHere,
    RematchExists,
    RematchNotAPlayer,
    RematchNotFinished,
    rematch,
    waiting_for,
)
from bot.service.verify import verify
from bot.storage.base import GameStore
from bot.storage.postgres import PostgresStore
from bot.storage.sqlite import SqliteStore
from engines.base import CHANCE
from engines.registry import get_engine
from engines.replay import replay
from engines.rng import Rng
from tests.service.after_game import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    EVE,
    GUILD,
    OTHER_GUILD,
    open_game,
    play_out,
)

GAMES = ("cantstop", "harmonies", "kokeshi")


def test_the_commitment_is_sha256_of_the_documented_text() -> None:
    text = b"boardroom:cantstop:7:12345"
    assert fairness.committed_text("cantstop", 7, 12345) == text.decode()
    assert fairness.commitment("cantstop", 7, 12345) == hashlib.sha256(text).hexdigest()
    assert fairness.matches("cantstop", 7, 12345, hashlib.sha256(text).hexdigest().upper())
    assert not fairness.matches("cantstop", 8, 12345, fairness.commitment("cantstop", 7, 12345))
    assert not fairness.matches("kokeshi", 7, 12345, fairness.commitment("cantstop", 7, 12345))
    assert not fairness.matches("cantstop", 7, 12346, fairness.commitment("cantstop", 7, 12345))
    assert not fairness.matches("cantstop", 7, 12345, "abc")


async def test_the_seed_leaves_the_service_only_when_the_game_is_over(
    service: GameService,
) -> None:
    game_id = await open_game(service)
    snap = await service.game(game_id)
    assert snap.revealed_seed is None
    assert snap.commitment == fairness.commitment("cantstop", game_id, 12345)
    assert "12345" not in repr(snap)
    with pytest.raises(history.GameStillRunning):
        await history.export(service, game_id, GUILD)
    await play_out(service, game_id)
    assert (await service.game(game_id)).revealed_seed == 12345


@pytest.mark.parametrize("game", GAMES)
async def test_rematch_rotates_the_same_seats_and_keeps_the_options(
    service: GameService, game: str
) -> None:
    bots = ("easy",) if game != "harmonies" else ("medium",)
    options = {"side": "B"} if game == "harmonies" else None
    game_id = await open_game(service, game, bots=bots, options=options)
    await play_out(service, game_id)
    old = await service.game(game_id)
    lobby = await rematch(service, game_id, BOB, guild_id=GUILD, where=(CHANNEL,))
    assert lobby.is_lobby and lobby.channel_id == CHANNEL and lobby.host_id == BOB
    assert lobby.options == old.options and lobby.capacity == old.capacity
    assert lobby.rematch_of == game_id
    # only the one who asked and the computer opponent are seated; Alice is asked to join
    assert [(s.user_id, s.name, s.bot_level) for s in lobby.seats] == [
        (BOB, "Bob", None),
        (None, "Bot 1", bots[0]),
    ]
    assert [s.user_id for s in await waiting_for(service, lobby)] == [ALICE]
    joined = await service.join(lobby.id, ALICE, "Alice")
    assert [(s.seat, s.user_id, s.name, s.bot_level) for s in joined.seats] == [
        (0, BOB, "Bob", None),
        (1, None, "Bot 1", bots[0]),
        (2, ALICE, "Alice", None),
    ]
    assert await waiting_for(service, joined) == ()
    # the host starts it as usual, and anyone else may leave first
    await service.leave(lobby.id, ALICE)
    started = await service.start(lobby.id, BOB)
    assert started.after.status == "active"
    assert started.after.commitment != old.commitment  # a new game, a new seed commitment


async def test_a_rematch_seats_whoever_says_yes_where_the_rotation_puts_them(
    service: GameService,
) -> None:
    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice",
        game="cantstop", players=4,
    )
    await service.join(lobby.id, BOB, "Bob")
    await service.join(lobby.id, CAROL, "Carol")
    game_id = (await service.start(lobby.id, ALICE)).after.id
    await play_out(service, game_id)
    again = await rematch(service, game_id, ALICE, guild_id=GUILD)  # the old first seat asks
    assert [s.user_id for s in again.seats] == [ALICE] and again.capacity == 4
    assert [s.user_id for s in await waiting_for(service, again)] == [BOB, CAROL]
    # nobody else said yes: the host cannot start a game of one
    with pytest.raises(errors.TooFewPlayers):
        await service.start(again.id, ALICE)
    # Carol answers first, a newcomer joins, then Bob: the rotation decides, newcomers last
    await service.join(again.id, CAROL, "Carol")
    await service.join(again.id, EVE, "Eve")
    assert [s.user_id for s in await waiting_for(service, await service.game(again.id))] == [BOB]
    full = await service.join(again.id, BOB, "Bob")
    assert [(s.seat, s.user_id) for s in full.seats] == [(0, BOB), (1, CAROL), (2, ALICE), (3, EVE)]
    started = await service.start(again.id, ALICE)
    assert started.after.status == "active"


async def test_a_rematch_has_the_clock_of_the_game_and_closes_like_any_lobby(
    service: GameService, store: GameStore
) -> None:
    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice",
        game="cantstop", players=2, clock_seconds=3 * 3600, expires_after=24 * 3600,
    )
    await service.join(lobby.id, BOB, "Bob")
    game_id = (await service.start(lobby.id, ALICE)).after.id
    await play_out(service, game_id)
    before = service.turn_clock.now()
    again = await rematch(service, game_id, BOB, guild_id=GUILD)
    assert again.clock_seconds == 3 * 3600  # the same turn clock
    (expiry,) = [t for t in await store.timers_of_game(again.id) if t.kind == LOBBY_EXPIRY]
    # the server's lobby expiry (24 hours unless it chose otherwise)
    assert before + 24 * 3600 <= expiry.due <= service.turn_clock.now() + 24 * 3600
    closed = await service.expire_lobby(again.id, expiry.id)
    assert closed is not None and closed.status == "cancelled"
    # the channel is free again, and the Rematch button may open another lobby
    assert await store.open_game_in_channel(CHANNEL) is None
    second = await rematch(service, game_id, ALICE, guild_id=GUILD)
    assert second.is_lobby and second.id != again.id


async def test_a_rematch_closes_after_the_servers_lobby_expiry(
    service: GameService, store: GameStore
) -> None:
    await Preferences(store).set_server(GUILD, lobby_hours=5)
    game_id = await open_game(service)
    await play_out(service, game_id)
    again = await rematch(service, game_id, ALICE, guild_id=GUILD)
    (expiry,) = [t for t in await store.timers_of_game(again.id) if t.kind == LOBBY_EXPIRY]
    assert expiry.due <= service.turn_clock.now() + 5 * 3600 + 1
    assert expiry.due >= service.turn_clock.now() + 5 * 3600 - 60
    assert again.clock_seconds is None  # the game had no clock: neither has its rematch


async def test_wrong_rematch_clicks_change_nothing(service: GameService, store) -> None:
    game_id = await open_game(service, players=((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "C")))
    with pytest.raises(RematchNotFinished):  # still running
        await rematch(service, game_id, ALICE, guild_id=GUILD)
    await play_out(service, game_id)
    before = await dump(store)
    for user, guild, where, error in (
        (EVE, GUILD, (CHANNEL,), RematchNotAPlayer),  # watched, did not play
        (ALICE, OTHER_GUILD, None, NoSuchGameHere),  # another server's id
        (ALICE, GUILD, (999,), errors.WrongChannel),  # pressed somewhere else
    ):
        with pytest.raises(error):
            await rematch(service, game_id, user, guild_id=guild, where=where)
    with pytest.raises(NoSuchGameHere):
        await rematch(service, 424242, ALICE, guild_id=GUILD)
    assert await dump(store) == before
    first = await rematch(service, game_id, CAROL, guild_id=GUILD)
    assert [s.user_id for s in first.seats] == [CAROL]
    await service.record_post(first.id, first.version, CHANNEL, 7777)
    before = await dump(store)
    with pytest.raises(RematchExists) as twice:  # a double click: the lobby exists, with a link
        await rematch(service, game_id, ALICE, guild_id=GUILD)
    assert twice.value.params["game_id"] == first.id
    assert twice.value.params["message_id"] == 7777
    assert await dump(store) == before
    # the rematch lobby is cancelled: the button may open another one
    await service.cancel(first.id, CAROL)
    second = await rematch(service, game_id, ALICE, guild_id=GUILD)
    assert second.host_id == ALICE and second.id != first.id


async def test_a_rematch_in_a_busy_channel_links_to_what_is_there(service: GameService) -> None:
    game_id = await open_game(service)
    await play_out(service, game_id)
    busy = await service.open_lobby(
        guild_id=GUILD, channel_id=CHANNEL, host_id=EVE, host_name="Eve", game="kokeshi"
    )
    await service.record_post(busy.id, busy.version, CHANNEL, 8888)
    with pytest.raises(errors.ChannelBusy) as refused:
        await rematch(service, game_id, ALICE, guild_id=GUILD)
    assert refused.value.params["game_id"] == busy.id
    assert refused.value.params["message_id"] == 8888


async def dump(store: SqliteStore | PostgresStore) -> list[list[tuple]]:
    """Every row of the tables a rematch writes to (on either backend)."""
    return [
        await store.table_rows(table, await store.table_columns(table))
        for table in ("games", "seats", "moves", "posts")
    ]


async def test_history_lists_this_servers_finished_games_newest_first(
    service: GameService, store: GameStore
) -> None:
    ours = []
    for n, game in enumerate(GAMES):
        game_id = await open_game(service, game, channel_id=600 + n)
        await play_out(service, game_id)
        ours.append(game_id)
    carol = await open_game(
        service, players=((CAROL, "Carol"), (BOB, "Bob")), channel_id=700
    )
    await play_out(service, carol)
    elsewhere = await open_game(service, guild_id=OTHER_GUILD, channel_id=800)
    await play_out(service, elsewhere)
    await open_game(service, channel_id=900)  # running: not in the history
    await service.record_post(ours[0], 99, 600, 5555)

    listed = await history.finished_games(service, GUILD)
    assert [p.snap.id for p in listed] == [carol, *reversed(ours)]
    assert listed[-1].final_post == (600, 5555) and listed[0].final_post is None
    assert all(p.snap.scores and p.snap.winners for p in listed)
    assert listed[0].ended_at > 1_700_000_000
    alice = await history.finished_games(service, GUILD, ALICE)
    assert [p.snap.id for p in alice] == list(reversed(ours))
    assert [p.snap.id for p in await history.finished_games(service, GUILD, limit=2)] == [
        carol,
        ours[2],
    ]
    with pytest.raises(NoSuchGameHere):
        await history.game_here(service, elsewhere, GUILD)
    assert (await history.game_here(service, elsewhere, OTHER_GUILD)).id == elsewhere


def test_the_history_queries_use_their_indexes(tmp_path) -> None:
    import asyncio

    async def make() -> None:
        async with SqliteStore(tmp_path / "plan.db"):
            pass

    asyncio.run(make())
    conn = sqlite3.connect(tmp_path / "plan.db")
    try:
        plan = " ".join(
            str(row)
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM games WHERE guild_id = ? AND status = 'finished'"
                " AND (? IS NULL OR id IN (SELECT game_id FROM seats WHERE user_id = ?))"
                " ORDER BY id DESC LIMIT ?",
                (1, 2, 2, 10),
            )
        )
        rematch_plan = " ".join(
            str(row)
            for row in conn.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM games"
                " WHERE rematch_of = ? AND status != 'cancelled' ORDER BY id DESC LIMIT 1",
                (1,),
            )
        )
    finally:
        conn.close()
    by_guild = "games_finished_by_guild" in plan or "games_open_by_guild" in plan
    assert by_guild and "seats_by_user" in plan and "SCAN games" not in plan, plan
    assert "games_rematch_of" in rematch_plan, rematch_plan


@pytest.mark.parametrize("game", GAMES)
async def test_an_export_verifies_and_a_tampered_one_does_not(
    service: GameService, game: str
) -> None:
    game_id = await open_game(service, game, bots=("easy",) if game == "cantstop" else ())
    await play_out(service, game_id)
    data = await history.export(service, game_id, GUILD)
    assert data["seed"] == 12345 and data["status"] == "finished"
    assert data["commitment"] == fairness.commitment(game, game_id, 12345)
    assert [s["name"] for s in data["seats"]][:2] == ["Alice", "Bob"]
    assert all(m["time"] for m in data["moves"])
    engine = get_engine(game)
    rebuilt = replay(engine, len(data["seats"]), data["options"], (m["action"] for m in data["moves"]))
    assert list(engine.scores(rebuilt)) == data["scores"]
    verdict = verify(data)
    assert verdict.ok, verdict
    assert verdict.params["count"] == len(data["moves"])

    # a chance outcome changed to another one the rules allow
    chance = next(i for i, m in enumerate(data["moves"]) if m["seat"] is None and i > 3)
    state = replay(engine, len(data["seats"]), data["options"],
                   (m["action"] for m in data["moves"][:chance]))
    assert engine.to_move(state) == CHANCE
    for n in range(1, 500):
        other = engine.encode_action(engine.sample_chance(state, Rng.for_step(n, chance)))
        if other != data["moves"][chance]["action"]:
            break
    dice = copy.deepcopy(data)
    dice["moves"][chance]["action"] = other
    assert verify(dice).key == "cli.verify.chance"
    # another seed (the commitment no longer matches), and a commitment made up for it
    seed = copy.deepcopy(data)
    seed["seed"] += 1
    assert verify(seed).key == "cli.verify.commitment"
    seed["commitment"] = fairness.commitment(game, game_id, seed["seed"])
    assert verify(seed).key == "cli.verify.chance"  # its dice are not the logged ones
    # a player's move made up
    mover = next(i for i, m in enumerate(data["moves"]) if m["seat"] is not None and i > 3)
    made_up = copy.deepcopy(data)
    made_up["moves"][mover]["action"] = "nonsense:99"
    assert verify(made_up).key == "cli.verify.illegal"
    cut = copy.deepcopy(data)
    del cut["moves"][-1]
    assert verify(cut).key == "cli.verify.not_ended"
    assert verify({"game": game}).key == "cli.verify.bad_file"


async def test_an_abandoned_game_exports_and_verifies(service: GameService) -> None:
    game_id = await open_game(service)
    snap = await service.game(game_id)
    await service.act(game_id, ALICE, "roll", snap.version)
    await service.abandon(CHANNEL, ALICE, False)
    data = await history.export(service, game_id, GUILD)
    assert data["status"] == "abandoned"
    assert verify(data).ok
    with pytest.raises(NoSuchGameHere):
        await history.export(service, game_id, OTHER_GUILD)
