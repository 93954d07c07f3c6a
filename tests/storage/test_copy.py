"""``boardroom copy-db``: SQLite → PostgreSQL → SQLite gives back the same games, row for row;
it refuses a target that already holds games and a source that is not there, and a copied
database plays on (new games get new ids)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.cli import main, unverified_games
from bot.service.games import GameService
from bot.service.rematch import rematch
from bot.service.servers import ServerSettings
from bot.storage import open_store
from bot.storage.base import PlayerSettingsRow, RatingRow, ServerPlayRow, TimerRow, VoteRow
from bot.storage.copy import COPIED_TABLES, CopyRefused, copy_database

ALICE, BOB = 101, 102


async def fill(path: Path) -> None:
    """Games in every state: two running (one with a private post), one won (rated), one lobby,
    one abandoned, one cancelled, the won one's rematch lobby; and a server's chosen language."""
    rng = random.Random(3)
    async with open_store(path) as store:
        service = GameService(store, new_seed=lambda: rng.getrandbits(62))
        await ServerSettings(store, clock=lambda: "t1").set_locale(1, "de")
        for channel, game, moves in (
            (10, "cantstop", 7),
            (11, "kokeshi", 5),
            (12, "nim", 400),
            (13, "cantstop", 0),
            (14, "harmonies", 3),
        ):
            lobby = await service.open_lobby(
                guild_id=1, channel_id=channel, host_id=ALICE, host_name="Alice", game=game
            )
            await service.join(lobby.id, BOB, "Bob")
            snap = (await service.start(lobby.id, ALICE)).after
            await service.record_post(snap.id, snap.version, channel, 1000 + channel)
            for _ in range(moves):
                if snap.status != "active":
                    break
                mover = snap.seats[snap.to_move].user_id
                snap = (await service.act(snap.id, mover, rng.choice(snap.legal), snap.version)).after
            await service.record_post(snap.id, snap.version, channel, 2000 + channel, public=False)
            if channel == 14:
                await service.abandon(channel, ALICE, can_manage_channel=False)
        await service.open_lobby(  # a time bank (migration 0012): 3 days + 1 a move, at most 7,
            guild_id=2,
            channel_id=15,
            host_id=BOB,
            host_name="Bob",
            game="cantstop",
            clock_seconds=259200,
            bank_increment=86400,
            bank_cap=604800,
            rest_days={5, 6},  # resting at weekends (migration 0013)
            rest_timezone="Asia/Tokyo",
        )
        cancelled = await service.open_lobby(
            guild_id=2, channel_id=16, host_id=BOB, host_name="Bob", game="nim"
        )
        await service.cancel(cancelled.id, BOB)
        assert (await service.game(3)).status == "finished"
        # asynchronous play (migration 0006): a timer, a vote with a ballot, away, settings
        async with store.write() as tx:
            await tx.add_timer(TimerRow(0, 1.7e9 + 0.125, "deadline", 1, 1, ALICE, 9, '{"a":1}'))
            vote = await tx.open_vote(VoteRow(0, 2, "abandon", 4, None, ALICE, 1.7e9 + 0.5))
            await tx.cast_ballot(vote, BOB, "yes")
            await tx.set_away(1, BOB, 1.7e9, 1.8e9 + 0.25)
            await tx.set_player_settings(PlayerSettingsRow(ALICE, "dm", "23:00", "07:00"), "t2")
            await tx.set_server_play(ServerPlayRow(1, 3600, "skip", 86400, True), "t3")
            await tx.set_stand_in(1, 1, "turn")
        # results and ratings (migration 0007): a rating history written out of game id order
        async with store.write() as tx:
            await tx.save_rating(2, RatingRow(1, "kokeshi", ALICE, 26.5, 8.0, 1, 1, "t4"))
            await tx.save_rating(1, RatingRow(1, "kokeshi", ALICE, 27.25, 7.5, 2, 2, "t5"))
        # the away budget (migration 0011): two periods of one player, one ended early and told
        async with store.write() as tx:
            await tx.add_away_period(1, BOB, 1.6e9 + 0.5, 1.6e9 + 86400.75, forget_before=0)
            await tx.end_away_period(1, BOB, 1.6e9 + 0.5, 1.6e9 + 3600.25)
            await tx.add_away_period(1, BOB, 1.7e9, 1.8e9 + 0.25, forget_before=0)
            await tx.told_budget_low(1, BOB, 1.7e9)
            await tx.set_server_play(ServerPlayRow(2, None, None, None, None, 30), "t6")
        # time banks (migration 0012): a seat's bank, and a server whose default is a bank
        async with store.write() as tx:
            await tx.set_bank_left(1, 0, 1234.5)
            await tx.set_server_play(ServerPlayRow(4, 72, None, None, None, None, 24, 168), "t8")
        async with store.write() as tx:  # a server's rest days (migration 0013)
            rest = ServerPlayRow(3, rest_days="6", rest_timezone="Europe/Paris")
            await tx.set_server_play(rest, "t7")
        # the level of a stand-in (migration 0016)
        async with store.write() as tx:
            await tx.set_server_play(ServerPlayRow(4, stand_in_level="hard"), "t8")
        # the digest across servers (migration 0014): a player's choice, games reminded of
        async with store.write() as tx:
            await tx.set_player_settings(
                PlayerSettingsRow(
                    BOB, "channel", None, None, "Asia/Tokyo", "twice", "07:30", True, "ja"
                ),
                "t9",
            )
            await tx.set_reminded(ALICE, 1, 1.7e9 + 0.375)
            await tx.set_reminded(BOB, 2, 1.7e9 + 0.625)
        # after the game (migration 0008): the won game's rematch lobby
        assert (await rematch(service, 3, BOB, guild_id=1)).id == 8


async def everything(target: str | Path) -> dict[str, list[tuple]]:
    async with open_store(target) as store:
        return {
            table: await store.table_rows(table, await store.table_columns(table))
            for table in COPIED_TABLES
        }


async def test_sqlite_to_postgres_and_back_gives_identical_games(tmp_path, pg_url) -> None:
    original, back = tmp_path / "original.db", tmp_path / "back.db"
    await fill(original)
    report = await copy_database(original, pg_url, unverified_games)
    assert report.games == 8 and report.rows["moves"] > 20 and report.skipped == []
    report = await copy_database(pg_url, back, unverified_games)
    assert report.games == 8
    before, after = await everything(original), await everything(back)
    assert after == before and len(before["posts"]) == len(before["private_steps"]) == 5
    assert 1234.5 in {row[-1] for row in before["seats"]}  # the time banks went over too
    assert any(86400 in row and 604800 in row for row in before["games"])
    # a turn's deadline, and the expiry of the rematch lobby
    assert [r[2] for r in before["timers"]] == ["deadline", "lobby_expiry"]
    assert before["ballots"] and before["away"]
    assert [(r[2], r[3], r[4]) for r in before["away_periods"]] == [
        (1.6e9 + 0.5, 1.6e9 + 3600.25, 0),
        (1.7e9, 1.8e9 + 0.25, 1),
    ]
    assert [r[0] for r in before["game_outcomes"]] == [3] and len(before["game_results"]) == 2
    assert "hard" in {value for row in before["server_settings"] for value in row}
    assert sorted(r[2] for r in before["reminded"]) == [1.7e9 + 0.375, 1.7e9 + 0.625]
    assert len(before["ratings"]) == 3 and len(before["rating_history"]) == 4
    async with open_store(original) as a, open_store(pg_url) as b, open_store(back) as c:
        for store in (a, b, c):
            assert (await store.load_game(8)).rematch_of == 3
            resting = await store.load_game(6)  # the lobby that rests at weekends
            assert (resting.rest_days, resting.rest_timezone) == ("5,6", "Asia/Tokyo")
            server = await store.server_play(3)
            assert (server.rest_days, server.rest_timezone) == ("6", "Europe/Paris")
            assert await store.rating_history(1, "kokeshi", ALICE) == [(26.5, 8.0), (27.25, 7.5)]
            assert (await store.server_play(4)).stand_in_level == "hard"
            assert await store.all_ratings() == await a.all_ratings()
            assert await store.player_results(1, BOB) == await a.player_results(1, BOB)
            assert (await store.player_settings(BOB)).digest_only is True
            assert await store.reminded_at(ALICE, 1) == 1.7e9 + 0.375
        for game_id in range(1, 9):
            assert await a.load_game(game_id) == await b.load_game(game_id)
            assert await a.load_game(game_id) == await c.load_game(game_id)
            assert await a.latest_post(game_id) == await b.latest_post(game_id)
        # the copy plays on: the next game gets the next id, the running one takes moves
        service = GameService(b)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=99, host_id=ALICE, host_name="Alice", game="nim"
        )
        assert lobby.id == 9
        async with b.write() as tx:  # counters of the other tables moved on too
            assert await tx.add_timer(TimerRow(0, 1.0, "notice")) == 3
            assert await tx.open_vote(VoteRow(0, 1, "expiry", 1, 0, BOB, 2.0)) == 2
        snap = await service.game(1)
        moved = await service.act(1, snap.seats[snap.to_move].user_id, snap.legal[0], snap.version)
        assert moved.after.version == snap.version + 1 and await service.verify(1)


async def test_copy_refuses_a_target_with_games_and_a_missing_source(tmp_path, pg_url) -> None:
    source = tmp_path / "a.db"
    await fill(source)
    await copy_database(source, pg_url, unverified_games)
    before = await everything(pg_url)
    with pytest.raises(CopyRefused) as refused:
        await copy_database(source, pg_url, unverified_games)
    assert refused.value.reason == "target_not_empty"
    assert await everything(pg_url) == before  # nothing was added
    with pytest.raises(CopyRefused) as refused:
        await copy_database(tmp_path / "nothing.db", tmp_path / "b.db", unverified_games)
    assert refused.value.reason == "no_source" and not (tmp_path / "nothing.db").exists()


async def test_a_game_that_does_not_replay_is_not_copied(tmp_path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    await fill(source)
    async with open_store(source) as store, store.write() as tx:
        row = await tx.load_game(2)
        await tx.replace_state(2, row.version, row.state_json.replace("0", "1", 1))
    with pytest.raises(CopyRefused) as refused:
        await copy_database(source, target, unverified_games)
    assert refused.value.reason == "source_not_verified" and refused.value.games == (2,)
    assert (await everything(target))["games"] == []


def test_the_command_copies_and_says_so(tmp_path, pg_url, capsys) -> None:
    import asyncio

    source = tmp_path / "a.db"
    asyncio.run(fill(source))
    assert main(["copy-db", str(source), pg_url]) == 0
    out = capsys.readouterr().out
    assert "Copied 8 games" in out and "replays" in out
    assert main(["copy-db", str(source), pg_url]) == 2
    assert "already holds games" in capsys.readouterr().err
