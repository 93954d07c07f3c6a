"""Discord-free messages (``messages``) as discord.py objects: files, views, mention rules."""

from __future__ import annotations

import io

import discord

from bot.adapter.components import LobbyButton, RematchButton, action_view
from bot.adapter.messages import LobbyMessage, TurnMessage

#: mentions only ever ping users, never roles or everyone
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def board_file(message: TurnMessage) -> discord.File:
    return discord.File(
        io.BytesIO(message.png), filename="board.png", description=message.alt_text[:1024]
    )


def board_view(message: TurnMessage) -> discord.ui.View | None:
    """The message's controls as a persistent view (None when there is nothing to press)."""
    if message.rematch:  # a finished game's final message
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton.make(message.game_id, message.rematch))
        return view
    if message.controls is None:
        return None
    return action_view(message.game_id, message.version, message.controls)


def lobby_view(message: LobbyMessage) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for control in message.controls:
        view.add_item(
            LobbyButton.make(
                message.game_id, control.op, control.label[:80], control.style, control.row
            )
        )
    return view
