"""What only the PostgreSQL store has to show on a real server: its migrations, a pool sized by a
setting, losing the server (a move under way fails and leaves nothing behind; the next one works
once it is back), two stores (two pools, as two processes) racing on the same games or on the
ratings of one server and game, and no seed in any log."""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import replace

import pytest

from bot.logs import setup_logging
from bot.service import errors
from bot.service.games import GameService
from bot.storage.base import MoveRow, OpenGameExists, StoreUnavailable
from bot.storage.migrate import migration_scripts
from bot.storage.postgres import PostgresStore
from tests.pg.server import PgServer
from tests.storage.test_store import new_row

ALICE, BOB = 101, 102


async def started(service: GameService, channel: int) -> int:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=channel, host_id=ALICE, host_name="Alice", game="cantstop"
    )
    await service.join(lobby.id, BOB, "Bob")
    return (await service.start(lobby.id, ALICE)).after.id


async def test_migrations_are_recorded_once_and_the_pool_has_its_size(
    pg_server: PgServer,
) -> None:
    url = pg_server.new_database()  # empty: the store builds the schema itself
    async with PostgresStore(url, pool_size=3), PostgresStore(url, pool_size=3) as store:
        assert store._pool is not None and store._pool.get_max_size() == 3
    name = url.rsplit("/", 1)[1]
    recorded = pg_server.sql("SELECT version, name FROM schema_version ORDER BY 1", name)
    assert recorded.splitlines() == [f"{n}|{file}" for n, file, _ in migration_scripts()]
    assert pg_server.sql("SELECT indexdef FROM pg_indexes WHERE indexname ="
                         " 'games_one_open_per_channel'", name).endswith(
        "WHERE (status = ANY (ARRAY['lobby'::text, 'active'::text]))"
    )
    with pytest.raises(ValueError):
        PostgresStore(url, pool_size=0)


async def test_a_lost_connection_leaves_nothing_half_written(pg_server: PgServer, pg_url) -> None:
    async with PostgresStore(pg_url, pool_size=2) as store, PostgresStore(pg_url) as other:
        async with store.write() as tx:
            game_id = await tx.insert_game(new_row())
        with pytest.raises(StoreUnavailable):
            async with store.write() as tx:
                await tx.load_game(game_id)
                await tx.append_moves(game_id, 0, [MoveRow(0, 0, "roll", "t1")])
                pid = await tx._db.value("SELECT pg_backend_pid()")
                async with other.write() as killer:  # as a server restart would
                    await killer._db.value("SELECT pg_terminate_backend(:pid)", pid=pid)
                await asyncio.sleep(0.3)  # the server's goodbye reaches the connection
                await tx.update_game(
                    game_id, 0, status="active", state_json="{}", move_count=1, updated_at="t1"
                )
        assert await store.moves(game_id) == []  # the pool opened a new connection for this
        assert (await store.load_game(game_id)).version == 0


async def test_the_service_survives_a_database_restart(pg_server: PgServer, pg_url) -> None:
    async with PostgresStore(pg_url, pool_size=2, connect_timeout=3) as store:
        service = GameService(store)
        game_id = await started(service, 7)
        version = (await service.game(game_id)).version
        pg_server.stop()
        try:
            with pytest.raises(StoreUnavailable):
                await service.act(game_id, ALICE, "roll", version)
        finally:
            pg_server.start()
        snap = await service.game(game_id)  # the pool reconnects; the failed move never happened
        assert snap.version == version
        before = len(await store.moves(game_id))
        outcome = await service.act(game_id, ALICE, "roll", version)
        assert outcome.after.version == version + 1
        assert len(await store.moves(game_id)) > before
        assert await service.verify(game_id)


async def test_two_stores_racing_on_the_same_games_apply_one_action_per_version(
    pg_url: str,
) -> None:
    """Two pools on one database (two processes' worth): every double click lands on both;
    exactly one of each pair is applied, and every game replays to its stored state."""
    async with PostgresStore(pg_url, pool_size=4) as one, PostgresStore(pg_url, pool_size=4) as two:
        first, second = GameService(one), GameService(two)
        games = [await started(first, channel) for channel in range(20, 28)]
        rng = random.Random(5)
        applied = stale = 0
        start = {g: (await first.game(g)).version for g in games}
        per_game = dict.fromkeys(games, 0)

        async def race(game_id: int) -> None:
            nonlocal applied, stale
            for _ in range(12):
                snap = await first.game(game_id)
                if snap.status != "active":
                    return
                user = snap.seats[snap.to_move].user_id
                action = rng.choice(snap.legal)
                results = await asyncio.gather(
                    first.act(game_id, user, action, snap.version),
                    second.act(game_id, user, action, snap.version),
                    return_exceptions=True,
                )
                ok = [r for r in results if not isinstance(r, BaseException)]
                assert len(ok) == 1, results
                assert all(isinstance(r, errors.StaleBoard) for r in results if r not in ok)
                assert ok[0].after.version == snap.version + 1
                applied += 1
                stale += 1
                per_game[game_id] += 1

        await asyncio.gather(*(race(g) for g in games))
        assert applied == stale and applied > 8
        for game_id in games:
            assert await second.verify(game_id)
            snap = await second.game(game_id)
            moves = await two.moves(game_id)
            assert [m.seq for m in moves] == list(range(len(moves)))
            assert snap.version == start[game_id] + per_game[game_id]
            assert sum(1 for m in moves if m.seat is not None) == per_game[game_id]


async def test_debug_logging_shows_no_seed(pg_server: PgServer, pg_url, capfd) -> None:
    seed = 0x5EED_CAFE_F00D
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG")
        logging.getLogger("asyncpg").setLevel(logging.DEBUG)
        async with PostgresStore(pg_url) as store:
            service = GameService(store, new_seed=lambda: seed)
            game_id = await started(service, 9)
            with pytest.raises(OpenGameExists):  # the server logs the failing statement
                async with store.write() as tx:
                    await tx.insert_game(replace(new_row(channel_id=9), seed=seed))
            assert await service.seed_of(game_id) == seed
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
    err = capfd.readouterr().err
    assert "game started" in err
    assert str(seed) not in err and hex(seed)[2:] not in err
    server_log = (pg_server.root / "server.log").read_text()
    assert str(seed) not in server_log


async def test_a_due_timer_is_claimed_by_one_process_only(pg_url: str) -> None:
    """``load_timer`` in a write claims the timer (FOR UPDATE SKIP LOCKED): a second process
    asking meanwhile gets None and leaves it; once the first deleted it, it is gone for all."""
    from bot.storage.base import Shards, TimerRow

    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        async with one.write() as tx:
            game_id = await tx.insert_game(new_row())
            timer_id = await tx.add_timer(TimerRow(0, 5.0, "deadline", game_id, 1 << 22, None, 0))
            await tx.add_timer(TimerRow(0, 6.0, "notice", None, None, None, 0))
        assert [t.id for t in await two.due_timers(10.0, 10, Shards((1,), 2))] == [timer_id, 2]
        assert [t.id for t in await two.due_timers(10.0, 10, Shards((0,), 2))] == [2]  # no guild
        assert await two.next_due(Shards((0,), 2)) == 6.0
        claimed = asyncio.Event()
        release = asyncio.Event()

        async def first() -> None:
            async with one.write() as tx:
                assert (await tx.load_timer(timer_id)).kind == "deadline"
                claimed.set()
                await release.wait()
                await tx.delete_timer(timer_id)

        task = asyncio.create_task(first())
        await claimed.wait()
        async with two.write() as tx:
            assert await tx.load_timer(timer_id) is None  # held by the other process: skipped
        release.set()
        await task
        async with two.write() as tx:
            assert await tx.load_timer(timer_id) is None
        assert [t.kind for t in await two.timers_of_game(game_id)] == []


async def test_two_games_finishing_at_once_both_count_in_the_ratings(pg_url: str) -> None:
    """SQLite writes one transaction at a time; here two processes finish two games of one
    server and game at once. The second one's ``load_ratings`` waits for the first to commit
    and reads its rating, so neither update undoes the other."""
    from bot.storage.base import RatingRow

    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        async with one.write() as tx:
            games = [await tx.insert_game(new_row(channel)) for channel in (40, 41)]
        first_read = asyncio.Event()

        async def finish(store: PostgresStore, game_id: int, first: bool) -> None:
            if not first:
                await first_read.wait()
            async with store.write() as tx:
                old = (await tx.load_ratings(1, "cantstop", [ALICE])).get(ALICE)
                if first:
                    first_read.set()
                    await asyncio.sleep(0.3)  # the other one asks meanwhile
                played = (old.games if old else 0) + 1
                await tx.save_rating(
                    game_id, RatingRow(1, "cantstop", ALICE, 25.0 + played, 8.0, played, 0, "t")
                )

        await asyncio.gather(finish(one, games[0], True), finish(two, games[1], False))
        rating = await two.rating(1, "cantstop", ALICE)
        assert rating is not None and rating.games == 2
        assert await two.rating_history(1, "cantstop", ALICE) == [(26.0, 8.0), (27.0, 8.0)]
        # another server's ratings do not wait for these
        async with one.write() as tx:
            await tx.load_ratings(1, "cantstop", [ALICE])
            async with two.write() as other:
                assert await asyncio.wait_for(other.load_ratings(2, "cantstop", [ALICE]), 5) == {}


async def test_a_pool_of_one_serves_the_service(pg_url: str) -> None:
    """A game is played and abandoned on a pool of one connection: no service call waits for
    a second one while holding the first."""
    async with PostgresStore(pg_url, pool_size=1, connect_timeout=3) as store:
        service = GameService(store, new_seed=lambda: 7)
        game_id = await started(service, channel=11)
        await service.act(game_id, ALICE, "roll")
        ended = await service.abandon(11, ALICE, can_manage_channel=False)
        assert ended.status == "abandoned" and ended.id == game_id


async def test_two_processes_recording_one_message_at_once_both_succeed(pg_url: str) -> None:
    """Two processes record the same message at the same moment (e.g. both showed the board of
    a double click): the second waits for the first and replaces its row; neither fails."""
    async with PostgresStore(pg_url) as one, PostgresStore(pg_url) as two:
        async with one.write() as tx:
            game_id = await tx.insert_game(new_row())
        recorded, release = asyncio.Event(), asyncio.Event()

        async def first() -> None:
            async with one.write() as tx:
                await tx.record_post(game_id, 1, 10, 500)
                recorded.set()
                await release.wait()

        task = asyncio.create_task(first())
        await recorded.wait()

        async def second() -> None:
            async with two.write() as tx:
                await tx.record_post(game_id, 2, 10, 500)

        racing = asyncio.create_task(second())
        await asyncio.sleep(0.3)  # it waits for the first one
        assert not racing.done()
        release.set()
        await asyncio.gather(task, racing)
        assert await two.posted_version(game_id) == 2
        assert await two.table_rows("posts", ["version", "message_id"]) == [(2, 500)]
