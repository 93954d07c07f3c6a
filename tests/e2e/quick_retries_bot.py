"""The real bot (``boardroom run``, unmodified) with discord.py's own waits between retries
scaled down, for the tests whose point is a Discord refusal that outlasts those retries.

discord.py retries a 500/502/504 itself, waiting 1, 3, 5, 7 and 9 s (25 s) before it gives up
and the bot's own delivery takes over; it also waits out each 429's ``retry_after``. A story
that refuses a post five times would spend those 25 s asleep. ``BOARDROOM_TEST_DISCORD_WAITS``
(a factor, e.g. ``0.3``) shortens every wait discord.py's HTTP client sleeps, the way
``BOARDROOM_TEST_RETRY_SCALE`` shortens the bot's own backoff: the requests, their order and
the number of tries stay exactly discord.py's. Only ``discord.http`` sees the scaled clock.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import discord.http

from bot.cli import main

WAITS_ENV = "BOARDROOM_TEST_DISCORD_WAITS"


class _ScaledAsyncio:
    """``asyncio`` as ``discord.http`` sees it: the same module, with ``sleep`` scaled."""

    def __init__(self, factor: float) -> None:
        self._factor = factor

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * self._factor, result)


def scale_discord_waits(factor: float) -> None:
    """Make discord.py's HTTP client wait ``factor`` times as long between its own retries."""
    discord.http.asyncio = _ScaledAsyncio(factor)  # type: ignore[assignment]


if __name__ == "__main__":
    scale_discord_waits(float(os.environ.get(WAITS_ENV, "1")))
    raise SystemExit(main(["run"]))
