"""Replay and stats-card benchmark.

``python -m bench.replay [--seed S] [--seats 4] [--cards N]`` plays one seeded game of each
built-in game between easy computer players, then times the whole replay job as a drawing
worker runs it (move log in, animation bytes out: replay, drawing, scaling, encoding) for GIF,
WebP and the "auto" choice, printing frames, frame size, bytes and seconds; then times the
``/stats`` card (PNG and alt text) N times with three games of history and prints the median
and p95.
"""

from __future__ import annotations

import argparse
import time

from bench.stats import summary_ms
from engines.base import CHANCE, TERMINAL
from engines.bots import get_bot
from engines.registry import game_names, get_engine
from engines.rng import Rng
from i18n import Translator
from render import replay
from render.stats_card import CardGame, card_png, describe

NAMES = ["Alice", "Bartholomew the Magnificent", "Chidi", "Dong-hyun"]


def bot_game(game: str, seats: int, seed: int) -> list[str]:
    engine, bot = get_engine(game), get_bot(game, "easy")
    state, log = engine.initial_state(seats, {}), []
    for step in range(20000):
        mover = engine.to_move(state)
        if mover == TERMINAL:
            return log
        rng = Rng.for_step(seed, step)
        action = (
            engine.sample_chance(state, rng) if mover == CHANCE else bot.choose(engine, state, rng)
        )
        log.append(engine.encode_action(action))
        state = engine.apply(state, action)
    raise RuntimeError(f"{game}: no end in 20000 steps")


def bench_replays(seed: int, seats: int) -> None:
    tr = Translator("en")
    for game in ("cantstop", "kokeshi", "harmonies"):
        if game not in game_names():
            continue
        log = bot_game(game, seats, seed)
        for fmt in ("gif", "webp", "auto"):
            started = time.perf_counter()
            made = replay.replay_log(game, seats, {}, log, tr, names=NAMES[:seats], fmt=fmt)
            took = time.perf_counter() - started
            print(
                f"replay {game} seats={seats} moves={len(log)} fmt={fmt}: frames={made.frames}"
                f" size={made.size[0]}x{made.size[1]} sent={made.format}"
                f" bytes={len(made.data)} ({len(made.data) / 1024:.0f} KiB) time={took:.2f} s"
            )


def bench_cards(count: int) -> None:
    sections = [
        CardGame(
            "cantstop",
            42,
            17,
            2.4,
            3,
            14.3,
            40,
            tuple(i * 0.35 for i in range(40)),
            {"busts": 2.35},
        ),
        CardGame(
            "harmonies",
            12,
            4,
            81.5,
            104,
            9.1,
            12,
            tuple(i * 0.8 for i in range(12)),
            {
                "trees": 12.5,
                "mountains": 8.0,
                "fields": 10.25,
                "buildings": 4.0,
                "water": 14.2,
                "animals": 30.1,
            },
        ),
        CardGame(
            "kokeshi",
            3,
            0,
            61.0,
            70,
            None,
            0,
            (),
            {
                "happiness": 20.0,
                "height": 9.3,
                "achievements": 6.0,
                "animals": 11.0,
                "leaders": 4.0,
                "adjacency": 6.3,
            },
        ),
    ]
    times = []
    for i in range(count):
        tr = Translator(("en", "ja", "de", "fr")[i % 4])
        started = time.perf_counter()
        png = card_png("Bartholomew the Magnificent", sections, tr)
        describe("Bartholomew the Magnificent", sections, tr)
        times.append(time.perf_counter() - started)
    print(summary_ms(f"stats card (3 games, {len(png)} bytes)", times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--cards", type=int, default=200)
    args = parser.parse_args()
    bench_replays(args.seed, args.seats)
    bench_cards(args.cards)


if __name__ == "__main__":
    main()
