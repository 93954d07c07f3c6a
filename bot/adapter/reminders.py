"""Reminding the player to move: a short channel message that mentions them and links to the
newest board, with the time left as a Discord timestamp."""

from __future__ import annotations

from typing import Any

from bot.adapter.outgoing import USERS_ONLY
from bot.adapter.runtime import Runtime
from bot.adapter.table_play import when
from bot.service.models import GameSnapshot
from bot.storage.base import TimerRow
from i18n import game_title, t


def jump_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def deliver_reminder(
    client: Any, runtime: Runtime, timer: TimerRow, snap: GameSnapshot
) -> float | None:
    """Send the reminder (None: sent, or nothing to send); a unix time: try again then.
    Raises on a Discord failure (the caller retries with backoff)."""
    mover = snap.player_to_move()
    if mover is None or mover.user_id is None:
        return None
    locale = await client.guild_locale(snap.guild_id)
    post = await runtime.service.latest_post(snap.id)
    channel_id = post[0] if post else snap.channel_id
    link = (
        t(locale, "reminder.link", url=jump_link(snap.guild_id, post[0], post[1])) if post else ""
    )
    text = t(
        locale,
        "reminder.channel",
        player=f"<@{mover.user_id}>",
        game=game_title(locale, snap.game),
        when=when(snap.deadline),
        link=link,
    )
    channel = client.get_partial_messageable(channel_id, guild_id=snap.guild_id)
    await channel.send(text.strip(), allowed_mentions=USERS_ONLY)
    return None
