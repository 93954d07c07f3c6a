"""Harmonies and Kokeshi bots at tables of 3 and 4: how one level fares against the others.

    python -m bench.bots_tables --only harmonies --games 30
    python -m bench.bots_tables --tables hard+medium+medium,hard+medium+medium+medium

For each table (first level is the one measured, e.g. ``hard+medium+medium``), ``--games`` games
with that level's seat rotated between games (game ``i`` puts it in seat ``i % seats``): its win
rate (a shared win counts its share) with a 95% Wilson interval, how often it finishes ahead of
every other seat, its average rank (1 + the seats with more points) with a normal 95% interval,
and its mean points beside the others' mean. Games run as in ``bench.bots_games`` (same chance
and bot generators), in one process; the figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from bench.bots_games import GAMES, play
from bench.stats import decision_times, mean_ci, wilson

DEFAULT_TABLES = "hard+medium+medium,hard+medium+medium+easy,hard+medium+medium+medium"


def measure(game: str, levels: Sequence[str], games: int, seed0: int) -> str:
    """One table's summary line for ``levels[0]``, then its decision times."""
    seats = len(levels)
    wins = 0.0
    ahead = 0
    ranks: list[float] = []
    mine: list[int] = []
    others: list[float] = []
    times: dict[str, list[float]] = {level: [] for level in levels}
    started = time.perf_counter()
    for seed in range(seed0, seed0 + games):
        me = seed % seats
        seated = [*levels[1 : me + 1], levels[0], *levels[me + 1 :]]
        winners, scores = play(game, seated, seed, times)
        if me in winners:
            wins += 1 / len(winners)
        ahead += all(scores[me] > scores[i] for i in range(seats) if i != me)
        ranks.append(1 + sum(1 for i in range(seats) if scores[i] > scores[me]))
        mine.append(scores[me])
        others.append(statistics.fmean(scores[i] for i in range(seats) if i != me))
    rate, low, high = wilson(wins, games)
    rank, rank_low, rank_high = mean_ci(ranks)
    return (
        f"  {game} {'+'.join(levels)}: {levels[0]} wins {rate:.1%} (95% CI {low:.1%}-{high:.1%}), "
        f"ahead of every other seat {ahead / games:.1%}, average rank {rank:.2f} "
        f"({rank_low:.2f}-{rank_high:.2f}) of {seats}, n={games}, seat rotated; mean points "
        f"{statistics.fmean(mine):.1f} vs the others' {statistics.fmean(others):.1f} "
        f"[{time.perf_counter() - started:.0f} s]\n"
        f"  {game} decision time {levels[0]} at this table: {decision_times(times[levels[0]], 1)}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=GAMES, help="one game only")
    parser.add_argument("--tables", default=DEFAULT_TABLES, help="comma-separated tables")
    args = parser.parse_args(argv)
    tables = [tuple(t.split("+")) for t in args.tables.split(",") if t]
    print(f"Harmonies / Kokeshi bots at tables (seed {args.seed})", flush=True)
    for game in (args.only,) if args.only else GAMES:
        for levels in tables:
            print(measure(game, levels, args.games, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
