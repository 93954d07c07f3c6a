"""How strong each bot level is: a round robin, openskill ratings, and the file players read.

    python -m bench.levels                          # every game with bots, the default game counts
    python -m bench.levels --only cantstop --games 200
    python -m bench.levels --smoke --out /tmp/x     # two games per pairing (the test suite's run)

For each game with computer opponents, every level (``engines.bots.LEVELS``) and a random player
(``RandomLegalBot``, uniform over the legal actions) meet every other heads-up, seats alternated
between games. Each pairing is reported with a Wilson 95% interval for the stronger side's win
rate (a shared win counts one half), and every game of the round robin, taken in a fixed
interleaved order (game ``i`` of every pairing, then game ``i + 1`` ...), updates an openskill
Plackett-Luce rating per player (the model ``bot.service.ratings`` rates people with), reported as
mu with the interval mu +/- 1.96 sigma.

The result is written to ``<the game's folder>/levels.json`` (``engines.bots.strength`` reads it;
the lobby and ``/rules`` turn it into words: each level's win rate against the level below it).
Chance outcomes come from ``Rng.for_step(seed, step)`` and every bot decision gets its own
generator, so a run is reproducible from its seed.

Measured (seed 1, one process per game on a 2-core machine shared with other work; every
figure with its n and interval is in the game's ``levels.json``): Can't Stop, n=200 a pairing:
easy beats the random player 84.0% (78.3%-88.4%), medium beats easy 88.0% (82.8%-91.8%), hard
beats medium 79.5% (73.4%-84.5%); openskill mu random 8.04, easy 17.84, medium 32.82, hard
42.75 (each +/- about 4.2; 351 s in one process). Harmonies, n=30 a pairing (``--games 30``: the
hard bots take seconds a game and the machine was busy): easy beats random 66.7% (48.8%-80.8%),
medium beats easy 100% (88.6%-100%), hard beats medium 93.3% (78.7%-98.2%). Kokeshi, n=100 a
pairing (``--only kokeshi --games 100 --procs 2``, 1,322 s on the 2 cores shared with other
work): easy beats random 88.0% (80.2%-93.0%), medium beats easy 93.0% (86.2%-96.6%), hard beats
medium 93.0% (86.2%-96.6%; 89.5%, 84.5%-93.0%, over n=200 other games in
``bench.bots_games``); openskill mu random -1.07, easy 15.95, medium 35.21, hard 52.14 (each
+/- about 5.5).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from itertools import combinations, pairwise
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench.stats import Z95, wilson
from engines.base import CHANCE, TERMINAL
from engines.bots import LEVELS, bot_games, get_bot
from engines.bots.generic import RandomLegalBot
from engines.bots.strength import FILE_NAME, RANDOM
from engines.registry import get_engine, home_of
from engines.rng import Rng

MAX_STEPS = 100_000
#: games per pairing by default: the searching bots of Harmonies and Kokeshi take seconds a game
DEFAULT_GAMES = {"cantstop": 200}
FALLBACK_GAMES = 60
SMOKE_GAMES = 2

#: weakest first: the random player, then the levels in their order
PLAYERS = (RANDOM, *LEVELS)


def make(game: str, player: str) -> Any:
    return RandomLegalBot() if player == RANDOM else get_bot(game, player)


def bot_rng(seed: int, seq: int) -> Rng:
    """A bot's generator for one decision, independent of the chance stream."""
    return Rng(f"bench-levels:{seed}:{seq}".encode())


def play(game: str, seated: Sequence[str], seed: int) -> tuple[int, ...]:
    """One game with ``seated[i]`` in seat ``i``: the winning seats."""
    engine = get_engine(game)
    bots = [make(game, player) for player in seated]
    state = engine.initial_state(len(seated), {})
    for seq in range(MAX_STEPS):
        seat = engine.to_move(state)
        if seat == TERMINAL:
            return tuple(engine.winners(state))
        if seat == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, seq))
        else:
            action = bots[seat].choose(engine, state, bot_rng(seed, seq))
        state = engine.apply(state, action)
    raise RuntimeError(f"{game} game {seed} did not finish")


def _job(args: tuple[str, tuple[str, str], Sequence[int]]) -> list[tuple[int, float]]:
    """(seed, score of ``pair[0]``: 1 won, 0.5 shared the win, 0 lost) for each seed."""
    game, pair, seeds = args
    results = []
    for seed in seeds:
        seated = (pair[1], pair[0]) if seed % 2 else pair
        winners = play(game, seated, seed)
        mine = seated.index(pair[0])
        score = 0.0 if mine not in winners else (1.0 if len(winners) == 1 else 0.5)
        results.append((seed, score))
    return results


def round_robin(
    game: str, games: int, seed0: int, procs: int
) -> dict[tuple[str, str], list[float]]:
    """Every pairing (stronger-listed player first) and its game results in seed order."""
    pairs = [(hi, lo) for lo, hi in combinations(PLAYERS, 2)]
    seeds = list(range(seed0, seed0 + games))
    jobs = [(game, pair, seeds[i::procs]) for pair in pairs for i in range(procs)]
    jobs = [job for job in jobs if job[2]]
    if procs > 1:
        with Pool(procs) as pool:
            parts = pool.map(_job, jobs)
    else:
        parts = [_job(job) for job in jobs]
    by_pair: dict[tuple[str, str], list[tuple[int, float]]] = {pair: [] for pair in pairs}
    for (_, pair, _), part in zip(jobs, parts, strict=True):
        by_pair[pair].extend(part)
    return {pair: [score for _, score in sorted(rows)] for pair, rows in by_pair.items()}


def ratings(results: dict[tuple[str, str], list[float]]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per player from every game, interleaved across pairings in a fixed order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = {player: model.rating(name=player) for player in PLAYERS}
    longest = max(len(scores) for scores in results.values())
    for i in range(longest):
        for (a, b), scores in results.items():
            if i >= len(scores):
                continue
            score = scores[i]
            ranks = [0, 0] if score == 0.5 else ([0, 1] if score == 1.0 else [1, 0])
            [[new_a], [new_b]] = model.rate([[rated[a]], [rated[b]]], ranks=ranks)
            rated[a], rated[b] = new_a, new_b
    return {player: (r.mu, r.sigma) for player, r in rated.items()}


def summary(
    game: str, results: dict[tuple[str, str], list[float]], seed: int, games: int
) -> dict[str, Any]:
    """The content of ``levels.json``: ratings, every pairing, and each level's result against
    the player just below it (what the words say)."""
    pairings = []
    for (a, b), scores in results.items():
        rate, low, high = wilson(sum(scores), len(scores))
        pairings.append(
            {"player": a, "opponent": b, "n": len(scores), "wins": round(rate, 4),
             "low": round(low, 4), "high": round(high, 4)}
        )
    rated = ratings(results)
    levels: dict[str, Any] = {}
    for below, player in pairwise(PLAYERS):
        vs = next(p for p in pairings if p["player"] == player and p["opponent"] == below)
        levels[player] = {
            "vs": {k: vs[k] for k in ("opponent", "n", "wins", "low", "high")},
        }
    return {
        "game": game,
        "how": f"python -m bench.levels --only {game} --games {games} --seed {seed}",
        "measured_on": datetime.now(UTC).date().isoformat(),
        "games_per_pairing": games,
        "ratings": {
            player: {
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "low": round(mu - Z95 * sigma, 2),
                "high": round(mu + Z95 * sigma, 2),
            }
            for player, (mu, sigma) in rated.items()
        },
        "levels": levels,
        "pairings": pairings,
    }


def game_folder(game: str) -> Path:
    """Where a game's parts live (``games/<game>/`` for a built-in game)."""
    module = importlib.import_module(home_of(game))
    assert module.__file__ is not None
    return Path(module.__file__).parent


def report(data: dict[str, Any]) -> list[str]:
    lines = [f"  {data['game']}: openskill rating (mu, 95% interval), n={data['games_per_pairing']} a pairing"]
    for player, r in data["ratings"].items():
        lines.append(f"    {player:7s} {r['mu']:6.2f} ({r['low']:.2f}-{r['high']:.2f})")
    for p in data["pairings"]:
        lines.append(
            f"    {p['player']} vs {p['opponent']}: {p['player']} wins {p['wins']:.1%} "
            f"(95% CI {p['low']:.1%}-{p['high']:.1%}), n={p['n']}, seats alternated"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per pairing (default: by game)")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_GAMES} games per pairing")
    parser.add_argument("--only", help="one game only")
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write levels.json here instead of the game's folder")
    args = parser.parse_args(argv)
    chosen = (args.only,) if args.only else bot_games()
    unknown = [game for game in chosen if game not in bot_games()]
    if unknown:
        parser.error(f"no computer opponents for {', '.join(unknown)}; try {', '.join(bot_games())}")
    started = time.perf_counter()
    print(f"Bot levels (seed {args.seed}, {args.procs} processes)", flush=True)
    for game in chosen:
        games = SMOKE_GAMES if args.smoke else args.games or DEFAULT_GAMES.get(game, FALLBACK_GAMES)
        t0 = time.perf_counter()
        data = summary(game, round_robin(game, games, args.seed, args.procs), args.seed, games)
        folder = args.out / game if args.out else game_folder(game)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / FILE_NAME).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print("\n".join(report(data)), flush=True)
        print(f"    written to {folder / FILE_NAME} [{time.perf_counter() - t0:.0f} s]", flush=True)
    print(f"  wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
