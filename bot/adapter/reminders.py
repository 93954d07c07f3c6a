"""Reminders: the player to move is told, at 50 % and 90 % of their clock, that the table waits
for them. The timer dispatcher calls ``deliver_reminder`` for each due reminder it found still
valid (the game at the timer's version, the reminded seat to move).

Where it goes: a short channel message that mentions the player and links to the newest board,
in the server's language; or, if the player chose direct messages (``/settings reminders``) and
the server allows them, a direct message instead (also in the server's language: outside an
interaction the bot does not know a member's own). Closed DMs fall back to the channel.

What it links: the board the turn began with. A reminder that falls due before that board is
recorded in the channel (it is still being posted, or retried by the delivery) waits for it
rather than link the game's previous message (an older board, or its lobby), as long as the
clock runs; when it is about to run out, the reminder links the channel instead.

What it answers: None when the reminder is done with (sent, or not to be sent: reminders off,
the player away, the clock ran out already, the channel gone), or a unix time to try again at
(the end of the player's quiet hours, or shortly, while the turn's board is on its way). A
Discord failure worth retrying (5xx, 429, the network) is raised, and the dispatcher tries again
with backoff.

A player whose away budget is nearly spent reads so in a line under their next reminder (once).
A resting table's reminder says so in a line of its own; a reminder never goes out during rest
(one put off by quiet hours into a rest waits for its end).

A player who takes the digest across servers (``bot.service.digest``) hears of each game it
lists at most once a day besides it, or not at all with the digest instead of reminders; each
reminder sent is recorded for that rule.
"""

from __future__ import annotations

import json
import logging

import discord

from bot.adapter.away_notes import span_text
from bot.adapter.messages import rest_lines
from bot.adapter.mygames_command import board_link
from bot.adapter.outgoing import USERS_ONLY, jump_link
from bot.adapter.runtime import Runtime
from bot.service.digest import holds_back_reminder
from bot.service.models import GameSnapshot
from bot.service.preferences import DM, OFF, Preferences
from bot.service.quiet import quiet_until
from bot.storage.base import TimerRow
from i18n import DEFAULT_LOCALE, game_title, t

log = logging.getLogger(__name__)

#: Discord's codes for a post that will never get through (retrying cannot help)
CANNOT_DM = 50007  # the user's DMs are closed to the bot (or they share no server)
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
#: seconds between looks for the turn's board a reminder links (at most; less on a short clock)
BOARD_WAIT = 2.0
#: ... and at least (it stops waiting and links the channel when the clock runs out before then)
MIN_BOARD_WAIT = 0.05


async def server_locale(client: discord.Client, runtime: Runtime, guild_id: int | None) -> str:
    """The language of a server's public messages: chosen by its admins, else its own."""
    chosen = await runtime.servers.locale(guild_id)
    if chosen:
        return chosen
    guild = client.get_guild(guild_id) if guild_id else None
    return str(guild.preferred_locale.value) if guild else DEFAULT_LOCALE


def reminded_user(timer: TimerRow, snap: GameSnapshot) -> int | None:
    if timer.user_id is not None:
        return timer.user_id
    seat = json.loads(timer.data or "{}").get("seat")
    if isinstance(seat, int) and 0 <= seat < len(snap.seats):
        return snap.seats[seat].user_id
    return None


async def budget_line(runtime: Runtime, locale: str, guild_id: int | None, user_id: int) -> str:
    """A line more for the player whose away budget on the server is nearly spent (told once
    after the away period that made it so), else nothing."""
    budget = await runtime.table.budget_nearly_spent(guild_id, user_id)
    if budget is None:
        return ""
    left = span_text(locale, budget.left, runtime.service.turn_clock.units)
    return "\n" + t(locale, "away.budget_low", left=left)


async def turn_board_link(runtime: Runtime, snap: GameSnapshot) -> str | None:
    """A link to the board the reminded turn began with (or a newer one); None while no
    channel message shows it yet (it is on its way: the delivery posts it), when the newest
    message of the game is an older board, or its lobby."""
    posted = await runtime.service.posted_version(snap.id)
    if posted is None or posted < snap.version:
        return None
    return await board_link(runtime, snap)


def board_wait(now: float, deadline: float | None) -> float | None:
    """How long a reminder waits before it looks again for its turn's board: a twentieth of the
    time left, between ``MIN_BOARD_WAIT`` and ``BOARD_WAIT`` (None: no longer, the clock runs
    out before then; it links the channel now)."""
    if deadline is None:
        return BOARD_WAIT
    left = deadline - now
    wait = min(BOARD_WAIT, max(MIN_BOARD_WAIT, left / 20))
    return wait if wait < left else None


async def deliver_reminder(
    client: discord.Client, runtime: Runtime, timer: TimerRow, snap: GameSnapshot
) -> float | None:
    """Remind the player to move (see the module's docstring for what is answered)."""
    user_id = reminded_user(timer, snap)
    where = {"game_id": snap.id, "timer_id": timer.id}
    if user_id is None:
        return None
    prefs = Preferences(runtime.service.store)
    player = await prefs.player(user_id)
    if player.reminders == OFF:
        log.debug("reminder not sent: reminders are off", extra=where)
        return None
    if await runtime.table.away_until(snap.guild_id, user_id) is not None:
        log.debug("reminder not sent: the player is away", extra=where)
        return None
    now = runtime.service.turn_clock.now()
    if snap.resting_until is not None:
        log.debug("reminder waits: the table rests", extra=where)
        return snap.resting_until  # (its moment is on running clock; a quiet delay may not be)
    server = await prefs.server(snap.guild_id)
    last = await runtime.service.store.reminded_at(user_id, snap.id)
    if holds_back_reminder(player, server.allow_dm, last, now, runtime.service.turn_clock.units):
        log.debug("reminder not sent: the player's digest lists the game", extra=where)
        return None
    if snap.deadline is not None and snap.deadline <= now:
        log.debug("reminder not sent: the clock ran out already", extra=where)
        return None  # never a reminder naming a deadline in the past (e.g. after downtime)
    if player.quiet_start and player.quiet_end and player.timezone:
        # quiet hours are hours of the day on the game calendar (the wall clock, unless scaled)
        calendar = runtime.service.turn_clock.units.game_time
        quiet = quiet_until(
            calendar.game(now), player.quiet_start, player.quiet_end, player.timezone
        )
        until = None if quiet is None else calendar.wall(quiet)
        if until is not None:
            if snap.deadline is not None and until >= snap.deadline:
                log.debug("reminder not sent: quiet until the clock runs out", extra=where)
                return None
            return until
    link = await turn_board_link(runtime, snap)
    if link is None:  # the turn's board is still on its way to the channel
        wait = board_wait(now, snap.deadline)
        if wait is not None:
            log.debug("reminder waits for the turn's board", extra=where)
            return now + wait
        link = jump_link(snap.guild_id, snap.channel_id)  # the clock runs out: the channel
    locale = await server_locale(client, runtime, snap.guild_id)
    title = game_title(locale, snap.game)
    left = f"<t:{round(snap.deadline)}:R>" if snap.deadline is not None else ""
    more = "".join(f"\n{line}" for line in rest_lines(locale, snap))  # the table's rest days
    more += await budget_line(runtime, locale, snap.guild_id, user_id)
    bank = "_bank" if snap.bank_hours is not None else ""  # a time bank runs out, not a turn
    if player.reminders == DM and server.allow_dm:
        guild = client.get_guild(snap.guild_id) if snap.guild_id else None
        name = guild.name if guild else t(locale, "reminder.a_server")
        said = t(locale, f"reminder.dm{bank}", game=title, server=name, left=left, link=link)
        said += more
        try:
            dm = await client.create_dm(discord.Object(id=user_id))
            await dm.send(said, allowed_mentions=discord.AllowedMentions.none())
            log.info("reminder sent as a direct message", extra=where)
            await record_reminded(runtime, user_id, snap.id, now)
            return None
        except discord.Forbidden as exc:
            log.info("direct message refused (%s): reminding in the channel", exc.code, extra=where)
    said = t(
        locale,
        f"reminder.channel{bank}",
        player=f"<@{user_id}>",
        game=title,
        left=left,
        link=link,
    )
    said += more
    post = await runtime.service.latest_post(snap.id)
    channel_id = post[0] if post else snap.channel_id
    channel = client.get_partial_messageable(channel_id, guild_id=snap.guild_id)
    try:
        await channel.send(said, allowed_mentions=USERS_ONLY)
    except discord.NotFound as exc:
        log.warning("reminder not sent: the channel is gone (%s)", exc.code, extra=where)
        return None
    except discord.Forbidden as exc:
        log.warning("reminder not sent: the channel refuses it (%s)", exc.code, extra=where)
        return None
    log.info("reminder sent in the channel", extra=where)
    await record_reminded(runtime, user_id, snap.id, now)
    return None


async def record_reminded(runtime: Runtime, user_id: int, game_id: int, now: float) -> None:
    """The player heard of the game now (the digest's once-a-day rule reads it)."""
    async with runtime.service.store.write() as tx:
        await tx.set_reminded(user_id, game_id, now)
