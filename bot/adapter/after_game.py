"""The Rematch button of an ended game's final message."""

from __future__ import annotations

import discord

from bot.adapter import history_command, messages
from bot.adapter.custom_ids import RematchId
from bot.adapter.handlers import guarded, places, reply_private
from bot.adapter.lobby_notes import lobby_note
from bot.adapter.lobby_post import post_lobby
from bot.adapter.outgoing import lobby_view
from bot.adapter.runtime import runtime_of
from bot.adapter.words import channel_locale, user_locale
from bot.service import rematch
from i18n import game_title, t


def exists_text(locale: str, exists: rematch.RematchExists) -> str:
    params = exists.params
    if not params.get("message_id"):
        return t(locale, "error.rematch_exists")
    url = history_command.link(params.get("guild_id"), params["channel_id"], params["message_id"])
    return t(locale, "error.rematch_exists_link", link=url)


async def on_rematch(interaction: discord.Interaction, control: RematchId) -> None:
    """A new lobby of the same game (options, clock), posted in the channel as a new message:
    the one who pressed is seated, every other human who played is mentioned and asked to press
    Join; the final message keeps its button (a second press is told the rematch exists, with a
    link)."""
    game_id = control.game_id

    async def work() -> None:
        service = runtime_of(interaction).service
        try:
            snap = await rematch.rematch(
                service,
                game_id,
                interaction.user.id,
                guild_id=interaction.guild_id,
                where=places(interaction),
            )
        except rematch.RematchExists as exists:  # a second press: where the rematch is
            await reply_private(interaction, exists_text(user_locale(interaction), exists))
            return
        locale = await channel_locale(interaction)
        note = await lobby_note(runtime_of(interaction), snap, locale)
        message = messages.lobby_message(locale, snap, note)
        intro = t(
            locale,
            "game.rematch.opened",
            user=interaction.user.mention,
            game=game_title(locale, snap.game),
        )
        content = messages.fit_content(intro + "\n" + message.content)
        await post_lobby(interaction, snap, content, lobby_view(message))

    await guarded(interaction, work())
