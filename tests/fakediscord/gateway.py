"""Gateway v10 endpoint: HELLO, heartbeats, IDENTIFY/READY, RESUME, dispatches."""

from __future__ import annotations

import asyncio
import json
import logging
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9


@dataclass
class GatewaySession:
    """One websocket connection from a client."""

    ws: web.WebSocketResponse
    compress: str | None
    encoding: str
    version: str | None
    session_id: str | None = None
    intents: int = 0
    seq: int = 0
    ready: bool = False
    resumed: bool = False
    heartbeats: int = 0
    identify: dict[str, Any] | None = None
    shard: tuple[int, int] | None = None  # [id, count] from IDENTIFY (None: unsharded)
    sent: list[dict[str, Any]] = field(default_factory=list)
    compressed_frames: int = 0
    _zlib: Any = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        if self.compress == "zlib-stream":
            self._zlib = zlib.compressobj()

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        """Send one gateway payload (zlib-stream compressed when negotiated)."""
        async with self._lock:
            payload: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
            if op == OP_DISPATCH:
                self.seq += 1
                payload["s"] = self.seq
            self.sent.append(payload)
            raw = json.dumps(payload, separators=(",", ":"))
            if self.ws.closed:
                return
            if self._zlib is not None:
                data = self._zlib.compress(raw.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                self.compressed_frames += 1
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)

    def owns(self, guild_id: int | None) -> bool:
        """Does this session get the guild's events? Guild → shard (guild_id >> 22) % count;
        events without a guild go to shard 0."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return ((guild_id or 0) >> 22) % count == shard_id

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) event."""
        await self.send(OP_DISPATCH, data, event)


async def gateway_handler(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    """Serve one gateway connection until it closes."""
    ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
    await ws.prepare(request)
    compress = request.query.get("compress")
    encoding = request.query.get("encoding", "json")
    if encoding != "json" or compress not in (None, "zlib-stream"):
        await ws.close(code=4002, message=b"unsupported encoding or compression")
        return ws
    session = GatewaySession(ws, compress, encoding, request.query.get("v"))
    fake.sessions.append(session)
    await session.send(OP_HELLO, {"heartbeat_interval": fake.heartbeat_interval_ms})
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await ws.close(code=4002, message=b"binary frames not supported")
                break
            await _handle(fake, session, json.loads(msg.data))
    finally:
        session.ready = False
        await fake.notify()
    return ws


async def _handle(fake: FakeDiscord, session: GatewaySession, msg: dict[str, Any]) -> None:
    op = msg.get("op")
    d = msg.get("d")
    if op == OP_HEARTBEAT:
        session.heartbeats += 1
        await session.send(OP_HEARTBEAT_ACK, None)
    elif op == OP_IDENTIFY:
        await _identify(fake, session, d or {})
    elif op == OP_RESUME:
        await _resume(fake, session, d or {})
    else:
        log.debug("fake gateway ignoring op %s", op)


async def _identify(fake: FakeDiscord, session: GatewaySession, d: dict[str, Any]) -> None:
    if d.get("token") != fake.token:
        await session.ws.close(code=4004, message=b"Authentication failed.")
        return
    shard = d.get("shard")
    if shard is not None:
        valid = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(type(x) is int for x in shard)
            and shard[1] == fake.shard_count
            and 0 <= shard[0] < shard[1]
        )
        if not valid:
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        session.shard = (shard[0], shard[1])
    elif fake.shard_count > 1:
        await session.ws.close(code=4011, message=b"Sharding required.")
        return
    session.identify = {k: v for k, v in d.items() if k != "token"}
    session.intents = int(d.get("intents") or 0)
    session.session_id = f"fake-session-{fake.snowflakes.next():x}"
    fake.known_sessions[session.session_id] = session
    fake.identify_count += 1
    ready = {
        "v": 10,
        "user": fake.bot_user.payload(),
        "guilds": [
            {"id": str(g.id), "unavailable": True}
            for g in fake.guilds.values()
            if session.owns(g.id)
        ],
        "session_id": session.session_id,
        "session_type": "normal",
        "resume_gateway_url": fake.ws_url,
        "application": {"id": str(fake.application_id), "flags": fake.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "auth": {},
        "_trace": ["fake-discord"],
    }
    if session.shard is not None:
        ready["shard"] = list(session.shard)
    await session.dispatch("READY", ready)
    session.ready = True
    fake.ready_count += 1
    await fake.notify()
    for guild in list(fake.guilds.values()):
        if session.owns(guild.id):
            await session.dispatch("GUILD_CREATE", guild.create_payload())
    await fake.notify()


async def _resume(fake: FakeDiscord, session: GatewaySession, d: dict[str, Any]) -> None:
    fake.resume_attempts += 1
    old = fake.known_sessions.get(str(d.get("session_id")))
    if not fake.allow_resume or old is None or d.get("token") != fake.token:
        await session.send(OP_INVALID_SESSION, False)
        await fake.notify()
        return
    session.session_id = old.session_id
    session.intents = old.intents
    session.identify = old.identify
    session.shard = old.shard
    session.seq = int(d.get("seq") or old.seq)
    session.resumed = True
    fake.known_sessions[session.session_id] = session
    await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
    session.ready = True
    await fake.notify()
