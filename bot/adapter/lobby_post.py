"""A new lobby's message: the answer to the ``/play`` or Rematch press that opened it, else a
normal channel message.

A lobby whose message reached nobody (Discord refused both the answer and the channel post) is
closed at once. Nobody saw it, so nobody is in it but its host, who was told nothing but that
the command failed and will try again; left open it would hold the channel (one game per
channel) until it expired, and that second try would be refused with a lobby nobody can find.
A lobby message posted late instead, after minutes of retries, would surprise the channel.
When the interaction can still carry a private answer (a lobby opened in a thread: the answer
said so, only the lobby message in the thread was refused), the host is told.
"""

from __future__ import annotations

import logging

import discord

from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.handlers import first_response
from bot.adapter.outgoing import USERS_ONLY
from bot.adapter.runtime import runtime_of
from bot.adapter.threads import archive_thread
from bot.service.errors import UserFacingError
from bot.service.models import GameSnapshot

log = logging.getLogger(__name__)


class LobbyNotPosted(UserFacingError):
    """Discord refused the message of a lobby just opened: it was closed again."""

    key = "error.lobby_not_posted"


async def original_id(interaction: discord.Interaction) -> int | None:
    """The id of the interaction's response message, best effort (for links)."""
    try:
        return (await interaction.original_response()).id
    except DISCORD_FAILURES as exc:
        log.warning("response message not found: %r", exc)
        return None


async def to_channel(
    interaction: discord.Interaction,
    content: str,
    view: discord.ui.View | None = None,
    channel_id: int | None = None,
) -> int | None:
    """Say it as a normal channel message (the interaction could not carry it, or it goes to
    ``channel_id``, a game's thread), best effort: the message's id, None when it failed."""
    channel = interaction.client.get_partial_messageable(
        channel_id or interaction.channel_id or 0, guild_id=interaction.guild_id
    )
    try:
        sent = await channel.send(
            content, view=view or discord.utils.MISSING, allowed_mentions=USERS_ONLY
        )
    except DISCORD_FAILURES as exc:
        log.warning("channel message not sent: %r", exc)
        return None
    return sent.id


async def post_lobby(
    interaction: discord.Interaction,
    snap: GameSnapshot,
    content: str,
    view: discord.ui.View,
    *,
    in_thread: bool = False,
) -> None:
    """Show the lobby just opened: as the interaction's answer (``in_thread``: as a message of
    the game's new thread), else as a channel message; the message is recorded for links. When
    neither got through, the lobby is closed (see the module's docstring)."""
    service = runtime_of(interaction).service
    reached = False
    message_id: int | None = None
    if not in_thread:
        sent: list[int | None] = []

        async def respond() -> None:
            callback = await interaction.response.send_message(
                content, view=view, allowed_mentions=USERS_ONLY
            )
            sent.append(callback.message_id)  # no second request needed to learn the message

        if await first_response(interaction, respond):
            reached = True
            message_id = sent[0] if sent else await original_id(interaction)
    if not reached:
        message_id = await to_channel(interaction, content, view, snap.channel_id)
        reached = message_id is not None
    if message_id is not None:  # only links to the lobby need it
        await service.record_post(snap.id, snap.version, snap.channel_id, message_id)
    if reached:
        return
    if not await service.withdraw_lobby(snap.id, snap.version):
        return  # someone found it after all (a message Discord took but did not confirm)
    log.warning("lobby closed: its message reached nobody", extra={"game_id": snap.id})
    if in_thread:  # the thread opened for it has nothing in it
        await archive_thread(interaction.client, snap.channel_id)
    raise LobbyNotPosted()  # a private answer, where the interaction can still carry one
