"""INTERACTION_CREATE payloads in Discord's documented shape."""

from __future__ import annotations

import secrets
from typing import Any

from . import payloads as p
from .models import FakeChannel, FakeGuild, FakeUser, StoredMessage
from .server import FakeDiscord

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


def find_command(fake: FakeDiscord, guild_id: int, name: str) -> dict[str, Any] | None:
    """The registered chat-input command `name` (guild commands first, then global)."""
    for cmd in [*fake.guild_commands.get(guild_id, []), *fake.global_commands]:
        if cmd["name"] == name and int(cmd.get("type") or 1) == 1:
            return cmd
    return None


def _infer_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    return STRING


def build_options(
    fake: FakeDiscord,
    guild: FakeGuild,
    definitions: list[dict[str, Any]],
    values: dict[str, Any],
    resolved: dict[str, dict[str, Any]],
    focused: str | None = None,
) -> list[dict[str, Any]]:
    """Turn {name: value} into typed option objects, filling `resolved` for entities."""
    by_name = {d["name"]: d for d in definitions}
    out: list[dict[str, Any]] = []
    for name, value in values.items():
        otype = int(by_name[name]["type"]) if name in by_name else _infer_type(value)
        opt: dict[str, Any] = {"name": name, "type": otype}
        if otype == USER:
            user = value if isinstance(value, FakeUser) else fake.users[int(value)]
            opt["value"] = str(user.id)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if user.id in guild.members:
                member = guild.member_payload(user.id, with_permissions=True)
                member.pop("user", None)
                resolved.setdefault("members", {})[str(user.id)] = member
        elif otype == CHANNEL:
            chan = value if isinstance(value, FakeChannel) else fake.channels[int(value)]
            opt["value"] = str(chan.id)
            data = chan.payload()
            data["permissions"] = str(guild.permissions_of(fake.bot_user.id))
            resolved.setdefault("channels", {})[str(chan.id)] = data
        elif otype in (ROLE, MENTIONABLE):
            opt["value"] = str(getattr(value, "id", value))
            role = guild.roles.get(int(opt["value"]))
            if role is not None:
                resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        else:
            opt["value"] = value
        if focused is not None and name == focused:
            opt["focused"] = True
            if otype in (INTEGER, NUMBER):
                opt["value"] = str(value)
        out.append(opt)
    return out


def wrap_subcommand(
    definitions: list[dict[str, Any]], subcommand: str, build: Any
) -> list[dict[str, Any]]:
    """Nest options under 'sub' or 'group sub' as SUB_COMMAND(_GROUP) options."""
    parts = subcommand.split()
    defs = definitions
    chain: list[tuple[str, int]] = []
    for i, part in enumerate(parts):
        found = next((d for d in defs if d["name"] == part), None)
        kind = (
            int(found["type"])
            if found
            else (SUB_COMMAND_GROUP if i < len(parts) - 1 else SUB_COMMAND)
        )
        chain.append((part, kind))
        defs = list((found or {}).get("options") or [])
    inner: list[dict[str, Any]] = build(defs)
    for part, kind in reversed(chain):
        inner = [{"name": part, "type": kind, "options": inner}]
    return inner


def base_payload(
    fake: FakeDiscord,
    *,
    itype: int,
    user: FakeUser,
    channel: FakeChannel,
    data: dict[str, Any],
    locale: str,
    guild_locale: str | None,
    message: StoredMessage | None = None,
) -> dict[str, Any]:
    """The full interaction object for a guild channel (or a direct-message channel)."""
    if channel.is_dm:
        return _dm_payload(fake, itype, user, channel, data, locale, message)
    guild = fake.guilds[channel.guild_id]
    chan = channel.payload()
    chan["permissions"] = str(guild.permissions_of(user.id))
    payload: dict[str, Any] = {
        "id": str(fake.snowflakes.next()),
        "application_id": str(fake.application_id),
        "type": itype,
        "data": data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "channel_id": str(channel.id),
        "channel": chan,
        "member": guild.member_payload(user.id, with_permissions=True),
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        "version": 1,
        "app_permissions": str(guild.permissions_of(fake.bot_user.id)),
        "locale": locale,
        "guild_locale": guild_locale or guild.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if message is not None:
        payload["message"] = message.payload()
    return payload


def _dm_payload(
    fake: FakeDiscord,
    itype: int,
    user: FakeUser,
    channel: FakeChannel,
    data: dict[str, Any],
    locale: str,
    message: StoredMessage | None,
) -> dict[str, Any]:
    """An interaction from a direct message with the bot: no guild, no member, just the user."""
    payload: dict[str, Any] = {
        "id": str(fake.snowflakes.next()),
        "application_id": str(fake.application_id),
        "type": itype,
        "data": data,
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "user": user.payload(),
        "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
        "version": 1,
        "app_permissions": str(
            p.VIEW_CHANNEL | p.SEND_MESSAGES | p.EMBED_LINKS | p.ATTACH_FILES
        ),
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(user.id)},
        "context": 1,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if message is not None:
        payload["message"] = message.payload()
    return payload
