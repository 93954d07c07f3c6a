"""A protocol-level fake of the Discord API (REST v10 + gateway) for tests."""

from .driver import FakeDiscordDriver, NoGatewaySession
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionRecord,
    StoredAttachment,
    StoredMessage,
)
from .pointing import point_discord_py_at
from .server import FakeDiscord

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordDriver",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "InteractionRecord",
    "NoGatewaySession",
    "StoredAttachment",
    "StoredMessage",
    "point_discord_py_at",
]
