"""After the game: ``/game history``, the paged ``/game log``, ``/game board`` and ``/game export``
of any started game of this server (by id), and the log's Previous/Next buttons.

All of it is private (ephemeral): it answers the one who asked and does not interrupt a game
running in the channel; a history line's link jumps to the game's public final message, which
anyone can share. A game id of another server, an unknown one, or a lobby that never started is
answered "no such game here".
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from bot.adapter import messages
from bot.adapter.board_plan import Arrival
from bot.adapter.components import button
from bot.adapter.custom_ids import MAX_ID, PageId, page_id
from bot.adapter.handlers import guarded, reply_private, show_outcome
from bot.adapter.outgoing import USERS_ONLY, board_files
from bot.adapter.runtime import runtime_of
from bot.adapter.words import text, user_locale
from bot.present import get_presenter
from bot.present.base import final_scores
from bot.service import history
from bot.service.errors import NoActiveGame, PlayerNotInGame, UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from i18n import game_title, join_list, t

#: a log page holds at most this many moves, and this many characters of them
PAGE_MOVES = 40
PAGE_CHARS = 1800
#: a log line is cut after this many characters (the narration's lines are far shorter)
LINE_CHARS = 300
#: Discord's largest integer option (what a game id option may hold)
MAX_OPTION = min(MAX_ID, 2**53 - 1)


class NoSuchPage(UserFacingError):
    """A Previous/Next button naming a page the log does not have (an old or forged button)."""

    key = "error.no_such_page"


def link(guild_id: object, channel_id: object, message_id: object) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def current_or_last(service: GameService, channel_id: int) -> tuple[GameSnapshot, bool]:
    """The channel's open lobby or running game, else its last game that ended (True)."""
    try:
        return await service.current(channel_id), False
    except NoActiveGame:
        return await service.last_ended(channel_id), True


async def chosen_game(
    interaction: discord.Interaction, game_id: int | None
) -> tuple[GameSnapshot, bool]:
    """The game a command names by id (this server's only), else the channel's; True when it
    has ended."""
    service = runtime_of(interaction).service
    if game_id is None:
        return await current_or_last(service, interaction.channel_id or 0)
    snap = await history.game_here(service, game_id, interaction.guild_id)
    return snap, snap.status in history.ENDED


# ------------------------------------------------------------------------------------- the log


async def log_lines(service: GameService, snap: GameSnapshot, locale: str) -> list[str]:
    """The move log in words (the presenter's narration), one line a move."""
    presenter = get_presenter(snap.game)
    names = messages.display_names(snap)
    lines = []
    for m in await service.history(snap.id):
        who = names[m.seat] if m.seat is not None else t(locale, "game.log.chance")
        move = presenter.describe_move(None, m, locale)
        lines.append(t(locale, "game.log.line", seq=m.seq + 1, who=who, move=move)[:LINE_CHARS])
    return lines


def page_start(lines: list[str], end: int) -> int:
    """Where the page that ends before move ``end`` begins: as many moves before it as fit
    (at most ``PAGE_MOVES``, ``PAGE_CHARS``), at least one. The moves of a game only grow, so a
    page named by its end always shows the same moves."""
    start, size = end, 0
    while start > 0 and end - start < PAGE_MOVES:
        size += len(lines[start - 1]) + 1
        if size > PAGE_CHARS and start < end:
            break
        start -= 1
    return start


def next_end(lines: list[str], end: int) -> int:
    """The end of the page after the one ending at ``end``: the moves that follow, as many as
    fit."""
    stop, size = end, 0
    while stop < len(lines) and stop - end < PAGE_MOVES:
        size += len(lines[stop]) + 1
        if size > PAGE_CHARS and stop > end:
            break
        stop += 1
    return stop


def log_content(locale: str, snap: GameSnapshot, lines: list[str], end: int, ended: bool) -> str:
    game = game_title(locale, snap.game)
    start = page_start(lines, end)
    if start == 0 and end == len(lines):  # the whole log on one page
        title = t(locale, "game.log.title", game=game)
    else:
        title = t(
            locale,
            "game.log.page_title",
            game=game,
            id=str(snap.id),
            first=start + 1,
            last=end,
            total=len(lines),
        )
    shown = [f"**{title}**"]
    if ended:
        shown.insert(0, messages.ended_text(locale, snap))
    if start:  # Previous shows them
        shown.append(t(locale, "game.log.more", count=start))
    shown += lines[start:end] or [t(locale, "game.log.empty")]
    return "\n".join(shown)[: messages.MAX_CONTENT]


def page_view(locale: str, game_id: int, lines: list[str], end: int) -> discord.ui.View | None:
    """Previous and Next, each naming the end of the page it shows (a button that would leave
    the log is greyed out and names the page shown, so the two never share a custom_id); none
    when the whole log fits on one page."""
    start = page_start(lines, end)
    if start == 0 and end == len(lines):
        return None
    view = discord.ui.View(timeout=None)
    first, last = start == 0, end == len(lines)
    previous = t(locale, "game.log.previous")
    view.add_item(button(page_id(game_id, end if first else start), previous, disabled=first))
    following = t(locale, "game.log.next")
    after = end if last else next_end(lines, end)
    view.add_item(button(page_id(game_id, after), following, disabled=last))
    return view


async def show_log(interaction: discord.Interaction, game_id: int | None) -> None:
    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        snap, ended = await chosen_game(interaction, game_id)
        lines = await log_lines(service, snap, locale)
        end = len(lines)  # the newest moves first
        content = log_content(locale, snap, lines, end, ended)
        view = page_view(locale, snap.id, lines, end)
        await interaction.response.send_message(
            content, view=view or discord.utils.MISSING, ephemeral=True
        )

    await guarded(interaction, work(), reads_only=True)


async def on_page(interaction: discord.Interaction, control: PageId) -> None:
    """Previous/Next: the same private message shows the page that ends before move ``end``."""
    game_id, end = control.game_id, control.end

    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        snap = await history.game_here(service, game_id, interaction.guild_id)
        lines = await log_lines(service, snap, locale)
        if not 0 < end <= len(lines):
            raise NoSuchPage()
        content = log_content(locale, snap, lines, end, snap.status in history.ENDED)
        await interaction.response.edit_message(
            content=content, view=page_view(locale, snap.id, lines, end)
        )

    await guarded(interaction, work(), reads_only=True)


# ----------------------------------------------------------------------------------- the board


async def show_board(
    interaction: discord.Interaction, game_id: int | None, player: discord.User | None
) -> None:
    """``/game board``: a private look (the player to move of a running game in this channel
    gets their controls back instead)."""

    async def work() -> None:
        locale = user_locale(interaction)
        snap, ended = await chosen_game(interaction, game_id)
        if snap.is_lobby:
            title = game_title(locale, snap.game)
            await reply_private(interaction, t(locale, "game.lobby_open", game=title))
            return
        focus = None if player is None else snap.seat_of(player.id)
        if player is not None and focus is None:
            raise PlayerNotInGame(player=player.mention)
        seat = snap.seat_of(interaction.user.id)
        here = snap.channel_id == interaction.channel_id
        if focus is None and here and seat is not None and seat == snap.to_move:
            # the player to move asks for the board again (lost controls): a private copy
            await show_outcome(interaction, snap, Arrival.ASKED)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await messages.turn_message(
            locale, snap, with_controls=False, focus_seat=focus, table=True
        )
        content = message.content
        if ended:
            content = messages.fit_content(messages.ended_text(locale, snap) + "\n" + content)
        await interaction.followup.send(
            content, files=board_files(message), ephemeral=True, allowed_mentions=USERS_ONLY
        )

    await guarded(interaction, work(), reads_only=True)


# --------------------------------------------------------------------------------- the history


def history_line(locale: str, past: history.PastGame) -> str:
    snap = past.snap
    names = messages.display_names(snap)
    params: dict[str, Any] = {
        "game": game_title(locale, snap.game),
        "id": str(snap.id),  # a number to look up, not a quantity
        "date": f"<t:{past.ended_at}:d>",
        "scores": final_scores(locale, snap.game, names, snap.scores),
        "winners": join_list(locale, [names[w] for w in snap.winners]),
    }
    if past.final_post is None:
        return t(locale, "history.line", **params)
    url = link(snap.guild_id, *past.final_post)
    return t(locale, "history.line_link", link=url, **params)


async def show_history(interaction: discord.Interaction, user: discord.User | None) -> None:
    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        found = await history.finished_games(
            service, interaction.guild_id or 0, None if user is None else user.id
        )
        if user is None:
            title = t(locale, "history.title")
        else:
            title = t(locale, "history.title_user", user=user.mention)
        if not found:
            empty = "history.empty" if user is None else "history.empty_user"
            await reply_private(interaction, t(locale, empty, user=getattr(user, "mention", "")))
            return
        lines = [f"**{title}**"]
        for past in found:
            line = history_line(locale, past)
            if sum(len(x) + 1 for x in lines) + len(line) > messages.MAX_CONTENT - 100:
                break
            lines.append(line)
        lines.append(t(locale, "history.hint"))
        await interaction.response.send_message(
            "\n".join(lines),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
            suppress_embeds=True,
        )

    await guarded(interaction, work(), reads_only=True)


# ---------------------------------------------------------------------------------- the export


async def send_export(interaction: discord.Interaction, game_id: int | None) -> None:
    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        if game_id is not None:
            snap = await history.game_here(service, game_id, interaction.guild_id)
        else:  # the channel's running game (refused: not over yet), else its last one
            snap, _ended = await current_or_last(service, interaction.channel_id or 0)
            if snap.is_lobby:
                snap = await service.last_ended(interaction.channel_id or 0)
        data = await history.export(service, snap.id, interaction.guild_id)
        name = f"boardroom-{snap.game}-{snap.id}.json"
        said = t(locale, "game.export.ready", game=game_title(locale, snap.game), id=str(snap.id))
        await interaction.response.send_message(
            said,
            file=discord.File(io.BytesIO(history.export_json(data)), filename=name),
            ephemeral=True,
        )

    await guarded(interaction, work(), reads_only=True)


def add_commands(group: app_commands.Group) -> None:
    """``/game history`` and ``/game export`` (the log and the board take a game id in
    ``commands``)."""

    @group.command(
        name=text("command.game.history.name"),
        description=text("command.game.history.description"),
    )
    @app_commands.rename(user=text("command.game.history.user.name"))
    @app_commands.describe(user=text("command.game.history.user"))
    async def game_history(
        interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await show_history(interaction, user)

    @group.command(
        name=text("command.game.export.name"),
        description=text("command.game.export.description"),
    )
    @app_commands.rename(game_id=text("command.game.game_id.name"))
    @app_commands.describe(game_id=text("command.game.game_id"))
    async def game_export(
        interaction: discord.Interaction,
        game_id: app_commands.Range[int, 1, MAX_OPTION] | None = None,
    ) -> None:
        await send_export(interaction, game_id)
