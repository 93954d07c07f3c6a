"""Fit the Can't Stop race table: expected turns left from saved markers, and its spread.

    python -m bench.cantstop_race collect --games 400 --seed 1 --out /tmp/race-samples.jsonl
    python -m bench.cantstop_race fit --samples /tmp/race-samples.jsonl

``collect`` plays heads-up games (the solitaire-tuned planner, ``TurnPlannerBot``, against the
Rule of 28, seats alternated by seed parity) and records every turn's starting position of the
seat to move: its saved markers, the columns it owns and the columns others own. From each
position it then plays one solitaire game with the planner (columns owned by others closed) and
records how many turns it took to finish. Dice come from ``Rng.for_step``, keyed by the seed, so
a run is reproducible.

``fit`` chooses the value of a column at each height (``(p / H) ** power``, a claimed column worth
``claim``) by least squares over a small grid, fits turns left as a cubic in that value plus a
term per column owned by others, fits the variance of turns left as linear in the estimate, and
writes ``games/cantstop/bots/race_table.json`` (``games.cantstop.bots.race`` reads it).

The stored table came from the two commands above (5,593 positions from 400 games; about
25 minutes on two shared cores, almost all of it in the solitaire games): power 1.4, claim 1.25,
R^2 0.40 against single solitaire games (their own spread, about 2.7 turns, is most of the rest).
Games finish in any order, so the samples file's lines do too; the fit does not depend on it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from engines.base import CHANCE, TERMINAL
from engines.rng import Rng
from games.cantstop.bots import make_bot
from games.cantstop.bots.planner import TurnPlannerBot
from games.cantstop.engine.rules import CantStopEngine
from games.cantstop.engine.state import COLUMNS, HEIGHTS, NO_OWNER, CantStopState, Options, Phase

ENGINE = CantStopEngine()
TABLE = Path(__file__).resolve().parents[1] / "games" / "cantstop" / "bots" / "race_table.json"
MAX_TURNS = 80

#: one sample: (saved row, columns owned, columns owned by others, turns to finish alone)
Sample = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]


def _bot_rng(seed: int, seq: int) -> Rng:
    return Rng(f"race-fit-bot:{seed}:{seq}".encode())


def solitaire_turns(
    row: Sequence[int], mine: Sequence[int], closed: Sequence[int], seed: int
) -> int:
    """Turns the solitaire planner needs to finish from ``row`` (``closed`` columns shut)."""
    bot = TurnPlannerBot()
    owners = [NO_OWNER] * len(COLUMNS)
    for col in mine:
        owners[col - 2] = 0
    for col in closed:
        owners[col - 2] = 1
    state = CantStopState(
        seats=1,
        options=Options(),
        saved=(tuple(row),),
        claimed=tuple(owners),
        turns=(0,),
    )
    seq = 0
    while ENGINE.to_move(state) != TERMINAL and state.turns[0] < MAX_TURNS:
        if ENGINE.to_move(state) == CHANCE:
            action = ENGINE.sample_chance(state, Rng.for_step(seed, seq))
        else:
            action = bot.choose(ENGINE, state, _bot_rng(seed, seq))
        state = ENGINE.apply(state, action)
        seq += 1
    return state.turns[0] + (state.phase != Phase.OVER)


def _positions(seed: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """The turn-start positions of one hard-vs-medium game."""
    levels = ("medium", "hard") if seed % 2 else ("hard", "medium")
    bots = [make_bot(level) for level in levels]
    state = ENGINE.initial_state(2, {})
    found = []
    for seq in range(100_000):
        seat = ENGINE.to_move(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            action = ENGINE.sample_chance(state, Rng.for_step(seed, seq))
        else:
            if state.phase == Phase.ROLL:
                mine = state.claimed_by(seat)
                closed = tuple(c for c in COLUMNS if state.claimed[c - 2] not in (NO_OWNER, seat))
                found.append((state.saved[seat], mine, closed))
            action = bots[seat].choose(ENGINE, state, _bot_rng(seed, seq))
        state = ENGINE.apply(state, action)
    return found


def _collect_game(seed: int) -> list[Sample]:
    out: list[Sample] = []
    for i, (row, mine, closed) in enumerate(_positions(seed)):
        turns = solitaire_turns(row, mine, closed, seed * 1000 + i)
        out.append((row, mine, closed, turns))
    return out


def collect(games: int, seed: int, procs: int, out: Path) -> None:
    """Append each game's samples to ``out`` as it finishes (JSON lines)."""
    seeds = range(seed, seed + games)
    with Pool(procs) as pool, out.open("a") as fh:
        for part in pool.imap_unordered(_collect_game, seeds):
            for row, mine, closed, turns in part:
                fh.write(json.dumps([list(row), list(mine), list(closed), turns]) + "\n")
            fh.flush()


# ------------------------------------------------------------------------------------------
# fitting (plain least squares; the design matrices are a handful of columns wide)


def solve(rows: Sequence[Sequence[float]], ys: Sequence[float]) -> list[float]:
    """Least-squares coefficients of ``ys`` on ``rows`` (normal equations, Gauss-Jordan)."""
    k = len(rows[0])
    a = [[0.0] * (k + 1) for _ in range(k)]
    for x, y in zip(rows, ys, strict=True):
        for i in range(k):
            xi = x[i]
            for j in range(k):
                a[i][j] += xi * x[j]
            a[i][k] += xi * y
    for i in range(k):
        a[i][i] += 1e-9
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(k):
            if r != col:
                f = a[r][col] / a[col][col]
                for c in range(col, k + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][k] / a[i][i] for i in range(k)]


def progress_value(
    row: Sequence[int], mine: Sequence[int], closed: Sequence[int], power: float, claim: float
) -> float:
    """Sum over open columns of ``(p / H) ** power``, ``claim`` per owned column."""
    total = claim * len(mine)
    for col in COLUMNS:
        if col in mine or col in closed:
            continue
        total += (row[col - 2] / HEIGHTS[col]) ** power
    return total


def features(value: float, closed: int) -> list[float]:
    return [1.0, value, value * value, value**3, float(closed)]


def fit(samples: Sequence[Sample]) -> dict[str, Any]:
    ys = [float(t) for *_, t in samples]
    best: tuple[float, float, float, list[float]] | None = None
    for power in (1.2, 1.4, 1.6, 1.8, 2.0, 2.3, 2.6, 3.0):
        for claim in (1.0, 1.25, 1.5, 1.75, 2.0, 2.5):
            xs = [features(progress_value(r, m, c, power, claim), len(c)) for r, m, c, _ in samples]
            coef = solve(xs, ys)
            sse = sum(
                (y - sum(a * b for a, b in zip(coef, x, strict=True))) ** 2
                for x, y in zip(xs, ys, strict=True)
            )
            if best is None or sse < best[0]:
                best = (sse, power, claim, coef)
    assert best is not None
    sse, power, claim, coef = best
    mean_y = sum(ys) / len(ys)
    r2 = 1 - sse / sum((y - mean_y) ** 2 for y in ys)
    # the spread: squared residual, linear in the estimate
    est = [
        sum(
            a * b
            for a, b in zip(
                coef, features(progress_value(r, m, c, power, claim), len(c)), strict=True
            )
        )
        for r, m, c, _ in samples
    ]
    var_coef = solve([[1.0, e] for e in est], [(y - e) ** 2 for y, e in zip(ys, est, strict=True)])
    return {
        "power": power,
        "claim": claim,
        "turns": [round(c, 6) for c in coef],
        "variance": [round(c, 6) for c in var_coef],
        "samples": len(samples),
        "r2": round(r2, 4),
        "rmse": round(math.sqrt(sse / len(samples)), 4),
    }


def load_samples(path: Path) -> list[Sample]:
    out: list[Sample] = []
    for line in path.read_text().splitlines():
        row, mine, closed, turns = json.loads(line)
        out.append((tuple(row), tuple(mine), tuple(closed), turns))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--procs", type=int, default=2)
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("--samples", type=Path, required=True)
    f.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args(argv)
    if args.cmd == "collect":
        collect(args.games, args.seed, args.procs, args.out)
        return 0
    table = fit(load_samples(args.samples))
    print(json.dumps(table))
    args.out.write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
