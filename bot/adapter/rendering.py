"""Where boards are drawn: off the event loop, in worker threads or in worker processes.

With ``BOARDROOM_RENDER_PROCESSES=N`` (by default 1 on a machine with two or more cores) boards
are drawn in N worker processes, so drawing no longer competes with the event loop for the
interpreter lock (states are small to send; PNG bytes come back); with 0, in worker threads.
The workers end with the bot, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from bot.ops import metrics
from i18n import translator
from render import render_board, render_png
from render.replay import Animation, replay_log

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # prctl option: a signal the kernel sends when the parent process dies

_pool: ProcessPoolExecutor | None = None


def _end_with_parent(parent: int) -> None:
    """Exit as soon as the bot process is gone, even if it was killed outright (SIGKILL), so no
    drawing process outlives it."""
    with contextlib.suppress(OSError, AttributeError):  # Linux: the kernel does it at once
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_start(parent: int, game_modules: tuple[str, ...]) -> None:
    """Each worker: tie its life to the bot's, register the configured games, then load fonts and
    caches before real boards."""
    _end_with_parent(parent)
    from engines.registry import game_names, get_engine, load_game_modules

    load_game_modules(game_modules)

    for game in game_names():
        engine = get_engine(game)
        render_png(game, engine.initial_state(engine.info.min_seats, {}))


def start_processes(count: int, game_modules: tuple[str, ...] = ()) -> None:
    """Draw in ``count`` worker processes from now on (0: worker threads); ``game_modules`` are
    imported in each so the games they register can be drawn there too."""
    global _pool
    stop_processes()
    if count > 0:
        # Spawned workers are the bot's own children, which lets them follow it when it dies.
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            count,
            mp_context=context,
            initializer=_worker_start,
            initargs=(os.getpid(), tuple(game_modules)),
        )
        for _ in range(count):  # start the workers now, not on the first board
            _pool.submit(int)
        log.info("drawing boards in %d worker processes", count)


def stop_processes() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


async def draw_board(
    game: str, state: Any, locale: str | None, **view: Any
) -> tuple[bytes, str]:
    """The board as PNG bytes and its alt text, both worked out where boards are drawn."""
    job = partial(render_board, game, state, translator(locale), **view)
    with metrics.drawing("board"):
        if _pool is None:
            return await asyncio.to_thread(job)
        return await asyncio.get_running_loop().run_in_executor(_pool, job)


async def draw_replay(
    game: str,
    seats: int,
    options: dict[str, Any],
    actions: list[str],
    locale: str | None,
    names: list[str],
) -> Animation:
    """A whole game as an animated image, drawn in a worker from its move log (the log goes
    across, the finished file comes back; no board image crosses)."""
    job = partial(replay_log, game, seats, options, actions, translator(locale), names=names)
    with metrics.drawing("replay"):
        if _pool is None:
            return await asyncio.to_thread(job)
        return await asyncio.get_running_loop().run_in_executor(_pool, job)
