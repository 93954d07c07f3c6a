"""Render benchmark across games: one turn image of every game at 4 players, and each game's
time as a multiple of Can't Stop's, per ``/game board`` and per picture (Harmonies must stay
within 3x per picture).

``python -m bench.render_games [--positions N] [--repeat R]`` plays seeded random games, keeps N
positions per game where a player is to act, and times ``render_png`` (draw + PNG encode) of the
pictures ``/game board`` posts (``render.board_views``; a game that splits the table into areas
posts several, timed together) and of the end-of-turn pictures (``render.turn_views``: the
mover's board with the turn marked, and for a game with ``views`` every picture it posts). It
also prints the median PNG size.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench.stats import percentile
from engines.base import CHANCE, TERMINAL
from engines.registry import game_names, get_engine
from engines.rng import Rng
from render import board_views, render_png, turn_views

NAMES = ["Ann", "Bartholomew", "Chidi", "Dong-hyun"]


def positions(game: str, seats: int, count: int, seed: int = 1) -> list[Any]:
    """``count`` positions where a player is to act, from seeded random games."""
    engine = get_engine(game)
    found: list[Any] = []
    state, step = engine.initial_state(seats, {}), 0
    while len(found) < count:
        mover = engine.to_move(state)
        if mover == TERMINAL:
            state = engine.initial_state(seats, {})
            continue
        if mover == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, step))
        else:
            action = Rng.for_step(seed + 1, step).choice(engine.legal_actions(state))
            if step % 7 == 0:
                found.append(state)
        state = engine.apply(state, action)
        step += 1
    return found


def turn_ends(game: str, seats: int, count: int, seed: int = 1) -> list[tuple[Any, Any, int]]:
    """``count`` ends of turn (state at the start of the turn, state after it, the mover)."""
    engine = get_engine(game)
    found: list[tuple[Any, Any, int]] = []
    state, step = engine.initial_state(seats, {}), 0
    since, mover = state, 0
    while len(found) < count:
        seat = engine.to_move(state)
        if seat == TERMINAL:
            state = since = engine.initial_state(seats, {})
            continue
        if seat == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seed, step))
        else:
            mover = seat
            action = Rng.for_step(seed + 1, step).choice(engine.legal_actions(state))
        after = engine.apply(state, action)
        if engine.turn(after) > engine.turn(state):
            found.append((since, after, mover))
            since = after
        state = after
        step += 1
    return found


def turn_pngs(game: str, since: Any, state: Any, mover: int) -> list[bytes]:
    """The end-of-turn pictures of one turn."""
    sets = turn_views(game, state, since, mover)
    return [render_png(game, state, names=NAMES, **view) for view in sets]


def board_pngs(game: str, state: Any) -> list[bytes]:
    """The pictures ``/game board`` posts of the whole table."""
    return [render_png(game, state, names=NAMES, **v) for v in board_views(game, state, None, True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    medians: dict[str, float] = {}
    pictures: dict[str, int] = {}
    for game in game_names():
        states = positions(game, 4, args.positions)
        board_pngs(game, states[0])  # fonts and caches
        times = []
        for state in states:
            for _ in range(args.repeat):
                started = time.perf_counter()
                board = board_pngs(game, state)
                times.append((time.perf_counter() - started) * 1000)
        medians[game] = statistics.median(times)
        pictures[game] = len(board)
        sizes = [len(png) for state in states for png in board_pngs(game, state)]
        print(
            f"{game:10s} 4 players, /game board ({len(board)} picture(s)): median"
            f" {medians[game]:.2f} ms  p95 {percentile(times, 95):.2f} ms"
            f"  p99 {percentile(times, 99):.2f} ms  (n={len(times)})"
            f"  PNG median {statistics.median(sizes) / 1024:.1f} KiB"
        )
        ends = turn_ends(game, 4, args.positions)
        turn_times, turn_sizes = [], []
        for since, state, mover in ends:
            for _ in range(args.repeat):
                started = time.perf_counter()
                pngs = turn_pngs(game, since, state, mover)
                turn_times.append((time.perf_counter() - started) * 1000)
            turn_sizes += [len(p) for p in pngs]
        print(
            f"{game:10s} end of turn ({len(pngs)} picture(s)): median "
            f"{statistics.median(turn_times):.2f} ms  p95 {percentile(turn_times, 95):.2f} ms"
            f"  PNG median {statistics.median(turn_sizes) / 1024:.1f} KiB"
        )
    base = medians["cantstop"] / pictures["cantstop"]
    for game, median in medians.items():
        whole, each = median / medians["cantstop"], median / pictures[game] / base
        print(f"{game:10s} / cantstop: {whole:.2f}x per /game board, {each:.2f}x per picture")


if __name__ == "__main__":
    main()
