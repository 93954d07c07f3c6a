"""The event loop the bot runs on: uvloop's where it is installed, asyncio's otherwise.

Under load most of the bot's main-process time is asyncio's own machinery and the libraries
on it (discord.py's gateway and HTTP client, aiohttp): uvloop runs the loop, its timers and its
sockets in C. ``bench.e2e`` measured the difference (docs/decisions.md, "Running under load").
"""

from __future__ import annotations

import asyncio

try:
    import uvloop
except ImportError:  # not built for this platform: asyncio's loop does the same job
    uvloop = None  # type: ignore[assignment]


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A fresh event loop for ``boardroom run``."""
    if uvloop is not None:
        return uvloop.new_event_loop()
    return asyncio.new_event_loop()


def loop_kind(loop: asyncio.AbstractEventLoop) -> str:
    """What the logs say the bot runs on."""
    return "uvloop" if uvloop is not None and isinstance(loop, uvloop.Loop) else "asyncio"
