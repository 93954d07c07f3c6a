"""The fake Discord: shared state, aiohttp app, lifecycle and request recording."""

from __future__ import annotations

import asyncio
import collections
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import errors
from .contract import Contract, Violation
from .gateway import INTENT_GUILD_MESSAGES, INTENT_GUILDS, GatewaySession, gateway_handler
from .models import FakeChannel, FakeGuild, FakeUser, InteractionRecord, StoredMessage
from .payloads import SnowflakeFactory

API_PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class RequestRecord:
    """One REST request the fake served."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    started: float
    duration: float
    route: str | None
    #: the route as Discord's description names it (None: Discord has no such route)
    described: str | None = None


@dataclass
class Outage:
    """Requests matching method + path fragment fail with ``status``/``code`` ``remaining`` times.

    With ``after_effect`` the request is carried out first and only its answer is the failure
    (a 502 from a proxy after Discord took the response: the client's retry then finds it done).
    """

    method: str
    path_contains: str
    status: int
    code: int
    remaining: int
    after_effect: bool = False
    failed: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Is this a request the outage refuses (a fragment ending in ``$``: the path's end)?"""
        if self.remaining <= 0 or method != self.method:
            return False
        if self.path_contains.endswith("$"):
            return path.endswith(self.path_contains[:-1])
        return self.path_contains in path


@dataclass
class SyncEvent:
    """One application command bulk overwrite (PUT)."""

    guild_id: int | None
    commands: list[dict[str, Any]]
    at: float


@dataclass
class UnknownRoute:
    """A request to a route the fake does not implement."""

    method: str
    path: str
    query: dict[str, str]
    body: bytes = b""


@dataclass
class FakeDiscord:
    """State and HTTP/gateway server of the fake Discord API."""

    token: str = field(default_factory=lambda: "fake." + secrets.token_urlsafe(24))
    response_deadline: float = 3.0
    heartbeat_interval_ms: int = 41250
    allow_resume: bool = True
    application_flags: int = 0
    bot_name: str = "Boardroom"
    #: gateway shards the fake asks for (GET /gateway/bot); a guild's events go only to the
    #: session of shard (guild_id >> 22) % shard_count, as Discord routes them
    shard_count: int = 1
    #: Discord's global rate limit, requests per second (0: none): past it, REST calls get 429
    #: with ``retry_after``, as Discord answers them (interaction callbacks are exempt)
    global_rate_limit: int = 0

    def __post_init__(self) -> None:
        self.snowflakes = SnowflakeFactory()
        self.bot_user = FakeUser(self.snowflakes.next(), self.bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.channel_index: dict[int, list[int]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_events: list[SyncEvent] = []
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[UnknownRoute] = []
        #: requests Discord would refuse (its description or a rule the fake knows says why)
        self.violations: list[Violation] = []
        self.contract = Contract.shipped()
        self.sessions: list[GatewaySession] = []
        self.known_sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.ready_count = 0
        self.resume_attempts = 0
        self.changed = asyncio.Condition()
        self.base_url = ""
        self.api_base = ""
        self.ws_url = ""
        self._runner: web.AppRunner | None = None
        self.outages: list[Outage] = []
        self._recent: collections.deque[float] = collections.deque()
        #: users whose direct messages are closed to the bot (posts to their DM fail, 50007)
        self.closed_dms: set[int] = set()

    # lifecycle -------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on host:port (0 = a random free port)."""
        from .routes import add_routes

        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024**2)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        add_routes(self, app)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None
        real_port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://{host}:{real_port}"
        self.api_base = self.base_url + API_PREFIX
        self.ws_url = f"ws://{host}:{real_port}/gateway"

    async def stop(self) -> None:
        """Close gateway sessions and stop the server."""
        for session in list(self.sessions):
            if not session.ws.closed:
                await session.ws.close(code=1001, message=b"fake shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # notifications ---------------------------------------------------------

    async def notify(self) -> None:
        """Wake every waiter; call after any state change."""
        async with self.changed:
            self.changed.notify_all()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until predicate() holds or raise TimeoutError."""
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(predicate), timeout)

    # gateway ---------------------------------------------------------------

    def ready_sessions(self) -> list[GatewaySession]:
        """Open gateway sessions that reached READY (or RESUMED)."""
        return [s for s in self.sessions if s.ready and not s.ws.closed]

    def sessions_for(self, guild_id: int | str | None) -> list[GatewaySession]:
        """Ready sessions that get this guild's events (its shard's; DMs: shard 0's)."""
        gid = int(guild_id) if guild_id is not None else None
        return [s for s in self.ready_sessions() if s.owns(gid)]

    async def broadcast(self, event: str, data: dict[str, Any], intent: int) -> None:
        """Dispatch an event to every ready session subscribed to `intent` whose shard has the
        event's guild."""
        for session in self.sessions_for(data.get("guild_id")):
            if session.intents & intent:
                await session.dispatch(event, data)

    async def dispatch_message(self, event: str, msg: StoredMessage) -> None:
        """MESSAGE_CREATE/UPDATE for a channel message."""
        if msg.ephemeral:
            return
        await self.broadcast(event, msg.payload(), INTENT_GUILD_MESSAGES)

    async def dispatch_channel(self, event: str, channel: FakeChannel) -> None:
        """CHANNEL_*/THREAD_* events."""
        data = channel.payload()
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        await self.broadcast(event, data, INTENT_GUILDS)

    # storage helpers -------------------------------------------------------

    def store_message(self, msg: StoredMessage, *, in_channel: bool) -> None:
        """Keep a message; channel messages are also indexed by channel."""
        self.messages[msg.id] = msg
        if in_channel:
            self.channel_index.setdefault(msg.channel_id, []).append(msg.id)
            channel = self.channels.get(msg.channel_id)
            if channel is not None:
                channel.last_message_id = msg.id

    def channel_messages(self, channel_id: int) -> list[StoredMessage]:
        """Non-deleted channel messages, oldest first."""
        ids = self.channel_index.get(channel_id, [])
        return [self.messages[i] for i in ids if not self.messages[i].deleted]

    def attachment_url(self, channel_id: int, attachment_id: int, filename: str) -> str:
        """Where the fake serves an uploaded file."""
        return f"{self.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"

    # http plumbing ---------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.monotonic()
        path = request.path
        needs_auth = path.startswith(API_PREFIX) and not (
            path.startswith(API_PREFIX + "/interactions/")
            or path.startswith(API_PREFIX + "/webhooks/")
            or path.startswith(API_PREFIX + "/gateway")
        )
        outage = next(
            (o for o in self.outages if o.matches(request.method, path)),
            None,
        )
        retry_after = self._rate_limited(started) if needs_auth else None
        route, refusal = None, None
        if path.startswith(API_PREFIX):
            route, refusal = self.contract.check(
                request.method,
                path.removeprefix(API_PREFIX),
                request.query.items(),
                request.headers.get("Content-Type", ""),
                await request.read(),
            )
        if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
            response: web.StreamResponse = errors.error(401, 0, "401: Unauthorized")
        elif refusal is not None:
            response = errors.refusing(
                errors.json_response(refusal.body, refusal.status), refusal.problems
            )
        elif retry_after is not None:
            response = web.json_response(
                {
                    "message": "You are being rate limited.",
                    "retry_after": retry_after,
                    "global": True,
                },
                status=429,
                headers={
                    "Retry-After": f"{retry_after:.3f}",
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                },
            )
        elif outage is not None:
            outage.remaining -= 1
            outage.failed += 1
            if outage.after_effect:
                done = await handler(request)
                if done.status >= 400:  # it did not take effect after all: say so
                    outage.failed -= 1
                    response = done
                else:
                    response = errors.error(outage.status, outage.code, "injected failure")
            else:
                response = errors.error(outage.status, outage.code, "injected failure")
        else:
            response = await handler(request)
        refused = response.get(errors.REFUSED)
        if refused is not None:
            self.violations.append(
                Violation(request.method, path, route, response.status, tuple(refused))
            )
            await self.notify()
        info = request.match_info.route.resource
        self.requests.append(
            RequestRecord(
                request.method,
                path,
                dict(request.query),
                response.status,
                started,
                time.monotonic() - started,
                info.canonical if info is not None else None,
                route,
            )
        )
        return response

    def _rate_limited(self, now: float) -> float | None:
        """Seconds to wait when this request is past the global limit (None: it may go)."""
        if not self.global_rate_limit:
            return None
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.global_rate_limit:
            return round(self._recent[0] + 1.0 - now, 3)
        self._recent.append(now)
        return None

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        return await gateway_handler(self, request)

    async def _unknown(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.unknown_routes.append(
            UnknownRoute(request.method, request.path, dict(request.query), body)
        )
        await self.notify()
        return errors.error(404, 0, "404: Not Found")
