"""Away mode: ``/away duration:`` stops a member's turn clocks (and their reminders) in every
game on this server for a while, drawn on their yearly away budget on the server
(``bot.service.away_budget``: 21 days unless the server set another); ``duration: off`` ends it
early and gives the unused time back; without a duration the command shows whether they are
away and what is left of the budget. A period longer than what is left is refused, saying what
is left. Every answer is private; a budget nearly spent is said in it.

While the period lasts the clocks truly stand still (no reminder, no vote, no stand-in), and the
newest board of each game where it is the member's turn says so (``away_boards``).

``away_note`` is the line turn messages and the lobby show for a player who is away.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.adapter.away_boards import keeping_boards_true
from bot.adapter.away_notes import span_text, until_text
from bot.adapter.handlers import guarded, reply_private
from bot.adapter.runtime import Runtime, runtime_of
from bot.adapter.words import text, user_locale
from bot.service.away_budget import AwayBudget
from bot.service.errors import UserFacingError
from bot.service.preferences import parse_duration
from bot.service.table import AwayOverBudget
from i18n import t

#: what ends an away period (besides the reader's own word for it)
OFF_WORDS = frozenset({"off", "back", "0", "none"})


class AwayNeedsServer(UserFacingError):
    key = "error.away_needs_server"


async def clocks_to_stop(runtime: Runtime, guild_id: int, user_id: int) -> int:
    """In how many of the member's games on the server a running clock is theirs."""
    count, now = 0, runtime.service.turn_clock.now()
    for row in await runtime.service.store.games_of_user(guild_id, user_id):
        snap = runtime.service.snapshot_of(row)
        mover = snap.player_to_move()
        if mover is not None and mover.user_id == user_id and snap.deadline is not None:
            count += snap.deadline > now  # one that ran out already stays run out
    return count


def is_off(locale: str, value: str) -> bool:
    typed = value.strip().lower()
    return typed in OFF_WORDS or typed == t(locale, "away.off_word").lower()


def budget_lines(locale: str, budget: AwayBudget, runtime: Runtime) -> list[str]:
    """What the member's away budget on the server is: what is left of how much, and a warning
    when it is nearly spent."""
    units = runtime.service.turn_clock.units
    left, total = span_text(locale, budget.left, units), span_text(locale, budget.total, units)
    lines = [t(locale, "away.budget", left=left, total=total)]
    if budget.is_low:
        lines.append(t(locale, "away.budget_low", left=left))
    return lines


def over_budget_text(locale: str, error: AwayOverBudget, runtime: Runtime) -> str:
    budget = error.params["left"]
    assert isinstance(budget, AwayBudget)
    units = runtime.service.turn_clock.units
    return t(
        locale,
        error.key,
        left=span_text(locale, budget.left, units),
        total=span_text(locale, budget.total, units),
    )


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
            client = interaction.client
            if duration is None:
                until = await table.away_until(guild_id, user_id)
                if until is None:
                    lines = [t(reader, "away.not_away")]
                else:
                    lines = [t(reader, "away.status", until=until_text(until))]
                lines += budget_lines(reader, await table.away_budget(guild_id, user_id), runtime)
                await reply_private(interaction, "\n".join(lines))
                return
            if is_off(reader, str(duration)):
                back = table.come_back(guild_id, user_id)  # NotAway when they were not
                await keeping_boards_true(client, runtime, guild_id, user_id, back)
                await reply_private(interaction, t(reader, "away.ended"))
                return
            hours = parse_duration(str(duration))
            stopped = await clocks_to_stop(runtime, guild_id, user_id)
            seconds = runtime.service.turn_clock.units.hours(hours)
            try:
                away = table.go_away(guild_id, user_id, seconds)
                until = await keeping_boards_true(client, runtime, guild_id, user_id, away)
            except AwayOverBudget as refused:
                await reply_private(interaction, over_budget_text(reader, refused, runtime))
                return
            lines = [
                t(reader, "away.set", until=until_text(until)),
                t(reader, "away.stopped", count=stopped),
            ]
            budget = await table.away_budget(guild_id, user_id)
            if budget.is_low:
                left = span_text(reader, budget.left, runtime.service.turn_clock.units)
                lines.append(t(reader, "away.budget_low", left=left))
            await reply_private(interaction, "\n".join(lines))

        await guarded(interaction, work())

    return away
