"""The one scheduler over the timers table, on a real SQLite file and a real PostgreSQL database
(``database``): it sleeps until the earliest timer, wakes when an earlier one is committed, and
hands each due timer to its handler once."""

from __future__ import annotations

import asyncio
import time

from bot.service.clocks import NOTICE, TurnClock
from bot.service.scheduler import Scheduler
from bot.storage import open_store
from bot.storage.base import GameStore, TimerRow


async def test_it_wakes_for_an_earlier_timer_and_handles_each_once(database: str) -> None:
    async with open_store(database) as store:
        handled: list[tuple[int, float]] = []

        async def handle(timer: TimerRow) -> None:
            handled.append((timer.id, time.time()))
            async with store.write() as tx:
                await tx.delete_timer(timer.id)

        scheduler = Scheduler(store, handle)
        clock = TurnClock()
        clock.on_timer = scheduler.poke
        async with store.write() as tx:  # far away: the scheduler sleeps
            await clock.add(tx, TimerRow(0, time.time() + 3600, NOTICE))
        scheduler.start()
        await asyncio.sleep(0.2)
        assert handled == []
        soon = time.time() + 0.3
        async with store.write() as tx:  # earlier: committed, it wakes for it
            first = await clock.add(tx, TimerRow(0, soon, NOTICE))
            second = await clock.add(tx, TimerRow(0, soon, NOTICE))
        for _ in range(50):
            if len(handled) >= 2:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        await scheduler.stop()
        assert sorted(i for i, _ in handled) == [first, second]  # each once, none early
        assert all(at >= soon - 0.01 for _, at in handled)
        assert len(await store.due_timers(time.time() + 7200, 10)) == 1  # the far one is left


class SlowDueReads:
    """The store, with each read of the due timers returned late: the handlers of the timers
    it found may finish (and delete them) while it is on its way."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)

    async def due_timers(self, now: float, limit: int, shards: object = None) -> list[TimerRow]:
        rows = await self.store.due_timers(now, limit, shards)  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        return rows


async def test_a_read_older_than_a_handler_does_not_hand_its_timer_over_again(
    database: str,
) -> None:
    """A full batch makes the scheduler read again at once; that read can start before the
    handlers of the batch commit their deletes and end after they finished. The timers it
    still lists were handled already: none is handled twice."""
    async with open_store(database) as store:
        handled: list[int] = []

        async def handle(timer: TimerRow) -> None:
            handled.append(timer.id)
            async with store.write() as tx:
                await tx.delete_timer(timer.id)

        async with store.write() as tx:
            for _ in range(2):
                await tx.add_timer(TimerRow(0, time.time() - 1, NOTICE))
        scheduler = Scheduler(SlowDueReads(store), handle, batch=2)  # type: ignore[arg-type]
        scheduler.start()
        await asyncio.sleep(1.0)
        await scheduler.stop()
        assert sorted(handled) == [1, 2]
