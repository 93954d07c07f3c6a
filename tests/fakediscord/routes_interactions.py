"""REST: interaction callbacks, follow-ups and @original (the webhook routes)."""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from . import errors
from .bodies import Upload, read_body, resolve_attachments
from .message_rules import autocomplete_problems
from .messages import apply_edit, edit_from_request, new_message, validate
from .models import InteractionRecord, Rejection, StoredMessage
from .payloads import FLAG_LOADING
from .server import FakeDiscord

# Interaction types and the callback types each accepts.
_ALLOWED = {
    2: {4, 5, 9},  # application command
    3: {4, 5, 6, 7, 9},  # message component
    4: {8},  # autocomplete
    5: {4, 5, 6, 7},  # modal submit
}


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


async def _reject(
    fake: FakeDiscord, rec: InteractionRecord, route: str, response: web.Response, code: int
) -> web.Response:
    now = asyncio.get_running_loop().time()
    text = response.text or ""
    rec.rejections.append(Rejection(route, response.status, code, text, now, now - rec.created_at))
    await fake.notify()
    return response


def _interaction_message(
    fake: FakeDiscord,
    rec: InteractionRecord,
    body: dict[str, Any],
    uploads: dict[int, Upload],
    *,
    flags_extra: int = 0,
) -> StoredMessage:
    msg = new_message(fake, rec.channel_id, body, uploads, flags_extra=flags_extra)
    msg.webhook_id = fake.application_id
    msg.interaction_id = rec.id
    msg.interaction_user = rec.user
    msg.interaction_type = rec.type
    msg.interaction_name = (rec.payload.get("data") or {}).get("name")
    msg.type = 20 if rec.type == 2 else 0
    fake.store_message(msg, in_channel=not msg.ephemeral)
    return msg


async def callback(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /interactions/{id}/{token}/callback: the one initial response."""
    route = "callback"
    rec = fake.interactions.get(int(request.match_info["interaction_id"]))
    if rec is None or rec.token != request.match_info["token"]:
        return errors.unknown_interaction()
    body, uploads = await read_body(request)
    now = asyncio.get_running_loop().time()
    if rec.responded:
        return await _reject(fake, rec, route, errors.already_acknowledged(), 40060)
    if now > rec.deadline:
        return await _reject(fake, rec, route, errors.unknown_interaction(), 10062)
    rtype = int(body.get("type") or 0)
    if rtype not in _ALLOWED.get(rec.type, set()):
        return errors.error(400, 40043, f"Interaction callback type {rtype} not allowed here")
    data: dict[str, Any] = dict(body.get("data") or {})
    if rtype in (4, 7) and (err := validate(data, uploads, new=rtype == 4)) is not None:
        return err
    if rtype == 8 and (problems := autocomplete_problems(data)):
        return errors.invalid_form(*problems)
    message: StoredMessage | None = None
    if rtype == 4:
        message = _interaction_message(fake, rec, data, uploads)
        rec.attachments = list(message.attachments)
    elif rtype == 5:
        message = _interaction_message(
            fake, rec, {"flags": data.get("flags")}, {}, flags_extra=FLAG_LOADING
        )
    elif rtype in (6, 7):
        message = rec.source_message
        if rtype == 7 and message is not None:
            apply_edit(fake, message, data, uploads)
            rec.attachments = list(message.attachments)
            await fake.dispatch_message("MESSAGE_UPDATE", message)
    elif uploads:
        rec.attachments = resolve_attachments(data, uploads, [], fake.snowflakes)
    rec.response_type = rtype
    rec.data = data
    rec.latency = now - rec.created_at
    rec.original = message
    if message is not None and rtype in (4, 5):
        await fake.dispatch_message("MESSAGE_CREATE", message)
    await fake.notify()
    if not _truthy(request.query.get("with_response")):
        return web.Response(status=204)
    return errors.json_response(_callback_response(rec, rtype, message))


def _callback_response(
    rec: InteractionRecord, rtype: int, message: StoredMessage | None
) -> dict[str, Any]:
    interaction: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
    resource: dict[str, Any] = {"type": rtype}
    if message is not None and rtype in (4, 5, 7):
        interaction["response_message_id"] = str(message.id)
        interaction["response_message_loading"] = rtype == 5
        interaction["response_message_ephemeral"] = message.ephemeral
        resource["message"] = message.payload()
    return {"interaction": interaction, "resource": resource}


def _record(fake: FakeDiscord, request: web.Request) -> InteractionRecord | None:
    rec = fake.by_token.get(request.match_info["token"])
    if rec is None or request.match_info["app_id"] != str(fake.application_id):
        return None
    return rec


async def followup(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST /webhooks/{app}/{token}: a follow-up, only after the initial response."""
    rec = _record(fake, request)
    if rec is None:
        return errors.unknown_webhook()
    if not rec.responded:
        return await _reject(fake, rec, "followup", errors.unknown_webhook(), 10015)
    body, uploads = await read_body(request)
    if (err := validate(body, uploads, new=True)) is not None:
        return err
    original = rec.original
    if rec.response_type == 5 and original is not None and original.flags & FLAG_LOADING:
        # Discord: the first follow-up after a deferral edits the loading message.
        apply_edit(fake, original, body, uploads)
        msg = original
        await fake.dispatch_message("MESSAGE_UPDATE", msg)
    else:
        msg = _interaction_message(fake, rec, body, uploads)
        msg.type = 0 if rec.type != 2 else 20
        await fake.dispatch_message("MESSAGE_CREATE", msg)
    rec.followups.append(msg)
    await fake.notify()
    if not _truthy(request.query.get("wait")):
        return web.Response(status=204)
    return errors.json_response(msg.payload())


def _target(rec: InteractionRecord, message_id: str) -> StoredMessage | None:
    if message_id == "@original":
        msg = rec.original
    else:
        wanted = int(message_id) if message_id.isdigit() else -1
        msg = next((m for m in [rec.original, *rec.followups] if m and m.id == wanted), None)
    return None if msg is None or msg.deleted else msg


async def get_webhook_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /webhooks/{app}/{token}/messages/{@original|id}."""
    rec = _record(fake, request)
    if rec is None:
        return errors.unknown_webhook()
    msg = _target(rec, request.match_info["message_id"])
    return errors.unknown_message() if msg is None else errors.json_response(msg.payload())


async def edit_webhook_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """PATCH /webhooks/{app}/{token}/messages/{@original|id}."""
    rec = _record(fake, request)
    if rec is None:
        return errors.unknown_webhook()
    msg = _target(rec, request.match_info["message_id"])
    if msg is None:
        return await _reject(fake, rec, "edit", errors.unknown_message(), 10008)
    return await edit_from_request(fake, msg, request)


async def delete_webhook_message(fake: FakeDiscord, request: web.Request) -> web.Response:
    """DELETE /webhooks/{app}/{token}/messages/{@original|id}."""
    rec = _record(fake, request)
    if rec is None:
        return errors.unknown_webhook()
    msg = _target(rec, request.match_info["message_id"])
    if msg is None:
        return errors.unknown_message()
    msg.deleted = True
    await fake.notify()
    return web.Response(status=204)


_WH_MSG = "/webhooks/{app_id}/{token}/messages/{message_id}"

ROUTES = [
    ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
    ("POST", "/webhooks/{app_id}/{token}", followup),
    ("GET", _WH_MSG, get_webhook_message),
    ("PATCH", _WH_MSG, edit_webhook_message),
    ("DELETE", _WH_MSG, delete_webhook_message),
]
