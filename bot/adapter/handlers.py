"""What happens when someone presses a button or picks from a select, and how an action's
board is shown.

Order matters: the service commits the action first; only then does the interaction get its
first response (well inside Discord's 3 seconds), and the board is rendered and shown. Where it
goes is decided in one place, ``board_plan.plan_board``; ``show_outcome`` only carries the plan
out: the first response it names, the board by its route (a follow-up, or an edit of the clicked
message or of the game's newest board), the old board's buttons taken off, and a private note
when the board is not the answer itself. A rejected input gets a private answer and changes
nothing.

A committed action always reaches the channel. When the interaction cannot carry its board
(the first response was refused, lost or too late, or the board was refused), the board is
posted as a normal channel message by ``delivery``, retried with backoff until it gets through.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

import discord

from bot.adapter import messages
from bot.adapter.board_plan import (
    Arrival,
    Audience,
    BoardPlan,
    Facts,
    FirstResponse,
    OldBoard,
    Reply,
    Route,
    Show,
    plan_board,
    result_of,
)
from bot.adapter.custom_ids import ActionId, BadControl, LobbyId, SelectId, selected_action
from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.lobby_notes import lobby_note
from bot.adapter.outgoing import (
    USERS_ONLY,
    board_attachments,
    board_files,
    board_view,
    jump_link,
    lobby_view,
)
from bot.adapter.rendering import drawing_backlog
from bot.adapter.runtime import Runtime, runtime_of
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
#: seconds kept for the request when a first response carries the board it waited for
BOARD_ANSWER_MARGIN = 1.0
#: at most this long a first response waits for its board (a busy bot's drawing queue is
#: long: the click is then answered at once with a deferred update, and the board follows)
BOARD_ANSWER_WAIT = 0.5
#: at most this long a click on an older board waits for the newer one's showing to end
STALE_CLICK_WAIT = 1.0

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


def arrival_of(interaction: discord.Interaction) -> Arrival:
    """How an interaction's action arrived: typed, or a control of a public or private message."""
    if interaction.type != discord.InteractionType.component:
        return Arrival.TYPED
    message = interaction.message
    if message is None or message.flags.ephemeral:
        return Arrival.PRIVATE_CONTROLS
    kind = (interaction.data or {}).get("component_type")
    return Arrival.SELECT if kind == SELECT else Arrival.BUTTON


async def show_outcome(
    interaction: discord.Interaction,
    shown: Outcome | GameSnapshot,
    arrival: Arrival,
    *,
    reply: Reply | None = None,
) -> None:
    """Carry out the board's plan (``board_plan``) for a committed action (an ``Outcome``) or
    the board asked for again (a snapshot). ``reply``: the interaction's state when the caller
    answered it already (else the gate's). When the first response is refused, the plan for a
    closed interaction is carried out instead; when the board is refused, the plan's fallback."""
    runtime = runtime_of(interaction)
    outcome = shown if isinstance(shown, Outcome) else None
    snap = outcome.after if outcome else shown
    assert isinstance(snap, GameSnapshot)
    if reply is None:
        reply = Reply.OPEN if runtime.gate.can_answer(interaction) else Reply.CLOSED
    away = arrival in (Arrival.TYPED, Arrival.PRIVATE_CONTROLS)  # not on the public board
    newest = await runtime.service.latest_post(snap.id) if away else None
    newest_here = (
        outcome is not None
        and newest is not None
        and newest[0] == interaction.channel_id
        and await runtime.service.posted_version(snap.id) == outcome.before.version
    )
    steps_in_place = get_presenter(snap.game).steps == STEPS_IN_PLACE
    facts = Facts(arrival, result_of(outcome), steps_in_place, reply, newest_here)
    plan = plan_board(facts)
    answered = reply is Reply.GIVEN
    shown_now = done = False
    with runtime.delivery.showing(snap.id):
        making: asyncio.Future[messages.TurnMessage] | None = None
        board: messages.TurnMessage | None = None
        if plan.first_response is FirstResponse.UPDATE_WITH_BOARD:
            making = asyncio.ensure_future(_make_board(interaction, plan, snap, outcome))
            making.add_done_callback(_seen)  # a board never awaited (the answer failed)
            board = await _ready_in_time(interaction, making)
            if board is None:  # too slow for the answer: the answer defers, the edit follows
                plan = replace(plan, first_response=FirstResponse.DEFER_UPDATE)
        if plan.first_response is not FirstResponse.NONE:
            carried: list[bool] = []
            respond = _responder(interaction, plan, board, carried)
            answered = await first_response(interaction, respond)
            if not answered:
                plan = plan_board(replace(facts, reply=Reply.CLOSED))
            elif carried:  # the answer was the board
                done = True
                await _record(interaction, plan, snap, interaction.channel_id, interaction.message)
        if not done:
            done = await _send(interaction, plan, outcome, snap, newest, making)
        if not done and plan.fallback is Route.CHANNEL:
            shown_now = await runtime.delivery.show(snap.id, outcome)
    edited = {Route.EDIT_CLICKED: OldBoard.CLICKED, Route.EDIT_NEWEST: OldBoard.NEWEST}
    replaced = done and edited.get(plan.route) is plan.old_board
    taken_off = answered and plan.first_response is FirstResponse.STRIP_CLICKED
    if plan.old_board is OldBoard.CLICKED and not (replaced or taken_off):
        await edit_clicked_message(interaction, view=None)
    elif plan.old_board is OldBoard.NEWEST and not replaced and newest is not None:
        await _take_buttons_off(interaction, snap, newest)
    if answered:
        await _tell_where(interaction, plan, snap, newest, done=done, shown=shown_now)


def _seen(made: asyncio.Future[Any]) -> None:
    """Mark a board's failure as seen: ``_send`` logs it when it awaits the board, and a board
    nobody awaits (its interaction closed) is not reported again as never retrieved."""
    if not made.cancelled():
        made.exception()


async def _ready_in_time(
    interaction: discord.Interaction, making: asyncio.Future[messages.TurnMessage]
) -> messages.TurnMessage | None:
    """The board, when it is ready within ``BOARD_ANSWER_WAIT`` and while the interaction's
    first response can still carry it (with ``BOARD_ANSWER_MARGIN`` left for the request);
    None at once when boards are queuing for a drawing process, and when it is late or
    failed (the caller then answers without it, and ``_send`` waits for it or reports its
    failure)."""
    left = runtime_of(interaction).gate.time_left(interaction) - BOARD_ANSWER_MARGIN
    budget = min(left, BOARD_ANSWER_WAIT)
    if budget <= 0 or drawing_backlog():  # boards wait for a drawing process: answer now
        return None
    try:
        return await asyncio.wait_for(asyncio.shield(making), budget)
    except Exception:  # late, or failed: _send awaits it again and logs the failure
        return None


def _responder(
    interaction: discord.Interaction,
    plan: BoardPlan,
    board: messages.TurnMessage | None,
    carried: list[bool],
) -> Callable[[], Awaitable[object]]:
    """The plan's first response. With the board (``UPDATE_WITH_BOARD``), ``carried`` gets an
    entry once Discord took it; refused, the update is deferred instead, and the board goes
    the plan's route after it (an edit, then the fallback)."""
    response = interaction.response
    if plan.first_response is FirstResponse.UPDATE_WITH_BOARD:
        assert board is not None
        return lambda: _update_with_board(interaction, board, carried)
    if plan.first_response is FirstResponse.DEFER_UPDATE:
        return lambda: response.defer()
    if plan.first_response is FirstResponse.STRIP_CLICKED:
        return lambda: response.edit_message(view=None)
    private = plan.first_response is FirstResponse.THINKING_PRIVATE
    return lambda: response.defer(ephemeral=private, thinking=True)


async def board_message(
    runtime: Runtime, locale: str, show: Show, snap: GameSnapshot, outcome: Outcome | None
) -> messages.TurnMessage:
    """The board message a plan shows: a public one tells (and draws) the whole last turn, from
    the move log; a private one the action's own events."""
    turns = await recent_turns(runtime.service, snap) if show is Show.TURN else None
    away = await runtime.mover_away_until(snap)
    return await messages.turn_message(locale, snap, outcome, turns=turns, away_until=away)


async def _update_with_board(
    interaction: discord.Interaction, board: messages.TurnMessage, carried: list[bool]
) -> None:
    clicked = interaction.message
    shown = clicked.attachments if clicked else []
    try:
        await interaction.response.edit_message(
            content=board.content,
            attachments=board_attachments(board, shown),
            view=board_view(board),
            allowed_mentions=USERS_ONLY,
        )
    except discord.HTTPException as exc:
        if exc.code == ALREADY_ACKNOWLEDGED:  # an earlier try of this answer got through
            carried.append(True)
            raise
        log.warning("board refused as the answer: %s", exc, extra={"id": interaction.id})
        await interaction.response.defer()
        return
    carried.append(True)


async def _make_board(
    interaction: discord.Interaction,
    plan: BoardPlan,
    snap: GameSnapshot,
    outcome: Outcome | None,
) -> messages.TurnMessage:
    """The plan's board, in the channel's language when everyone sees it, the reader's when
    only they do."""
    public = plan.audience is Audience.CHANNEL
    locale = await channel_locale(interaction) if public else user_locale(interaction)
    return await board_message(runtime_of(interaction), locale, plan.show, snap, outcome)


async def _send(
    interaction: discord.Interaction,
    plan: BoardPlan,
    outcome: Outcome | None,
    snap: GameSnapshot,
    newest: tuple[int, int] | None,
    making: Awaitable[messages.TurnMessage] | None = None,
) -> bool:
    """The board by the plan's route, when the interaction carries it (a follow-up or an edit),
    recorded as seen by its audience. False when it was not sent (refused, or another route).
    ``making``: the board, when it is being made already."""
    if plan.route not in (Route.FOLLOW_UP, Route.EDIT_CLICKED, Route.EDIT_NEWEST):
        return False
    public = plan.audience is Audience.CHANNEL
    sent: discord.Message
    try:
        message = await (making or _make_board(interaction, plan, snap, outcome))
        if plan.route is Route.FOLLOW_UP:
            sent = await interaction.followup.send(
                message.content,
                files=board_files(message),
                view=board_view(message) or discord.utils.MISSING,
                ephemeral=not public,
                allowed_mentions=USERS_ONLY,
                wait=True,
            )
        else:
            edit: Callable[..., Awaitable[discord.Message]] = (
                interaction.edit_original_response
                if plan.route is Route.EDIT_CLICKED or newest is None
                else _partial_message(interaction, snap, newest).edit
            )
            clicked = interaction.message
            shown = clicked.attachments if clicked and plan.route is Route.EDIT_CLICKED else []
            sent = await edit(
                content=message.content,
                attachments=board_attachments(message, shown),
                view=board_view(message),
                allowed_mentions=USERS_ONLY,
            )
    except Exception as exc:
        if isinstance(exc, DISCORD_FAILURES):
            log.warning("board not sent as an answer: %r", exc, extra={"game_id": snap.id})
        else:
            log.exception("board not sent as an answer", extra={"game_id": snap.id})
        return False
    await _record(interaction, plan, snap, sent.channel.id, sent)
    return True


async def _record(
    interaction: discord.Interaction,
    plan: BoardPlan,
    snap: GameSnapshot,
    channel_id: int | None,
    sent: discord.Message | None,
) -> None:
    """A board the interaction carried (``sent``, in ``channel_id``), recorded as seen by its
    audience when the plan says so; a new public turn wakes a computer to move."""
    runtime = runtime_of(interaction)
    public = plan.audience is Audience.CHANNEL
    if plan.record and sent is not None:
        where = channel_id if public and channel_id else snap.channel_id
        await runtime.service.record_post(snap.id, snap.version, where, sent.id, public)
    if public and plan.route is Route.FOLLOW_UP:
        runtime.bots.after_public_turn(snap)


def _partial_message(
    interaction: discord.Interaction, snap: GameSnapshot, post: tuple[int, int]
) -> discord.PartialMessage:
    channel = interaction.client.get_partial_messageable(post[0], guild_id=snap.guild_id)
    return channel.get_partial_message(post[1])


async def _take_buttons_off(
    interaction: discord.Interaction, snap: GameSnapshot, post: tuple[int, int]
) -> None:
    """The game's older board loses its buttons (they belong to an earlier version), best
    effort, through the channel."""
    try:
        await _partial_message(interaction, snap, post).edit(view=None)
    except DISCORD_FAILURES as exc:
        log.warning("old board kept its buttons: %r", exc, extra={"game_id": snap.id})


async def _tell_where(
    interaction: discord.Interaction,
    plan: BoardPlan,
    snap: GameSnapshot,
    newest: tuple[int, int] | None,
    *,
    done: bool,
    shown: bool,
) -> None:
    """The answered interaction's private note: where the board went when it is not the answer
    itself (an edited board; the delivery's post after a deferred private answer), or that it
    did not get through."""
    locale = user_locale(interaction)
    if done:
        if plan.route is Route.EDIT_NEWEST and newest is not None:
            link = jump_link(snap.guild_id, *newest)
            await tell_privately(interaction, t(locale, "board.updated", link=link))
        return
    if plan.fallback is not Route.CHANNEL:
        await tell_privately(interaction, t(locale, "error.board_refused"))
        return
    posted = await runtime_of(interaction).service.latest_post(snap.id) if shown else None
    if posted is None:
        await tell_privately(interaction, t(locale, "error.post_failed"))
    elif plan.first_response is FirstResponse.THINKING_PRIVATE:
        link = jump_link(snap.guild_id, *posted)
        await tell_privately(interaction, t(locale, "board.posted", link=link))


async def refuse(interaction: discord.Interaction) -> None:
    """A control we did not make, or not as it came: the ordinary private refusal."""

    async def work() -> None:
        raise BadControl()

    await guarded(interaction, work(), reads_only=True)


async def on_button(interaction: discord.Interaction, control: ActionId) -> None:
    await on_action(interaction, control, control.action)


async def on_select(interaction: discord.Interaction, control: SelectId) -> None:
    action = selected_action((interaction.data or {}).get("values"))
    await (refuse(interaction) if action is None else on_action(interaction, control, action))


async def on_action(
    interaction: discord.Interaction, control: ActionId | SelectId, action: str
) -> None:
    game_id, version = control.game_id, control.version

    async def work() -> None:
        runtime = runtime_of(interaction)
        where = places(interaction)
        try:
            with runtime.delivery.showing(game_id):
                outcome = await runtime.service.act(
                    game_id, interaction.user.id, action, version, where=where
                )
                await show_outcome(interaction, outcome, arrival_of(interaction))
        except StaleBoard:
            # the newer board may be on the screen already, its interaction still recording it
            await runtime.delivery.others_done(game_id, STALE_CLICK_WAIT)
            if await runtime.delivery.pending(game_id):  # and it is tried again now
                raise BoardOnItsWay() from None
            raise

    await guarded(interaction, work())


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
    away = await lobby_note(runtime_of(interaction), snap, locale)
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


async def on_lobby(interaction: discord.Interaction, control: LobbyId) -> None:
    game_id, op = control.game_id, control.op

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
                reply = Reply.GIVEN if answered else Reply.CLOSED
                await show_outcome(interaction, outcome, Arrival.BUTTON, reply=reply)
            return
        else:
            raise UserFacingError()
        await show_lobby(interaction, snap, note)

    await guarded(interaction, work())
