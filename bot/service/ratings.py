"""Results and skill ratings of finished games (openskill's Plackett-Luce model).

When a game finishes, ``record_finished`` runs inside the very transaction that marks it
finished (``GameService._commit``): it writes the game's outcome record (keyed by game id), the
results of its human seats and, for a rated game, everyone's new rating. One transaction means
a crash leaves either the finished game with its ratings, or neither: no rating is lost and none
counted twice, and the record keyed by game id makes a second call a no-op. Games that finished
before the tables existed are recorded at start-up (``record_unrecorded``), oldest first.

Only games whose every seat is a distinct human are rated (no computer opponent, no stand-in,
at least two players, played to the end in a server); abandoned games never finish. Ranks come
from the engine: winners share rank 0, the others follow by score, equal scores sharing a rank.

The move log stays the source of truth: ``rebuild`` forgets every result and rating and replays
each finished game from its log in the order the games finished, which gives the same numbers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from functools import cache
from typing import Any

from bot.service.stats import seat_extras
from bot.storage.base import GameRow, GameStore, RatingRow, ResultRow, SeatRow, Tx
from engines.base import TERMINAL, Engine
from engines.registry import game_names, get_engine
from engines.replay import replay

log = logging.getLogger(__name__)


@cache
def model() -> Any:
    """The rating model: openskill's Plackett-Luce with its defaults (mu 25, sigma 25/3,
    beta 25/6, tau 25/300). Imported on first use, so commands that never rate start fast."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ranks(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Rank per seat, 0 best: winners first, then by score; equal places share a rank."""
    keys = [(0 if seat in winners else 1, -score) for seat, score in enumerate(scores)]
    order = sorted(set(keys))
    return [order.index(key) for key in keys]


def is_human(seat: SeatRow) -> bool:
    """A person who played their own seat throughout: not a computer opponent, and no bot ever
    stood in for them (a turn or more played by a stand-in makes the game unrated)."""
    return (
        seat.user_id is not None
        and seat.bot_level is None
        and seat.stand_in is None
        and not seat.stood_in
    )


def is_rated(row: GameRow) -> bool:
    """Does this game change ratings: finished in a server, every seat a different person?"""
    people = [s.user_id for s in row.seats if is_human(s)]
    return (
        row.status == "finished"
        and row.guild_id is not None
        and len(people) == len(row.seats) >= 2
        and len(set(people)) == len(people)
    )


async def record_finished(
    tx: Tx, row: GameRow, engine: Engine[Any, Any], state: Any, finished_at: str
) -> bool:
    """Write the outcome of a game that has just finished (``state``: its final state), in
    the caller's transaction. False when nothing was written: recorded already, or the
    numbers could not be worked out (logged; the game still finishes, and the next start-up
    tries again), so a fault in the statistics never stops a game from ending."""
    if await tx.outcome_recorded(row.id):
        return False
    rated = is_rated(row)
    try:
        actions = [m.action for m in await tx.load_moves(row.id)]
        results = _results(row, engine, state, actions)
        before: dict[int, RatingRow] = {}
        after: list[RatingRow] = []
        if rated:
            assert row.guild_id is not None
            users = [r.user_id for r in results]
            before = await tx.load_ratings(row.guild_id, row.game, users)
            after = new_ratings(row.guild_id, row.game, results, before, finished_at)
    except Exception:
        log.exception("outcome of a finished game not recorded", extra={"game_id": row.id})
        return False
    await tx.record_outcome(row.id, row.guild_id, row.game, rated, finished_at, results)
    for rating in after:
        await tx.save_rating(row.id, rating)
    return True


def _results(
    row: GameRow, engine: Engine[Any, Any], state: Any, actions: Sequence[str]
) -> list[ResultRow]:
    """The results of the human seats of a finished game."""
    scores = list(engine.scores(state))
    winners = list(engine.winners(state))
    place = ranks(scores, winners)
    extras = seat_extras(row.game, engine, state, json.loads(row.options_json), actions)
    return [
        ResultRow(
            game_id=row.id,
            seat=s.seat,
            guild_id=row.guild_id,
            game=row.game,
            user_id=s.user_id,
            score=scores[s.seat],
            rank=place[s.seat],
            won=s.seat in winners,
            extras_json=json.dumps(extras[s.seat], sort_keys=True),
        )
        for s in row.seats
        if is_human(s) and s.user_id is not None
    ]


def new_ratings(
    guild_id: int,
    game: str,
    results: Sequence[ResultRow],
    before: dict[int, RatingRow],
    when: str,
) -> list[RatingRow]:
    """Everyone's rating after one rated game (Plackett-Luce over the game's ranks; equal
    ranks are ties). A player without a rating starts at the model's default."""
    teams = []
    for result in results:
        old = before.get(result.user_id)
        rating = model().rating() if old is None else model().create_rating([old.mu, old.sigma])
        teams.append([rating])
    after = model().rate(teams, ranks=[r.rank for r in results])
    rows = []
    for result, (new,) in zip(results, after, strict=True):
        old = before.get(result.user_id)
        rows.append(
            RatingRow(
                guild_id=guild_id,
                game=game,
                user_id=result.user_id,
                mu=float(new.mu),
                sigma=float(new.sigma),
                games=(old.games if old else 0) + 1,
                wins=(old.wins if old else 0) + int(result.won),
                updated_at=when,
            )
        )
    return rows


def final_state(row: GameRow, actions: Sequence[str]) -> Any:
    """The end of a game rebuilt from its move log (the source of truth)."""
    engine = get_engine(row.game)
    return replay(engine, len(row.seats), json.loads(row.options_json), actions)


async def _record_from_log(tx: Tx, game_id: int, state: Any = None) -> bool:
    row = await tx.load_game(game_id)
    if row is None or row.status != "finished" or row.game not in game_names():
        return False
    engine = get_engine(row.game)
    if state is None:
        state = final_state(row, [m.action for m in await tx.load_moves(game_id)])
    if engine.to_move(state) != TERMINAL:
        log.warning("finished game whose log does not end it", extra={"game_id": game_id})
        return False
    return await record_finished(tx, row, engine, state, row.updated_at)


async def record_unrecorded(store: GameStore) -> int:
    """Record, oldest first, every finished game whose outcome is not written yet (games that
    finished before these tables existed). Returns how many were recorded."""
    done = 0
    for game_id in await store.finished_games(unrecorded_only=True):
        async with store.write() as tx:
            done += await _record_from_log(tx, game_id)
    if done:
        log.info("recorded the outcome of %d finished games", done)
    return done


async def rebuild(store: GameStore) -> int:
    """Forget every result and rating and record every finished game again from its move log,
    in the order the games finished. The replays run before the one write transaction that
    swaps the tables; a game that finished meanwhile is replayed inside it. Returns how many
    games were recorded."""
    order = await store.finished_games()
    states: dict[int, Any] = {}
    for game_id in order:
        row = await store.load_game(game_id)
        if row is None or row.game not in game_names():
            continue
        states[game_id] = final_state(row, [m.action for m in await store.moves(game_id)])
    done = 0
    async with store.write() as tx:
        await tx.clear_outcomes()
        for game_id in order:
            if game_id in states:
                done += await _record_from_log(tx, game_id, states[game_id])
    done += await record_unrecorded(store)  # any that finished while we replayed
    return done
