"""The store on a real SQLite file and on a real PostgreSQL database (``database`` runs each test on
both): migrations, restart, and optimistic concurrency."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace

import pytest

from bot.storage import open_store
from bot.storage.base import GameRow, MoveRow, OpenGameExists, SeatRow, SecondConnection
from bot.storage.migrate import migration_scripts
from bot.storage.sqlite import SqliteStore


def new_row(channel_id: int = 10, status: str = "active") -> GameRow:
    return GameRow(
        id=0,
        guild_id=1,
        channel_id=channel_id,
        game="cantstop",
        rules_version=1,
        host_id=5,
        options_json="{}",
        capacity=2,
        seed=9,
        status=status,
        version=0,
        move_count=0,
        state_json='{"x": 1}',
        created_at="t0",
        updated_at="t0",
    )


async def test_migrations_are_recorded_and_run_once(tmp_path) -> None:
    path = tmp_path / "b.db"
    async with SqliteStore(path):
        pass
    async with SqliteStore(path):
        pass
    conn = sqlite3.connect(path)
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_version")]
    assert versions == [n for n, _, _ in migration_scripts()]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


async def test_restart_sees_the_same_game(database: str) -> None:
    async with open_store(database) as store:
        async with store.write() as tx:
            game_id = await tx.insert_game(new_row())
            await tx.set_seats(game_id, [SeatRow(0, 5, "Ann"), SeatRow(1, 6, "Ben")])
            await tx.append_moves(
                game_id, 0, [MoveRow(0, 0, "roll", "t1"), MoveRow(1, None, "dice:1-2-3-4", "t1")]
            )
            await tx.update_game(
                game_id, 0, status="active", state_json='{"x": 2}', move_count=2, updated_at="t1"
            )
            await tx.record_post(game_id, 1, 10, 777)
        before = await store.load_game(game_id)
    async with open_store(database) as store:
        after = await store.load_game(game_id)
        assert after == before and after.version == 1 and after.state_json == '{"x": 2}'
        assert [m.action for m in await store.moves(game_id)] == ["roll", "dice:1-2-3-4"]
        assert [m.action for m in await store.moves(game_id, 1)] == ["dice:1-2-3-4"]  # the tail
        assert await store.moves(game_id, 2) == []
        assert await store.latest_post(game_id) == (10, 777)
        assert [s.display_name for s in after.seats] == ["Ann", "Ben"]


async def test_one_open_game_per_channel(database: str) -> None:
    async with open_store(database) as store:
        async with store.write() as tx:
            await tx.insert_game(new_row(status="lobby"))
        with pytest.raises(OpenGameExists):
            async with store.write() as tx:
                await tx.insert_game(new_row(status="active"))
        async with store.write() as tx:  # another channel is fine
            await tx.insert_game(new_row(channel_id=11))


async def test_concurrent_writes_on_one_version_exactly_one_applies(database: str) -> None:
    async with open_store(database) as store:
        async with store.write() as tx:
            game_id = await tx.insert_game(new_row())

        async def bump(tag: str) -> int:
            async with store.write() as tx:
                return await tx.update_game(
                    game_id, 0, status="active", state_json=tag, move_count=1, updated_at=tag
                )

        results = await asyncio.gather(bump("a"), bump("b"))
        assert sorted(results) == [0, 1]
        row = await store.load_game(game_id)
        assert row.version == 1


async def test_two_store_processes_on_one_file_conflict_on_version(database: str) -> None:
    """Two stores (as two bot processes would have): the version guard still holds."""
    async with open_store(database) as first, open_store(database) as second:
        async with first.write() as tx:
            game_id = await tx.insert_game(new_row())
        async with first.write() as tx:
            assert (
                await tx.update_game(
                    game_id, 0, status="active", state_json="a", move_count=1, updated_at="a"
                )
                == 1
            )
        async with second.write() as tx:
            assert (
                await tx.update_game(
                    game_id, 0, status="active", state_json="b", move_count=1, updated_at="b"
                )
                == 0
            )
        assert (await second.load_game(game_id)).state_json == "a"


async def test_a_failed_transaction_rolls_back(database: str) -> None:
    async with open_store(database) as store:
        with pytest.raises(RuntimeError):
            async with store.write() as tx:
                await tx.insert_game(new_row())
                raise RuntimeError("crash in the middle")
        assert await store.open_game_in_channel(10) is None


async def test_the_store_is_not_used_inside_its_own_write(database: str) -> None:
    """Work inside a write goes through its transaction: on either backend a read or a second
    write of the same store started inside it is refused (PostgreSQL would wait for a second
    pooled connection, SQLite would read without the transaction's own changes or wait for
    itself), and nothing is left marked once the write is over, even after it failed."""
    async with open_store(database) as store:
        async with store.write() as tx:
            game_id = await tx.insert_game(new_row())
            with pytest.raises(SecondConnection):
                await store.load_game(game_id)
            with pytest.raises(SecondConnection):
                async with store.write():
                    pass
        with pytest.raises(RuntimeError, match="boom"):
            async with store.write():
                raise RuntimeError("boom")
        assert await store.load_game(game_id) is not None


async def test_reads_see_every_committed_write_under_concurrency(database: str) -> None:
    """Many coroutines creating and reading back games at once: each sees its own write."""
    async with open_store(database) as store:

        async def create_and_read(channel: int) -> bool:
            async with store.write() as tx:
                game_id = await tx.insert_game(new_row(channel_id=channel))
            return await store.load_game(game_id) is not None

        async def reader() -> None:
            for _ in range(50):
                await store.open_game_in_channel(1)
                await asyncio.sleep(0)

        results = await asyncio.gather(
            *(create_and_read(c) for c in range(100, 400)), *(reader() for _ in range(10))
        )
        assert all(r is True for r in results[:300])


async def test_commits_are_synced_in_full_unless_told_otherwise(tmp_path) -> None:
    """synchronous=FULL: a commit the players saw survives a power cut, not only a SIGKILL."""

    async def modes(store: SqliteStore) -> set[int]:
        found = set()
        assert store._writer is not None and store._reader is not None
        for conn in (store._writer.conn, store._reader):
            found.add(conn.execute("PRAGMA synchronous").fetchone()[0])
        return found

    async with SqliteStore(tmp_path / "full.db") as store:
        assert await modes(store) == {2}  # FULL
    async with SqliteStore(tmp_path / "normal.db", synchronous="NORMAL") as store:
        assert await modes(store) == {1}
    with pytest.raises(ValueError):
        SqliteStore(tmp_path / "x.db", synchronous="OFF; DROP TABLE games")


async def test_unshown_games_come_from_the_posts_record(database: str) -> None:
    """A game whose newest version no posted message shows is found, running or just finished,
    as long as it is the newest game of its channel."""
    async with open_store(database) as store:
        ids = {}
        async with store.write() as tx:
            for name, channel, status in (
                ("running", 10, "active"),
                ("finished", 11, "finished"),
                ("old_finished", 12, "finished"),
                ("lobby", 13, "lobby"),
                ("abandoned", 14, "abandoned"),
            ):
                ids[name] = await tx.insert_game(new_row(channel, status))
            await tx.insert_game(replace(new_row(12, "cancelled"), updated_at="t1"))  # newer
        assert await store.unshown_games() == [ids["running"], ids["finished"]]
        async with store.write() as tx:
            for game_id in ids.values():
                await tx.update_game(
                    game_id, 0, status=(await tx.load_game(game_id)).status,
                    state_json="{}", move_count=1, updated_at="t5",
                )
            await tx.record_post(ids["running"], 1, 10, 100)
            await tx.record_post(ids["finished"], 0, 11, 101, public=False)
        assert await store.unshown_games() == [ids["finished"]]  # at version 1, shown up to 0
        assert await store.unshown_games("t5") == [ids["finished"]]
        assert await store.unshown_games("t6") == []  # finished too long ago for this sweep
        async with store.write() as tx:
            await tx.record_post(ids["finished"], 1, 11, 102, public=False)
        assert await store.unshown_games() == []


async def test_the_channel_sees_public_posts_and_private_steps_after_them(database: str) -> None:
    """Private posts never raise what the channel has seen: a version counts as seen when a
    public post shows it, or when every version since the newest public post is a private step
    (one private post each). A game whose newest version only a private message shows, with a
    version before it that no message shows, is still unshown."""
    async with open_store(database) as store:
        async with store.write() as tx:
            steps = await tx.insert_game(new_row(20))
            skipped = await tx.insert_game(new_row(21))
            for game_id in (steps, skipped):
                for version in range(5):
                    await tx.update_game(
                        game_id, version, status="active", state_json="{}",
                        move_count=version + 1, updated_at="t1",
                    )
            # both at version 5, the channel shows version 2
            await tx.record_post(steps, 2, 20, 200)
            await tx.record_post(skipped, 2, 21, 210)
            for version in (3, 4, 5):  # one private step after the other
                await tx.record_post(steps, version, 20, 200 + version, public=False)
            await tx.record_post(steps, 5, 20, 299, public=False)  # the same version again
            await tx.record_post(skipped, 5, 21, 215, public=False)  # 3 and 4: no message
        assert await store.posted_version(steps) == 2
        assert await store.private_versions(steps, 2) == [3, 4, 5]
        assert await store.private_versions(steps, 4) == [5]
        assert await store.unshown_games() == [skipped]
        async with store.write() as tx:
            await tx.record_post(skipped, 4, 21, 220)  # a public board of version 4
        assert await store.posted_version(skipped) == 4
        assert await store.unshown_games() == []  # 5 is a private step after it


async def test_a_private_message_edited_step_by_step_shows_each_version(database: str) -> None:
    """A turn played through private controls edits one private message: each version it
    showed counts as seen, though the message is the same."""
    async with open_store(database) as store:
        async with store.write() as tx:
            game_id = await tx.insert_game(new_row(30))
            for version in range(4):
                await tx.update_game(
                    game_id, version, status="active", state_json="{}",
                    move_count=version + 1, updated_at="t1",
                )
            await tx.record_post(game_id, 1, 30, 300)  # the turn's public board
            await tx.record_post(game_id, 2, 30, 301, public=False)  # one private message ...
        assert await store.unshown_games() == [game_id]  # at version 4, seen up to 2
        async with store.write() as tx:
            await tx.record_post(game_id, 3, 30, 301, public=False)  # ... edited
        assert await store.unshown_games() == [game_id]
        async with store.write() as tx:
            await tx.record_post(game_id, 4, 30, 301, public=False)  # and edited again
        assert await store.private_versions(game_id, 1) == [2, 3, 4]
        assert await store.unshown_games() == []
        assert await store.latest_post(game_id) == (30, 300)  # links go to public boards only


async def test_recovery_queries_keep_to_the_shards_asked_for(database: str) -> None:
    """Guild → shard is ``(guild_id >> 22) % count``; a game without a guild is on shard 0."""
    from bot.storage.base import Shards

    guilds = {shard: (shard + 4 * 7) << 22 | 12345 for shard in range(4)}  # one guild per shard
    async with open_store(database) as store:
        ids = {}
        async with store.write() as tx:
            for shard, guild in guilds.items():
                ids[shard] = await tx.insert_game(replace(new_row(100 + shard), guild_id=guild))
            ids[None] = await tx.insert_game(replace(new_row(200), guild_id=None))
        everything = sorted(ids.values())
        assert await store.open_games() == everything
        assert await store.unshown_games() == everything
        low, high = Shards((0, 1), 4), Shards((2, 3), 4)
        assert await store.open_games(low) == sorted([ids[0], ids[1], ids[None]])
        assert await store.open_games(high) == [ids[2], ids[3]]
        assert await store.unshown_games(None, high) == [ids[2], ids[3]]
        assert await store.unshown_games("t0", Shards((1,), 4)) == [ids[1]]
        assert all(low.owns(guilds[s]) == (s < 2) for s in range(4))
        async with store.write() as tx:  # computer opponents in the games of shards 0 and 2
            for shard in (0, 2):
                await tx.set_seats(ids[shard], [SeatRow(0, 5, "Ann"), SeatRow(1, None, "Bot", "easy")])
        assert await store.running_games_with_computers() == [ids[0], ids[2]]
        assert await store.running_games_with_computers(high) == [ids[2]]
        assert await store.running_games_with_computers(low) == [ids[0]]


async def test_the_history_queries_use_their_indexes(database: str) -> None:
    """Migration 0008's indexes serve the store's own statements for a server's game history, a
    player's games and the rematch lookup (PostgreSQL's planner told to avoid whole-table scans,
    the tables being empty)."""
    from bot.storage import statements
    from bot.storage.connection import Connection

    async def plans(db: Connection) -> tuple[str, str]:
        postgres = not database.endswith(".db")
        explain = "EXPLAIN " if postgres else "EXPLAIN QUERY PLAN "
        if postgres:
            await db.run("SET enable_seqscan = off")
        history = await db.rows(
            explain + statements.NEWEST_FINISHED_GAMES, guild_id=1, user_id=2, limit=10
        )
        rematch = await db.rows(explain + statements.REMATCH_OF, game_id=1)
        if postgres:
            await db.run("RESET enable_seqscan")
        return " ".join(map(str, history)), " ".join(map(str, rematch))

    async with open_store(database) as store:
        history, rematch = await store._read(plans)
    by_guild = "games_finished_by_guild" in history or "games_open_by_guild" in history
    assert by_guild and "seats_by_user" in history, history
    assert "SCAN games" not in history and "Seq Scan" not in history, history
    assert "games_rematch_of" in rematch, rematch


async def test_a_servers_play_settings_read_back_as_written(database: str) -> None:
    """Each field of ``ServerPlayRow`` is a column of its own (yes/no ones stored as 1/0)."""
    from bot.storage.base import ServerPlayRow

    rows = [
        ServerPlayRow(1, 3600, "skip", 86400, True),
        ServerPlayRow(2, None, None, None, None),
        ServerPlayRow(3, 60, "bot", None, False, 7, stand_in_level="hard"),
        ServerPlayRow(5, 72, default_bank_increment=24, default_bank_cap=168),  # a time bank
    ]
    async with open_store(database) as store:
        async with store.write() as tx:
            for row in rows:
                await tx.set_server_play(row, "t1")
            await tx.set_server_play(replace(rows[0], allow_dm=False, default_clock=None), "t2")
        assert await store.server_play(1) == replace(rows[0], allow_dm=False, default_clock=None)
        assert [await store.server_play(g) for g in (2, 3, 5)] == rows[1:]
        assert (await store.server_play(3)).allow_dm is False and await store.server_play(4) is None
        await store.set_server_locale(1, "de", "t3")  # the other settings of the row stay
        assert await store.server_locale(1) == "de" and (await store.server_play(1)).lobby_expiry == 86400


async def test_a_players_digest_and_reminders_read_back_across_servers(database: str) -> None:
    """The digest's choices are columns of ``player_settings`` (its yes/no stored as 1/0), when a
    player was last reminded of a game is kept per game and goes with it, and a player's running
    games are found on every server."""
    from bot.storage.base import PlayerSettingsRow

    async with open_store(database) as store:
        games = []
        async with store.write() as tx:
            for guild_id, channel_id in ((1, 10), (2, 20), (3, 30)):
                game_id = await tx.insert_game(replace(new_row(channel_id), guild_id=guild_id))
                await tx.set_seats(game_id, [SeatRow(0, 5, "Ann"), SeatRow(1, 6, "Ben")])
                games.append(game_id)
            ended = await tx.insert_game(replace(new_row(40, "finished"), guild_id=4))
            await tx.set_seats(ended, [SeatRow(0, 5, "Ann"), SeatRow(1, 7, "Cy")])
            row = PlayerSettingsRow(
                5, "dm", "22:00", "07:00", "Europe/Berlin", "twice", "08:00", True, "fr"
            )
            await tx.set_player_settings(row, "t1")
            await tx.set_player_settings(PlayerSettingsRow(6), "t1")
            await tx.set_reminded(5, games[0], 100.5)
            await tx.set_reminded(5, games[0], 200.25)  # the newest counts
        assert await store.player_settings(5) == row
        async with store.write() as tx:
            await tx.set_dm_channel(5, 987654321012345678)
        assert await store.player_settings(5) == replace(row, dm_channel_id=987654321012345678)
        assert (await store.player_settings(6)).digest == "off"
        assert (await store.player_settings(6)).digest_only is False
        assert await store.reminded_at(5, games[0]) == 200.25
        assert await store.reminded_at(5, games[1]) is None
        assert [g.id for g in await store.games_of_user_everywhere(5)] == games
        assert await store.games_of_user_everywhere(7) == []  # an ended game is not listed
        async with store.write() as tx:
            await tx.update_game(
                games[0], 0, status="abandoned", state_json=None, move_count=0, updated_at="t2"
            )
        assert [g.id for g in await store.games_of_user_everywhere(6)] == games[1:]


async def test_a_write_waits_off_the_loop_for_another_process_holding_the_lock(tmp_path) -> None:
    """Another process (here: a plain connection) holds the write lock for 0.5 s: the store's
    write waits for it on its worker thread, and the event loop keeps running meanwhile."""
    path = tmp_path / "locked.db"
    async with SqliteStore(path) as store:
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        async def write() -> int:
            async with store.write() as tx:
                return await tx.insert_game(new_row())

        ticker = asyncio.create_task(ticking())
        writing = asyncio.create_task(write())
        await asyncio.sleep(0.5)
        assert not writing.done() and ticks >= 20  # waiting, and the loop did not stop
        other.execute("COMMIT")
        game_id = await asyncio.wait_for(writing, 5)
        ticker.cancel()
        assert (await store.load_game(game_id)) is not None
        other.close()


async def test_a_write_cancelled_while_it_commits_leaves_the_connection_usable(tmp_path) -> None:
    """A write whose task is cancelled during its commit: the commit on the worker thread is
    waited for (the connection is never used from two threads at once), and the next write
    works."""
    async with SqliteStore(tmp_path / "cancel.db") as store:

        async def write(channel_id: int) -> int:
            async with store.write() as tx:
                return await tx.insert_game(new_row(channel_id=channel_id))

        cancelled = 0
        for attempt in range(20):  # cancel at a few different moments
            task = asyncio.create_task(write(100 + attempt))
            for _ in range(attempt % 4):
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                cancelled += 1
        assert cancelled > 0
        game_id = await write(999)
        assert (await store.load_game(game_id)) is not None
        assert store._writer is not None and not store._writer.conn.in_transaction


async def test_an_unsynced_write_is_kept_and_the_next_write_is_synced_again(tmp_path) -> None:
    """A write the bot can redo (a post's record) commits without syncing; the connection is
    back to synchronous=FULL with checkpoints on for the writes after it."""
    async with SqliteStore(tmp_path / "unsynced.db") as store:
        assert store._writer is not None
        conn = store._writer.conn
        async with store.write(synced=False) as tx:
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
            assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
            game_id = await tx.insert_game(new_row())
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again
        assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
        assert (await store.load_game(game_id)) is not None
        with pytest.raises(RuntimeError):
            async with store.write(synced=False) as tx:
                await tx.insert_game(new_row(channel_id=11))
                raise RuntimeError("crash in the middle")
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
        assert await store.open_game_in_channel(11) is None
    async with SqliteStore(tmp_path / "unsynced.db") as store:  # and it survived the restart
        assert (await store.load_game(game_id)) is not None
