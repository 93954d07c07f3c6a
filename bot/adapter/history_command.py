"""After the game: ``/game history``, the paged ``/game log`` (the game's record, one line per
turn), ``/game board`` and ``/game export`` of any started game of this server (by id), and the
record's First/Previous/Next/Last buttons.

All of it is private (ephemeral): it answers the one who asked and does not interrupt a game
running in the channel; a history line's link jumps to the game's public final message, which
anyone can share. A game id of another server, an unknown one, or a lobby that never started is
answered "no such game here".
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.adapter import messages
from bot.adapter.board_plan import Arrival
from bot.adapter.components import button
from bot.adapter.custom_ids import FIRST_PAGE, LAST, LAST_PAGE, MAX_ID, PageId, page_id
from bot.adapter.handlers import guarded, reply_private, show_outcome
from bot.adapter.outgoing import USERS_ONLY, board_files
from bot.adapter.runtime import runtime_of
from bot.adapter.words import text, user_locale
from bot.present import turn_log
from bot.present.base import final_scores
from bot.service import history
from bot.service.errors import NoActiveGame, PlayerNotInGame, UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.service.turns import turns_of
from engines.registry import get_engine
from i18n import game_title, join_list, t

#: a record page holds at most this many turns, and this many characters of them (the
#: heading and the final scores fit in what Discord allows besides)
PAGE_TURNS = 20
PAGE_CHARS = 1500
#: Discord's largest integer option (what a game id option may hold)
MAX_OPTION = min(MAX_ID, 2**53 - 1)


class NoSuchPage(UserFacingError):
    """A page button naming a page the record does not have (an old or forged button)."""

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


@dataclass(frozen=True, slots=True)
class Record:
    """A game's record in one reader's words: one line per turn (``bot.present.turn_log``) cut
    into pages from the first turn, and the final scores once the game is over."""

    snap: GameSnapshot
    lines: list[str]
    final: str | None

    @property
    def pages(self) -> list[tuple[int, int]]:
        """Each page's first line and the line after its last. Pages are cut from the first
        turn on and a line never changes once written, so a page number names the same turns
        as the game goes on (only the last page grows)."""
        bounds: list[tuple[int, int]] = []
        start = 0
        while start < len(self.lines):
            stop, size = start, 0
            while stop < len(self.lines) and stop - start < PAGE_TURNS:
                size += len(self.lines[stop]) + 1
                if size > PAGE_CHARS and stop > start:
                    break
                stop += 1
            bounds.append((start, stop))
            start = stop
        return bounds or [(0, 0)]


async def game_record(service: GameService, snap: GameSnapshot, locale: str) -> Record:
    """The record of ``snap``'s game, read from its stored move log."""
    names = messages.display_names(snap)
    over = snap.status in history.ENDED
    turns = await turns_of(service, snap)
    # wording every turn replays it (tens of ms for a long game): off the event loop
    lines = await asyncio.to_thread(
        turn_log.record_lines, snap.game, turns, names, locale, over=over
    )
    final = None
    if over and snap.state is not None:
        scores = snap.scores or tuple(get_engine(snap.game).scores(snap.state))
        final = turn_log.final_line(locale, snap.game, names, scores, snap.winners)
    return Record(snap, lines, final)


def log_content(locale: str, record: Record, page: int) -> str:
    """One page: the same heading and range line on every page, mid-game or after the end;
    the final scores below the last turn."""
    snap, lines = record.snap, record.lines
    heading = t(locale, "game.log.heading", game=game_title(locale, snap.game), id=str(snap.id))
    shown = [f"**{heading}**"]
    start, stop = record.pages[page]
    if lines:
        shown.append(
            t(locale, "game.log.range", first=start + 1, last=stop, count=len(lines))
        )
        shown += lines[start:stop]
    else:
        shown.append(t(locale, "game.log.empty"))
    if record.final is not None and page == len(record.pages) - 1:
        shown.append(record.final)
    return "\n".join(shown)[: messages.MAX_CONTENT]


def page_view(locale: str, record: Record, page: int) -> discord.ui.View | None:
    """First, Previous, Next and Last (none when the record fits on one page). A button that
    would leave the record is greyed out; each names a different page or jump, so no two share
    a custom_id."""
    count = len(record.pages)
    if count == 1:
        return None
    first, last = page == 0, page == count - 1
    game_id = record.snap.id
    view = discord.ui.View(timeout=None)
    for custom_id, label, disabled in (
        (page_id(game_id, FIRST_PAGE), "game.log.first", first),
        (page_id(game_id, max(page - 1, 0)), "game.log.previous", first),
        (page_id(game_id, min(page + 1, count - 1)), "game.log.next", last),
        (page_id(game_id, LAST_PAGE), "game.log.last", last),
    ):
        view.add_item(button(custom_id, t(locale, label), disabled=disabled))
    return view


async def show_log(interaction: discord.Interaction, game_id: int | None) -> None:
    """``/game log``: the record's first page, privately."""

    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        snap, _ended = await chosen_game(interaction, game_id)
        record = await game_record(service, snap, locale)
        view = page_view(locale, record, 0)
        await interaction.response.send_message(
            log_content(locale, record, 0), view=view or discord.utils.MISSING, ephemeral=True
        )

    await guarded(interaction, work(), reads_only=True)


async def on_page(interaction: discord.Interaction, control: PageId) -> None:
    """First/Previous/Next/Last: the same private message shows that page."""

    async def work() -> None:
        service = runtime_of(interaction).service
        locale = user_locale(interaction)
        snap = await history.game_here(service, control.game_id, interaction.guild_id)
        record = await game_record(service, snap, locale)
        count = len(record.pages)
        page = count - 1 if control.page == LAST else control.page
        if not 0 <= page < count:
            raise NoSuchPage()
        await interaction.response.edit_message(
            content=log_content(locale, record, page), view=page_view(locale, record, page)
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
