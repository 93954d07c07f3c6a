"""Strength and speed of the Can't Stop bots.

    python -m bench.bots              # full run (about 45 minutes on two shared cores)
    python -m bench.bots --quick      # about ten minutes
    python -m bench.bots --games 4000 # heads-up and hard-solitaire game count

Figures (with 95% confidence intervals: normal for means, Wilson for rates):

* solitaire turns to win for the Rule-of-28 bot (medium), the hard bot, the previous hard bot
  (``hard-old``, ``LookaheadBot``) and easy; J. Glenn and C. Aloi (2009) report 10.74 turns for
  the Rule of 28;
* heads-up win rates, seats alternated and reported overall, as first seat and as second seat:
  hard vs medium (the Rule of 28), hard vs the previous hard (``hard-planner``), hard-planner vs
  medium, hard-old vs medium, medium vs easy;
* per-decision time (median, p95, p99, max) of every bot, over the move and roll-or-stop
  decisions (the forced roll that opens a turn is not timed).

Measured with ``--quick`` (seed 1, two processes on a 2-core machine under other work, load
about 6; 569 s): Rule of 28 solitaire 10.75 turns (95% CI 10.54-10.96, n=1,000); hard 7.85
(7.54-8.17, n=400; hard plays solitaire as hard-planner, 7.93 over 2,000 games), hard-old 8.21
(7.90-8.52), easy 16.15; hard beats the Rule of 28 78.0% (73.7%-81.8%, n=400; 82.5% first,
73.5% second); hard vs hard-planner 51.7% (46.9%-56.6%; 56.0% first, 47.5% second);
hard-planner beats the Rule of 28 69.2% (64.6%-73.6%; 76.5% / 62.0%), hard-old 65.8%
(61.0%-70.2%); medium beats easy 85.5% (81.7%-88.6%). Hard vs medium over the default 2,000
games (the same games the full run plays): 76.8% (74.8%-78.5%), 80.0% as first seat
(77.4%-82.4%, n=1,000), 73.5% as second (70.7%-76.1%); hard-planner won 72.4% (78.5% / 66.3%)
of them. Time per decision, median / p95 / p99 / max: hard 0.53 / 33 / 97 / 505 ms over 78,508
decisions, hard-planner 0.60 / 33 / 101 / 784 ms, hard-old 0.07 / 15 / 38 / 390 ms.

Games are driven directly through the engine: dice come from ``Rng.for_step(seed, seq)``, and
each bot decision gets its own generator keyed by the seed and step.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from bench.stats import mean_ci, percentile, wilson
from engines.base import CHANCE, TERMINAL
from engines.rng import Rng
from games.cantstop.bots import make_bot
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import Phase

ENGINE = CantStopEngine()
MAX_STEPS = 100_000


def bot_rng(seed: int, seq: int) -> Rng:
    """A bot's generator for one decision, independent of the dice stream."""
    return Rng(f"bench-bot:{seed}:{seq}".encode())


def play(
    levels: Sequence[str], seed: int, times: dict[str, list[float]] | None = None
) -> tuple[int, tuple[int, ...]]:
    """One game with ``levels[i]`` in seat ``i``: (winning seat, turns finished per seat)."""
    bots = [make_bot(level) for level in levels]
    state = ENGINE.initial_state(len(levels), {})
    for seq in range(MAX_STEPS):
        seat = ENGINE.to_move(state)
        if seat == TERMINAL:
            return state.winner, state.turns
        if seat == CHANCE:
            action = ENGINE.sample_chance(state, Rng.for_step(seed, seq))
        else:
            start = time.perf_counter()
            action = bots[seat].choose(ENGINE, state, bot_rng(seed, seq))
            if times is not None and state.phase != Phase.ROLL:  # forced rolls are not timed
                times[levels[seat]].append(time.perf_counter() - start)
        state = ENGINE.apply(state, action)
    raise RuntimeError(f"game {seed} did not finish")


def _job(args: tuple[tuple[str, ...], Sequence[int], bool]) -> tuple[list[Any], dict]:
    levels, seeds, swap = args
    times: dict[str, list[float]] = {level: [] for level in levels}
    results = []
    for seed in seeds:
        seated = tuple(reversed(levels)) if swap and seed % 2 else levels
        winner, turns = play(seated, seed, times)
        # (whether levels[0] won, turns that seat took to finish, whether it sat first)
        mine = seated.index(levels[0])
        results.append((seated[winner] == levels[0], turns[mine], mine == 0))
    return results, times


def run(
    levels: tuple[str, ...], games: int, seed0: int, procs: int, swap: bool = True
) -> tuple[list[Any], dict[str, list[float]]]:
    """Play ``games`` games split over ``procs`` processes."""
    seeds = list(range(seed0, seed0 + games))
    chunks = [seeds[i::procs] for i in range(procs)]
    jobs = [(levels, chunk, swap) for chunk in chunks if chunk]
    if procs > 1:
        with Pool(procs) as pool:
            parts = pool.map(_job, jobs)
    else:
        parts = [_job(job) for job in jobs]
    results: list[Any] = []
    times: dict[str, list[float]] = {level: [] for level in levels}
    for res, tms in parts:
        results.extend(res)
        for level, values in tms.items():
            times[level].extend(values)
    return results, times


def ms_summary(values: Sequence[float]) -> str:
    """Median, p95, p99 and max of decision times (seconds in, milliseconds out)."""
    ms = [v * 1e3 for v in values]
    return (
        f"median {percentile(ms, 50):.2f} ms, p95 {percentile(ms, 95):.2f} ms, "
        f"p99 {percentile(ms, 99):.2f} ms, max {max(ms):.1f} ms over {len(ms)} decisions"
    )


def heads_up_line(first: str, second: str, results: Sequence[Any]) -> str:
    """Win rate of ``first`` over all games and by seat, each with a Wilson 95% interval."""
    parts = []
    for label, subset in (
        ("overall", results),
        ("as first seat", [r for r in results if r[2]]),
        ("as second seat", [r for r in results if not r[2]]),
    ):
        rate, low, high = wilson(sum(won for won, _, _ in subset), len(subset))
        parts.append(f"{label} {rate:.1%} ({low:.1%}-{high:.1%}, n={len(subset)})")
    return f"  {first} vs {second}: {first} wins " + "; ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="heads-up / hard solitaire games")
    parser.add_argument("--solitaire", type=int, default=4000, help="Rule-of-28 solitaire games")
    parser.add_argument("--quick", action="store_true", help="small run, a couple of minutes")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games, solitaire = args.games, args.solitaire
    if args.quick:
        games, solitaire = 400, 1000
    all_times: dict[str, list[float]] = {}

    def note(times: dict[str, list[float]]) -> None:
        for level, values in times.items():
            all_times.setdefault(level, []).extend(values)

    started = time.perf_counter()
    print(f"Can't Stop bots (seed {args.seed}, {args.procs} processes)", flush=True)
    for level, n in (
        ("medium", solitaire),
        ("hard", games),
        ("hard-old", games),
        ("easy", min(games, 1000)),
    ):
        results, times = run((level,), n, args.seed, args.procs, swap=False)
        note(times)
        mean, low, high = mean_ci([turns for _, turns, _ in results])
        print(
            f"  solitaire {level:8s}: {mean:.2f} turns to win (95% CI {low:.2f}-{high:.2f}), n={n}",
            flush=True,
        )
    for pair, n in (
        (("hard", "medium"), games),
        (("hard", "hard-planner"), games),
        (("hard-planner", "medium"), games),
        (("hard-old", "medium"), games),
        (("medium", "easy"), min(games, 400)),
    ):
        results, times = run(pair, n, args.seed, args.procs, swap=True)
        note(times)
        print(heads_up_line(*pair, results), flush=True)
    for level, values in all_times.items():
        print(f"  decision time {level:8s}: {ms_summary(values)}")
    print(f"  wall time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
