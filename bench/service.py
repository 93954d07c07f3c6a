"""Service benchmark: one accepted action = engine apply + chance + one SQLite commit, no render.

``python -m bench.service [--games N] [--players P] [--synchronous FULL,NORMAL] [--dir PATH]``
plays N seeded Can't Stop games through ``GameService.act`` on a real SQLite file (WAL) per
``PRAGMA synchronous`` mode and prints median / p95 / p99 per action, and each mode's figures as a
multiple of the last one's. Games alternate between the modes, so both see the same disk at the
same moment. ``--dir`` puts the files on the disk to measure (a tmpfs syncs for free).

``--metrics`` adds, for each mode, games on a second file with what the metrics put on this
path: each write transaction timed (``bot.ops.metrics.timed_writes``, as ``BOARDROOM_METRICS_PORT``
turns on) and the per-move recordings the bot makes whether or not the port is set (the
interaction counted, its first answer and its board shown observed), inside the timed action;
and prints the metrics' figures as a multiple of the same mode's without them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from bench.stats import percentile, summary_ms
from bot.ops import metrics
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore
from engines.rng import Rng

METERED = "+metrics"


def record_move(seconds: float) -> None:
    """What the bot records for each move it answers (``bot.adapter.observe``)."""
    metrics.interaction("move", "ok")
    metrics.move_stage("first_answer", seconds)
    metrics.move_stage("board_shown", seconds)


async def play(
    service: GameService, g: int, players: int, timings: list[float], metered: bool = False
) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=g, host_id=1, host_name="P1", game="cantstop"
    )
    for seat in range(2, players + 1):
        await service.join(lobby.id, seat, f"P{seat}")
    snap = (await service.start(lobby.id, 1)).after
    step = 0
    while snap.status == "active":
        code = Rng.for_step(g, step).choice(snap.legal)
        user = snap.seats[snap.to_move].user_id
        started = time.perf_counter()
        snap = (await service.act(snap.id, user, code, snap.version)).after
        if metered:
            record_move(time.perf_counter() - started)
        timings.append(time.perf_counter() - started)
        step += 1


async def run(
    games: int,
    players: int,
    modes: list[str],
    folder: Path | None = None,
    with_metrics: bool = False,
) -> dict[str, list[float]]:
    """Per setup (a synchronous mode, and with ``with_metrics`` that mode + metrics), the time
    of each action; games alternate between the setups."""
    setups = [m + suffix for m in modes for suffix in (("", METERED) if with_metrics else ("",))]
    timings: dict[str, list[float]] = {setup: [] for setup in setups}
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        async with AsyncExitStack() as stack:
            services = {}
            for setup in setups:
                mode = setup.removesuffix(METERED)
                store = SqliteStore(Path(scratch) / f"bench-{setup}.db", synchronous=mode)
                await stack.enter_async_context(store)
                if setup.endswith(METERED):
                    store.write = metrics.timed_writes(store.write)  # type: ignore[method-assign]
                services[setup] = GameService(store, new_seed=iter(range(1, 10**6)).__next__)
            for g in range(games):
                for setup in setups:
                    await play(services[setup], g, players, timings[setup], setup.endswith(METERED))
    return timings


def ratios(timings: list[float], base: list[float]) -> str:
    return ", ".join(
        f"{name} x{stat(timings) / stat(base):.2f}"
        for name, stat in (
            ("median", statistics.median),
            ("p95", lambda v: percentile(v, 95)),
            ("p99", lambda v: percentile(v, 99)),
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--synchronous", default="FULL,NORMAL", help="modes, comma-separated")
    parser.add_argument("--dir", type=Path, default=None, help="where the database files go")
    parser.add_argument(
        "--metrics", action="store_true", help="each mode also with the metrics' work, compared"
    )
    args = parser.parse_args()
    modes = [m.strip().upper() for m in args.synchronous.split(",") if m.strip()]
    timings = asyncio.run(run(args.games, args.players, modes, args.dir, args.metrics))
    for setup, values in timings.items():
        print(summary_ms(f"service act (apply + commit), synchronous={setup}", values))
    base = modes[-1]
    for mode in modes[:-1]:
        print(f"{mode} / {base}: " + ratios(timings[mode], timings[base]))
    if args.metrics:
        for mode in modes:
            print(f"{mode}{METERED} / {mode}: " + ratios(timings[mode + METERED], timings[mode]))


if __name__ == "__main__":
    main()
