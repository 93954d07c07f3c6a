"""Where boards are drawn: off the event loop, in worker threads or in worker processes.

Threads are the default and need nothing. With ``BOARDROOM_RENDER_PROCESSES=N`` boards are drawn
in N worker processes instead, so on a machine with spare cores drawing no longer competes with
the event loop for the interpreter lock (states are small to send; PNG bytes come back).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import Any

from render import render_png

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None


def _warm_up() -> None:
    """Load fonts and caches in each worker before the first real board."""
    from engines.registry import game_names, get_engine

    for game in game_names():
        engine = get_engine(game)
        render_png(game, engine.initial_state(engine.info.min_seats, {}), None)


def start_processes(count: int) -> None:
    """Draw in ``count`` worker processes from now on (0: worker threads)."""
    global _pool
    stop_processes()
    if count > 0:
        context = multiprocessing.get_context("forkserver")
        _pool = ProcessPoolExecutor(count, mp_context=context, initializer=_warm_up)
        log.info("drawing boards in %d worker processes", count)


def stop_processes() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


async def draw_png(game: str, state: Any, locale: str | None, **view: Any) -> bytes:
    """The board as PNG bytes, drawn without blocking the event loop."""
    job = partial(render_png, game, state, locale, **view)
    if _pool is None:
        return await asyncio.to_thread(job)
    return await asyncio.get_running_loop().run_in_executor(_pool, job)
