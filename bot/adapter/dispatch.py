"""From a click to its handler in one step: the control its custom_id names (``custom_ids``)
picks the handler from ``ROUTES``, with the component type that control must come as; anything
else gets the ordinary private refusal."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.adapter import after_game, handlers, history_command, table_play
from bot.adapter.custom_ids import (
    ActionId,
    BackId,
    Control,
    LobbyId,
    PageId,
    RematchId,
    SelectId,
    VoteId,
)

BUTTON = discord.ComponentType.button.value
SELECT = discord.ComponentType.string_select.value

Handler = Callable[[discord.Interaction, Any], Awaitable[None]]

#: the parsed control's type: the component type it comes as, and its handler
ROUTES: dict[type, tuple[int, Handler]] = {
    ActionId: (BUTTON, handlers.on_button),
    SelectId: (SELECT, handlers.on_select),
    LobbyId: (BUTTON, handlers.on_lobby),
    VoteId: (BUTTON, table_play.on_ballot),
    BackId: (BUTTON, table_play.on_back),
    RematchId: (BUTTON, after_game.on_rematch),
    PageId: (BUTTON, history_command.on_page),
}


async def on_control(interaction: discord.Interaction, control: Control | None) -> None:
    """Every component interaction whose custom_id starts like ours, parsed (None: malformed)."""
    route = ROUTES.get(type(control))
    if route is not None and route[0] == (interaction.data or {}).get("component_type"):
        await route[1](interaction, control)
    else:
        await handlers.refuse(interaction)
