"""Render benchmark: time to draw and encode Can't Stop boards, and their PNG sizes.

``python -m bench.render [--boards N] [--repeat R] [--seed S]`` plays seeded games, keeps N varied
positions (2 to 4 seats, every phase) and times ``render_png`` on each R times. Prints the median,
p95 and p99 in milliseconds and the PNG size min / median / max.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator

from engines.rng import Rng
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import CantStopState, Phase
from render import render_png

ENGINE = CantStopEngine()
NAMES = ("Alice", "Bartholomew the Magnificent", "Chidi", "Dong-hyun")


def play(seed: int, seats: int, max_steps: int = 2000) -> Iterator[CantStopState]:
    """Every state of one seeded game; decisions are seeded too (stop about one time in three)."""
    state = ENGINE.initial_state(seats, {})
    yield state
    for step in range(max_steps):
        if not ENGINE.legal_actions(state):
            return
        rng = Rng.for_step(seed, step)
        if state.phase == Phase.MOVE:
            action = rng.choice(ENGINE.legal_actions(state))
        elif state.phase == Phase.DECIDE:
            legal = ENGINE.legal_actions(state)
            stop = len(legal) > 1 and (len(state.runners) == 3 or rng.below(3) == 0)
            action = legal[-1] if stop else legal[0]
        elif ENGINE.to_move(state) == -1:
            action = ENGINE.sample_chance(state, rng)
        else:
            action = ENGINE.legal_actions(state)[0]
        state = ENGINE.apply(state, action)
        yield state


def positions(count: int, seed: int = 1) -> list[CantStopState]:
    """``count`` positions spread over several seeded games with 2, 3 and 4 seats."""
    games = max(1, count // 20)
    found: list[CantStopState] = []
    for g in range(games):
        states = list(play(seed * 1000 + g, 2 + g % 3))
        stride = max(1, len(states) // (count // games))
        found.extend(states[g % stride :: stride][: count // games])
    return found[:count]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    boards = positions(args.boards, args.seed)
    for state in boards[:5]:  # warm caches (fonts, masks, the empty board)
        render_png("cantstop", state, names=NAMES[: state.seats])
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(args.repeat):
        for state in boards:
            start = time.perf_counter()
            png = render_png("cantstop", state, names=NAMES[: state.seats])
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(png))
    print(f"Can't Stop render + encode: {len(boards)} boards x {args.repeat}")
    print(
        f"  ms    median {statistics.median(times):.2f}  p95 {_pct(times, 0.95):.2f}"
        f"  p99 {_pct(times, 0.99):.2f}  max {max(times):.2f}"
    )
    print(
        f"  PNG   min {min(sizes) / 1024:.1f} KiB  median {statistics.median(sizes) / 1024:.1f} KiB"
        f"  max {max(sizes) / 1024:.1f} KiB"
    )


if __name__ == "__main__":
    main()
