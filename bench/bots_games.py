"""Strength and speed of the Harmonies and Kokeshi bots.

    python -m bench.bots_games                # 200 games per pairing and game
    python -m bench.bots_games --quick        # 40 games per pairing, a few minutes
    python -m bench.bots_games --games 400 --only harmonies
    python -m bench.bots_games --only kokeshi --seats 3 --games 100 --pairs hard-medium

For each game, heads-up (2 players, seats alternated between games):

* hard vs medium and medium vs random-legal win rates (a shared win counts one half), with a
  95% Wilson confidence interval;
* per-decision time of every bot (median, p95, p99, max), over all its decisions.

With ``--seats 3`` or ``4`` a pairing ``hard-medium`` seats one hard bot against two or three
medium ones (its seat moving round between games) and reports how often it wins (a win shared by
k seats counts 1/k) and its mean rank (1 = best score) with a 95% interval.

Games are driven directly through the engines: chance outcomes come from
``engine.sample_chance(state, Rng.for_step(seed, step))`` and each bot decision gets its own
generator keyed by the seed and step. The figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from bench.stats import decision_times, mean_ci, wilson
from engines.base import CHANCE, TERMINAL
from engines.bots.generic import RandomLegalBot
from engines.rng import Rng
from games.harmonies.engine.rules import HarmoniesEngine
from games.kokeshi.engine.rules import KokeshiEngine

MAX_STEPS = 50_000
GAMES = ("harmonies", "kokeshi")


def engine_for(game: str) -> Any:
    return HarmoniesEngine() if game == "harmonies" else KokeshiEngine()


def make(game: str, level: str) -> Any:
    """A bot by level name; ``random`` is the uniform random-legal baseline."""
    if level == "random":
        return RandomLegalBot()
    if game == "harmonies":
        from games.harmonies import bots as harmonies

        return harmonies.make_bot(level)
    from games.kokeshi import bots as kokeshi

    return kokeshi.make_bot(level)


def bot_rng(seed: int, seq: int) -> Rng:
    """A bot's generator for one decision, independent of the chance stream."""
    return Rng(f"bench-bot:{seed}:{seq}".encode())


def play(
    game: str,
    levels: Sequence[str],
    seed: int,
    times: dict[str, list[float]] | None = None,
    options: dict[str, object] | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One game with ``levels[i]`` in seat ``i``: (winning seats, final scores)."""
    engine = engine_for(game)
    bots = [make(game, level) for level in levels]
    state = engine.initial_state(len(levels), options or {})
    for seq in range(MAX_STEPS):
        seat = engine.to_move(state)
        if seat == TERMINAL:
            return tuple(engine.winners(state)), tuple(engine.scores(state))
        if seat == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, seq))
        else:
            start = time.perf_counter()
            action = bots[seat].choose(engine, state, bot_rng(seed, seq))
            if times is not None:
                times[levels[seat]].append(time.perf_counter() - start)
        state = engine.apply(state, action)
    raise RuntimeError(f"{game} game {seed} did not finish")


Result = tuple[float, int, int, int]  # (win share, own score, best other score, own rank)


def _job(
    args: tuple[str, tuple[str, str], Sequence[int], int],
) -> tuple[list[Result], dict[str, list[float]]]:
    game, levels, seeds, seats = args
    times: dict[str, list[float]] = {level: [] for level in levels}
    results = []
    for seed in seeds:
        mine = seed % seats  # levels[0] in one seat, moving round; levels[1] in the others
        seated = tuple(levels[0] if seat == mine else levels[1] for seat in range(seats))
        winners, scores = play(game, seated, seed, times)
        won = 1.0 / len(winners) if mine in winners else 0.0
        best_other = max(score for seat, score in enumerate(scores) if seat != mine)
        rank = 1 + sum(1 for score in scores if score > scores[mine])
        results.append((won, scores[mine], best_other, rank))
    return results, times


def run(
    game: str, levels: tuple[str, str], games: int, seed0: int, procs: int, seats: int = 2
) -> tuple[list[Result], dict[str, list[float]]]:
    """Play ``games`` games split over ``procs`` processes (seats alternate by seed)."""
    seeds = list(range(seed0, seed0 + games))
    chunks = [seeds[i::procs] for i in range(procs)]
    jobs = [(game, levels, chunk, seats) for chunk in chunks if chunk]
    if procs > 1:
        with Pool(procs) as pool:
            parts = pool.map(_job, jobs)
    else:
        parts = [_job(job) for job in jobs]
    results: list[Result] = []
    times: dict[str, list[float]] = {level: [] for level in levels}
    for res, tms in parts:
        results.extend(res)
        for level, values in tms.items():
            times[level].extend(values)
    return results, times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--quick", action="store_true", help="40 games per pairing")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=GAMES, help="one game only")
    parser.add_argument(
        "--seats", type=int, default=2, choices=(2, 3, 4), help="players a game (see above)"
    )
    parser.add_argument(
        "--pairs",
        default="hard-medium,medium-random",
        help="comma-separated pairings, e.g. hard-medium,medium-random,hard-random",
    )
    args = parser.parse_args(argv)
    games = 40 if args.quick else args.games
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",") if p]
    started = time.perf_counter()
    print(f"Harmonies / Kokeshi bots (seed {args.seed}, {args.procs} processes)", flush=True)
    for game in (args.only,) if args.only else GAMES:
        all_times: dict[str, list[float]] = {}
        for first, second in pairs:
            t0 = time.perf_counter()
            results, times = run(game, (first, second), games, args.seed, args.procs, args.seats)
            for level, values in times.items():
                all_times.setdefault(level, []).extend(values)
            rate, low, high = wilson(sum(r[0] for r in results), len(results))
            mean_me = statistics.fmean(r[1] for r in results)
            mean_other = statistics.fmean(r[2] for r in results)
            against = second if args.seats == 2 else f"{args.seats - 1} {second}"
            ranked = ""
            if args.seats > 2:
                rank, rank_low, rank_high = mean_ci([r[3] for r in results])
                ranked = f"mean rank {rank:.2f} (95% CI {rank_low:.2f}-{rank_high:.2f}); "
            print(
                f"  {game} {first} vs {against}: {first} wins {rate:.1%} "
                f"(95% CI {low:.1%}-{high:.1%}), n={len(results)}, seats alternated; {ranked}"
                f"mean score {mean_me:.1f} vs {mean_other:.1f} (best other) "
                f"[{time.perf_counter() - t0:.0f} s]",
                flush=True,
            )
        for level, values in all_times.items():
            if level != "random":
                print(
                    f"  {game} decision time {level:6s}: {decision_times(values, digits=1)}",
                    flush=True,
                )
    print(f"  wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
