"""The bot's HTTP port (``BOARDROOM_METRICS_PORT``): ``/metrics`` for Prometheus, ``/healthz``
and ``/readyz`` for a container runtime or an orchestrator. Served by aiohttp on the bot's own
event loop: when the loop stalls, the endpoints stall with it, which is what they should say."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from bot.ops.health import LoopWatch, Readiness
from bot.ops.metrics import Levels

log = logging.getLogger(__name__)


class OpsServer:
    """``async with OpsServer(...)``: the endpoints are served while the block runs."""

    def __init__(
        self, host: str, port: int, readiness: Readiness, levels: Levels | None = None
    ) -> None:
        self.host, self.port = host, port
        self.readiness = readiness
        self.levels = levels
        self.watch = LoopWatch()
        self._runner: web.AppRunner | None = None
        self._watching: asyncio.Task[None] | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        return app

    async def metrics(self, request: web.Request) -> web.Response:
        if self.levels is not None:
            try:
                await self.levels.refresh()
            except Exception:  # a scrape still answers with what it has
                log.warning("could not read the levels for the metrics", exc_info=True)
        body = generate_latest(REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(self, request: web.Request) -> web.Response:
        alive = self.watch.alive()
        body = {"alive": alive, "loop_lag_seconds": round(self.watch.lag, 3)}
        return web.json_response(body, status=200 if alive else 503)

    async def readyz(self, request: web.Request) -> web.Response:
        checks = await self.readiness.check()
        ready = all(checks.values())
        return web.json_response(checks, status=200 if ready else 503, dumps=json.dumps)

    async def __aenter__(self) -> OpsServer:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self._watching = asyncio.create_task(self.watch.run())
        log.info("metrics and health on http://%s:%s/metrics", self.host, self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watching
        if self._runner is not None:
            await self._runner.cleanup()
