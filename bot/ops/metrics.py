"""The bot's Prometheus metrics: one place that names every series and its labels.

Labels are bounded: kinds, outcomes, stages, Discord route templates, game names; never a user,
channel, guild or game id. What changes on the hot path (a counter, a histogram) is recorded
where it happens through the small functions below; what is a level (posts waiting, timers due,
games running) is read when Prometheus scrapes, by ``Levels`` (``bot.ops.http`` refreshes it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

#: seconds: from a few milliseconds (a cached answer) to Discord's 3 s deadline and past it
LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
#: seconds: a commit on a quiet disk takes a millisecond; a busy one, far more
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

INTERACTIONS = Counter(
    "boardroom_interactions",
    "Interactions handled, by kind (a command, a move, a lobby button...) and outcome",
    ["kind", "outcome"],
)
MOVE_SECONDS = Histogram(
    "boardroom_move_seconds",
    "From a move's click (Discord's creation time) to its first answer, and to its board shown"
    " (posted, or queued for the delivery when Discord refused it)",
    ["stage"],
    buckets=LATENCY_BUCKETS,
)
DISCORD_ERRORS = Counter(
    "boardroom_discord_errors",
    "Discord REST calls that failed, by route template and HTTP status (0: no answer)",
    ["route", "status"],
)
DISCORD_RATE_LIMITED = Counter(
    "boardroom_discord_rate_limited",
    "429 answers from Discord (each one; discord.py waits and tries again), by route template",
    ["route"],
)
DELIVERY_WAITING = Gauge(
    "boardroom_delivery_waiting",
    "Committed boards no channel message shows yet (the delivery posts them, with backoff)",
)
DELIVERY_OLDEST = Gauge(
    "boardroom_delivery_oldest_seconds",
    "How long the oldest board waiting for delivery has been seen waiting",
)
TIMERS_DUE = Gauge("boardroom_timers_due", "Timers (turn clocks, reminders, votes) due now")
TIMERS_LATE = Gauge(
    "boardroom_timers_late_seconds", "How far past its due time the oldest due timer is"
)
GAMES_RUNNING = Gauge("boardroom_games_running", "Games in progress, by game", ["game"])
DRAWING_SECONDS = Histogram(
    "boardroom_drawing_seconds",
    "Drawing a picture in the drawing worker, from hand-over to bytes back, by what was drawn",
    ["kind"],
    buckets=LATENCY_BUCKETS,
)
DB_WRITE_SECONDS = Histogram(
    "boardroom_db_write_seconds",
    "One database write transaction, from its start to its commit",
    buckets=COMMIT_BUCKETS,
)
GATEWAY_READY = Gauge("boardroom_gateway_ready", "1 while the gateway session is up")
LOOP_LAG = Gauge(
    "boardroom_event_loop_lag_seconds", "How late the event loop woke a 1 s sleep, last time"
)


def interaction(kind: str, outcome: str) -> None:
    INTERACTIONS.labels(kind, outcome).inc()


def move_stage(stage: str, seconds: float) -> None:
    MOVE_SECONDS.labels(stage).observe(seconds)


def discord_error(route: str, status: int) -> None:
    DISCORD_ERRORS.labels(route, str(status)).inc()


def rate_limited(route: str) -> None:
    DISCORD_RATE_LIMITED.labels(route).inc()


@contextmanager
def drawing(kind: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        DRAWING_SECONDS.labels(kind).observe(time.perf_counter() - started)


def time_drawing(kind: str, future: asyncio.Future[Any]) -> None:
    """Observe a drawing started now when its ``future`` is done (however it ends)."""
    started = time.perf_counter()
    future.add_done_callback(
        lambda _: DRAWING_SECONDS.labels(kind).observe(time.perf_counter() - started)
    )


def timed_writes(write: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a store's ``write()`` (an async context manager factory) so each transaction's time,
    from its start to its commit, is observed; a rolled back one is not. Its keyword arguments
    (``synced``) go through."""

    @asynccontextmanager
    async def timed(**options: Any) -> AsyncIterator[Any]:
        started = time.perf_counter()
        async with write(**options) as tx:
            yield tx
        DB_WRITE_SECONDS.observe(time.perf_counter() - started)

    return timed


class Levels:
    """The gauges read at scrape time, from the store: boards waiting, timers due, games
    running per game. ``refresh`` is called before each scrape (at most once a second)."""

    def __init__(
        self,
        unshown: Callable[[], Awaitable[list[int]]],
        due: Callable[[float], Awaitable[list[float]]],
        running: Callable[[], Awaitable[list[int]]],
        game_name: Callable[[int], Awaitable[str | None]],
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._unshown, self._due, self._running, self._game_name = unshown, due, running, game_name
        self._now = now
        self._waiting_since: dict[int, float] = {}
        self._names: dict[int, str] = {}  # a game's name never changes: read it once
        self._seen: set[str] = set()
        self._last = 0.0

    async def refresh(self) -> None:
        now = self._now()
        if now - self._last < 1.0:
            return
        self._last = now
        waiting = await self._unshown()
        self._waiting_since = {g: self._waiting_since.get(g, now) for g in waiting}
        DELIVERY_WAITING.set(len(waiting))
        DELIVERY_OLDEST.set(now - min(self._waiting_since.values(), default=now))
        due = await self._due(now)
        TIMERS_DUE.set(len(due))
        TIMERS_LATE.set(max(0.0, now - min(due, default=now)))
        counts: dict[str, int] = {}
        running = await self._running()
        for game_id in running:
            name = self._names.get(game_id) or await self._game_name(game_id)
            if name is None:
                continue
            self._names[game_id] = name
            counts[name] = counts.get(name, 0) + 1
        for name in self._seen - counts.keys():
            GAMES_RUNNING.labels(name).set(0)
        for name, count in counts.items():
            GAMES_RUNNING.labels(name).set(count)
        self._seen |= counts.keys()
        alive = set(running)
        self._names = {g: n for g, n in self._names.items() if g in alive}
