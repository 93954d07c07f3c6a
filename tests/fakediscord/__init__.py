"""A protocol-level fake of the Discord API (REST v10 + gateway) for tests.

The real discord.py client connects to it unmodified once pointed at it::

    driver = FakeDiscordDriver(response_deadline=3.0)
    await driver.start()                      # 127.0.0.1, random port
    point_discord_py_at(driver.api_base)      # Route.BASE + DEFAULT_GATEWAY
    guild = await driver.add_guild("Den")
    channel = await driver.add_channel(guild, "games")
    alice = driver.add_user("alice")
    await driver.add_member(guild, alice)
    ...  # start the client with driver.token, then:
    rec = await driver.slash(alice, channel, "play", {"players": 2}, subcommand="cantstop")
    await rec.wait_response(3)
    click = await driver.click(alice, rec.original, "some:custom_id")

Every REST request is checked against Discord's published OpenAPI description (contract,
with the copy in spec/ made by spec_copy) and the few documented rules it does not encode
(message_rules, command_rules); a request Discord would refuse gets Discord's error answer and
makes ``driver.stop()`` fail (``driver.take_violations()`` for a test that sends one on purpose).

Modules: server (state, HTTP app), gateway (websocket), routes_* (REST),
driver (test API), models (records), payloads (JSON builders), pointing.
"""

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
