"""The one scheduler over the timers table, on a real SQLite file: it sleeps until the earliest
timer, wakes when an earlier one is committed, and hands each due timer to its handler once."""

from __future__ import annotations

import asyncio
import time

from bot.service.clocks import NOTICE, TurnClock
from bot.service.scheduler import Scheduler
from bot.storage.base import TimerRow
from bot.storage.sqlite import SqliteStore


async def test_it_wakes_for_an_earlier_timer_and_handles_each_once(tmp_path) -> None:
    async with SqliteStore(tmp_path / "timers.db") as store:
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
