"""What "alive" and "ready" mean, once for the HTTP endpoints, ``boardroom health`` and the
container's HEALTHCHECK.

Alive (``/healthz``): the process answers and its event loop is responsive (it woke from a 1 s
sleep within ``LAG_LIMIT`` of when it should have, lately). Ready (``/readyz``): the gateway
session is up, the database answers a read within ``DB_TIMEOUT``, and its migrations are applied.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.ops import metrics

#: the loop is unresponsive when a 1 s sleep ended this much later than asked (or not at all)
LAG_LIMIT = 10.0
#: the database is unreachable when a read takes longer than this
DB_TIMEOUT = 3.0
#: the names of the readiness checks, in the order they are reported
CHECKS = ("gateway", "database", "migrations")


class LoopWatch:
    """Sleeps 1 s at a time and notes how late it woke (``lag``) and when (``last``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.last = clock()
        self.lag = 0.0

    async def run(self) -> None:
        while True:
            before = self._clock()
            await asyncio.sleep(1.0)
            self.last = self._clock()
            self.lag = max(0.0, self.last - before - 1.0)
            metrics.LOOP_LAG.set(self.lag)

    def alive(self) -> bool:
        return self.lag < LAG_LIMIT and self._clock() - self.last < 1.0 + LAG_LIMIT


@dataclass
class Readiness:
    """The three readiness checks, each a callable the running bot provides."""

    gateway: Callable[[], bool]
    database: Callable[[], Awaitable[object]]  # a cheap read; raises when the database is gone
    migrated: Callable[[], bool]
    failed: list[str] = field(default_factory=list)

    async def check(self) -> dict[str, bool]:
        """Each check's result, by name (see ``CHECKS``)."""
        connected = self.gateway()
        metrics.GATEWAY_READY.set(1 if connected else 0)
        try:
            await asyncio.wait_for(self.database(), DB_TIMEOUT)
            reachable = True
        except Exception:
            reachable = False
        return {"gateway": connected, "database": reachable, "migrations": self.migrated()}
