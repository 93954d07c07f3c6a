"""What a public turn message costs to tell its turn, early and late in a long game.

``python -m bench.turn_message [--games cantstop,kokeshi,harmonies] [--seats 3] [--seed 1]
[--window 60]``

Each game is played to its end between easy computer players through ``GameService.act`` on a
real SQLite file (WAL), twice from one seed: a dry run finds how long it is, and the measured
run times, at the first ``--window`` positions from move ~4 on ("early") and at the last
``--window`` positions before the end ("late": the longest logs a turn message tells; the final
message also tells the result, which does not grow with the log), what a public message does
before drawing: the turns from the move log (``bot.service.turns.recent_turns``; ``turns_of``
before it) and the words telling them (``bot.adapter.messages.turn_lines``: the last turn, the
turn so far and "since your last turn"). A window of positions, not one, is compared: one
position's words depend on what its turns hold (a five-roll turn and a recap of two others take
longer to tell than the first two rolls of a game), a window's spread of turns does not depend
on how long the log is. Each position is timed once, as the game reaches it, as a live game
makes its message: the previous position's message was built by the same process just before,
so only what the action added is new (garbage is collected before each call). "first" is the
turns with nothing known (the first message after a restart, or a game another process
played): the whole log is read and replayed.

Prints median / p95 / p99 per call in ms over a window's positions (the turns also as CPU time
of the event loop's thread, with the store's reads, which run on the same thread), and the late
window's median as a multiple of the early one's. The script works against any version with
``turns_of(service, snap)``: run in an older checkout it gives the "before" figures.
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
#: "nothing known" calls timed at each position
FIRST_REPEAT = 3
#: what a public message calls for its turns (before ``recent_turns``: ``turns_of``)
HOT = getattr(turns, "recent_turns", turns.turns_of)


#: a position a turn message is made for: the snapshot, the one before it, the moves so far
Position = tuple[GameSnapshot, GameSnapshot, int]
#: called at each position of a game as it is played, with the position's index
OnPosition = Callable[[int, Position], Awaitable[None]]


async def play(
    service: GameService, game: str, seats: int, seed: int, on_position: OnPosition
) -> int:
    """One whole game between easy bots (as people, through ``act``), ``on_position`` called
    at each position before its end as the game reaches it (the log then holds nothing past
    it, as in a live game). Returns how many positions there were."""
    lobby = await service.open_lobby(
        guild_id=1, channel_id=seed, host_id=1, host_name="P1", game=game, players=seats
    )
    for seat in range(2, seats + 1):
        await service.join(lobby.id, seat, f"P{seat}")
    outcome = await service.start(lobby.id, 1)
    snap, count = outcome.after, len(outcome.moves)
    engine, bot = get_engine(game), get_bot(game, "easy")
    index = 0
    for step in range(20000):
        if snap.status != "active" or snap.to_move is None:
            break
        action = bot.choose(engine, snap.state, Rng.for_step(seed, step))
        user = snap.seats[snap.to_move].user_id
        before = snap
        outcome = await service.act(snap.id, user, engine.encode_action(action), snap.version)
        snap, count = outcome.after, count + len(outcome.moves)
        if snap.status == "active":
            await on_position(index, (snap, before, count))
            index += 1
    return index


async def nothing(_index: int, _position: Position) -> None:
    return None


def forget(service: GameService) -> None:
    """Nothing known about any game's turns (a process just started)."""
    if hasattr(turns, "TurnLog"):
        service.turn_log = turns.TurnLog(service.store)


async def live(service: GameService, snap: GameSnapshot) -> tuple[float, float, float]:
    """Seconds for ``snap``'s message as a live game makes it, the previous position's message
    built just before by this process: the turns (wall clock, and CPU of the event loop's
    thread, which runs the store's reads), and the turns with their words."""
    gc.collect()  # not the garbage of what came before
    started, cpu = time.perf_counter(), time.thread_time()
    played = await HOT(service, snap)
    alone, loop_cpu = time.perf_counter() - started, time.thread_time() - cpu
    turn_lines("en", snap, None, played)
    return alone, loop_cpu, time.perf_counter() - started


async def first(service: GameService, snap: GameSnapshot, repeat: int) -> list[float]:
    """Seconds for ``snap``'s turns with nothing known (a fresh ``TurnLog``, as after a
    restart); the live one is put back after."""
    kept = getattr(service, "turn_log", None)
    times = []
    for _ in range(repeat):
        forget(service)
        gc.collect()
        started = time.perf_counter()
        await HOT(service, snap)
        times.append(time.perf_counter() - started)
    if kept is not None:
        service.turn_log = kept
    return times


def ms(values: list[float]) -> str:
    return " / ".join(f"{percentile(values, q) * 1000:.3f}" for q in (50, 95, 99))


class Windows:
    """Times a game's early and late windows as the game reaches them (an ``OnPosition``): one
    live message a position, each following the message of the position before (built
    untimed when that one was not in a window)."""

    def __init__(self, service: GameService, game: str, length: int, window: int) -> None:
        self.service, self.game, self.length, self.window = service, game, length, window
        self.rows: dict[str, dict[str, Any]] = {}
        self.last_index = -2

    def label(self, index: int, count: int) -> str | None:
        early = self.rows.get("early")
        if count >= EARLY_MOVE and (early is None or len(early["moves"]) < self.window):
            return "early"
        return "late" if index >= self.length - self.window else None

    async def __call__(self, index: int, position: Position) -> None:
        snap, before, count = position
        label = self.label(index, count)
        if label is None:
            return
        if self.last_index != index - 1:  # the message before this one
            turn_lines("en", before, None, await HOT(self.service, before))
        self.last_index = index
        row = self.rows.setdefault(
            label,
            {
                "game": self.game,
                "at": label,
                "moves": [],
                "turns": [],
                "loop_cpu": [],
                "told": [],
                "first": [],
            },
        )
        row["moves"].append(count)
        alone, loop_cpu, told = await live(self.service, snap)
        row["turns"].append(alone)
        row["loop_cpu"].append(loop_cpu)
        row["told"].append(told)
        row["first"] += await first(self.service, snap, FIRST_REPEAT)


async def run(games: list[str], seats: int, seed: int, window: int) -> list[dict[str, Any]]:
    """Each game twice from the same seed: once to learn how long it is, once to time the
    positions of its early and late windows as the game reaches them."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-turns-") as scratch:
        for n, game in enumerate(games):
            game_seed = seed + n
            async with SqliteStore(Path(scratch) / f"{game}-dry.db") as store:
                dry = GameService(store, new_seed=lambda game_seed=game_seed: game_seed)
                length = await play(dry, game, seats, game_seed, nothing)
            async with SqliteStore(Path(scratch) / f"{game}.db") as store:
                service = GameService(store, new_seed=lambda game_seed=game_seed: game_seed)
                windows = Windows(service, game, length, window)
                await play(service, game, seats, game_seed, windows)
            for row in windows.rows.values():
                rows.append({**row, "moves": f"{row['moves'][0]}-{row['moves'][-1]}"})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="cantstop,kokeshi,harmonies")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window", type=int, default=60, help="positions early and late")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; ms per call, median / p95 / p99")
    rows = asyncio.run(run(args.games.split(","), args.seats, args.seed, args.window))
    print(
        f"{'game':<10} {'at':<5} {'moves':>9}  {'turns':>24}  {'turns, loop CPU':>24}"
        f"  {'turns + words':>24}  {'turns, nothing known':>24}"
    )
    for r in rows:
        print(
            f"{r['game']:<10} {r['at']:<5} {r['moves']:>9}  {ms(r['turns']):>24}  "
            f"{ms(r['loop_cpu']):>24}  {ms(r['told']):>24}  {ms(r['first']):>24}"
        )
    worst = 0.0
    for game in dict.fromkeys(r["game"] for r in rows):
        early, late = (
            next(r for r in rows if r["game"] == game and r["at"] == at) for at in ("early", "late")
        )
        ratios = ", ".join(
            f"{key} x{percentile(late[key], 50) / percentile(early[key], 50):.2f}"
            for key in ("turns", "loop_cpu", "told")
        )
        print(f"{game}: late / early median: {ratios}")
        worst = max(worst, percentile(late["told"], 50) / percentile(early["told"], 50))
    print(f"turns + words, late / early, the largest: x{worst:.2f} (target: within x1.2)")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
