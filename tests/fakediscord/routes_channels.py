"""REST: channels, channel messages, threads, attachment downloads."""

from __future__ import annotations

from aiohttp import web

from . import errors
from .bodies import read_body
from .messages import edit_from_request, new_message, validate
from .models import FakeChannel, StoredMessage
from .payloads import iso, thread_payload
from .routes_users import cannot_send_to_user
from .server import FakeDiscord


def _channel(fake: FakeDiscord, request: web.Request) -> FakeChannel | None:
    return fake.channels.get(int(request.match_info["channel_id"]))


def _message(fake: FakeDiscord, request: web.Request) -> StoredMessage | None:
    channel = _channel(fake, request)
    try:
        msg = fake.messages.get(int(request.match_info["message_id"]))
    except ValueError:
        return None
    if channel is None or msg is None or msg.deleted or msg.ephemeral:
        return None
    return msg if msg.channel_id == channel.id else None


async def get_channel(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /channels/{id}."""
    channel = _channel(fake, request)
    if channel is None:
        return errors.unknown_channel()
    return errors.json_response(channel.payload())


async def modify_channel(fake: FakeDiscord, request: web.Request) -> web.Response:
    """PATCH /channels/{id}: for a thread, ``name``, ``archived`` and ``locked`` (what the bot
    changes); other channels and fields are refused, so an unexpected change fails the test."""
    channel = _channel(fake, request)
    if channel is None:
        return errors.unknown_channel()
    if not channel.is_thread or channel.thread_type_payload is None:
        return errors.error(403, 50013, "Missing Permissions")
    body, _ = await read_body(request)
    unknown = sorted(set(body) - {"name", "archived", "locked"})
    if unknown:
        return errors.invalid_form(f"{', '.join(unknown)}: not a thread field the fake knows")
    data = channel.thread_type_payload
    meta = dict(data["thread_metadata"])
    for key in ("archived", "locked"):
        if key in body:
            meta[key] = bool(body[key])
    if "archived" in body:
        meta["archive_timestamp"] = iso()
    data["thread_metadata"] = meta
    if "name" in body:
        name = str(body["name"])
        # Discord's description lets "" through (its thread update says 0-100); Discord does not
        if not 1 <= len(name) <= 100:
            return errors.invalid_form("name: Must be between 1 and 100 in length.")
        data["name"] = channel.name = name
    await fake.dispatch_channel("THREAD_UPDATE", channel)
    await fake.notify()
    return errors.json_response(channel.payload())


async def create_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /channels/{id}/messages (JSON or multipart)."""
    channel = _channel(fake, request)
    if channel is None:
        return errors.unknown_channel()
    if channel.is_dm and channel.recipient is not None and channel.recipient.id in fake.closed_dms:
        return cannot_send_to_user()
    body, uploads = await read_body(request)
    if (err := validate(body, uploads, new=True)) is not None:
        return err
    msg = new_message(fake, channel.id, body, uploads)
    msg.flags &= ~(1 << 6)
    fake.store_message(msg, in_channel=True)
    await fake.dispatch_message("MESSAGE_CREATE", msg)
    await fake.notify()
    return errors.json_response(msg.payload())


async def list_messages(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /channels/{id}/messages (newest first, limit/before/after)."""
    channel = _channel(fake, request)
    if channel is None:
        return errors.unknown_channel()
    msgs = fake.channel_messages(channel.id)
    if "before" in request.query:
        msgs = [m for m in msgs if m.id < int(request.query["before"])]
    if "after" in request.query:
        msgs = [m for m in msgs if m.id > int(request.query["after"])]
    limit = int(request.query.get("limit", 50))
    newest = list(reversed(msgs))
    if "after" in request.query:
        newest = list(reversed(msgs[:limit]))
    return errors.json_response([m.payload() for m in newest[:limit]])


async def get_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /channels/{id}/messages/{mid}."""
    msg = _message(fake, request)
    if msg is None:
        return errors.unknown_message()
    return errors.json_response(msg.payload())


async def edit_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """PATCH /channels/{id}/messages/{mid}: only the bot's own messages."""
    msg = _message(fake, request)
    if msg is None:
        return errors.unknown_message()
    if msg.author.id != fake.bot_user.id:
        return errors.error(403, 50005, "Cannot edit a message authored by another user")
    return await edit_from_request(fake, msg, request)


async def delete_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """DELETE /channels/{id}/messages/{mid}."""
    msg = _message(fake, request)
    if msg is None:
        return errors.unknown_message()
    msg.deleted = True
    payload = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
    if msg.guild_id is not None:
        payload["guild_id"] = str(msg.guild_id)
    await fake.broadcast("MESSAGE_DELETE", payload, 1 << 9)
    await fake.notify()
    return web.Response(status=204)


async def _make_thread(
    fake: FakeDiscord,
    parent: FakeChannel,
    request: web.Request,
    *,
    thread_id: int | None,
    default_type: int,
) -> web.Response:
    body, _ = await read_body(request)
    name = str(body["name"])  # Discord's description requires it, 1-100 characters
    tid = thread_id or fake.snowflakes.next()
    ttype = int(body.get("type") or default_type)
    thread = FakeChannel(tid, parent.guild_id, name, type=ttype, parent_id=parent.id)
    thread.owner_id = fake.bot_user.id
    thread.thread_type_payload = thread_payload(
        tid,
        parent.guild_id,
        parent.id,
        fake.bot_user.id,
        name,
        type_=ttype,
        auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        created=iso(),
    )
    fake.channels[tid] = thread
    fake.guilds[parent.guild_id].channels[tid] = thread
    await fake.dispatch_channel("THREAD_CREATE", thread)
    await fake.notify()
    return errors.json_response(thread.payload(), status=201)


async def create_thread(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /channels/{id}/threads (thread without a starter message)."""
    parent = _channel(fake, request)
    if parent is None or parent.is_thread:
        return errors.unknown_channel()
    return await _make_thread(fake, parent, request, thread_id=None, default_type=12)


async def create_thread_from_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /channels/{id}/messages/{mid}/threads (the thread id is the message id)."""
    msg = _message(fake, request)
    parent = _channel(fake, request)
    if msg is None or parent is None:
        return errors.unknown_message()
    if msg.thread_id is not None:
        return errors.error(400, 160004, "A thread has already been created for this message")
    response = await _make_thread(fake, parent, request, thread_id=msg.id, default_type=11)
    if response.status == 201:
        msg.thread_id = msg.id
        msg.thread = fake.channels[msg.id]
    return response


async def download_attachment(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET an uploaded file by its attachment URL."""
    aid = int(request.match_info["attachment_id"])
    for msg in fake.messages.values():
        for att in msg.attachments:
            if att.id == aid:
                return web.Response(
                    body=att.data, content_type=att.content_type or "application/octet-stream"
                )
    return web.Response(status=404)


async def trigger_typing(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST the typing indicator: 204 for a known channel."""
    if _channel(fake, request) is None:
        return errors.error(404, 10003, "Unknown Channel")
    return web.Response(status=204)


_MSG = "/channels/{channel_id}/messages/{message_id}"

ROUTES = [
    ("GET", "/channels/{channel_id}", get_channel),
    ("PATCH", "/channels/{channel_id}", modify_channel),
    ("POST", "/channels/{channel_id}/messages", create_message),
    ("GET", "/channels/{channel_id}/messages", list_messages),
    ("GET", _MSG, get_message),
    ("PATCH", _MSG, edit_message),
    ("DELETE", _MSG, delete_message),
    ("POST", "/channels/{channel_id}/typing", trigger_typing),
    ("POST", "/channels/{channel_id}/threads", create_thread),
    ("POST", _MSG + "/threads", create_thread_from_message),
    ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", download_attachment),
]
