"""Per-player statistics of a server: games, wins, scores, ratings and each game's own averages.

The averages a game keeps (``EXTRAS``) are counted once, when the game finishes, from its final
state and its move log (``seat_extras``), and stored with the results, so ``/stats`` reads rows
and never replays a game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.base import GameStore, RatingRow, ResultRow
from engines.base import Engine

#: rated games of a game after which a player's rating means something: before that the card
#: calls it provisional (how many rated games are still to come) instead of showing the number,
#: and the leaderboard does not list them. The shown rating, openskill's ordinal, starts at 0
#: and moves by several points a game at first: one lost game puts a newcomer below zero.
RATING_AFTER_GAMES = 5
#: rated games a player needs before the leaderboard lists them: when the rating is shown
MIN_LEADERBOARD_GAMES = RATING_AFTER_GAMES
#: how far below mu the shown rating sits, in sigmas (openskill's ordinal: mu - 3 sigma)
SIGMAS = 3.0


def display_rating(mu: float, sigma: float) -> float:
    """The rating players see: the conservative estimate mu - 3 sigma (openskill's ordinal),
    0 for a newcomer (mu 25, sigma 25/3), rising towards mu as the games make it surer."""
    return mu - SIGMAS * sigma


#: the per-game averages shown on a stats card, in their order (catalogue ``stats.extra.<key>``)
EXTRAS: dict[str, tuple[str, ...]] = {
    "cantstop": ("busts",),
    "harmonies": ("trees", "mountains", "fields", "buildings", "water", "animals"),
    "kokeshi": ("happiness", "height", "achievements", "animals", "leaders", "adjacency"),
}


def seat_extras(
    game: str,
    engine: Engine[Any, Any],
    state: Any,
    options: dict[str, Any],
    actions: Sequence[str],
) -> list[dict[str, int]]:
    """The counts behind a game's averages, per seat (empty dicts for a game without any)."""
    seats = len(engine.scores(state))
    if game == "cantstop":
        busts = _cantstop_busts(engine, seats, options, actions)
        return [{"busts": n} for n in busts]
    if game == "harmonies":
        return [
            {k: parts[k] for k in EXTRAS["harmonies"]}
            for parts in engine.breakdown(state)  # type: ignore[attr-defined]
        ]
    if game == "kokeshi":
        return [
            {k: engine.breakdown(state, seat)[k] for k in EXTRAS["kokeshi"]}  # type: ignore[attr-defined]
            for seat in range(seats)
        ]
    return [{} for _ in range(seats)]


def _cantstop_busts(
    engine: Engine[Any, Any], seats: int, options: dict[str, Any], actions: Sequence[str]
) -> list[int]:
    """How often each seat went bust: a roll whose dice allowed no move ended its turn."""
    busts = [0] * seats
    state = engine.initial_state(seats, options)
    for text in actions:
        before = state
        state = engine.apply(state, engine.decode_action(text))
        if text.startswith("dice:") and state.bust and state.turn > before.turn:
            busts[before.active] += 1
    return busts


@dataclass(frozen=True, slots=True)
class GameStats:
    """One player's record in one game of one server."""

    game: str
    played: int
    wins: int
    average: float
    best: int
    rating: float | None  # the display rating (None: no rated game yet)
    rated_games: int
    history: tuple[float, ...]  # the display rating after each rated game
    extras: dict[str, float] = field(default_factory=dict)  # per-game averages, EXTRAS order

    @property
    def games_to_rating(self) -> int:
        """Rated games still to play before the rating is shown (0: it is shown)."""
        return max(0, RATING_AFTER_GAMES - self.rated_games)


def summarise(
    game: str,
    results: Sequence[ResultRow],
    rating: RatingRow | None,
    history: Sequence[tuple[float, float]],
) -> GameStats:
    """The record of one player in one game from their stored results and rating."""
    played = len(results)
    scores = [r.score for r in results]
    totals: dict[str, float] = dict.fromkeys(EXTRAS.get(game, ()), 0.0)
    for r in results:
        for key, value in json.loads(r.extras_json).items():
            if key in totals:
                totals[key] += value
    return GameStats(
        game=game,
        played=played,
        wins=sum(r.won for r in results),
        average=sum(scores) / played if played else 0.0,
        best=max(scores, default=0),
        rating=display_rating(rating.mu, rating.sigma) if rating else None,
        rated_games=rating.games if rating else 0,
        history=tuple(display_rating(mu, sigma) for mu, sigma in history),
        extras={k: v / played for k, v in totals.items()} if played else {},
    )


async def player_stats(
    store: GameStore, guild_id: int, user_id: int, game: str | None = None
) -> list[GameStats]:
    """A player's record per game in a server (one game, or every game they played, the most
    played first)."""
    results = await store.player_results(guild_id, user_id, game)
    games = (
        [game]
        if game
        else sorted(
            {r.game for r in results}, key=lambda g: (-sum(r.game == g for r in results), g)
        )
    )
    found = []
    for name in games:
        mine = [r for r in results if r.game == name]
        if not mine:
            continue
        rating = await store.rating(guild_id, name, user_id)
        history = await store.rating_history(guild_id, name, user_id)
        found.append(summarise(name, mine, rating, history))
    return found


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    place: int
    user_id: int
    rating: float
    games: int
    wins: int


async def leaderboard(
    store: GameStore, guild_id: int, game: str, limit: int = 10
) -> list[LeaderboardEntry]:
    """The server's best rated players of a game with enough rated games played."""
    rows = await store.leaderboard(guild_id, game, MIN_LEADERBOARD_GAMES, limit)
    return [
        LeaderboardEntry(i + 1, r.user_id, display_rating(r.mu, r.sigma), r.games, r.wins)
        for i, r in enumerate(rows)
    ]
