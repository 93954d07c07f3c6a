"""What happens when someone presses a button or picks from a select.

Order matters: the service commits the action first; only then does the interaction get its
first response (well inside Discord's 3 seconds), and the board is rendered and posted as a
follow-up. Only an action that ends a turn (or the game) posts a new public message; a step inside
a turn either updates the clicked public board in place (a deferred update, then an edit of it:
Can't Stop's rolls; typed as ``/game move``, the game's newest board is edited through the channel
and the command answered privately with a link to it) or is answered privately (Harmonies,
Kokeshi). A rejected input gets a private answer and changes nothing.

A committed action always reaches the channel. When the interaction cannot carry its board
(the first response was refused, lost or too late, or the follow-up was refused), the board is
posted as a normal channel message by ``delivery``, retried with backoff until it gets through,
and the clicked board loses its buttons through the channel. An interaction that waited too long
to be answered at all (``runtime.START_BY``) goes that way from the start.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord

from bot.adapter import messages
from bot.adapter.away_notes import away_note
from bot.adapter.custom_ids import (
    ActionId,
    BackId,
    BadControl,
    Control,
    LobbyId,
    SelectId,
    VoteId,
    selected_action,
)
from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.outgoing import USERS_ONLY, board_files, board_view, jump_link, lobby_view
from bot.adapter.runtime import runtime_of
from bot.adapter.threads import archive_thread
from bot.adapter.words import channel_locale, error_text, user_locale
from bot.present import get_presenter
from bot.present.base import STEPS_IN_PLACE
from bot.service.errors import (
    AlreadySeated,
    GameEnded,
    NotInLobby,
    StaleBoard,
    StorageUnavailable,
    UserFacingError,
)
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.service.turns import recent_turns
from bot.storage.base import StoreUnavailable
from i18n import game_title, join_list, t

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's error code for an expired interaction token
ALREADY_ACKNOWLEDGED = 40060  # a first response was already taken (an earlier try got through)
MAX_CONTENT = 2000  # Discord's limit for a message's text

BUTTON = discord.ComponentType.button.value
SELECT = discord.ComponentType.string_select.value


class BoardOnItsWay(UserFacingError):
    """A click on the last board shown while the newer one is still being posted."""

    key = "error.board_on_its_way"


async def reply_private(interaction: discord.Interaction, content: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    content = content[:MAX_CONTENT]
    if runtime_of(interaction).gate.acknowledged(interaction):
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


async def tell_privately(interaction: discord.Interaction, content: str) -> None:
    """A best-effort private note (when the interaction can still carry one)."""
    if not runtime_of(interaction).gate.can_answer(interaction):
        return
    try:
        await reply_private(interaction, content)
    except DISCORD_FAILURES as exc:
        log.warning("could not deliver a private note: %r", exc)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """One place turns errors into private replies: player mistakes, or a reference to the log."""
    locale = user_locale(interaction)
    if isinstance(error, StoreUnavailable):  # the database is away: nothing of it was kept
        log.warning("database unavailable: %s", error)
        error = StorageUnavailable()
    if isinstance(error, GameEnded):
        text = messages.ended_text(locale, error.snapshot)
    elif isinstance(error, UserFacingError):
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
    if not runtime_of(interaction).gate.can_answer(interaction):
        log.info("too late to answer privately", extra={"id": interaction.id})
        return
    try:
        await reply_private(interaction, text)
    except DISCORD_FAILURES as exc:
        log.warning("could not deliver an error reply: %r", exc)


async def first_response(
    interaction: discord.Interaction, respond: Callable[[], Awaitable[object]]
) -> bool:
    """Give the interaction its one first response, if it can still arrive in time. False when
    Discord did not take it: too late to begin, refused (after discord.py's retries), or not
    done before the deadline (then it is abandoned, so no late try follows). A 40060 means an
    earlier try of this same response got through and only its answer was lost: taken."""
    gate = runtime_of(interaction).gate
    ticket = gate.ticket(interaction)
    left = gate.time_left(interaction)
    if left > 0:
        try:
            await asyncio.wait_for(respond(), left)
            return True
        except TimeoutError:
            log.warning("no first response within Discord's deadline", extra={"id": interaction.id})
        except discord.HTTPException as exc:
            if exc.code == ALREADY_ACKNOWLEDGED:
                ticket.acknowledged = True
                return True
            log.warning("first response refused: %s", exc, extra={"id": interaction.id})
        except DISCORD_FAILURES as exc:
            log.warning("first response failed: %r", exc, extra={"id": interaction.id})
        except Exception:  # a fault of ours: say so, and still show the board in the channel
            log.exception("first response failed", extra={"id": interaction.id})
    ticket.gave_up = True
    return False


def places(interaction: discord.Interaction) -> tuple[int, ...]:
    """Where an interaction came from: its channel and, in a thread, the thread's parent (a game
    takes its inputs from there only)."""
    found = [interaction.channel_id] if interaction.channel_id else []
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        found.append(channel.parent_id)
    return tuple(found)


async def guarded(
    interaction: discord.Interaction, work: Coroutine[Any, Any, None], *, reads_only: bool = False
) -> None:
    """Run one interaction's work through the gate (overload shedding, age, an answer for every
    failure). ``reads_only``: it changes nothing, so when it is too late to answer it is dropped."""
    await runtime_of(interaction).gate.run(interaction, work, reads_only=reads_only)


async def post_turn(
    interaction: discord.Interaction, outcome_or_snap: Outcome | GameSnapshot
) -> bool:
    """Post the public turn message as a follow-up and remember it (for links and restarts).
    False when Discord did not take it."""
    return await _follow_up(interaction, outcome_or_snap, public=True)


async def post_private_step(
    interaction: discord.Interaction, outcome_or_snap: Outcome | GameSnapshot
) -> bool:
    """A step inside a turn (or the board asked for again): only the acting player sees the
    preview and the next controls. False when Discord did not take it."""
    return await _follow_up(interaction, outcome_or_snap, public=False)


async def _follow_up(
    interaction: discord.Interaction, outcome_or_snap: Outcome | GameSnapshot, *, public: bool
) -> bool:
    """The board as the interaction's follow-up, in the channel's language when everyone sees
    it and the reader's when only they do. A public board is recorded as what the channel has
    seen, a private step as seen by its player; a private copy of the board as it is (the
    board asked for again) is not recorded: the channel may not have that board yet."""
    outcome = outcome_or_snap if isinstance(outcome_or_snap, Outcome) else None
    snap = outcome.after if outcome else outcome_or_snap
    locale = await channel_locale(interaction) if public else user_locale(interaction)
    runtime = runtime_of(interaction)
    try:
        # a public board tells (and draws) the whole last turn, from the move log
        turns = await recent_turns(runtime.service, snap) if public else None
        away = await runtime.mover_away_until(snap)
        message = await messages.turn_message(
            locale, snap, outcome, turns=turns, away_until=away
        )
        sent = await interaction.followup.send(
            message.content,
            files=board_files(message),
            view=board_view(message) or discord.utils.MISSING,
            ephemeral=not public,
            allowed_mentions=USERS_ONLY,
            wait=True,
        )
    except Exception as exc:
        _not_sent(snap, exc)
        return False
    if public:
        await runtime.service.record_post(snap.id, snap.version, sent.channel.id, sent.id)
        runtime.bots.after_public_turn(snap)
    elif outcome is not None:
        await runtime.service.record_post(
            snap.id, snap.version, snap.channel_id, sent.id, public=False
        )
    return True


def _not_sent(snap: GameSnapshot, exc: Exception) -> None:
    if isinstance(exc, DISCORD_FAILURES):
        log.warning("board not sent as an answer: %r", exc, extra={"game_id": snap.id})
    else:
        log.exception("board not sent as an answer", extra={"game_id": snap.id})


async def update_in_place(interaction: discord.Interaction, outcome: Outcome) -> bool:
    """A step inside a turn shown on the clicked public board itself (after a deferred update):
    the new picture, the turn so far and the next controls; the message is recorded as showing
    the new version, so the sweep does not post it again. False when Discord did not take it."""
    return await _edit_board(interaction, outcome, interaction.edit_original_response)


async def _edit_board(
    interaction: discord.Interaction,
    outcome: Outcome,
    edit: Callable[..., Awaitable[discord.Message]],
) -> bool:
    """Edit a public board (through ``edit``) into the step's board and record it as showing
    the new version. False when Discord did not take it."""
    snap = outcome.after
    runtime = runtime_of(interaction)
    try:
        locale = await channel_locale(interaction)
        turns = await recent_turns(runtime.service, snap)
        message = await messages.turn_message(locale, snap, outcome, turns=turns)
        edited = await edit(
            content=message.content,
            attachments=board_files(message),
            view=board_view(message),
            allowed_mentions=USERS_ONLY,
        )
    except Exception as exc:
        _not_sent(snap, exc)
        return False
    await runtime.service.record_post(snap.id, snap.version, edited.channel.id, edited.id)
    return True


def is_public(outcome: Outcome) -> bool:
    """Does the channel see this action: the end of a turn or of the game, and every step of a
    game that shows its steps in place (the others answer them privately)?"""
    return outcome.ended_turn or get_presenter(outcome.after.game).steps == STEPS_IN_PLACE


def step_shown_in_place(outcome: Outcome) -> bool:
    """Is this a step inside a turn of a game that shows its steps on the public board?"""
    return is_public(outcome) and not outcome.ended_turn


def in_place(interaction: discord.Interaction, outcome: Outcome) -> bool:
    """Is this a step inside a turn to show by updating the clicked public board (rather than
    with a new message)? Only a click on a public message can be updated."""
    message = interaction.message
    return (
        step_shown_in_place(outcome)
        and interaction.type == discord.InteractionType.component
        and message is not None
        and not message.flags.ephemeral
    )


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
    elif isinstance(control, VoteId | BackId) and kind == BUTTON:
        await runtime_of(interaction).on_table(interaction, control)
        return

    async def refuse() -> None:
        raise BadControl()

    await guarded(interaction, refuse(), reads_only=True)


async def on_action(
    interaction: discord.Interaction, game_id: int, version: int, action: str
) -> None:
    async def work() -> None:
        runtime = runtime_of(interaction)
        where = places(interaction)
        try:
            with runtime.delivery.showing(game_id):
                outcome = await runtime.service.act(
                    game_id, interaction.user.id, action, version, where=where
                )
                await apply_outcome(interaction, outcome, edit_clicked=True)
        except StaleBoard:
            if await runtime.delivery.pending(game_id):  # and it is tried again now
                raise BoardOnItsWay() from None
            raise

    await guarded(interaction, work())


async def apply_outcome(
    interaction: discord.Interaction, outcome: Outcome, *, edit_clicked: bool
) -> None:
    """First response (strip the clicked message's controls), then the board as a follow-up;
    when the interaction cannot carry it, the board goes to the channel as a normal message.
    A step inside a turn of a game that shows steps in place updates the clicked board instead
    (no new message, no new ping), and so does the same step typed as a command (the game's
    newest board is updated and the command answered privately); if that fails, the board goes
    to the channel."""
    public = is_public(outcome)
    clicked = edit_clicked and interaction.type == discord.InteractionType.component
    if clicked and in_place(interaction, outcome):
        await step_in_place(interaction, outcome)
        return
    typed = interaction.type == discord.InteractionType.application_command
    if typed and step_shown_in_place(outcome) and await typed_step_in_place(interaction, outcome):
        return
    with runtime_of(interaction).delivery.showing(outcome.after.id):
        if clicked:
            answered = await first_response(
                interaction, lambda: interaction.response.edit_message(view=None)
            )
        else:
            answered = await first_response(
                interaction,
                lambda: interaction.response.defer(ephemeral=not public, thinking=True),
            )
        await show_board(interaction, outcome, answered=answered, public=public)
    if clicked and not answered:
        await edit_clicked_message(interaction, view=None)


async def step_in_place(interaction: discord.Interaction, outcome: Outcome) -> None:
    """Defer the update of the clicked board, then edit it; when either fails the board goes to
    the channel as a new message and the clicked one loses its buttons (through the channel)."""
    runtime = runtime_of(interaction)
    with runtime.delivery.showing(outcome.after.id):
        answered = await first_response(interaction, lambda: interaction.response.defer())
        if answered and await update_in_place(interaction, outcome):
            return
        shown = await runtime.delivery.show(outcome.after.id, outcome)
        if not shown and answered:
            await tell_privately(interaction, t(user_locale(interaction), "error.post_failed"))
    await edit_clicked_message(interaction, view=None)


async def typed_step_in_place(interaction: discord.Interaction, outcome: Outcome) -> bool:
    """A step typed as a command: answer it privately, edit the game's newest public board
    (through the channel) into the step's board, and tell the player with a link to it. When
    that board cannot be edited, the step's board goes to the channel as a new message and the
    old one loses its buttons. False (nothing done) when there is no board to update here, or
    the newest post is not the board of the position the step was played on (e.g. the lobby,
    while the first board is still on its way): the caller then shows the step the usual way."""
    runtime = runtime_of(interaction)
    snap = outcome.after
    post = await runtime.service.latest_post(snap.id)
    if post is None or post[0] != interaction.channel_id:
        return False
    if await runtime.service.posted_version(snap.id) != outcome.before.version:
        return False  # the channel does not show the position played on (its board is on its way)
    channel_id, message_id = post
    channel = interaction.client.get_partial_messageable(channel_id, guild_id=snap.guild_id)
    board = channel.get_partial_message(message_id)
    locale = user_locale(interaction)
    with runtime.delivery.showing(snap.id):
        answered = await first_response(
            interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True)
        )
        if await _edit_board(interaction, outcome, board.edit):
            if answered:
                link = jump_link(snap.guild_id, channel_id, message_id)
                await tell_privately(interaction, t(locale, "board.updated", link=link))
            return True
        shown = await runtime.delivery.show(snap.id, outcome)
    try:
        await board.edit(view=None)  # its buttons belong to an earlier version now
    except DISCORD_FAILURES as exc:
        log.warning("old board kept its buttons: %r", exc, extra={"game_id": snap.id})
    if not answered:
        return True
    newest = await runtime.service.latest_post(snap.id) if shown else None
    if newest is None:
        await tell_privately(interaction, t(locale, "error.post_failed"))
    else:
        link = jump_link(snap.guild_id, *newest)
        await tell_privately(interaction, t(locale, "board.posted", link=link))
    return True


async def show_board(
    interaction: discord.Interaction, outcome: Outcome, *, answered: bool, public: bool
) -> None:
    """The board of a committed action reaches the channel: as a follow-up when the interaction
    was answered and Discord takes it, else as a channel message (retried until it gets through;
    the player is told privately if it did not get through at once)."""
    if answered:
        sent = await (post_turn if public else post_private_step)(interaction, outcome)
        if sent:
            return
    runtime = runtime_of(interaction)
    if not await runtime.delivery.show(outcome.after.id, outcome) and answered:
        await tell_privately(interaction, t(user_locale(interaction), "error.post_failed"))


async def edit_clicked_message(interaction: discord.Interaction, **changes: Any) -> None:
    """Change the clicked message through the channel (when the interaction could not), best
    effort: a private message cannot be reached that way."""
    message = interaction.message
    if message is None or message.flags.ephemeral:
        return
    try:
        await message.edit(allowed_mentions=USERS_ONLY, **changes)
    except DISCORD_FAILURES as exc:
        log.warning("clicked message not updated: %r", exc, extra={"message_id": message.id})


async def update_lobby(
    interaction: discord.Interaction, content: str, view: discord.ui.View | None
) -> bool:
    """Replace the clicked lobby message (through the channel if the answer did not get
    through). True when the interaction was answered."""
    answered = await first_response(
        interaction,
        lambda: interaction.response.edit_message(
            content=content, view=view, allowed_mentions=USERS_ONLY
        ),
    )
    if not answered:
        await edit_clicked_message(interaction, content=content, view=view)
    return answered


async def show_lobby(
    interaction: discord.Interaction, snap: GameSnapshot, note: UserFacingError | None = None
) -> None:
    """Replace the clicked lobby message with the lobby as it is now (and say ``note``)."""
    locale = await channel_locale(interaction)
    away = await away_note(runtime_of(interaction), snap, locale)
    message = messages.lobby_message(locale, snap, away)
    answered = await update_lobby(interaction, message.content, lobby_view(message))
    if answered and note is not None:
        await tell_privately(interaction, error_text(user_locale(interaction), note))


async def _as_it_is(service: GameService, game_id: int, error: UserFacingError) -> GameSnapshot:
    """The lobby now, for a press that changed nothing because it had already happened (its
    answer was lost: the lobby message may not show it yet)."""
    snap = await service.game(game_id)
    if not snap.is_lobby:
        raise error
    return snap


async def on_lobby(interaction: discord.Interaction, game_id: int, op: str) -> None:
    async def work() -> None:
        runtime = runtime_of(interaction)
        service = runtime.service
        user = interaction.user
        locale = await channel_locale(interaction)
        where = places(interaction)
        note: UserFacingError | None = None
        if op == "join":
            try:
                snap = await service.join(game_id, user.id, user.display_name, where=where)
            except AlreadySeated as seated:
                snap, note = await _as_it_is(service, game_id, seated), seated
        elif op == "leave":
            try:
                snap = await service.leave(game_id, user.id, where=where)
            except NotInLobby as absent:
                snap, note = await _as_it_is(service, game_id, absent), absent
        elif op.startswith("bot-"):
            level = op.removeprefix("bot-")
            seated = len((await service.game(game_id)).seats)
            name = t(locale, f"bot.name.{level}", number=seated + 1)
            snap = await service.add_bot(game_id, user.id, level, name, where=where)
        elif op == "cancel":
            snap = await service.cancel(game_id, user.id, where=where)
            title = game_title(locale, snap.game)
            await update_lobby(interaction, t(locale, "lobby.cancelled", game=title), None)
            await archive_thread(interaction.client, snap.channel_id)
            return
        elif op == "start":
            with runtime.delivery.showing(game_id):
                outcome = await service.start(game_id, user.id, where=where)
                snap = outcome.after
                title = game_title(locale, snap.game)
                players = join_list(locale, messages.mentions(snap))
                text = t(locale, "lobby.started", game=title, players=players)
                answered = await update_lobby(interaction, text, None)
                await show_board(interaction, outcome, answered=answered, public=True)
            return
        else:
            raise UserFacingError()
        await show_lobby(interaction, snap, note)

    await guarded(interaction, work())
