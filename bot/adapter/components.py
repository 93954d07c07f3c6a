"""Persistent buttons and selects: all their state is in the custom_id, none in memory.

The custom_ids are written and read by ``custom_ids`` (one parser, every field checked). One
item, ``OurControl``, claims every custom_id that starts like ours (its template names the
prefixes only), so every click on a control of ours reaches ``Runtime.on_control`` parsed: a
malformed or out-of-bounds one gets the ordinary private refusal instead of reaching code that
raises. Old messages keep working after a restart; an old version is answered as a stale board
by the service.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
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

#: every custom_id that starts like ours, valid or not (``custom_ids`` checks the rest): br:, brs:,
#: brl:, brv:, brb:, brr: and brp:
TEMPLATE = r"(?s)br[slvbrp]?:.*"
_OURS = re.compile(TEMPLATE)


def is_ours(custom_id: str) -> bool:
    """Does ``custom_id`` start like one of our controls (whether or not it is valid)?"""
    return _OURS.fullmatch(custom_id) is not None


def on_message(interaction: discord.Interaction) -> bool:
    """Is the clicked control on the interaction's message? (discord.py routes a component to
    our item only then, the same way: by type and custom_id on the message's components.)"""
    message, data = interaction.message, interaction.data or {}
    if message is None:
        return False
    wanted = (data.get("component_type"), data.get("custom_id"))
    return any(
        (component.type.value, getattr(component, "custom_id", None)) == wanted
        for component in _walk(message.components)
    )


def _walk(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message, those in rows, containers and sections included (read
    as they came: building discord.py's view of the message for this cost more than the
    click's own handling of it)."""
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


class OurControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Every button and select of ours, whatever it does: a click is parsed by ``custom_ids``
    and goes to ``Runtime.on_control`` (``dispatch``), which picks its handler."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OurControl:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await runtime_of(interaction).on_control(interaction, custom_ids.parse(self.custom_id))


def button(
    custom_id: str,
    label: str,
    style: str = "secondary",
    *,
    emoji: str | None = None,
    row: int | None = None,
    disabled: bool = False,
) -> OurControl:
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=label[:80],
        style=_STYLES.get(style, discord.ButtonStyle.secondary),
        custom_id=custom_id,
        emoji=emoji,
        disabled=disabled,
    )
    return OurControl(item, row=row)


def select(
    custom_id: str, placeholder: str, options: list[discord.SelectOption], row: int | None = None
) -> OurControl:
    item: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150] or None,
        options=options or [discord.SelectOption(label="-", value="-")],
    )
    return OurControl(item, row=row)


def action_view(game_id: int, version: int, controls: ControlRows) -> discord.ui.View | None:
    """A persistent view for the given control rows (None when there is nothing to press)."""
    if not controls.rows:
        return None
    view = discord.ui.View(timeout=None)
    selects = 0
    for row_index, row in enumerate(controls.rows[:5]):
        for control in row:
            if isinstance(control, Button):
                custom_id = custom_ids.action_id(game_id, version, control.action)
                label = control.label or control.action
                view.add_item(
                    button(custom_id, label, control.style, emoji=control.emoji, row=row_index)
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
                custom_id = custom_ids.select_id(game_id, version, selects)
                view.add_item(select(custom_id, control.placeholder, options, row=row_index))
                selects += 1
    return view
