"""Service benchmark: one accepted action = engine apply + chance + one SQLite commit, no render.

``python -m bench.service [--games N] [--players P]`` plays N seeded Can't Stop games through
``GameService.act`` on a real SQLite file (WAL) and prints median / p95 / p99 per action.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.stats import summary_ms
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore
from engines.rng import Rng


async def run(games: int, players: int) -> list[float]:
    timings: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with SqliteStore(Path(folder) / "bench.db") as store:
            service = GameService(store, new_seed=iter(range(1, 10**6)).__next__)
            for g in range(games):
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
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    timings = asyncio.run(run(args.games, args.players))
    print(summary_ms("service act (apply + commit)", timings))


if __name__ == "__main__":
    main()
