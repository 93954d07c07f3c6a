"""Results and ratings of finished games: who is rated, ties, crash safety, rebuild equality."""

from __future__ import annotations

import json

import pytest

from bot.service import ratings, stats
from bot.service.games import GameService
from bot.storage.base import GameStore, ResultRow

GUILD = 7


async def play_out(service: GameService, game_id: int, users: dict[int, int]) -> None:
    """Play to the end: each person takes the first legal move, stopping whenever allowed."""
    snap = await service.game(game_id)
    for _ in range(5000):
        if snap.status != "active":
            return
        assert snap.to_move is not None
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        snap = (await service.act(game_id, users[snap.to_move], action, snap.version)).after
    raise AssertionError("game did not end")


async def cantstop(
    service: GameService, people: list[int], channel: int = 3, *, bot: bool = False
) -> int:
    host = people[0]
    lobby = await service.open_lobby(
        guild_id=GUILD,
        channel_id=channel,
        host_id=host,
        host_name=f"P{host}",
        game="cantstop",
        players=len(people) + bot,
    )
    for user in people[1:]:
        await service.join(lobby.id, user, f"P{user}")
    if bot:
        await service.add_bot(lobby.id, host, "easy", "Bot")
    snap = (await service.start(lobby.id, host)).after
    seats = {s.seat: s.user_id for s in snap.seats}
    if bot:
        from bot.service.bots import bot_to_move, play_bot_turn

        for _ in range(5000):
            if snap.status != "active":
                break
            if bot_to_move(snap) is not None:
                turn = await play_bot_turn(service, snap.id)
                assert turn is not None
                snap = turn.outcome.after
            else:
                action = "stop" if "stop" in snap.legal else snap.legal[0]
                snap = (await service.act(snap.id, seats[snap.to_move], action, snap.version)).after
    else:
        await play_out(service, snap.id, seats)  # type: ignore[arg-type]
    assert (await service.game(snap.id)).status == "finished"
    return snap.id


def test_ranks_put_winners_first_and_share_equal_scores() -> None:
    assert ratings.ranks([3, 1, 2], [0]) == [0, 2, 1]
    assert ratings.ranks([10, 12, 12, 5], [1, 2]) == [1, 0, 0, 2]  # a shared win
    assert ratings.ranks([4, 4, 9], [2]) == [1, 1, 0]  # equal losers share a place
    assert ratings.ranks([50, 60], [0]) == [0, 1]  # a tie-break winner still ranks first


async def test_a_finished_game_between_people_is_rated_once(
    service: GameService, store: GameStore
) -> None:
    game_id = await cantstop(service, [11, 12])
    rows = await store.all_ratings()
    assert [(r.user_id, r.games) for r in rows] == [(11, 1), (12, 1)]
    winner = (await service.game(game_id)).winners[0]
    won, lost = (rows[0], rows[1]) if winner == 0 else (rows[1], rows[0])
    assert won.wins == 1 and lost.wins == 0 and won.mu > 25 > lost.mu
    # recording the same game again changes nothing (the record is keyed by game id)
    async with store.write() as tx:
        assert not await ratings._record_from_log(tx, game_id)
    assert await store.all_ratings() == rows
    assert await ratings.record_unrecorded(store) == 0
    results = await store.player_results(GUILD, 11)
    assert len(results) == 1 and results[0].rank == (0 if winner == 0 else 1)
    assert json.loads(results[0].extras_json).keys() == {"busts"}


async def test_games_with_a_bot_or_abandoned_are_unrated_but_counted(
    service: GameService, store: GameStore
) -> None:
    await cantstop(service, [11], channel=4, bot=True)
    assert await store.all_ratings() == []
    (mine,) = await store.player_results(GUILD, 11)  # the game still counts in the stats
    assert mine.game == "cantstop"
    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=5, host_id=11, host_name="A", game="cantstop", players=2
    )
    await service.join(lobby.id, 12, "B")
    await service.start(lobby.id, 11)
    await service.abandon(5, 11, False)
    assert await store.all_ratings() == []
    assert await store.finished_games(unrecorded_only=True) == []
    assert len(await store.player_results(GUILD, 11)) == 1


def test_equal_ranks_give_equal_ratings() -> None:
    results = [
        ResultRow(1, seat, GUILD, "cantstop", 100 + seat, 5, rank, rank == 0)
        for seat, rank in enumerate([0, 0, 1])
    ]
    a, b, c = ratings.new_ratings(GUILD, "cantstop", results, {}, "2026-01-01")
    assert a.mu == b.mu and a.sigma == b.sigma
    assert a.mu > 25 > c.mu
    assert (a.games, a.wins, c.games, c.wins) == (1, 1, 1, 0)
    again = ratings.new_ratings(GUILD, "cantstop", results, {100: a, 101: b, 102: c}, "later")
    assert again[0].mu == again[1].mu and again[0].games == 2 and again[0].sigma < a.sigma


async def test_rebuild_from_the_logs_gives_the_same_numbers(
    service: GameService, store: GameStore, tmp_path
) -> None:
    people = [11, 12, 13]
    for i, table in enumerate([[11, 12], [12, 13], [13, 11, 12], [11, 12], [12, 11]]):
        await cantstop(service, table, channel=10 + i)
    assert people  # three players, five games
    incremental = await store.all_ratings()
    history = {u: await store.rating_history(GUILD, "cantstop", u) for u in people}
    results = {u: await store.player_results(GUILD, u) for u in people}
    assert [r.games for r in incremental] == [4, 5, 2]
    assert await ratings.rebuild(store) == 5
    assert await store.all_ratings() == incremental
    assert {u: await store.rating_history(GUILD, "cantstop", u) for u in people} == history
    assert {u: await store.player_results(GUILD, u) for u in people} == results


async def test_games_finished_before_the_tables_are_recorded_at_start_up(
    service: GameService, store: GameStore
) -> None:
    for i in range(3):
        await cantstop(service, [11, 12], channel=20 + i)
    expected = await store.all_ratings()
    # as a database from before migration 0007 (or a crash between two systems) would be
    async with store.write() as tx:
        await tx.clear_outcomes()
    assert await store.all_ratings() == []
    assert await ratings.record_unrecorded(store) == 3
    assert await store.all_ratings() == expected
    assert await ratings.record_unrecorded(store) == 0  # and only once


async def test_a_failed_finish_leaves_neither_the_end_nor_the_rating(
    service: GameService, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ratings are written in the transaction that finishes the game: if that fails, the game
    is not finished either, and the next try records both once."""
    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=30, host_id=11, host_name="A", game="cantstop", players=2
    )
    await service.join(lobby.id, 12, "B")
    snap = (await service.start(lobby.id, 11)).after
    seats = {0: 11, 1: 12}
    real = ratings.record_finished
    failures = []

    async def crash_once(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise RuntimeError("power cut")
        return await real(*args, **kwargs)

    monkeypatch.setattr(ratings, "record_finished", crash_once)
    for _ in range(5000):
        if snap.status != "active":
            break
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        try:
            snap = (await service.act(snap.id, seats[snap.to_move], action, snap.version)).after
        except RuntimeError:
            again = await service.game(snap.id)
            assert again.status == "active" and again.version == snap.version
            assert await store.all_ratings() == []
    assert snap.status == "finished" and failures
    assert [r.games for r in await store.all_ratings()] == [1, 1]


async def test_stats_summarise_results_and_rating(service: GameService, store: GameStore) -> None:
    for i in range(stats.RATING_AFTER_GAMES - 1):
        await cantstop(service, [11, 12], channel=40 + i)
    (early,) = await stats.player_stats(store, GUILD, 11)
    assert early.games_to_rating == 1  # provisional: one more rated game to go
    assert await stats.leaderboard(store, GUILD, "cantstop") == []  # nobody listed yet
    await cantstop(service, [11, 12], channel=49)
    (mine,) = await stats.player_stats(store, GUILD, 11)
    played = stats.RATING_AFTER_GAMES
    assert mine.game == "cantstop" and mine.played == played and mine.rated_games == played
    assert mine.games_to_rating == 0
    assert len(mine.history) == played and mine.rating == mine.history[-1]
    assert mine.best == max(r.score for r in await store.player_results(GUILD, 11))
    assert set(mine.extras) == {"busts"}
    board = await stats.leaderboard(store, GUILD, "cantstop")
    assert [e.place for e in board] == [1, 2] and board[0].rating >= board[1].rating
    assert await stats.player_stats(store, GUILD, 99) == []


async def test_a_fault_in_the_numbers_never_stops_a_game_from_ending(
    service: GameService, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics fail (a bug): the game still finishes, unrecorded; the next start-up
    records it once the fault is gone."""
    real = ratings.seat_extras

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug in the averages")

    monkeypatch.setattr(ratings, "seat_extras", broken)
    game_id = await cantstop(service, [11, 12], channel=50)
    assert (await service.game(game_id)).status == "finished"
    assert await store.all_ratings() == []
    assert await store.finished_games(unrecorded_only=True) == [game_id]
    monkeypatch.setattr(ratings, "seat_extras", real)
    assert await ratings.record_unrecorded(store) == 1
    assert [r.games for r in await store.all_ratings()] == [1, 1]


async def test_cantstop_busts_are_the_turns_not_ended_by_a_stop(
    service: GameService, store: GameStore
) -> None:
    """Bold players (three moves before stopping) go bust now and then."""
    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=60, host_id=11, host_name="A", game="cantstop", players=3
    )
    for user in (12, 13):
        await service.join(lobby.id, user, f"P{user}")
    snap = (await service.start(lobby.id, 11)).after
    users = {0: 11, 1: 12, 2: 13}
    moved, turn = 0, snap.turn
    for _ in range(20000):
        if snap.status != "active":
            break
        if snap.turn != turn:
            moved, turn = 0, snap.turn
        if "stop" in snap.legal:
            action = "stop" if moved >= 3 else "roll"
        else:
            action = snap.legal[0]
            moved += action.startswith("move:")
        snap = (await service.act(snap.id, users[snap.to_move], action, snap.version)).after
    assert snap.status == "finished"
    game_id = snap.id
    moves = [m.action for m in await store.moves(game_id)]
    final = (await service.game(game_id)).state
    results = {
        r.seat: json.loads(r.extras_json)["busts"]
        for u in (11, 12, 13)
        for r in await store.player_results(GUILD, u)
    }
    assert sum(results.values()) == final.turn - moves.count("stop")
    assert sum(results.values()) > 0


def test_a_seat_a_bot_ever_stood_in_for_is_not_rated() -> None:
    """Asynchronous play: a computer that played even one turn for a person (the table's vote
    on a silent player) makes the game unrated, even after the person took the seat back."""
    from dataclasses import replace

    from bot.storage.base import SeatRow

    person = SeatRow(0, 5, "Ann")
    assert ratings.is_human(person)
    assert not ratings.is_human(replace(person, stand_in="seat"))
    assert not ratings.is_human(replace(person, stood_in=True))
