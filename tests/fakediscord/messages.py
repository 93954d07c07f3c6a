"""Creating and editing stored messages from request bodies."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import errors
from .bodies import Upload, read_body, resolve_attachments
from .message_rules import (
    MAX_FILE_BYTES,
    component_problems,
    content_problems,
    embed_problems,
    upload_problems,
)
from .models import FakeUser, StoredMessage
from .payloads import FLAG_EPHEMERAL, FLAG_LOADING, iso
from .server import FakeDiscord

# Flags a client may set on a new message: SUPPRESS_EMBEDS, EPHEMERAL,
# SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
SETTABLE_FLAGS = (1 << 2) | FLAG_EPHEMERAL | (1 << 12) | (1 << 15)


def validate(body: dict[str, Any], uploads: dict[int, Upload], *, new: bool) -> web.Response | None:
    """Return Discord's refusal of a body its description passed (``message_rules``), or None."""
    if any(len(up.data) > MAX_FILE_BYTES for up in uploads.values()):
        return errors.too_large()
    problems = [
        *content_problems(body.get("content")),
        *component_problems(list(body.get("components") or []), int(body.get("flags") or 0)),
        *embed_problems(list(body.get("embeds") or [])),
        *upload_problems([len(up.data) for up in uploads.values()]),
    ]
    if problems:
        return errors.invalid_form(*problems)
    if new and not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or uploads
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        return errors.empty_message()
    return None


def new_message(
    fake: FakeDiscord,
    channel_id: int,
    body: dict[str, Any],
    uploads: dict[int, Upload],
    *,
    author: FakeUser | None = None,
    flags_extra: int = 0,
) -> StoredMessage:
    """Build (not store) a message from a create body."""
    channel = fake.channels.get(channel_id)
    msg = StoredMessage(
        id=fake.snowflakes.next(),
        channel_id=channel_id,
        guild_id=(channel.guild_id or None) if channel else None,
        author=author or fake.bot_user,
        content=str(body.get("content") or ""),
        embeds=list(body.get("embeds") or []),
        components=list(body.get("components") or []),
        flags=(int(body.get("flags") or 0) & SETTABLE_FLAGS) | flags_extra,
        tts=bool(body.get("tts")),
        allowed_mentions=body.get("allowed_mentions"),
        message_reference=body.get("message_reference"),
    )
    msg.attachments = resolve_attachments(body, uploads, [], fake.snowflakes)
    for att in msg.attachments:
        att.url = fake.attachment_url(channel_id, att.id, att.filename)
    return msg


def apply_edit(
    fake: FakeDiscord, msg: StoredMessage, body: dict[str, Any], uploads: dict[int, Upload]
) -> None:
    """Apply a PATCH body to a message (only the fields present change)."""
    for key in ("content", "embeds", "components", "allowed_mentions"):
        if key in body:
            value = body[key]
            if key == "content":
                value = str(value or "")
            elif key in ("embeds", "components"):
                value = list(value or [])
            setattr(msg, key, value)
    if "flags" in body and body["flags"] is not None:
        keep = msg.flags & FLAG_EPHEMERAL
        msg.flags = (int(body["flags"]) & SETTABLE_FLAGS & ~FLAG_EPHEMERAL) | keep
    was_loading = bool(msg.flags & FLAG_LOADING)
    msg.flags &= ~FLAG_LOADING
    msg.attachments = resolve_attachments(body, uploads, msg.attachments, fake.snowflakes)
    for att in msg.attachments:
        if not att.url:
            att.url = fake.attachment_url(msg.channel_id, att.id, att.filename)
    msg.edits += 1
    if not was_loading:
        msg.edited_timestamp = iso()


async def edit_from_request(
    fake: FakeDiscord, msg: StoredMessage, request: web.Request
) -> web.Response:
    """PATCH a stored message from a JSON or multipart body, as Discord checks and announces it."""
    body, uploads = await read_body(request)
    if (err := validate(body, uploads, new=False)) is not None:
        return err
    apply_edit(fake, msg, body, uploads)
    await fake.dispatch_message("MESSAGE_UPDATE", msg)
    await fake.notify()
    return errors.json_response(msg.payload())
