"""Slash commands: /play <game>, /game board|log|move|abandon, /rules <game>, /settings, /away,
/mygames."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands

from bot.adapter import history_command, messages, table_play
from bot.adapter.away import build_away_command
from bot.adapter.away_notes import away_note
from bot.adapter.board_plan import Arrival
from bot.adapter.custom_ids import typed_action
from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.handlers import (
    first_response,
    guarded,
    places,
    reply_private,
    show_outcome,
)
from bot.adapter.lobby_post import original_id, post_lobby, to_channel
from bot.adapter.mygames_command import build_mygames_command
from bot.adapter.outgoing import USERS_ONLY, lobby_view
from bot.adapter.play_command import CLOCK, REST, TIMEZONE, build_play_group
from bot.adapter.replay_command import add_replay_command
from bot.adapter.runtime import runtime_of
from bot.adapter.settings_command import build_settings_group
from bot.adapter.stats_command import build_leaderboard_command, build_stats_command
from bot.adapter.threads import archive_thread
from bot.adapter.words import channel_locale, text, user_locale
from bot.present import get_presenter
from bot.present.levels import strength_list
from bot.service.clocks import lobby_clock
from bot.service.errors import BadActionText, NoActiveGame, UnknownGameType, UserFacingError
from bot.service.preferences import Preferences, server_play_of
from bot.service.rest_time import lobby_rest
from engines.registry import game_names, get_engine
from i18n import game_title, has, language_of, t, translator
from render import renderer, rules_alt, rules_png

log = logging.getLogger(__name__)


async def open_lobby(
    interaction: discord.Interaction,
    game: str,
    players: int | None,
    options: dict[str, Any],
    thread: bool = False,
) -> None:
    async def work() -> None:
        runtime = runtime_of(interaction)
        service = runtime.service
        given = {k: v for k, v in options.items() if v is not None}
        choice = given.pop(CLOCK, None)
        typed_rest, typed_zone = given.pop(REST, None), given.pop(TIMEZONE, None)
        server = await runtime.table.server_play(interaction.guild_id)
        host = await Preferences(service.store).player(interaction.user.id)
        rest_days, rest_zone = lobby_rest(  # checked before anything changes
            typed_rest,
            typed_zone,
            language_of(user_locale(interaction)),
            server_days=server.rest_days,
            server_zone=server.rest_timezone,
            host_zone=host.timezone,
        )
        units = service.turn_clock.units
        clock = lobby_clock(choice, server, units)
        expiry = server_play_of(server).lobby_seconds(units)  # as a rematch lobby's
        channel_id = interaction.channel_id or 0
        if thread:  # the game lives in a new thread: its id is the game's channel
            channel_id = await _open_thread(interaction, game)
        snap = await service.open_lobby(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            game=game,
            options=given,
            players=players,
            clock_seconds=clock.seconds,
            bank_increment=clock.increment,
            bank_cap=clock.cap,
            expires_after=expiry,
            rest_days=rest_days,
            rest_timezone=rest_zone,
        )
        locale = await channel_locale(interaction)
        message = messages.lobby_message(locale, snap, await away_note(runtime, snap, locale))
        await post_lobby(interaction, snap, message.content, lobby_view(message), in_thread=thread)

    await guarded(interaction, work())


async def _open_thread(interaction: discord.Interaction, game: str) -> int:
    """Say in the channel that the table opens in a thread, and open that public thread from
    the message (named after the game and its host); returns the thread's id."""
    locale = await channel_locale(interaction)
    title = game_title(locale, game)
    content = t(locale, "lobby.in_thread", game=title)
    sent: list[int | None] = []

    async def respond() -> None:
        callback = await interaction.response.send_message(content, allowed_mentions=USERS_ONLY)
        sent.append(callback.message_id)

    if await first_response(interaction, respond):
        message_id = sent[0] if sent else await original_id(interaction)
    else:
        message_id = await to_channel(interaction, content)
    if message_id is None:
        raise ThreadNotOpened()
    parent = interaction.client.get_partial_messageable(
        interaction.channel_id or 0, guild_id=interaction.guild_id
    )
    name = t(locale, "lobby.thread_name", game=title, host=interaction.user.display_name)
    started = await parent.get_partial_message(message_id).create_thread(name=name[:100])
    return started.id


class ThreadNotOpened(UserFacingError):
    """The message a game thread starts from could not be posted."""

    key = "error.thread_not_opened"


def build_game_group() -> app_commands.Group:
    group = app_commands.Group(
        name=text("command.game.name"),
        description=text("command.game.description"),
        guild_only=True,
    )

    @group.command(
        name=text("command.game.board.name"), description=text("command.game.board.description")
    )
    @app_commands.rename(
        player=text("command.game.board.player.name"), game_id=text("command.game.game_id.name")
    )
    @app_commands.describe(
        player=text("command.game.board.player"), game_id=text("command.game.game_id")
    )
    async def board(
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game_id: app_commands.Range[int, 1, history_command.MAX_OPTION] | None = None,
    ) -> None:
        await history_command.show_board(interaction, game_id, player)

    @group.command(
        name=text("command.game.log.name"), description=text("command.game.log.description")
    )
    @app_commands.rename(game_id=text("command.game.game_id.name"))
    @app_commands.describe(game_id=text("command.game.game_id"))
    async def game_log(
        interaction: discord.Interaction,
        game_id: app_commands.Range[int, 1, history_command.MAX_OPTION] | None = None,
    ) -> None:
        await history_command.show_log(interaction, game_id)

    @group.command(
        name=text("command.game.move.name"), description=text("command.game.move.description")
    )
    @app_commands.rename(action=text("command.game.move.action.name"))
    @app_commands.describe(action=text("command.game.move.action"))
    async def move(interaction: discord.Interaction, action: str) -> None:
        async def work() -> None:
            service = runtime_of(interaction).service
            code = typed_action(action)  # any client can send any value here
            if code is None:
                raise BadActionText(action=str(action)[:60])
            snap = await service.current(interaction.channel_id or 0)
            with runtime_of(interaction).delivery.showing(snap.id):
                outcome = await service.act(
                    snap.id, interaction.user.id, code, snap.version, where=places(interaction)
                )
                await show_outcome(interaction, outcome, Arrival.TYPED)

        await guarded(interaction, work())

    @move.autocomplete("action")
    async def move_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if not isinstance(current, str):
            return []
        try:
            snap = await runtime_of(interaction).service.current(interaction.channel_id or 0)
        except NoActiveGame:
            return []
        if snap.to_move is None or snap.seats[snap.to_move].user_id != interaction.user.id:
            return []
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=code, value=code) for code in snap.legal if wanted in code
        ][:25]

    @group.command(
        name=text("command.game.abandon.name"),
        description=text("command.game.abandon.description"),
    )
    async def abandon(interaction: discord.Interaction) -> None:
        async def work() -> None:
            runtime = runtime_of(interaction)
            service = runtime.service
            perms = interaction.permissions
            may_end = bool(perms and perms.manage_channels)
            current = await service.current(interaction.channel_id or 0)
            seated = current.seat_of(interaction.user.id) is not None
            alone = may_end or interaction.user.id == current.host_id
            if current.status == "active" and seated and not alone:
                # not theirs to end alone: the seated players vote (the notice posts it)
                await runtime.table.open_abandon_vote(current.id, interaction.user.id)
                await reply_private(interaction, t(user_locale(interaction), "abandon.vote_opened"))
                return
            snap = await service.abandon(
                interaction.channel_id or 0,
                interaction.user.id,
                bool(perms and perms.manage_channels),
            )
            locale = await channel_locale(interaction)
            said = t(
                locale,
                "game.abandoned",
                game=game_title(locale, snap.game),
                user=interaction.user.mention,
            )
            if snap.status == "abandoned":  # the game is over: its seed can be checked now
                said += "\n" + messages.seed_line(locale, snap)
            answered = await first_response(
                interaction,
                lambda: interaction.response.send_message(
                    said, allowed_mentions=discord.AllowedMentions.none()
                ),
            )
            if not answered:
                await to_channel(interaction, said)
            if snap.status == "abandoned":
                await _strip_last_board(interaction, snap.id)
                await archive_thread(interaction.client, snap.channel_id)

        await guarded(interaction, work())

    @group.command(
        name=text("command.game.reclaim.name"),
        description=text("command.game.reclaim.description"),
    )
    async def reclaim(interaction: discord.Interaction) -> None:
        async def work() -> None:
            current = await runtime_of(interaction).service.current(interaction.channel_id or 0)
            await table_play.reclaim(interaction, current.id)

        await guarded(interaction, work())

    add_replay_command(group)
    history_command.add_commands(group)
    return group


async def _strip_last_board(interaction: discord.Interaction, game_id: int) -> None:
    """Take the buttons off the game's newest public board (through the channel), best effort:
    nothing can be played on it any more."""
    post = await runtime_of(interaction).service.latest_post(game_id)
    if post is None:
        return
    channel_id, message_id = post
    channel = interaction.client.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
    try:
        await channel.get_partial_message(message_id).edit(view=None)
    except DISCORD_FAILURES as exc:
        log.warning("last board kept its buttons: %r", exc, extra={"game_id": game_id})


def title_text(game: str) -> str | app_commands.locale_str:
    """A game's title as a choice name (its catalogue title, else the engine's own)."""
    return text(f"{game}.title") if has(f"{game}.title") else get_engine(game).info.title


def build_rules_command() -> app_commands.Command[Any, Any, Any]:
    choices = [
        app_commands.Choice(name=title_text(g), value=g) for g in game_names()
    ]

    @app_commands.command(
        name=text("command.rules.name"), description=text("command.rules.description")
    )
    @app_commands.rename(game=text("command.rules.game.name"))
    @app_commands.describe(game=text("command.rules.game"))
    @app_commands.choices(game=choices)
    async def rules(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async def work() -> None:
            locale = user_locale(interaction)
            if game.value not in game_names():
                raise UnknownGameType(game=str(game.value)[:60], games=", ".join(game_names()))
            presenter = get_presenter(game.value)
            summary = presenter.rules_summary(locale)
            strengths = strength_list(locale, game.value, "rules.levels.title")
            if strengths:
                summary = f"{summary}\n\n{strengths}"
            embed = discord.Embed(
                title=game_title(locale, game.value), description=summary[:4000]
            )
            if getattr(renderer(game.value), "rules_image", None) is None:
                await interaction.response.send_message(embed=embed, ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            png = await asyncio.to_thread(rules_png, game.value, translator(locale))
            assert png is not None
            embed.set_image(url="attachment://legend.png")
            alt = rules_alt(game.value, translator(locale))
            legend = discord.File(io.BytesIO(png), "legend.png", description=alt)
            await interaction.followup.send(embed=embed, file=legend, ephemeral=True)

        await guarded(interaction, work(), reads_only=True)

    return rules


def register(tree: app_commands.CommandTree[Any]) -> None:
    tree.add_command(build_play_group(open_lobby))
    tree.add_command(build_game_group())
    tree.add_command(build_rules_command())
    tree.add_command(build_settings_group())
    tree.add_command(build_away_command())
    tree.add_command(build_mygames_command())
    tree.add_command(build_stats_command())
    tree.add_command(build_leaderboard_command())
