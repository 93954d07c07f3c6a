"""REST: direct-message channels (``POST /users/@me/channels``). Messages to such a channel go
through the channel routes and are recorded like any other; a user whose DMs are closed
(``FakeDiscord.closed_dms``) makes them fail with 403 / 50007, as Discord does."""

from __future__ import annotations

from aiohttp import web

from . import errors
from .bodies import read_body
from .models import FakeChannel, FakeUser
from .server import FakeDiscord

CANNOT_SEND_TO_USER = 50007
INVALID_RECIPIENT = 50033


def dm_channel_of(fake: FakeDiscord, user: FakeUser) -> FakeChannel:
    """The one direct-message channel between ``user`` and the bot (made on first use)."""
    for channel in fake.channels.values():
        if channel.is_dm and channel.recipient is user:
            return channel
    channel = FakeChannel(fake.snowflakes.next(), 0, "", type=1, recipient=user)
    fake.channels[channel.id] = channel
    return channel


def cannot_send_to_user() -> web.Response:
    return errors.error(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")


async def create_dm(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /users/@me/channels with ``recipient_id``: the DM channel object (type 1)."""
    body, _ = await read_body(request)
    try:
        user = fake.users.get(int(body.get("recipient_id") or 0))
    except (TypeError, ValueError):
        user = None
    if user is None or user.bot:
        return errors.error(400, INVALID_RECIPIENT, "Invalid Recipient(s)")
    channel = dm_channel_of(fake, user)
    await fake.notify()
    return errors.json_response(channel.payload())


ROUTES = [
    ("POST", "/users/@me/channels", create_dm),
]
