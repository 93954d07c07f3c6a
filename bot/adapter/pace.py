"""Spacing the messages the bot posts on its own (reminders, votes, their results), so a burst of
deadlines falling due together stays within Discord's global limit of 50 requests a second
instead of running into it: requests refused with 429 count towards Discord's ban on clients
that make too many invalid requests."""

from __future__ import annotations

import asyncio
import time

#: bot-initiated posts a second: half of Discord's global limit, the rest left to interactions
POSTS_PER_SECOND = 25.0


async def no_pace() -> None:
    """Requests one after the other, unspaced (a player's own command, answered at once)."""


class Pace:
    """Hands out send slots at most ``rate`` a second, in the order they were asked for."""

    def __init__(self, rate: float = POSTS_PER_SECOND) -> None:
        self.interval = 1.0 / rate
        self._next = 0.0

    async def wait(self) -> None:
        now = time.monotonic()
        slot = max(now, self._next)
        self._next = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)
