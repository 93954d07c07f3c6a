"""Persistent buttons and selects: all their state is in the custom_id, none in memory.

``br:<game>:<version>:<action>`` is a game action button, ``brs:<game>:<version>:<n>`` a select
whose chosen value is the action, ``brl:<game>:<op>`` a lobby button. Old messages keep working
after a restart; an old version is answered as a stale board by the service.
"""

from __future__ import annotations

import re

import discord

from bot.adapter.runtime import runtime_of
from bot.present.base import Button, ControlRows, Select

ACTION_PREFIX = "br:"
SELECT_PREFIX = "brs:"
LOBBY_PREFIX = "brl:"
LOBBY_OPS = ("join", "leave", "start", "cancel", "bot-easy", "bot-medium", "bot-hard")

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


ACTION_TEMPLATE = r"br:(?P<gid>\d+):(?P<ver>\d+):(?P<act>[a-z0-9:+\-_.]{1,80})"
SELECT_TEMPLATE = r"brs:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+)"
LOBBY_TEMPLATE = r"brl:(?P<gid>\d+):(?P<op>[a-z\-]{1,12})"
_OURS = tuple(re.compile(t) for t in (ACTION_TEMPLATE, SELECT_TEMPLATE, LOBBY_TEMPLATE))


def is_ours(custom_id: str) -> bool:
    """Is ``custom_id`` the shape of one of our controls (whether or not it is still current)?"""
    return any(pattern.fullmatch(custom_id) for pattern in _OURS)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=ACTION_TEMPLATE):
    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        label: str = "",
        style: str = "secondary",
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=f"{ACTION_PREFIX}{game_id}:{version}:{action}",
                emoji=emoji,
            ),
            row=row,
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(int(match["gid"]), int(match["ver"]), match["act"])

    async def callback(self, interaction: discord.Interaction) -> None:
        route = runtime_of(interaction).on_action
        await route(interaction, self.game_id, self.version, self.action)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(
        self,
        game_id: int,
        version: int,
        n: int,
        placeholder: str = "",
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"{SELECT_PREFIX}{game_id}:{version}:{n}",
                placeholder=placeholder or None,
                options=options or [discord.SelectOption(label="-", value="-")],
            ),
            row=row,
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> ActionSelect:
        return cls(int(match["gid"]), int(match["ver"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        action = str(values[0]) if values else ""
        await runtime_of(interaction).on_action(interaction, self.game_id, self.version, action)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    def __init__(
        self,
        game_id: int,
        op: str,
        label: str = "",
        style: str = "secondary",
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or op,
                style=_STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=f"{LOBBY_PREFIX}{game_id}:{op}",
            ),
            row=row,
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await runtime_of(interaction).on_lobby(interaction, self.game_id, self.op)


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
                    ActionButton(
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
                    ActionSelect(
                        game_id, version, selects, control.placeholder[:150], options, row=row_index
                    )
                )
                selects += 1
    return view
