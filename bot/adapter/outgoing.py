"""Discord-free messages (``messages``) as discord.py objects: files, views, mention rules."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence

import discord

from bot.adapter.components import action_view, button
from bot.adapter.custom_ids import back_id, lobby_id, rematch_id
from bot.adapter.messages import LobbyMessage, TurnMessage

#: mentions only ever ping users, never roles or everyone
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def jump_link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A link that opens a channel (or one of its messages) in Discord."""
    place = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return place if message_id is None else f"{place}/{message_id}"


def board_filename(place: int, png: bytes) -> str:
    """``board-1-<digest>.png``: the view's place in the message and its picture's digest, so
    an edit tells an unchanged picture by its name and keeps it instead of uploading it again."""
    return f"board-{place}-{hashlib.sha256(png).hexdigest()[:16]}.png"


def board_files(message: TurnMessage) -> list[discord.File]:
    """One attachment per view of the board, each with its alt text, the main view first."""
    return [
        discord.File(
            io.BytesIO(image.png),
            filename=board_filename(n, image.png),
            description=image.alt_text[:1024],
        )
        for n, image in enumerate(message.images, start=1)
    ]


def board_attachments(
    message: TurnMessage, shown: Sequence[discord.Attachment]
) -> list[discord.File | discord.Attachment]:
    """The pictures of an edit of a message that shows ``shown``: a picture already there with
    the same alt text is kept (by its id, not uploaded again); only a changed one is sent."""
    kept = {(a.filename, a.description): a for a in shown}
    return [kept.get((file.filename, file.description), file) for file in board_files(message)]


def board_view(message: TurnMessage) -> discord.ui.View | None:
    """The message's controls as a persistent view (None when there is nothing to press)."""
    if message.rematch:  # a finished game's final message
        view = discord.ui.View(timeout=None)
        view.add_item(button(rematch_id(message.game_id), message.rematch, "primary"))
        return view
    view = (
        action_view(message.game_id, message.version, message.controls)
        if message.controls is not None
        else None
    )
    if message.back_label is not None:
        view = view or discord.ui.View(timeout=None)
        used = {child.row for child in view.children}
        free = next((row for row in range(5) if row not in used), None)
        if free is not None:  # with every row taken, /game reclaim still does it
            view.add_item(button(back_id(message.game_id), message.back_label, "success", row=free))
    return view


def lobby_view(message: LobbyMessage) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for control in message.controls:
        custom_id = lobby_id(message.game_id, control.op)
        view.add_item(button(custom_id, control.label, control.style, row=control.row))
    return view
