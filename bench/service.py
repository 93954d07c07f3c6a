"""Service benchmark: one accepted action = engine apply + chance + one SQLite commit, no render.

``python -m bench.service [--games N] [--players P] [--synchronous FULL,NORMAL] [--dir PATH]``
plays N seeded Can't Stop games through ``GameService.act`` on a real SQLite file (WAL) per
``PRAGMA synchronous`` mode and prints median / p95 / p99 per action, and each mode's figures as a
multiple of the last one's. Games alternate between the modes, so both see the same disk at the
same moment. ``--dir`` puts the files on the disk to measure (a tmpfs syncs for free).
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
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore
from engines.rng import Rng


async def play(service: GameService, g: int, players: int, timings: list[float]) -> None:
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
        timings.append(time.perf_counter() - started)
        step += 1


async def run(
    games: int, players: int, modes: list[str], folder: Path | None = None
) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = {mode: [] for mode in modes}
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        async with AsyncExitStack() as stack:
            services = {}
            for mode in modes:
                store = SqliteStore(Path(scratch) / f"bench-{mode}.db", synchronous=mode)
                await stack.enter_async_context(store)
                services[mode] = GameService(store, new_seed=iter(range(1, 10**6)).__next__)
            for g in range(games):
                for mode in modes:
                    await play(services[mode], g, players, timings[mode])
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--synchronous", default="FULL,NORMAL", help="modes, comma-separated")
    parser.add_argument("--dir", type=Path, default=None, help="where the database files go")
    args = parser.parse_args()
    modes = [m.strip().upper() for m in args.synchronous.split(",") if m.strip()]
    timings = asyncio.run(run(args.games, args.players, modes, args.dir))
    for mode in modes:
        print(summary_ms(f"service act (apply + commit), synchronous={mode}", timings[mode]))
    base = modes[-1]
    for mode in modes[:-1]:
        ratios = [
            f"{name} x{stat(timings[mode]) / stat(timings[base]):.2f}"
            for name, stat in (
                ("median", statistics.median),
                ("p95", lambda v: percentile(v, 95)),
                ("p99", lambda v: percentile(v, 99)),
            )
        ]
        print(f"{mode} / {base}: " + ", ".join(ratios))


if __name__ == "__main__":
    main()
