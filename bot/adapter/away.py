"""Away mode: ``/away duration:`` stops a member's turn clocks (and their reminders) in every
game on this server for a while, at most 14 days; ``duration: off`` ends it early, and without a
duration the command says whether they are away. The answer is private.

``away_note`` is the line turn messages and the lobby show for a player who is away.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapter.away_notes import until_text
from bot.adapter.handlers import guarded, reply_private
from bot.adapter.runtime import Runtime, runtime_of
from bot.adapter.words import text, user_locale
from bot.service.errors import UserFacingError
from bot.service.preferences import parse_duration
from bot.service.table import MAX_AWAY_DAYS, AwayTooLong
from i18n import t

#: what ends an away period (besides the reader's own word for it)
OFF_WORDS = frozenset({"off", "back", "0", "none"})


class AwayNeedsServer(UserFacingError):
    key = "error.away_needs_server"


async def clocks_to_stop(runtime: Runtime, guild_id: int, user_id: int) -> int:
    """In how many of the member's games on the server a running clock is theirs."""
    count = 0
    for row in await runtime.service.store.games_of_user(guild_id, user_id):
        snap = runtime.service.snapshot_of(row)
        mover = snap.player_to_move()
        if mover is not None and mover.user_id == user_id and snap.deadline is not None:
            count += 1
    return count


def is_off(locale: str, value: str) -> bool:
    typed = value.strip().lower()
    return typed in OFF_WORDS or typed == t(locale, "away.off_word").lower()


def build_away_command() -> app_commands.Command[Any, Any, Any]:
    @app_commands.command(
        name=text("command.away.name"), description=text("command.away.description")
    )
    @app_commands.guild_only()
    @app_commands.rename(duration=text("command.away.duration.name"))
    @app_commands.describe(duration=text("command.away.duration"))
    async def away(
        interaction: discord.Interaction,
        duration: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        async def work() -> None:
            runtime = runtime_of(interaction)
            reader = user_locale(interaction)
            guild_id, user_id = interaction.guild_id, interaction.user.id
            if guild_id is None:
                raise AwayNeedsServer()
            table = runtime.table
            if duration is None:
                until = await table.away_until(guild_id, user_id)
                if until is None:
                    said = t(reader, "away.not_away")
                else:
                    said = t(reader, "away.status", until=until_text(until))
                await reply_private(interaction, said)
                return
            if is_off(reader, str(duration)):
                await table.come_back(guild_id, user_id)  # NotAway when they were not
                await reply_private(interaction, t(reader, "away.ended"))
                return
            hours = parse_duration(str(duration))
            if hours > 24 * MAX_AWAY_DAYS:
                raise AwayTooLong(days=MAX_AWAY_DAYS)
            stopped = await clocks_to_stop(runtime, guild_id, user_id)
            seconds = runtime.service.turn_clock.units.hours(hours)
            until = await table.go_away(guild_id, user_id, seconds)
            lines = [
                t(reader, "away.set", until=until_text(until)),
                t(reader, "away.stopped", count=stopped),
            ]
            await reply_private(interaction, "\n".join(lines))

        await guarded(interaction, work())

    return away
