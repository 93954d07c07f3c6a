"""One scheduler for every timer: a single task sleeps until the earliest due row of the timers
table (an index lookup), wakes early when an earlier one is committed, and hands what is due to
its handler, a batch at a time.

No task per game and no loop over games: a database of 100,000 games costs one indexed query
each time something falls due. A handler decides in its own transaction whether its timer still
applies (the game at the version it was set for) and deletes it there, so a move committed a
moment earlier wins and nothing is applied twice, even with two processes on one database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage.base import GameStore, Shards, TimerRow

log = logging.getLogger(__name__)

Handler = Callable[[TimerRow], Awaitable[None]]

#: a handler that failed is tried again after this long (then twice as long, up to the last)
FAILURE_BACKOFF = (5.0, 15.0, 60.0, 300.0)


class Scheduler:
    def __init__(
        self,
        store: GameStore,
        handle: Handler,
        *,
        now: Callable[[], float] = time.time,
        shards: Shards | None = None,
        batch: int = 200,
        concurrency: int = 20,
        max_sleep: float = 3600.0,
    ) -> None:
        self.store = store
        self.handle = handle
        self.now = now
        self.shards = shards
        self.batch = batch
        self.max_sleep = max_sleep  # a bound, so a clock jump is noticed within the hour
        self._wake = asyncio.Event()
        self._next: float | None = None
        self._limit = asyncio.Semaphore(concurrency)
        self._running: set[asyncio.Task[None]] = set()
        self._busy: set[int] = set()  # timers being handled now (not picked up twice)
        #: timers whose handler finished while a read of the due ones was under way: that read
        #: may predate the handler's commit, so it does not count for them
        self._finished: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self.handled = 0

    # ----------------------------------------------------------------- control

    def poke(self, due: float) -> None:
        """A timer due at ``due`` was committed: wake up if it is earlier than the next one."""
        if self._next is None or due < self._next:
            self._wake.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="scheduler")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ----------------------------------------------------------------- loop

    async def run(self) -> None:
        while True:
            try:
                full = await self.run_due()
                if full:
                    continue  # more are due: no sleep
                self._wake.clear()  # before reading the next due time: a poke after it counts
                self._next = await self.store.next_due(self.shards)
                delay = self.max_sleep if self._next is None else self._next - self.now()
                delay = min(max(delay, 0.0), self.max_sleep)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("scheduler could not read its timers; trying again shortly")
                delay = FAILURE_BACKOFF[0]
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)

    async def run_due(self) -> bool:
        """Start a handler for each timer due now; True when the batch was full."""
        self._finished.clear()
        read = await self.store.due_timers(self.now(), self.batch, self.shards)
        due = [t for t in read if t.id not in self._finished]
        fresh = [t for t in due if t.id not in self._busy]
        for timer in fresh:
            self._busy.add(timer.id)
            await self._limit.acquire()
            task = asyncio.create_task(self._handle(timer))
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        if fresh and len(fresh) < len(due):
            return False
        if not fresh and due:
            # all of them are being handled right now: wait for one to finish
            if self._running:
                await asyncio.wait(self._running, return_when=asyncio.FIRST_COMPLETED)
            else:  # (cannot happen: a handler always deletes or moves its timer) never spin
                await asyncio.sleep(FAILURE_BACKOFF[0])
            return True
        return len(read) >= self.batch

    async def _handle(self, timer: TimerRow) -> None:
        try:
            await self.handle(timer)
            self.handled += 1
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "timer %s failed; it is tried again later",
                timer.kind,
                extra={"game_id": timer.game_id, "timer_id": timer.id},
            )
            await self._back_off(timer)
        finally:
            self._busy.discard(timer.id)
            self._finished.add(timer.id)
            self._limit.release()

    async def _back_off(self, timer: TimerRow) -> None:
        delay = FAILURE_BACKOFF[min(timer.attempts, len(FAILURE_BACKOFF) - 1)]
        with contextlib.suppress(Exception):
            async with self.store.write() as tx:
                if await tx.load_timer(timer.id) is not None:
                    await tx.reschedule_timer(timer.id, self.now() + delay, timer.attempts + 1)
        self.poke(self.now() + delay)
