"""``/stats [player] [game]`` (a card of a player's record in this server) and
``/leaderboard game`` (the server's ten best rated players with enough rated games).

Both answer privately, like the other looks (``/game board``): nobody in the channel is pinged
or interrupted by someone checking numbers.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands

from bot.adapter.handlers import guarded, reply_private
from bot.adapter.runtime import runtime_of
from bot.adapter.words import text, user_locale
from bot.service.errors import UnknownGameType
from bot.service.stats import MIN_LEADERBOARD_GAMES, leaderboard, player_stats
from engines.registry import game_names, get_engine
from i18n import game_title, has, t, translator
from render.stats_card import card_png, describe

LEADERBOARD_SIZE = 10


def _game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(
            name=text(f"{g}.title") if has(f"{g}.title") else get_engine(g).info.title, value=g
        )
        for g in game_names()
    ]


def _checked(game: app_commands.Choice[str] | None) -> str | None:
    if game is None:
        return None
    if game.value not in game_names():  # any client can send any value
        raise UnknownGameType(game=str(game.value)[:60], games=", ".join(game_names()))
    return game.value


def build_stats_command() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(
        name=text("command.stats.name"), description=text("command.stats.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(
        player=text("command.stats.player.name"), game=text("command.stats.game.name")
    )
    @app_commands.describe(player=text("command.stats.player"), game=text("command.stats.game"))
    @app_commands.choices(game=_game_choices())
    async def stats(
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        async def work() -> None:
            locale = user_locale(interaction)
            wanted = _checked(game)
            who = player or interaction.user
            store = runtime_of(interaction).service.store
            found = await player_stats(store, interaction.guild_id or 0, who.id, wanted)
            if not found:
                key = "stats.none_in_game" if wanted else "stats.none"
                title = game_title(locale, wanted) if wanted else ""
                await reply_private(interaction, t(locale, key, player=who.mention, game=title))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            tr = translator(locale)
            png = await asyncio.to_thread(card_png, who.display_name, found, tr)
            alt = describe(who.display_name, found, tr)
            await interaction.followup.send(
                t(locale, "stats.posted", player=who.mention),
                file=discord.File(io.BytesIO(png), "stats.png", description=alt[:1024]),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

        await guarded(interaction, work(), reads_only=True)

    return stats


def build_leaderboard_command() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(
        name=text("command.leaderboard.name"),
        description=text("command.leaderboard.description"),
    )
    @app_commands.guild_only()
    @app_commands.rename(game=text("command.leaderboard.game.name"))
    @app_commands.describe(game=text("command.leaderboard.game"))
    @app_commands.choices(game=_game_choices())
    async def leaderboard_command(
        interaction: discord.Interaction, game: app_commands.Choice[str]
    ) -> None:
        async def work() -> None:
            locale = user_locale(interaction)
            wanted = _checked(game)
            assert wanted is not None
            title = game_title(locale, wanted)
            store = runtime_of(interaction).service.store
            entries = await leaderboard(store, interaction.guild_id or 0, wanted, LEADERBOARD_SIZE)
            if not entries:
                said = t(locale, "leaderboard.nobody", count=MIN_LEADERBOARD_GAMES, game=title)
                await reply_private(interaction, said)
                return
            lines = [f"**{t(locale, 'leaderboard.title', game=title)}**"]
            tr = translator(locale)
            for e in entries:
                lines.append(
                    t(
                        locale,
                        "leaderboard.line",
                        place=e.place,
                        player=f"<@{e.user_id}>",
                        rating=tr.number(round(e.rating, 1)),
                        games=t(locale, "stats.card.games", count=e.games),
                        wins=t(locale, "stats.card.wins", count=e.wins),
                    )
                )
            lines.append(t(locale, "leaderboard.note", count=MIN_LEADERBOARD_GAMES))
            await reply_private(interaction, "\n".join(lines))

        await guarded(interaction, work(), reads_only=True)

    return leaderboard_command
