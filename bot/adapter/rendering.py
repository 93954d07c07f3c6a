"""Where boards are drawn and computer players think: off the event loop, in worker threads or
in worker processes.

With ``BOARDROOM_RENDER_PROCESSES=N`` (by default 1 on a machine with two or more cores) boards
are drawn in N worker processes (``draw_pool``), so drawing no longer competes with the event
loop for the interpreter lock (states are small to send; PNG bytes come back), and with two or
more the pictures of one message are drawn at once; with 0, in worker threads. The workers end
with the bot, however it ends.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from bot.adapter.draw_pool import DrawPool
from bot.ops import metrics
from bot.service.bots import decide, think_in_a_thread
from engines.rng import Rng
from i18n import translator
from render import render_board, render_png
from render.replay import Animation, replay_log

log = logging.getLogger(__name__)

_pool: DrawPool | None = None
#: the computer players' process (beside the drawing ones: a long decision holds no board up)
_thinking: DrawPool | None = None


def _worker_setup(game_modules: tuple[str, ...]) -> None:
    """Each worker: register the configured games, then load fonts and caches before real
    boards."""
    from engines.registry import game_names, get_engine, load_game_modules

    load_game_modules(game_modules)

    for game in game_names():
        engine = get_engine(game)
        render_png(game, engine.initial_state(engine.info.min_seats, {}))


def _thinker_setup(game_modules: tuple[str, ...]) -> None:
    """The thinking process: register the configured games (their bots come with them)."""
    from engines.registry import load_game_modules

    load_game_modules(game_modules)


def start_processes(count: int, game_modules: tuple[str, ...] = ()) -> None:
    """Draw in ``count`` worker processes from now on (0: worker threads); ``game_modules`` are
    imported in each so the games they register can be drawn there too. Called on the running
    event loop, which drives the workers."""
    global _pool, _thinking
    stop_processes()
    if count > 0:
        _pool = DrawPool(count, partial(_worker_setup, tuple(game_modules)))
        _pool.start()
        # started by the first decision: a table without computer players never needs it
        _thinking = DrawPool(1, partial(_thinker_setup, tuple(game_modules)))
        log.info("drawing boards in %d worker processes; computer players think in one", count)


def stop_processes() -> None:
    global _pool, _thinking
    for pool in (_pool, _thinking):
        if pool is not None:
            pool.close()
    _pool = _thinking = None


async def think(game: str, level: str, state: Any, rng: Rng) -> Any:
    """A computer player's decision, worked out in the thinking process (in a worker thread
    when boards are drawn in threads), so the event loop never waits for it."""
    if _thinking is None:
        return await think_in_a_thread(game, level, state, rng)
    if not _thinking.started:
        _thinking.start()
    return await _thinking.run(partial(decide, game, level, state, rng))


def drawing_backlog() -> int:
    """Boards waiting for a drawing process (0 when boards are drawn in threads)."""
    return _pool.backlog() if _pool is not None else 0


def start_drawing(
    game: str, state: Any, locale: str | None, **view: Any
) -> asyncio.Future[tuple[bytes, str]]:
    """Start drawing the board (its PNG bytes and alt text) where boards are drawn: with
    drawing processes the job is sent before this returns, so the caller can go on with other
    work (the message's words) and boards started together are drawn at once."""
    job = partial(render_board, game, state, translator(locale), **view)
    future: asyncio.Future[tuple[bytes, str]] = (
        asyncio.ensure_future(asyncio.to_thread(job)) if _pool is None else _pool.submit(job)
    )
    metrics.time_drawing("board", future)
    return future


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
        animation: Animation = await _pool.run(job)
        return animation
