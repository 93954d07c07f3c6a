"""Builders for Discord API v10 objects in their documented JSON shape."""

from __future__ import annotations

import datetime as dt
import itertools
import threading
import time
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits used by tests (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
DEFAULT_MEMBER_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7


class SnowflakeFactory:
    """Monotonic snowflake ids derived from the wall clock."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()
        self._inc = itertools.count()

    def next(self) -> int:
        """Return a fresh snowflake, strictly larger than the previous one."""
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            value = (ms << 22) | (next(self._inc) & 0xFFF)
            value = max(value, self._last + 1)
            self._last = value
            return value

    def skip_past(self, value: int) -> None:
        """Every later snowflake is larger than ``value`` (one chosen by hand)."""
        with self._lock:
            self._last = max(self._last, value)


def snowflake_time(snowflake: int) -> dt.datetime:
    """The creation time embedded in a snowflake."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def iso(moment: dt.datetime | None = None) -> str:
    """ISO-8601 timestamp as Discord writes it."""
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


def user_payload(user_id: int, username: str, *, bot: bool = False) -> dict[str, Any]:
    """A user object."""
    return {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": None if bot else username,
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
        "collectibles": None,
    }


def role_payload(role_id: int, name: str, permissions: int, position: int) -> dict[str, Any]:
    """A role object."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member_payload(
    user: dict[str, Any],
    role_ids: list[int],
    joined_at: str,
    *,
    nick: str | None = None,
    permissions: int | None = None,
) -> dict[str, Any]:
    """A guild member object, with `permissions` when sent inside an interaction."""
    data: dict[str, Any] = {
        "user": user,
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in role_ids],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel_payload(
    channel_id: int,
    guild_id: int,
    name: str,
    *,
    type_: int = 0,
    position: int = 0,
    parent_id: int | None = None,
    last_message_id: int | None = None,
) -> dict[str, Any]:
    """A guild channel object (text, category, voice ...)."""
    return {
        "id": str(channel_id),
        "type": type_,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": None,
        "nsfw": False,
        "last_message_id": str(last_message_id) if last_message_id else None,
        "rate_limit_per_user": 0,
        "parent_id": str(parent_id) if parent_id else None,
        "flags": 0,
    }


def thread_payload(
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    *,
    type_: int = 11,
    auto_archive_duration: int = 1440,
    created: str | None = None,
) -> dict[str, Any]:
    """A thread channel object as returned by the thread creation routes."""
    created = created or iso()
    return {
        "id": str(thread_id),
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "type": type_,
        "name": name,
        "last_message_id": None,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "rate_limit_per_user": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": created,
            "locked": False,
            "invitable": True,
            "create_timestamp": created,
        },
        "member": {
            "id": str(thread_id),
            "user_id": str(owner_id),
            "join_timestamp": created,
            "flags": 0,
        },
    }


def guild_create_payload(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    locale: str,
    roles: list[dict[str, Any]],
    channels: list[dict[str, Any]],
    threads: list[dict[str, Any]],
    members: list[dict[str, Any]],
    joined_at: str,
) -> dict[str, Any]:
    """The GUILD_CREATE gateway payload (guild plus its channels, members and roles)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "preferred_locale": locale,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": roles,
        "channels": [{k: v for k, v in c.items() if k != "guild_id"} for c in channels],
        "threads": threads,
        "members": members,
        "member_count": len(members),
        "large": False,
        "unavailable": False,
        "joined_at": joined_at,
        "lazy": True,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
    }


def application_payload(app_id: int, bot_user: dict[str, Any], *, flags: int) -> dict[str, Any]:
    """The application object returned by GET /oauth2/applications/@me."""
    return {
        "id": str(app_id),
        "name": bot_user["username"],
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": flags,
        "team": None,
        "owner": user_payload(int(bot_user["id"]) + 1, "owner"),
        "bot": bot_user,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}},
        "install_params": None,
        "custom_install_url": None,
        "rpc_origins": [],
    }


def attachment_payload(
    attachment_id: int,
    filename: str,
    size: int,
    url: str,
    *,
    description: str | None,
    content_type: str | None,
    ephemeral: bool = False,
) -> dict[str, Any]:
    """An attachment object."""
    data: dict[str, Any] = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
        "ephemeral": ephemeral,
    }
    if description is not None:
        data["description"] = description
    return data
