"""Test-facing driver: build the world, send interactions, read back what the bot did."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any

from . import interactions as ix
from . import payloads as p
from .contract import Violation
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionRecord,
    StoredMessage,
)
from .server import FakeDiscord, Outage, RequestRecord, SyncEvent, UnknownRoute

ChannelRef = FakeChannel | int
MessagePredicate = Callable[[StoredMessage], bool]


class NoGatewaySession(RuntimeError):
    """Raised when an interaction is sent but no client is connected and READY."""


class FakeDiscordDriver:
    """Drives a FakeDiscord from tests."""

    #: the record type made for each interaction (a benchmark may add its own bookkeeping)
    record_class: type[InteractionRecord] = InteractionRecord

    def __init__(self, fake: FakeDiscord | None = None, **options: Any) -> None:
        self.fake = fake or FakeDiscord(**options)
        self.strict_commands = True

    # lifecycle -------------------------------------------------------------

    async def start(self) -> FakeDiscordDriver:
        """Start the server on a random 127.0.0.1 port."""
        await self.fake.start()
        return self

    async def stop(self) -> None:
        """Stop the server; fail if a request was one Discord refuses (see ``violations``)."""
        await self.fake.stop()
        self.assert_no_violations()

    async def __aenter__(self) -> FakeDiscordDriver:
        return await self.start()

    async def __aexit__(self, kind: object, *exc: object) -> None:
        if kind is None:
            await self.stop()
        else:  # the block's own failure says more than a violation it may have caused
            await self.fake.stop()

    # addresses and identity ------------------------------------------------

    @property
    def token(self) -> str:
        """The only bot token the fake accepts."""
        return self.fake.token

    @property
    def api_base(self) -> str:
        """Value for DISCORD_API_BASE, e.g. http://127.0.0.1:PORT/api/v10."""
        return self.fake.api_base

    @property
    def ws_url(self) -> str:
        """Gateway URL (without query)."""
        return self.fake.ws_url

    @property
    def bot_user(self) -> FakeUser:
        """The bot's own user."""
        return self.fake.bot_user

    @property
    def application_id(self) -> int:
        """The application id (equal to the bot user id)."""
        return self.fake.application_id

    @property
    def response_deadline(self) -> float:
        """Seconds an interaction accepts its initial response (Discord: 3)."""
        return self.fake.response_deadline

    @response_deadline.setter
    def response_deadline(self, value: float) -> None:
        self.fake.response_deadline = value

    # world -----------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False) -> FakeUser:
        """A new user (not yet in any guild)."""
        user = FakeUser(self.fake.snowflakes.next(), name, bot=bot)
        self.fake.users[user.id] = user
        return user

    async def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: FakeUser | None = None,
        locale: str = "en-US",
        everyone_permissions: int = p.DEFAULT_MEMBER_PERMISSIONS,
        bot_permissions: int | None = None,
        shard: int | None = None,
    ) -> FakeGuild:
        """A guild with an @everyone role and the bot as member (``shard``: an id that Discord
        routes to that shard of the fake's ``shard_count``)."""
        owner = owner or self.add_user(f"{name} owner")
        gid = self.fake.snowflakes.next()
        if shard is not None:
            while (gid >> 22) % self.fake.shard_count != shard:
                gid += 1 << 22  # a later millisecond
            self.fake.snowflakes.skip_past(gid)
        guild = FakeGuild(gid, name, owner.id, locale=locale)
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", everyone_permissions)
        guild.members[owner.id] = FakeMember(owner)
        guild.members[self.bot_user.id] = FakeMember(
            self.bot_user, permissions_override=bot_permissions
        )
        self.fake.guilds[gid] = guild
        for session in self.fake.sessions_for(gid):
            await session.dispatch("GUILD_CREATE", guild.create_payload())
        await self.fake.notify()
        return guild

    async def add_role(self, guild: FakeGuild, name: str, permissions: int) -> FakeRole:
        """A role with the given permission bits (e.g. payloads.MANAGE_CHANNELS)."""
        role = FakeRole(self.fake.snowflakes.next(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        await self.fake.broadcast(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, 1
        )
        return role

    async def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        roles: list[FakeRole] | tuple[FakeRole, ...] = (),
        permissions: int | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """Put a user in a guild; `permissions` overrides the role computation."""
        member = FakeMember(user, [r.id for r in roles], nick, permissions)
        guild.members[user.id] = member
        await self.fake.notify()
        return member

    async def add_channel(
        self,
        guild: FakeGuild,
        name: str,
        *,
        type: int = 0,
        parent: FakeChannel | None = None,
    ) -> FakeChannel:
        """A guild channel (0 text, 4 category ...)."""
        channel = FakeChannel(
            self.fake.snowflakes.next(),
            guild.id,
            name,
            type=type,
            position=len(guild.channels),
            parent_id=parent.id if parent else None,
        )
        guild.channels[channel.id] = channel
        self.fake.channels[channel.id] = channel
        await self.fake.dispatch_channel("CHANNEL_CREATE", channel)
        await self.fake.notify()
        return channel

    async def delete_channel(self, channel: ChannelRef) -> None:
        """Delete a channel as a server admin would: from now on Discord answers 404 Unknown
        Channel (10003) for it, and the gateway says CHANNEL_DELETE."""
        found = self.fake.channels.pop(self._cid(channel))
        guild = self.fake.guilds.get(found.guild_id or 0)
        if guild is not None:
            guild.channels.pop(found.id, None)
        await self.fake.dispatch_channel("CHANNEL_DELETE", found)
        await self.fake.notify()

    def channel(self, channel_id: int) -> FakeChannel:
        """A channel (or thread) by id."""
        return self.fake.channels[channel_id]

    def threads_of(self, channel: ChannelRef) -> list[FakeChannel]:
        """Threads created under a channel."""
        cid = self._cid(channel)
        return [c for c in self.fake.channels.values() if c.is_thread and c.parent_id == cid]

    # interactions ----------------------------------------------------------

    async def slash(
        self,
        user: FakeUser,
        channel: ChannelRef,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        locale: str = "en-US",
        guild_locale: str | None = None,
    ) -> InteractionRecord:
        """Invoke /name [subcommand] with options, as `user` in `channel`."""
        return await self._command(
            2, user, channel, name, options or {}, subcommand, locale, guild_locale, None
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: ChannelRef,
        name: str,
        options: dict[str, Any],
        *,
        focused: str,
        subcommand: str | None = None,
        locale: str = "en-US",
        guild_locale: str | None = None,
    ) -> InteractionRecord:
        """An autocomplete request (type 4) while the user types option `focused`."""
        return await self._command(
            4, user, channel, name, options, subcommand, locale, guild_locale, focused
        )

    async def click(
        self,
        user: FakeUser,
        message: StoredMessage,
        custom_id: str,
        *,
        locale: str = "en-US",
        guild_locale: str | None = None,
    ) -> InteractionRecord:
        """Click the button `custom_id` on `message`."""
        self._check_component(message, custom_id, 2)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._component(user, message, data, locale, guild_locale)

    async def click_on_every_session(
        self, user: FakeUser, message: StoredMessage, custom_id: str
    ) -> list[InteractionRecord]:
        """The same button clicked twice at once (a double click), one interaction to each
        ready gateway session of the message's guild: with two bot processes connected, each
        process gets one of the clicks."""
        self._check_component(message, custom_id, 2)
        data = {"custom_id": custom_id, "component_type": 2}
        chan = self.fake.channels[message.channel_id]
        sessions = self.fake.sessions_for(chan.guild_id)
        if not sessions:
            raise NoGatewaySession("no gateway session of the guild's shard is READY")
        payloads = [
            ix.base_payload(
                self.fake, itype=3, user=user, channel=chan, data=dict(data),
                locale="en-US", guild_locale=None, message=message,
            )
            for _ in sessions
        ]
        return list(
            await asyncio.gather(
                *(
                    self._send(payload, user, chan, message, session=session)
                    for payload, session in zip(payloads, sessions, strict=True)
                )
            )
        )

    async def select(
        self,
        user: FakeUser,
        message: StoredMessage,
        custom_id: str,
        values: list[str],
        *,
        locale: str = "en-US",
        guild_locale: str | None = None,
    ) -> InteractionRecord:
        """Choose `values` in the string select `custom_id` on `message`."""
        comp = self._check_component(message, custom_id, 3)
        if comp is not None and comp.get("options"):
            allowed = {o["value"] for o in comp["options"]}
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise ValueError(f"values {unknown} are not options of select {custom_id!r}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._component(user, message, data, locale, guild_locale)

    async def submit_modal(
        self,
        user: FakeUser,
        channel: ChannelRef,
        custom_id: str,
        fields: dict[str, str],
        *,
        message: StoredMessage | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """Submit a modal (type 5) with text inputs {custom_id: value}."""
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in fields.items()
        ]
        data = {"custom_id": custom_id, "components": rows}
        chan = self.fake.channels[self._cid(channel)]
        payload = ix.base_payload(
            self.fake,
            itype=5,
            user=user,
            channel=chan,
            data=data,
            locale=locale,
            guild_locale=None,
            message=message,
        )
        return await self._send(payload, user, chan, message)

    def fail_next(
        self,
        method: str,
        path_contains: str,
        *,
        status: int = 403,
        code: int = 50013,
        count: int = 1,
        after_effect: bool = False,
    ) -> Outage:
        """Make the next ``count`` matching REST calls fail as Discord would (default: Missing
        Permissions). 500, 502, 504 make discord.py retry after 1, 3, 5... s (interaction
        callbacks and follow-ups: any 5xx), so tests prefer 4xx unless the retry is the point.
        With ``after_effect`` the call is carried out and only its answer fails (e.g. a 502 from
        a proxy after Discord took an interaction response; the retry then gets 40060).
        ``path_contains`` ending in ``$`` matches the end of the path (``"/messages$"``: a post
        to any channel, not a thread started from a message).
        Returns the outage, whose ``failed`` counts the failures served so far."""
        outage = Outage(method.upper(), path_contains, status, code, count, after_effect)
        self.fake.outages.append(outage)
        return outage

    def outages_done(self) -> bool:
        """Whether every injected failure has been served."""
        return all(o.remaining <= 0 for o in self.fake.outages)

    async def forge_component(
        self,
        user: FakeUser,
        message: StoredMessage,
        custom_id: Any,
        *,
        component_type: int = 2,
        values: Any = None,
        channel: ChannelRef | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """A component interaction as a modified client could make it: ``custom_id`` (any
        value) on a copy of ``message`` that carries only that control, optionally as if the
        message were in another ``channel`` (another guild's, or a DM from ``dm_channel``).
        ``values`` are sent as the select's chosen values, whatever they are."""
        ghost = copy.deepcopy(message)
        shown_id = custom_id if isinstance(custom_id, str) else str(custom_id)
        if component_type == 3:
            component: dict[str, Any] = {
                "type": 3,
                "custom_id": shown_id,
                "options": [{"label": "x", "value": "x"}],
            }
        else:
            component = {"type": 2, "style": 2, "label": "x", "custom_id": shown_id}
        ghost.components = [{"type": 1, "components": [component]}]
        if channel is not None:
            chan = self.fake.channels[self._cid(channel)]
            ghost.channel_id, ghost.guild_id = chan.id, chan.guild_id or None
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if component_type == 3 or values is not None:
            data["values"] = values if values is not None else ["x"]
        return await self._component(user, ghost, data, locale, None)

    async def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The direct-message channel between ``user`` and the bot."""
        from .routes_users import dm_channel_of

        chan = dm_channel_of(self.fake, user)
        await self.fake.notify()
        return chan

    def close_dms(self, user: FakeUser, closed: bool = True) -> None:
        """Close (or open again) ``user``'s direct messages to the bot: a message the bot sends
        them is refused with 403 / 50007 "Cannot send messages to this user"."""
        if closed:
            self.fake.closed_dms.add(user.id)
        else:
            self.fake.closed_dms.discard(user.id)

    def dms_to(self, user: FakeUser) -> list[StoredMessage]:
        """Every direct message the bot sent ``user``, oldest first."""
        return [
            message
            for chan in self.fake.channels.values()
            if chan.is_dm and chan.recipient is user
            for message in self.fake.channel_messages(chan.id)
        ]

    async def wait_for_dm(
        self,
        user: FakeUser,
        predicate: MessagePredicate | None = None,
        *,
        after: int | None = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """Wait for a direct message to ``user`` newer than ``after`` (default: now)."""
        since = self.marker() if after is None else after
        found: list[StoredMessage] = []

        def check() -> bool:
            for msg in self.dms_to(user):
                if msg.id > since and (predicate is None or predicate(msg)):
                    found.append(msg)
                    return True
            return False

        await self.fake.wait_until(check, timeout)
        return found[0]

    async def add_thread(self, parent: FakeChannel, name: str) -> FakeChannel:
        """A public thread under a guild channel, as if someone had opened it."""
        tid = self.fake.snowflakes.next()
        thread = FakeChannel(tid, parent.guild_id, name, type=11, parent_id=parent.id)
        thread.owner_id = self.bot_user.id
        thread.thread_type_payload = p.thread_payload(
            tid, parent.guild_id, parent.id, self.bot_user.id, name, created=p.iso()
        )
        self.fake.channels[tid] = thread
        self.fake.guilds[parent.guild_id].channels[tid] = thread
        await self.fake.dispatch_channel("THREAD_CREATE", thread)
        await self.fake.notify()
        return thread

    # read-back -------------------------------------------------------------

    @property
    def interactions(self) -> list[InteractionRecord]:
        """Every interaction sent, oldest first."""
        return list(self.fake.interactions.values())

    def channel_messages(self, channel: ChannelRef) -> list[StoredMessage]:
        """Non-deleted, non-ephemeral messages in a channel, oldest first."""
        return self.fake.channel_messages(self._cid(channel))

    def latest_message(self, channel: ChannelRef) -> StoredMessage | None:
        """The newest channel message, if any."""
        msgs = self.channel_messages(channel)
        return msgs[-1] if msgs else None

    def message(self, message_id: int) -> StoredMessage:
        """Any stored message (channel or ephemeral) by id."""
        return self.fake.messages[message_id]

    def marker(self) -> int:
        """A snowflake: messages created after this call have larger ids."""
        return self.fake.snowflakes.next()

    async def wait_for_channel_message(
        self,
        channel: ChannelRef,
        predicate: MessagePredicate | None = None,
        *,
        after: int | None = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """Wait for a message newer than `after` (default: now) matching predicate.

        Re-checked on every change, so a message created earlier in the window and
        edited into shape later (e.g. a deferred response) also matches.
        """
        cid = self._cid(channel)
        since = self.marker() if after is None else after
        found: list[StoredMessage] = []

        def check() -> bool:
            for msg in self.fake.channel_messages(cid):
                if msg.id > since and (predicate is None or predicate(msg)):
                    found.append(msg)
                    return True
            return False

        await self.fake.wait_until(check, timeout)
        return found[0]

    @property
    def unknown_routes(self) -> list[UnknownRoute]:
        """Requests to routes the fake does not implement (answered 404)."""
        return list(self.fake.unknown_routes)

    def assert_no_unknown_routes(self) -> None:
        """Fail if the client called any route the fake does not know."""
        routes = [f"{r.method} {r.path}" for r in self.fake.unknown_routes]
        assert not routes, f"unknown Discord routes called: {routes}"

    @property
    def violations(self) -> list[Violation]:
        """Requests Discord would refuse: against its published description (route, method,
        parameters, body schema and limits) or a rule of Discord's it does not encode."""
        return list(self.fake.violations)

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten by the fake (for a test that sends them on purpose)."""
        taken, self.fake.violations = self.fake.violations, []
        return taken

    def assert_no_violations(self) -> None:
        """Fail if any request was one Discord refuses."""
        found = "\n".join(map(str, self.fake.violations))
        assert not found, f"requests Discord refuses:\n{found}"

    @property
    def requests(self) -> list[RequestRecord]:
        """Every REST request served, oldest first (with status and duration)."""
        return list(self.fake.requests)

    def requests_to(self, method: str, path_contains: str = "") -> list[RequestRecord]:
        """Requests with a method whose path contains a substring."""
        return [r for r in self.fake.requests if r.method == method and path_contains in r.path]

    def response_latencies(self) -> list[float]:
        """Latency (s) of every accepted initial interaction response."""
        return [r.latency for r in self.fake.interactions.values() if r.latency is not None]

    # gateway and sync ------------------------------------------------------

    @property
    def sync_events(self) -> list[SyncEvent]:
        """Every command bulk overwrite received."""
        return list(self.fake.sync_events)

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """Registered commands, global (None) or for one guild."""
        if guild is None:
            return list(self.fake.global_commands)
        gid = guild if isinstance(guild, int) else guild.id
        return list(self.fake.guild_commands.get(gid, []))

    @property
    def ready_count(self) -> int:
        """How many READY events were sent in total."""
        return self.fake.ready_count

    @property
    def compression_used(self) -> bool:
        """Whether any gateway session negotiated zlib-stream and got compressed frames."""
        return any(s.compress == "zlib-stream" and s.compressed_frames for s in self.fake.sessions)

    @property
    def gateway_sessions(self) -> list[Any]:
        """Every gateway connection seen (GatewaySession objects)."""
        return list(self.fake.sessions)

    async def wait_ready(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until at least `count` READY events were sent (GUILD_CREATEs follow at once)."""
        await self.fake.wait_until(lambda: self.fake.ready_count >= count, timeout)

    async def wait_for_sync(
        self, guild: FakeGuild | int | None = None, *, after: int = 0, timeout: float = 10.0
    ) -> SyncEvent:
        """Wait for the (after+1)-th PUT of commands for a guild (None = global)."""
        gid = guild if guild is None or isinstance(guild, int) else guild.id

        def matching() -> list[SyncEvent]:
            return [e for e in self.fake.sync_events if e.guild_id == gid]

        await self.fake.wait_until(lambda: len(matching()) > after, timeout)
        return matching()[after]

    async def wait_for_sync_any(self, *, after: int = 0, timeout: float = 10.0) -> SyncEvent:
        """Wait until more than `after` command PUTs (any scope) arrived."""
        await self.fake.wait_until(lambda: len(self.fake.sync_events) > after, timeout)
        return self.fake.sync_events[after]

    async def disconnect_all(self, code: int = 4000) -> None:
        """Close every gateway connection (the client should RESUME)."""
        for session in list(self.fake.sessions):
            if not session.ws.closed:
                await session.ws.close(code=code)

    # internals -------------------------------------------------------------

    def late_answers(self) -> list[InteractionRecord]:
        """Interactions whose answer the fake refused as later than the deadline."""
        return [r for r in self.fake.interactions.values() if r.late]

    def _cid(self, channel: ChannelRef) -> int:
        return channel.id if isinstance(channel, FakeChannel) else int(channel)

    def _check_component(
        self, message: StoredMessage, custom_id: str, component_type: int
    ) -> dict[str, Any] | None:
        from .models import iter_components

        if message.deleted:
            raise ValueError(f"message {message.id} was deleted")
        for comp in iter_components(message.components):
            if comp.get("custom_id") == custom_id:
                if comp.get("type") != component_type:
                    raise ValueError(f"{custom_id!r} is a type {comp.get('type')} component")
                if comp.get("disabled"):
                    raise ValueError(f"{custom_id!r} is disabled")
                return comp
        raise ValueError(
            f"message {message.id} has no component {custom_id!r}: {message.custom_ids}"
        )

    async def _component(
        self,
        user: FakeUser,
        message: StoredMessage,
        data: dict[str, Any],
        locale: str,
        guild_locale: str | None,
    ) -> InteractionRecord:
        chan = self.fake.channels[message.channel_id]
        payload = ix.base_payload(
            self.fake,
            itype=3,
            user=user,
            channel=chan,
            data=data,
            locale=locale,
            guild_locale=guild_locale,
            message=message,
        )
        return await self._send(payload, user, chan, message)

    async def _command(
        self,
        itype: int,
        user: FakeUser,
        channel: ChannelRef,
        name: str,
        options: dict[str, Any],
        subcommand: str | None,
        locale: str,
        guild_locale: str | None,
        focused: str | None,
    ) -> InteractionRecord:
        chan = self.fake.channels[self._cid(channel)]
        guild = self.fake.guilds[chan.guild_id]
        if user.id not in guild.members:
            raise ValueError(f"user {user.name} is not a member of {guild.name}")
        cmd = ix.find_command(self.fake, guild.id, name)
        if cmd is None and self.strict_commands:
            raise LookupError(f"/{name} is not registered (globally or in guild {guild.id})")
        resolved: dict[str, dict[str, Any]] = {}

        def build(defs: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return ix.build_options(self.fake, guild, defs, options, resolved, focused)

        top_defs = list((cmd or {}).get("options") or [])
        opts = ix.wrap_subcommand(top_defs, subcommand, build) if subcommand else build(top_defs)
        data: dict[str, Any] = {
            "id": (cmd or {}).get("id") or str(self.fake.snowflakes.next()),
            "name": name,
            "type": 1,
            "options": opts,
        }
        if cmd is not None and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        payload = ix.base_payload(
            self.fake,
            itype=itype,
            user=user,
            channel=chan,
            data=data,
            locale=locale,
            guild_locale=guild_locale,
        )
        return await self._send(payload, user, chan, None)

    async def _send(
        self,
        payload: dict[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        message: StoredMessage | None,
        *,
        session: Any = None,
    ) -> InteractionRecord:
        sessions = [session] if session is not None else self.fake.sessions_for(channel.guild_id)
        if not sessions:
            raise NoGatewaySession("no gateway session of the guild's shard is READY")
        now = asyncio.get_running_loop().time()
        rec = self.record_class(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            payload=payload,
            user=user,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            created_at=now,
            deadline=now + self.fake.response_deadline,
            _changed=self.fake.changed,
            source_message=message,
        )
        self.fake.interactions[rec.id] = rec
        self.fake.by_token[rec.token] = rec
        await sessions[-1].dispatch("INTERACTION_CREATE", payload)
        return rec
