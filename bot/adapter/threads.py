"""Games opened in a thread of their own (``/play <game> thread: on``): the thread is archived
once the game is over (won, abandoned, or its lobby cancelled)."""

from __future__ import annotations

import logging

import discord

from bot.adapter.delivery import DISCORD_FAILURES

log = logging.getLogger(__name__)


async def archive_thread(client: discord.Client, channel_id: int) -> None:
    """Archive the channel of a game that ended, when it is a thread the game was opened in
    (best effort: a game in a plain channel, or a thread already gone, is left as it is)."""
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if isinstance(channel, discord.Thread) and not channel.archived:
            await channel.edit(archived=True)
    except DISCORD_FAILURES as exc:
        log.warning("game thread not archived: %r", exc, extra={"channel_id": channel_id})
