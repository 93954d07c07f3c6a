"""The pace of the bot's own posts: slots a fixed interval apart, in the order asked for."""

from __future__ import annotations

import asyncio
import time

from bot.adapter.pace import Pace


async def test_a_burst_is_spread_at_the_rate() -> None:
    pace = Pace(rate=50.0)
    stamps: list[float] = []

    async def send() -> None:
        await pace.wait()
        stamps.append(time.monotonic())

    started = time.monotonic()
    await asyncio.gather(*(send() for _ in range(26)))
    # 26 slots 20 ms apart: the last one half a second after the first, none sooner
    assert stamps[-1] - started >= 0.49
    assert len(stamps) == 26
