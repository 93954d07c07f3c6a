"""``/mygames``: a private list of the member's running games on this server, those where it is
their turn first (the one running out soonest at the top), then the others; each with its game,
channel, whose turn it is, the time left and a link to its newest board. ``/mygames everywhere:
True`` lists them on every server the member plays on with the bot, each line naming its
server (the same games the digest across servers lists, ``bot.adapter.digest``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.adapter.handlers import MAX_CONTENT, guarded, reply_private
from bot.adapter.messages import when
from bot.adapter.outgoing import jump_link
from bot.adapter.runtime import Runtime, runtime_of
from bot.adapter.words import text, user_locale
from bot.service.models import GameSnapshot
from bot.service.vote_end import deciding_until
from i18n import game_title, t


async def board_link(runtime: Runtime, snap: GameSnapshot) -> str:
    """A link to the game's newest board (its channel when none was posted yet)."""
    post = await runtime.service.latest_post(snap.id)
    if post is None:
        return jump_link(snap.guild_id, snap.channel_id)
    return jump_link(snap.guild_id, *post)


def time_left(locale: str, snap: GameSnapshot, deciding: float | None = None) -> str:
    """What a list of games says about the game's time: ``deciding``, until when the table
    votes on what happens now that the turn's time ran out (``time_left_now`` looks it up)."""
    mover = snap.player_to_move()
    if snap.clock_left is not None:
        return t(locale, "mygames.left.away")
    if mover is not None and mover.is_bot:
        return t(locale, "mygames.left.bot")
    if deciding is not None:
        return t(locale, "mygames.left.voting", until=when(deciding, "f"))
    if snap.deadline is None:
        return t(locale, "mygames.left.no_clock")
    if snap.resting_until is not None:
        until = when(snap.resting_until, "f")
        return t(locale, "mygames.left.resting", until=until, when=when(snap.deadline))
    return t(locale, "mygames.left.runs_out", when=when(snap.deadline))


async def time_left_now(runtime: Runtime, locale: str, snap: GameSnapshot) -> str:
    """``time_left`` as the game stands now, the table's open vote included."""
    service = runtime.service
    deciding = await deciding_until(service.store, snap, service.turn_clock.now())
    return time_left(locale, snap, deciding)


def whose_turn(locale: str, snap: GameSnapshot, user_id: int) -> str:
    mover = snap.player_to_move()
    if mover is None:
        return t(locale, "mygames.turn.nobody")
    if mover.user_id == user_id:
        return t(locale, "mygames.turn.yours")
    return t(locale, "mygames.turn.of", player=mover.name)


def my_turn(snap: GameSnapshot, user_id: int) -> bool:
    mover = snap.player_to_move()
    return mover is not None and mover.user_id == user_id


def ordered(games: list[GameSnapshot], user_id: int) -> list[GameSnapshot]:
    """Games where it is the user's turn first, soonest deadline first (no clock last), then
    the others, oldest game first."""
    mine = [g for g in games if my_turn(g, user_id)]
    others = [g for g in games if not my_turn(g, user_id)]
    mine.sort(key=lambda g: (g.deadline is None, g.deadline or 0.0, g.id))
    others.sort(key=lambda g: g.id)
    return mine + others


def fit_lines(
    locale: str, head: list[str], lines: list[tuple[str, bool]], limit: int = MAX_CONTENT
) -> str:
    """``head`` then as many of ``lines`` (text, names a game) as fit in one message, and how
    many games did not."""
    shown = list(head)
    for index, (line, _game) in enumerate(lines):
        rest = sum(1 for _, game in lines[index + 1 :] if game)
        more = t(locale, "mygames.more", count=rest) if rest else ""
        if len("\n".join([*shown, line, more])) > limit:
            left = sum(1 for _, game in lines[index:] if game)
            shown.append(t(locale, "mygames.more", count=left))
            break
        shown.append(line)
    return "\n".join(shown)


async def mygames_text(
    runtime: Runtime,
    locale: str,
    guild_id: int,
    user_id: int,
    *,
    everywhere: Callable[[int | None], str] | None = None,
) -> str:
    """The list for this server, or, with ``everywhere`` (a server's name by its id), for
    every server, each line naming its server."""
    service = runtime.service
    if everywhere is None:
        rows = await service.store.games_of_user(guild_id, user_id)
    else:
        rows = await service.store.games_of_user_everywhere(user_id)
    games = ordered([service.snapshot_of(row) for row in rows], user_id)
    if not games:
        return t(locale, "mygames.none" if everywhere is None else "mygames.everywhere.none")
    mine = sum(1 for g in games if my_turn(g, user_id))
    title = t(locale, "mygames.title" if everywhere is None else "mygames.everywhere.title")
    head = [f"**{title}**"]
    lines: list[tuple[str, bool]] = []
    for number, snap in enumerate(games):
        if number == 0 and mine:
            lines.append((t(locale, "mygames.heading.yours", count=mine), False))
        if number == mine:
            lines.append((t(locale, "mygames.heading.others", count=len(games) - mine), False))
        words = {
            "game": game_title(locale, snap.game),
            "channel_id": snap.channel_id,
            "turn": whose_turn(locale, snap, user_id),
            "left": await time_left_now(runtime, locale, snap),
            "link": await board_link(runtime, snap),
        }
        if everywhere is None:
            line = t(locale, "mygames.line", **words)
        else:
            line = t(locale, "mygames.everywhere.line", server=everywhere(snap.guild_id), **words)
        lines.append((line, True))
    return fit_lines(locale, head, lines)


def server_names(client: discord.Client, locale: str) -> Callable[[int | None], str]:
    """A server's name by its id (the words for "a server" when the bot does not see it)."""

    def name(guild_id: int | None) -> str:
        guild = client.get_guild(guild_id) if guild_id else None
        return guild.name if guild else t(locale, "reminder.a_server")

    return name


def build_mygames_command() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(
        name=text("command.mygames.name"), description=text("command.mygames.description")
    )
    @app_commands.rename(everywhere=text("command.mygames.everywhere.name"))
    @app_commands.describe(everywhere=text("command.mygames.everywhere"))
    @app_commands.guild_only()
    async def mygames(interaction: discord.Interaction, everywhere: bool | None = None) -> None:
        async def work() -> None:
            runtime = runtime_of(interaction)
            locale = user_locale(interaction)
            names = server_names(interaction.client, locale) if everywhere else None
            said = await mygames_text(
                runtime, locale, interaction.guild_id or 0, interaction.user.id, everywhere=names
            )
            await reply_private(interaction, said)

        await guarded(interaction, work(), reads_only=True)

    return mygames
