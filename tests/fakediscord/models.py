"""In-memory world of the fake: users, guilds, channels, messages, interactions."""

from __future__ import annotations

import asyncio
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import payloads as p


@dataclass
class FakeUser:
    """A Discord user known to the fake."""

    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        """The user object."""
        return p.user_payload(self.id, self.name, bot=self.bot)


@dataclass
class FakeRole:
    """A guild role."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object."""
        return p.role_payload(self.id, self.name, self.permissions, self.position)


@dataclass
class FakeMember:
    """A user's membership in a guild."""

    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    permissions_override: int | None = None
    joined_at: str = field(default_factory=p.iso)


@dataclass
class FakeChannel:
    """A guild channel or thread."""

    id: int
    guild_id: int
    name: str
    type: int = 0
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    thread_type_payload: dict[str, Any] | None = None
    last_message_id: int | None = None
    recipient: FakeUser | None = None  # the user of a direct-message channel (type 1)

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in (10, 11, 12)

    @property
    def archived(self) -> bool:
        """Whether this is a thread that was archived (``PATCH /channels/{id}``)."""
        meta = (self.thread_type_payload or {}).get("thread_metadata") or {}
        return bool(meta.get("archived"))

    @property
    def is_dm(self) -> bool:
        """Whether this is a direct-message channel."""
        return self.type == 1

    def payload(self) -> dict[str, Any]:
        """The channel object."""
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        if self.is_thread and self.thread_type_payload is not None:
            data = dict(self.thread_type_payload)
            data["last_message_id"] = str(self.last_message_id) if self.last_message_id else None
            return data
        return p.channel_payload(
            self.id,
            self.guild_id,
            self.name,
            type_=self.type,
            position=self.position,
            parent_id=self.parent_id,
            last_message_id=self.last_message_id,
        )


@dataclass
class FakeGuild:
    """A guild with roles, channels and members."""

    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=p.iso)

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (its id is the guild id)."""
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        """Computed guild-level permissions of a member."""
        member = self.members[user_id]
        if member.permissions_override is not None:
            return member.permissions_override
        if user_id == self.owner_id:
            return p.ALL_PERMISSIONS
        perms = self.everyone.permissions
        for rid in member.role_ids:
            perms |= self.roles[rid].permissions
        if perms & p.ADMINISTRATOR:
            return p.ALL_PERMISSIONS
        return perms

    def member_payload(self, user_id: int, *, with_permissions: bool = False) -> dict[str, Any]:
        """The member object of one user."""
        member = self.members[user_id]
        return p.member_payload(
            member.user.payload(),
            member.role_ids,
            member.joined_at,
            nick=member.nick,
            permissions=self.permissions_of(user_id) if with_permissions else None,
        )

    def create_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload."""
        plain = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread]
        return p.guild_create_payload(
            self.id,
            self.name,
            owner_id=self.owner_id,
            locale=self.locale,
            roles=[r.payload() for r in self.roles.values()],
            channels=[c.payload() for c in plain],
            threads=[c.payload() for c in threads],
            members=[self.member_payload(uid) for uid in self.members],
            joined_at=self.joined_at,
        )


@dataclass
class StoredAttachment:
    """A file uploaded with a message: the bytes as received."""

    id: int
    filename: str
    data: bytes
    description: str | None = None
    content_type: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def payload(self, *, ephemeral: bool = False) -> dict[str, Any]:
        """The attachment object."""
        ctype = mimetypes.guess_type(self.filename)[0] or self.content_type
        return p.attachment_payload(
            self.id,
            self.filename,
            self.size,
            self.url,
            description=self.description,
            content_type=ctype,
            ephemeral=ephemeral,
        )


@dataclass
class StoredMessage:
    """A message as the fake stores it (channel message, or ephemeral one)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    allowed_mentions: dict[str, Any] | None = None
    type: int = 0
    timestamp: str = field(default_factory=p.iso)
    edited_timestamp: str | None = None
    edits: int = 0
    deleted: bool = False
    pinned: bool = False
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    interaction_name: str | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None
    #: the thread started from this message, whose channel object the message carries
    thread: FakeChannel | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether the message carries the EPHEMERAL flag."""
        return bool(self.flags & p.FLAG_EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        """Every component custom_id on the message, depth-first."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def payload(self) -> dict[str, Any]:
        """The complete message object discord.py parses."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.payload(ephemeral=self.ephemeral) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "position": 0,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id or 0)},
            }
            data["interaction"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "name": self.interaction_name or "",
                "user": self.interaction_user.payload(),
            }
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None:  # as Discord sends it: the whole thread channel object
            data["thread"] = self.thread.payload()
        elif self.thread_id is not None:
            data["thread"] = {"id": str(self.thread_id)}
        return data


def iter_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flatten a component tree (action rows, containers, sections ...)."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        for key in ("components", "accessory", "component"):
            child = comp.get(key)
            if isinstance(child, list):
                out.extend(iter_components(child))
            elif isinstance(child, dict):
                out.extend(iter_components([child]))
    return out


@dataclass
class Rejection:
    """A response attempt the fake refused, as Discord would."""

    route: str
    status: int
    code: int
    message: str
    at: float
    latency: float


@dataclass
class InteractionRecord:
    """One interaction sent to the bot, and everything it answered."""

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    user: FakeUser
    channel_id: int
    guild_id: int
    created_at: float
    deadline: float
    _changed: asyncio.Condition
    response_type: int | None = None
    data: dict[str, Any] | None = None
    attachments: list[StoredAttachment] = field(default_factory=list)
    latency: float | None = None
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    source_message: StoredMessage | None = None

    @property
    def responded(self) -> bool:
        """Whether an initial response was accepted."""
        return self.response_type is not None

    @property
    def updated_in_place(self) -> bool:
        """Whether the answer shows a click's result on the clicked message: an update that
        carries the new message (type 7 with content), or a deferred update (type 6) that the
        bot follows with an edit. (A type 7 with only the buttons taken off is not.)"""
        carried = self.response_type == 7 and "content" in (self.data or {})
        return carried or self.response_type == 6

    @property
    def ephemeral(self) -> bool:
        """Whether the initial response asked for an ephemeral message (flags 64)."""
        return bool(self.flags & p.FLAG_EPHEMERAL)

    @property
    def flags(self) -> int:
        """Flags of the initial response data."""
        return int((self.data or {}).get("flags") or 0)

    @property
    def content(self) -> str | None:
        """Current content of the original response message, else of the response data."""
        if self.original is not None:
            return self.original.content
        return (self.data or {}).get("content")

    @property
    def components(self) -> list[dict[str, Any]]:
        """Components of the response data as sent."""
        return list((self.data or {}).get("components") or [])

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the response data as sent."""
        return list((self.data or {}).get("embeds") or [])

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        """allowed_mentions of the response data as sent."""
        return (self.data or {}).get("allowed_mentions")

    @property
    def messages(self) -> list[StoredMessage]:
        """The original response message (if any) then follow-ups, without duplicates."""
        out: list[StoredMessage] = []
        for msg in [self.original, *self.followups]:
            if msg is not None and all(m is not msg for m in out):
                out.append(msg)
        return out

    @property
    def all_attachments(self) -> list[StoredAttachment]:
        """Attachments of the response and of every follow-up, in order."""
        out = list(self.attachments)
        for msg in self.messages:
            out.extend(a for a in msg.attachments if all(a is not b for b in out))
        return out

    @property
    def late(self) -> bool:
        """Whether a response was refused for arriving after the deadline."""
        return any(r.code == 10062 for r in self.rejections)

    async def wait_for(
        self, predicate: Callable[[InteractionRecord], bool], timeout: float = 5.0
    ) -> InteractionRecord:
        """Wait until predicate(self) holds; raise TimeoutError otherwise."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: predicate(self)), timeout)
        return self

    async def wait_response(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the initial response."""
        return await self.wait_for(lambda r: r.responded, timeout)

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait until at least `count` follow-ups arrived."""
        await self.wait_for(lambda r: len(r.followups) >= count, timeout)
        return self.followups

    async def wait_original_edit(self, timeout: float = 5.0) -> StoredMessage:
        """Wait until @original was edited at least once (e.g. after a deferral)."""
        await self.wait_for(lambda r: r.original is not None and r.original.edits > 0, timeout)
        assert self.original is not None
        return self.original

    async def wait_rejection(self, timeout: float = 5.0) -> Rejection:
        """Wait until a response attempt was refused."""
        await self.wait_for(lambda r: bool(r.rejections), timeout)
        return self.rejections[-1]
