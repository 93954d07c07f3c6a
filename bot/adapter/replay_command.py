"""``/game replay [game_id]``: a whole game as an animated image, posted in the channel.

The game is checked first (a game of this server that has started: else a private answer);
then the interaction is answered at once with "thinking…", the animation is drawn in a drawing
worker from the move log, and the file follows as the follow-up.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands

from bot.adapter import messages
from bot.adapter.handlers import guarded
from bot.adapter.rendering import draw_replay
from bot.adapter.runtime import runtime_of
from bot.adapter.words import channel_locale, text
from bot.service.errors import GameNotFound, GameNotStarted, NoActiveGame, UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from i18n import game_title, join_list, t

log = logging.getLogger(__name__)


class NoSuchGameHere(UserFacingError):
    """A game id that is not one of this server's games (mistyped, forged, or elsewhere)."""

    key = "error.replay_no_such_game"


async def game_to_replay(
    service: GameService, guild_id: int | None, channel_id: int, game_id: int | None
) -> GameSnapshot:
    """The game named (one of this server's), else the channel's running or last ended game."""
    if game_id is None:
        try:
            snap = await service.current(channel_id)
        except NoActiveGame:
            snap = await service.last_ended(channel_id)
    else:
        try:
            snap = await service.game(game_id)
        except GameNotFound:
            raise NoSuchGameHere(game_id=game_id) from None
        if snap.guild_id is None or snap.guild_id != guild_id:
            raise NoSuchGameHere(game_id=game_id)
    if snap.state is None:
        raise GameNotStarted()
    return snap


def add_replay_command(group: app_commands.Group) -> None:
    """Add ``replay`` to the ``/game`` group."""

    @group.command(
        name=text("command.game.replay.name"),
        description=text("command.game.replay.description"),
    )
    @app_commands.rename(game_id=text("command.game.replay.game_id.name"))
    @app_commands.describe(game_id=text("command.game.replay.game_id"))
    async def replay(interaction: discord.Interaction, game_id: int | None = None) -> None:
        async def work() -> None:
            service = runtime_of(interaction).service
            snap = await game_to_replay(
                service, interaction.guild_id, interaction.channel_id or 0, game_id
            )
            await interaction.response.defer(thinking=True)
            locale = await channel_locale(interaction)
            moves = await service.history(snap.id)
            names = messages.display_names(snap)
            animation = await draw_replay(
                snap.game,
                len(snap.seats),
                dict(snap.options),
                [m.action for m in moves],
                locale,
                names,
            )
            title = game_title(locale, snap.game)
            players = join_list(locale, messages.mentions(snap))
            content = t(
                locale,
                "replay.posted",
                count=animation.frames,
                game=title,
                game_id=snap.id,
                players=players,
            )
            alt = t(locale, "replay.alt", count=animation.frames, game=title)
            file = discord.File(
                io.BytesIO(animation.data), animation.filename, description=alt[:1024]
            )
            await interaction.followup.send(
                messages.fit_content(content),
                file=file,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            log.info(
                "replay posted",
                extra={
                    "game_id": snap.id,
                    "frames": animation.frames,
                    "bytes": len(animation.data),
                },
            )

        await guarded(interaction, work(), reads_only=True)
