"""What happens when someone presses a button or picks from a select.

Order matters: the service commits the action first; only then does the interaction get its
first response (well inside Discord's 3 seconds), and the board is rendered and posted as a
follow-up. A rejected input gets a private answer and changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Coroutine
from typing import Any

import discord

from bot.adapter import messages
from bot.adapter.custom_ids import ActionId, BadControl, Control, LobbyId, SelectId, selected_action
from bot.adapter.outgoing import USERS_ONLY, board_file, board_view, lobby_view
from bot.adapter.runtime import runtime_of
from bot.adapter.words import channel_locale, error_text, user_locale
from bot.present import get_presenter
from bot.service.errors import UserFacingError
from bot.service.models import GameSnapshot, Outcome
from i18n import game_title, join_list, t

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's error code for an expired interaction token


MAX_CONTENT = 2000  # Discord's limit for a message's text

BUTTON = discord.ComponentType.button.value
SELECT = discord.ComponentType.string_select.value


async def reply_private(interaction: discord.Interaction, content: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    content = content[:MAX_CONTENT]
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """One place turns errors into private replies: player mistakes, or a reference to the log."""
    locale = user_locale(interaction)
    if isinstance(error, UserFacingError):
        log.debug("rejected: %s %s", error.key, error.params)
        text = error_text(locale, error)
    elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # Answered after Discord's 3 seconds (an overloaded host): nothing more can be said.
        log.warning("interaction expired before it was answered", extra={"id": interaction.id})
        return
    else:
        reference = uuid.uuid4().hex[:8]
        log.error("unexpected error (reference %s)", reference, exc_info=error)
        text = t(locale, "error.unexpected", reference=reference)
    try:
        await reply_private(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver an error reply", exc_info=True)


def places(interaction: discord.Interaction) -> tuple[int, ...]:
    """Where an interaction came from: its channel and, in a thread, the thread's parent (a game
    takes its inputs from there only)."""
    found = [interaction.channel_id] if interaction.channel_id else []
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        found.append(channel.parent_id)
    return tuple(found)


async def guarded(interaction: discord.Interaction, work: Coroutine[Any, Any, None]) -> None:
    """Run one interaction's work through the gate (overload shedding, an answer for every
    failure)."""
    await runtime_of(interaction).gate.run(interaction, work)


async def post_turn(
    interaction: discord.Interaction, outcome_or_snap: Outcome | GameSnapshot
) -> None:
    """Post the public turn message as a follow-up and remember it (for links and restarts)."""
    outcome = outcome_or_snap if isinstance(outcome_or_snap, Outcome) else None
    snap = outcome.after if outcome else outcome_or_snap
    locale = channel_locale(interaction)
    message = await messages.turn_message(locale, snap, outcome)
    sent = await interaction.followup.send(
        message.content,
        file=board_file(message),
        view=board_view(message) or discord.utils.MISSING,
        allowed_mentions=USERS_ONLY,
        wait=True,
    )
    runtime = runtime_of(interaction)
    await runtime.service.record_post(snap.id, snap.version, sent.channel.id, sent.id)
    runtime.bots.after_public_turn(snap)


async def post_private_step(interaction: discord.Interaction, outcome: Outcome) -> None:
    """A step inside a turn: only the acting player sees the preview and the next controls."""
    locale = user_locale(interaction)
    message = await messages.turn_message(locale, outcome.after, outcome)
    sent = await interaction.followup.send(
        message.content,
        file=board_file(message),
        view=board_view(message) or discord.utils.MISSING,
        ephemeral=True,
        allowed_mentions=USERS_ONLY,
        wait=True,
    )
    snap = outcome.after
    service = runtime_of(interaction).service
    await service.record_post(snap.id, snap.version, snap.channel_id, sent.id, public=False)


def is_public(outcome: Outcome) -> bool:
    """Does the channel see this action: every action, or the end of a turn or of the game?"""
    presenter = get_presenter(outcome.after.game)
    if presenter.public_every_action or outcome.after.status != "active":
        return True
    ends_turn = getattr(presenter, "ends_turn", None)
    if ends_turn is not None:  # e.g. solo Harmonies: the same seat plays the next turn too
        return bool(ends_turn(outcome.moves))
    return outcome.after.to_move != outcome.before.to_move


async def on_control(interaction: discord.Interaction, control: Control | None) -> None:
    """Every component interaction whose custom_id starts like ours, parsed by ``custom_ids``:
    a well-formed control of the right component type goes on, anything else is refused."""
    data = interaction.data or {}
    kind = data.get("component_type")
    if isinstance(control, ActionId) and kind == BUTTON:
        await on_action(interaction, control.game_id, control.version, control.action)
        return
    if isinstance(control, SelectId) and kind == SELECT:
        action = selected_action(data.get("values"))
        if action is not None:
            await on_action(interaction, control.game_id, control.version, action)
            return
    elif isinstance(control, LobbyId) and kind == BUTTON:
        await on_lobby(interaction, control.game_id, control.op)
        return

    async def refuse() -> None:
        raise BadControl()

    await guarded(interaction, refuse())


async def on_action(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    async def work() -> None:
        service = runtime_of(interaction).service
        where = places(interaction)
        outcome = await service.act(game_id, interaction.user.id, action, version, where=where)
        await apply_outcome(interaction, outcome, edit_clicked=True)

    await guarded(interaction, work())


async def apply_outcome(
    interaction: discord.Interaction, outcome: Outcome, *, edit_clicked: bool
) -> None:
    """First response (strip the clicked message's controls), then the board as a follow-up."""
    public = is_public(outcome)
    if edit_clicked and interaction.type == discord.InteractionType.component:
        await interaction.response.edit_message(view=None)
    else:
        await interaction.response.defer(ephemeral=not public, thinking=True)
    try:
        if public:
            await post_turn(interaction, outcome)
        else:
            await post_private_step(interaction, outcome)
    except discord.HTTPException as exc:  # the move is saved; only showing it failed
        log.warning("board not posted: %s", exc, extra={"game_id": outcome.after.id})
        with contextlib.suppress(discord.HTTPException):
            await reply_private(interaction, t(user_locale(interaction), "error.post_failed"))


async def show_lobby(interaction: discord.Interaction, snap: GameSnapshot) -> None:
    """Replace the clicked lobby message with the lobby as it is now."""
    message = messages.lobby_message(channel_locale(interaction), snap)
    await interaction.response.edit_message(
        content=message.content, view=lobby_view(message), allowed_mentions=USERS_ONLY
    )


async def on_lobby(interaction: discord.Interaction, game_id: int, op: str) -> None:
    async def work() -> None:
        service = runtime_of(interaction).service
        user = interaction.user
        locale = channel_locale(interaction)
        where = places(interaction)
        if op == "join":
            snap = await service.join(game_id, user.id, user.display_name, where=where)
        elif op == "leave":
            snap = await service.leave(game_id, user.id, where=where)
        elif op.startswith("bot-"):
            level = op.removeprefix("bot-")
            seated = len((await service.game(game_id)).seats)
            name = t(locale, f"bot.name.{level}", number=seated + 1)
            snap = await service.add_bot(game_id, user.id, level, name, where=where)
        elif op == "cancel":
            snap = await service.cancel(game_id, user.id, where=where)
            title = game_title(locale, snap.game)
            await interaction.response.edit_message(
                content=t(locale, "lobby.cancelled", game=title),
                view=None,
                allowed_mentions=USERS_ONLY,
            )
            return
        elif op == "start":
            outcome = await service.start(game_id, user.id, where=where)
            snap = outcome.after
            title = game_title(locale, snap.game)
            players = join_list(locale, messages.mentions(snap))
            await interaction.response.edit_message(
                content=t(locale, "lobby.started", game=title, players=players),
                view=None,
                allowed_mentions=USERS_ONLY,
            )
            await post_turn(interaction, outcome)
            return
        else:
            raise UserFacingError()
        await show_lobby(interaction, snap)

    await guarded(interaction, work())
