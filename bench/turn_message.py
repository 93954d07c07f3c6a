"""What a public turn message costs to tell its turn, early and late in a long game.

``python -m bench.turn_message [--games cantstop,kokeshi,harmonies] [--seats 3] [--seed 1]
[--repeat 200]``

Each game is played to its end between easy computer players through ``GameService.act`` on a
real SQLite file (WAL). Once the log has ~4 moves, and after the game's last action (the longest
log), the game stops while the bench times, for the newest snapshot, what a public message does
before drawing: the turns from the move log (``bot.service.turns.recent_turns``;
``turns_of`` before it) and the words telling them (``bot.adapter.messages.turn_lines``: the last turn, the turn so far and
"since your last turn"). The call is timed as a live game makes it: the previous action's
message was built by the same process just before (its turns are known), so only what the
action added is new (the garbage of setting that up is collected first). "first" is the same call with nothing known (the first message after a
restart, or a game another process played): the whole log is read and replayed.

Prints median / p95 / p99 per call in ms (the turns also as CPU time of the event loop's thread,
with the store's reads, which run on the same thread), and the late call as a multiple of the early
one.
The script works against any version with ``turns_of(service, snap)``: run in an older
checkout it gives the "before" figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.stats import percentile
from bot.adapter.messages import turn_lines
from bot.service import turns
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.storage.sqlite import SqliteStore
from engines.bots import get_bot
from engines.registry import get_engine
from engines.rng import Rng

EARLY_MOVE = 4
#: what a public message calls for its turns (before ``recent_turns``: ``turns_of``)
HOT = getattr(turns, "recent_turns", turns.turns_of)


Measure = Callable[[str, GameSnapshot, GameSnapshot, int], Awaitable[None]]


async def play(service: GameService, game: str, seats: int, seed: int, measure: Measure) -> None:
    """One whole game between easy bots (as people, through ``act``), measured (``measure``)
    when its log first has ``EARLY_MOVE`` moves and after its last action: each time the
    newest snapshot, as in a live game."""
    lobby = await service.open_lobby(
        guild_id=1, channel_id=seed, host_id=1, host_name="P1", game=game, players=seats
    )
    for seat in range(2, seats + 1):
        await service.join(lobby.id, seat, f"P{seat}")
    outcome = await service.start(lobby.id, 1)
    snap, count = outcome.after, len(outcome.moves)
    engine, bot = get_engine(game), get_bot(game, "easy")
    early = True
    for step in range(20000):
        if snap.status != "active" or snap.to_move is None:
            break
        action = bot.choose(engine, snap.state, Rng.for_step(seed, step))
        user = snap.seats[snap.to_move].user_id
        before = snap
        outcome = await service.act(snap.id, user, engine.encode_action(action), snap.version)
        snap, count = outcome.after, count + len(outcome.moves)
        if early and count >= EARLY_MOVE:
            await measure("early", snap, before, count)
            early = False
    await measure("late", snap, before, count)


def forget(service: GameService) -> None:
    """Nothing known about any game's turns (a process just started)."""
    if hasattr(turns, "TurnLog"):
        service.turn_log = turns.TurnLog(service.store)


async def timed(
    service: GameService, snap: GameSnapshot, before: GameSnapshot | None, repeat: int
) -> tuple[list[float], list[float], list[float]]:
    """Seconds per call for ``snap``: the turns alone (wall clock, and CPU of the event loop's
    thread: the store's reads run on its own thread), and the turns and their words; with
    ``before`` shown just before by this process (None: nothing known)."""
    alone, loop_cpu, told = [], [], []
    for _ in range(repeat):
        for words in (False, True):
            forget(service)
            if before is not None:
                await HOT(service, before)
            gc.collect()  # not the garbage of the set-up above
            started, cpu = time.perf_counter(), time.thread_time()
            played = await HOT(service, snap)
            if words:
                turn_lines("en", snap, None, played)
                told.append(time.perf_counter() - started)
            else:
                alone.append(time.perf_counter() - started)
                loop_cpu.append(time.thread_time() - cpu)
    return alone, loop_cpu, told


def ms(values: list[float]) -> str:
    return " / ".join(f"{percentile(values, q) * 1000:.3f}" for q in (50, 95, 99))


async def run(games: list[str], seats: int, seed: int, repeat: int) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-turns-") as scratch:
        async with SqliteStore(Path(scratch) / "bench.db") as store:
            service = GameService(store, new_seed=iter(range(seed, seed + 10**6)).__next__)
            for n, game in enumerate(games):

                async def measure(
                    label: str, snap: GameSnapshot, before: GameSnapshot, count: int, game=game
                ) -> None:
                    await timed(service, snap, before, 5)  # warm up
                    alone, loop_cpu, told = await timed(service, snap, before, repeat)
                    first, _, _ = await timed(service, snap, None, max(10, repeat // 10))
                    rows.append(
                        {
                            "game": game,
                            "at": label,
                            "moves": count,
                            "turns": alone,
                            "loop_cpu": loop_cpu,
                            "told": told,
                            "first": first,
                        }
                    )

                await play(service, game, seats, seed + n, measure)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="cantstop,kokeshi,harmonies")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; ms per call, median / p95 / p99")
    rows = asyncio.run(run(args.games.split(","), args.seats, args.seed, args.repeat))
    print(
        f"{'game':<10} {'at':<5} {'moves':>5}  {'turns':>24}  {'turns, loop CPU':>24}"
        f"  {'turns + words':>24}  {'turns, nothing known':>24}"
    )
    for r in rows:
        print(
            f"{r['game']:<10} {r['at']:<5} {r['moves']:>5}  {ms(r['turns']):>24}  "
            f"{ms(r['loop_cpu']):>24}  {ms(r['told']):>24}  {ms(r['first']):>24}"
        )
    for game in dict.fromkeys(r["game"] for r in rows):
        early, late = (
            next(r for r in rows if r["game"] == game and r["at"] == at) for at in ("early", "late")
        )
        ratios = ", ".join(
            f"{key} x{percentile(late[key], 50) / percentile(early[key], 50):.2f}"
            for key in ("turns", "loop_cpu", "told")
        )
        print(f"{game}: late / early median: {ratios}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
