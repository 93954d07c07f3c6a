"""A public message's turns without replaying the game (``bot.service.turns.recent_turns``): the
service keeps the newest turns of the games it shows and applies only the moves logged since.
What a message says and draws from them must be what every turn, from the whole log, gives: at
every point of long games, after another process played, for an older snapshot, after a
restart."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.adapter.messages import MAX_RECAP, turn_lines, views_of
from bot.service import turns as turn_log
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.storage.base import GameStore
from tests.service.test_turn_log import _play, _table

LONG_GAMES = ("cantstop", "kokeshi", "harmonies")


def told(snap: GameSnapshot, turns: list[turn_log.PlayedTurn]) -> Any:
    """Everything a public message takes from its turns: its words, its pictures' views and,
    for every seat, "since your last turn"."""
    since = {}
    for seat in range(len(snap.seats)):
        others = turn_log.since_last_turn_of(turns, seat)
        played = any(t.mover == seat for t in turns if t.ended)
        since[seat] = (len(others) < 2, others[-MAX_RECAP:], played)
    return (
        turn_lines("en", snap, None, turns),
        views_of(snap, turns, None),
        turn_log.last_ended(turns),
        turn_log.in_progress(turns),
        since,
    )


async def same_as_the_whole_log(service: GameService, snap: GameSnapshot) -> list[Any]:
    recent = await turn_log.recent_turns(service, snap)
    every = await turn_log.turns_of(service, snap)
    assert told(snap, recent) == told(snap, every)
    return recent


@pytest.mark.parametrize("game", LONG_GAMES)
async def test_a_long_game_tells_every_turn_as_the_whole_log_does(
    service: GameService, game: str
) -> None:
    snap = await _table(service, game, 3)
    rnd = random.Random(game)
    longest = 0
    for step in range(1500):
        if snap.to_move is None:
            break
        user = snap.seats[snap.to_move].user_id
        snap = (await service.act(snap.id, user, rnd.choice(snap.legal), snap.version)).after
        if step % 7 == 0:  # the whole log is replayed to compare: not after every action
            recent = await same_as_the_whole_log(service, snap)
        else:
            recent = await turn_log.recent_turns(service, snap)
        longest = max(longest, len(recent))
    assert snap.status == "finished"
    assert snap.move_count is not None and snap.move_count > 150  # a long game
    await same_as_the_whole_log(service, snap)  # its last message
    # what is kept stays short: the newest turn of each seat and the ones after it
    every = await turn_log.turns_of(service, snap)
    assert longest <= 3 * 3 < len(every)


class CountingStore:
    """The store, recording where each read of a move log began."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.reads: list[int] = []

    async def moves(self, game_id: int, from_seq: int = 0) -> Any:
        self.reads.append(from_seq)
        return await self.store.moves(game_id, from_seq)


async def test_the_next_message_reads_only_the_moves_logged_since(service: GameService) -> None:
    snap = await _play(service, await _table(service, "cantstop", 3), random.Random(1), 120)
    counting = CountingStore(service.store)
    service.turn_log = turn_log.TurnLog(counting)  # type: ignore[arg-type]
    await turn_log.recent_turns(service, snap)  # nothing known yet: the whole log
    assert counting.reads == [0]
    shown = snap.move_count
    snap = await _play(service, snap, random.Random(2), 1)
    await same_as_the_whole_log(service, snap)
    assert counting.reads[1] == shown  # then only the tail


async def test_another_process_an_older_snapshot_and_a_restart(
    service: GameService, store: GameStore
) -> None:
    first = await _play(service, await _table(service, "harmonies", 2), random.Random(5), 30)
    await same_as_the_whole_log(service, first)
    # another process on the same database plays on: this one reads what it logged
    other = GameService(store, new_seed=lambda: 1)
    later = await _play(other, first, random.Random(6), 25)
    assert later.move_count is not None and first.move_count is not None
    assert later.move_count > first.move_count
    await same_as_the_whole_log(service, later)
    # a message for a snapshot older than what is kept (a late delivery)
    await same_as_the_whole_log(service, first)
    # a restart: nothing kept
    await same_as_the_whole_log(GameService(store), later)


async def test_a_kept_split_that_does_not_reach_the_stored_state_is_not_trusted(
    service: GameService,
) -> None:
    snap = await _play(service, await _table(service, "cantstop", 3), random.Random(8), 60)
    await turn_log.recent_turns(service, snap)
    game, kept = service.turn_log._splits[snap.id]
    wrong = kept.copy()
    wrong.state = turn_log.TurnSplit.begin("cantstop", 3, {}).state  # not where it got to
    service.turn_log._splits[snap.id] = (game, wrong)
    snap = await _play(service, snap, random.Random(9), 1)
    await same_as_the_whole_log(service, snap)
