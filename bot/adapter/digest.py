"""The digest across servers in Discord: one direct message listing every game, on every server,
where it is the player's move, each with its server, channel, the time left and a link to its
newest board (``bot.service.digest`` decides when, and which games).

Written in the language the player chose it in (``/settings digest``), with no mentions, to the
player's DM channel (remembered once opened, so a digest is one request). When the
player's DMs are closed (Discord's 50007, or any refusal), it falls back as reminders do: a short
message in each game's channel that mentions the player and links the board, in the server's
language; each one is recorded as that game's reminder, so a retry does not post it again and
the player hears of the game at most once a day besides. A Discord failure worth retrying (5xx,
429, the network) is raised: nothing was sent by DM, and the timer dispatcher tries again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.adapter.mygames_command import board_link, fit_lines, server_names, time_left_now
from bot.adapter.outgoing import USERS_ONLY
from bot.adapter.pace import no_pace
from bot.adapter.reminders import server_locale
from bot.adapter.runtime import Runtime
from bot.service.digest import REMINDER_GAP_HOURS, games_to_digest
from bot.service.models import GameSnapshot
from bot.storage.base import PlayerSettingsRow
from i18n import DEFAULT_LOCALE, game_title, t

log = logging.getLogger(__name__)


async def digest_text(
    client: discord.Client, runtime: Runtime, locale: str, games: list[GameSnapshot]
) -> str:
    """The digest: how many games wait for the player, then one line for each (as many as fit
    in one message)."""
    head = [f"**{t(locale, 'digest.title', count=len(games))}**"]
    server_name = server_names(client, locale)
    lines = [
        (
            t(
                locale,
                "digest.line",
                game=game_title(locale, snap.game),
                server=server_name(snap.guild_id),
                channel_id=snap.channel_id,
                left=await time_left_now(runtime, locale, snap),
                link=await board_link(runtime, snap),
            ),
            True,
        )
        for snap in games
    ]
    lines.append((t(locale, "digest.footer"), False))
    return fit_lines(locale, head, lines)


async def deliver_digest(
    client: discord.Client,
    runtime: Runtime,
    player: PlayerSettingsRow,
    pace: Callable[[], Awaitable[None]] = no_pace,
) -> int:
    """Send the player's digest now (nothing when no game waits for them); the number of games
    it listed. ``pace`` is awaited before each request (the DM channel, the message, each
    fallback), so a run of many digests keeps to the bot's share of Discord's global limit."""
    service = runtime.service
    now = service.turn_clock.now()
    where = {"user_id": player.user_id}
    games = await games_to_digest(service.store, service.snapshot_of, player.user_id, now)
    if not games:
        log.debug("digest not sent: no game waits for the player", extra=where)
        return 0
    locale = player.digest_locale or DEFAULT_LOCALE
    said = await digest_text(client, runtime, locale, games)
    try:
        await send_dm(client, runtime, player, said, pace)
        log.info("digest sent as a direct message (%d games)", len(games), extra=where)
        return len(games)
    except discord.Forbidden as exc:
        log.info("direct message refused (%s): the digest goes to each channel", exc.code)
    for snap in games:
        await remind_in_channel(client, runtime, player.user_id, snap, pace)
    return len(games)


async def send_dm(
    client: discord.Client,
    runtime: Runtime,
    player: PlayerSettingsRow,
    said: str,
    pace: Callable[[], Awaitable[None]],
) -> None:
    """Send ``said`` to the player's DM channel: the one known from before (one request), else
    opened now and remembered (two); one Discord no longer knows is opened anew."""
    allowed = discord.AllowedMentions.none()
    if player.dm_channel_id:
        known = client.get_partial_messageable(
            player.dm_channel_id, type=discord.ChannelType.private
        )
        try:
            await pace()
            await known.send(said, allowed_mentions=allowed)
            return
        except discord.NotFound as exc:
            log.info("the known DM channel is gone (%s): opening it anew", exc.code)
    await pace()
    dm = await client.create_dm(discord.Object(id=player.user_id))
    if dm.id != player.dm_channel_id:
        async with runtime.service.store.write() as tx:
            await tx.set_dm_channel(player.user_id, dm.id)
    await pace()
    await dm.send(said, allowed_mentions=allowed)


async def remind_in_channel(
    client: discord.Client,
    runtime: Runtime,
    user_id: int,
    snap: GameSnapshot,
    pace: Callable[[], Awaitable[None]] = no_pace,
) -> None:
    """The digest's fallback for one game: a mention in its channel, unless the player heard of
    the game within a day (a reminder, or this digest's earlier try)."""
    service = runtime.service
    clock = service.turn_clock
    now = clock.now()
    last = await service.store.reminded_at(user_id, snap.id)
    where = {"game_id": snap.id, "user_id": user_id}
    if last is not None and now - last < clock.units.hours(REMINDER_GAP_HOURS):
        log.debug("digest fallback not posted: reminded of this game today", extra=where)
        return
    locale = await server_locale(client, runtime, snap.guild_id)
    said = t(
        locale,
        "digest.channel",
        player=f"<@{user_id}>",
        game=game_title(locale, snap.game),
        left=await time_left_now(runtime, locale, snap),
        link=await board_link(runtime, snap),
    )
    post = await service.latest_post(snap.id)
    channel_id = post[0] if post else snap.channel_id
    channel = client.get_partial_messageable(channel_id, guild_id=snap.guild_id)
    try:
        await pace()
        await channel.send(said, allowed_mentions=USERS_ONLY)
    except (discord.NotFound, discord.Forbidden) as exc:
        log.warning(
            "digest fallback not posted: the channel refuses it (%s)", exc.code, extra=where
        )
        return
    async with service.store.write() as tx:
        await tx.set_reminded(user_id, snap.id, now)
    log.info("digest fallback posted in the channel", extra=where)
