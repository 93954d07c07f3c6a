"""REST: users/@me, gateway discovery, application info, application commands."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from . import errors
from .bodies import read_body
from .command_rules import validate_commands
from .payloads import application_payload
from .server import FakeDiscord, SyncEvent


async def users_me(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /users/@me."""
    data = fake.bot_user.payload()
    data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None})
    return errors.json_response(data)


async def gateway(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /gateway."""
    return errors.json_response({"url": fake.ws_url})


async def gateway_bot(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /gateway/bot."""
    return errors.json_response(
        {
            "url": fake.ws_url,
            "shards": fake.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }
    )


async def application(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET /oauth2/applications/@me and /applications/@me."""
    return errors.json_response(
        application_payload(
            fake.application_id, fake.bot_user.payload(), flags=fake.application_flags
        )
    )


def _check_app(fake: FakeDiscord, request: web.Request) -> web.Response | None:
    if request.match_info["app_id"] != str(fake.application_id):
        return errors.error(403, 50001, "Missing Access")
    gid = request.match_info.get("guild_id")
    if gid is not None and int(gid) not in fake.guilds:
        return errors.error(403, 50001, "Missing Access")
    return None


def _commands_for(
    fake: FakeDiscord, request: web.Request
) -> tuple[int | None, list[dict[str, Any]]]:
    gid = request.match_info.get("guild_id")
    if gid is None:
        return None, fake.global_commands
    return int(gid), fake.guild_commands.setdefault(int(gid), [])


def _store_command(
    fake: FakeDiscord, guild_id: int | None, cmd: dict[str, Any], old: list[dict[str, Any]]
) -> dict[str, Any]:
    ctype = int(cmd.get("type") or 1)
    prev = next((c for c in old if c["name"] == cmd["name"] and c["type"] == ctype), None)
    stored: dict[str, Any] = {
        "description": "",
        "options": [],
        "default_member_permissions": None,
        "dm_permission": True,
        "nsfw": False,
        "integration_types": [0],
        "contexts": None,
        "name_localizations": None,
        "description_localizations": None,
    }
    stored.update(cmd)
    stored.update(
        {
            "id": prev["id"] if prev else str(fake.snowflakes.next()),
            "application_id": str(fake.application_id),
            "version": str(fake.snowflakes.next()),
            "type": ctype,
        }
    )
    if stored["integration_types"] is None:
        stored["integration_types"] = [0]
    if guild_id is not None:
        stored["guild_id"] = str(guild_id)
    return stored


async def get_commands(fake: FakeDiscord, request: web.Request) -> web.Response:
    """GET global or guild commands."""
    if (err := _check_app(fake, request)) is not None:
        return err
    return errors.json_response(_commands_for(fake, request)[1])


async def put_commands(fake: FakeDiscord, request: web.Request) -> web.Response:
    """PUT (bulk overwrite) global or guild commands."""
    if (err := _check_app(fake, request)) is not None:
        return err
    body, _ = await read_body(request)
    cmds = body.get("_list")
    if not isinstance(cmds, list):
        return errors.invalid_form("expected an array of commands")
    if problems := validate_commands(cmds):
        return errors.invalid_form(*problems)
    guild_id, old = _commands_for(fake, request)
    new = [_store_command(fake, guild_id, c, old) for c in cmds]
    if guild_id is None:
        fake.global_commands = new
    else:
        fake.guild_commands[guild_id] = new
    fake.sync_events.append(SyncEvent(guild_id, new, time.monotonic()))
    await fake.notify()
    return errors.json_response(new)


async def post_command(fake: FakeDiscord, request: web.Request) -> web.Response:
    """POST (upsert) one global or guild command."""
    if (err := _check_app(fake, request)) is not None:
        return err
    body, _ = await read_body(request)
    if problems := validate_commands([body]):
        return errors.invalid_form(*problems)
    guild_id, old = _commands_for(fake, request)
    stored = _store_command(fake, guild_id, body, old)
    existed = any(c["id"] == stored["id"] for c in old)
    old[:] = [c for c in old if c["id"] != stored["id"]] + [stored]
    await fake.notify()
    return errors.json_response(stored, status=200 if existed else 201)


_CMDS = "/applications/{app_id}/commands"
_GUILD_CMDS = "/applications/{app_id}/guilds/{guild_id}/commands"

ROUTES = [
    ("GET", "/users/@me", users_me),
    ("GET", "/gateway", gateway),
    ("GET", "/gateway/bot", gateway_bot),
    ("GET", "/oauth2/applications/@me", application),
    ("GET", "/applications/@me", application),
    ("GET", _CMDS, get_commands),
    ("PUT", _CMDS, put_commands),
    ("POST", _CMDS, post_command),
    ("GET", _GUILD_CMDS, get_commands),
    ("PUT", _GUILD_CMDS, put_commands),
    ("POST", _GUILD_CMDS, post_command),
]
