"""Persistent buttons and selects: all their state is in the custom_id, none in memory.

The custom_ids are written and read by ``custom_ids`` (one parser, every field checked). The
templates below only claim our prefixes, so every custom_id that starts like ours reaches
``Runtime.on_control`` and is parsed there: a malformed or out-of-bounds one gets the ordinary
private refusal instead of reaching code that raises. Old messages keep working after a restart;
an old version is answered as a stale board by the service.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adapter import custom_ids
from bot.adapter.runtime import runtime_of
from bot.present.base import Button, ControlRows, Select

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

#: what discord.py routes to each item: anything with the prefix (``custom_ids`` checks the rest)
ACTION_TEMPLATE = r"(?s)br:.*"
SELECT_TEMPLATE = r"(?s)brs:.*"
LOBBY_TEMPLATE = r"(?s)brl:.*"
TABLE_TEMPLATE = r"(?s)br[vb]:.*"  # ballots of table votes, and "I'm back"
_OURS = tuple(
    re.compile(t) for t in (ACTION_TEMPLATE, SELECT_TEMPLATE, LOBBY_TEMPLATE, TABLE_TEMPLATE)
)


def is_ours(custom_id: str) -> bool:
    """Does ``custom_id`` start like one of our controls (whether or not it is valid)?"""
    return any(pattern.fullmatch(custom_id) for pattern in _OURS)


def on_message(interaction: discord.Interaction) -> bool:
    """Is the clicked control on the interaction's message? (discord.py routes a component to
    our items only then, the same way: by type and custom_id on the message's view.)"""
    message, data = interaction.message, interaction.data or {}
    if message is None:
        return False
    view_cls = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = view_cls.from_message(message, timeout=None)
    wanted = (data.get("component_type"), data.get("custom_id"))
    return any(
        (item.type.value, getattr(item, "custom_id", None)) == wanted
        for item in view.walk_children()
    )


async def _route(interaction: discord.Interaction, custom_id: str) -> None:
    await runtime_of(interaction).on_control(interaction, custom_ids.parse(custom_id))


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=ACTION_TEMPLATE):
    def __init__(self, item: discord.ui.Button, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    def make(
        cls,
        game_id: int,
        version: int,
        action: str,
        label: str = "",
        style: str = "secondary",
        emoji: str | None = None,
        row: int | None = None,
    ) -> ActionButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or action,
            style=_STYLES.get(style, discord.ButtonStyle.secondary),
            custom_id=custom_ids.action_id(game_id, version, action),
            emoji=emoji,
        )
        return cls(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, item: discord.ui.Select, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    def make(
        cls,
        game_id: int,
        version: int,
        n: int,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> ActionSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_ids.select_id(game_id, version, n),
            placeholder=placeholder or None,
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        return cls(select, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> ActionSelect:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    def __init__(self, item: discord.ui.Button, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    def make(
        cls,
        game_id: int,
        op: str,
        label: str = "",
        style: str = "secondary",
        row: int | None = None,
    ) -> LobbyButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or op,
            style=_STYLES.get(style, discord.ButtonStyle.secondary),
            custom_id=custom_ids.lobby_id(game_id, op),
        )
        return cls(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=TABLE_TEMPLATE):
    """A ballot of a table vote, or the *I'm back* button (the custom_id says which)."""

    def __init__(self, item: discord.ui.Button, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    def make(
        cls, custom_id: str, label: str, style: str = "secondary", row: int | None = None
    ) -> TableButton:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label[:80],
            style=_STYLES.get(style, discord.ButtonStyle.secondary),
            custom_id=custom_id,
        )
        return cls(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TableButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id)


def action_view(game_id: int, version: int, controls: ControlRows) -> discord.ui.View | None:
    """A persistent view for the given control rows (None when there is nothing to press)."""
    if not controls.rows:
        return None
    view = discord.ui.View(timeout=None)
    selects = 0
    for row_index, row in enumerate(controls.rows[:5]):
        for control in row:
            if isinstance(control, Button):
                view.add_item(
                    ActionButton.make(
                        game_id,
                        version,
                        control.action,
                        control.label[:80],
                        control.style,
                        control.emoji,
                        row=row_index,
                    )
                )
            elif isinstance(control, Select):
                options = [
                    discord.SelectOption(
                        label=o.label[:100],
                        value=o.action,
                        description=(o.description or None) and o.description[:100],
                    )
                    for o in control.options[:25]
                ]
                view.add_item(
                    ActionSelect.make(
                        game_id, version, selects, control.placeholder[:150], options, row=row_index
                    )
                )
                selects += 1
    return view
