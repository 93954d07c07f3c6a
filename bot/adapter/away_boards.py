"""Boards that tell the truth about the clock: when a player goes away, comes back or their
away period ends while it is their turn, the clock line of the newest board of each such game
is rewritten in place ("runs out <t:…>" becomes "clock stopped, away until <t:…>", and back),
so no board shows a deadline that will pass without effect; and after downtime, a turn whose
deadline got a grace period has its board's deadline moved to the postponed one.

Only that line changes (the rest of the message, its pictures and buttons stay): the lines are
the ones ``messages.clock_lines`` wrote, found in whichever language the board was posted in.
Best effort: a board that cannot be edited keeps its old line (the next board is right).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from bot.adapter.delivery import DISCORD_FAILURES
from bot.adapter.messages import clock_lines
from bot.adapter.pace import no_pace
from bot.adapter.runtime import Runtime
from bot.service.models import GameSnapshot
from i18n import available_locales

log = logging.getLogger(__name__)

T = TypeVar("T")


async def _their_turns(runtime: Runtime, guild_id: int, user_id: int) -> list[GameSnapshot]:
    """The member's running games on the server in which it is their turn."""
    found = []
    for row in await runtime.service.store.games_of_user(guild_id, user_id):
        snap = runtime.service.snapshot_of(row)
        mover = snap.player_to_move()
        if mover is not None and mover.user_id == user_id and snap.clock_seconds:
            found.append(snap)
    return found


def rewritten(content: str, before: list[list[str]], after: list[list[str]]) -> str | None:
    """``content`` with the first of the ``before`` clock lines it holds replaced by the same
    language's ``after`` lines (None: it holds none of them, or nothing changes)."""
    for old, new in zip(before, after, strict=True):
        if old == new or not old:
            continue
        block = "\n".join(old)
        if block in content:
            return content.replace(block, "\n".join(new), 1)
    return None


async def rewrite_clock_line(
    client: Any,
    runtime: Runtime,
    before: GameSnapshot,
    away: float | None,
    pace: Callable[[], Awaitable[None]] = no_pace,
) -> None:
    """Rewrite the clock line of the game's newest board from what it showed (``before``, the
    mover away until ``away``) to how the clock stands now, unless a move came meanwhile.
    ``pace`` gives each request its slot (the bot's own work, timer-driven, is spaced)."""
    after = await runtime.service.game(before.id)
    if after.version != before.version:
        return  # a move came meanwhile: its own board says how the clock stands
    post = await runtime.service.latest_post(after.id)
    if post is None:
        return
    now_away = await runtime.mover_away_until(after)
    locales = available_locales()
    # the rest-day lines that follow stay as posted (a rest may have begun or ended since)
    old = [clock_lines(lang, before, away, rest=False) for lang in locales]
    new = [clock_lines(lang, after, now_away, rest=False) for lang in locales]
    channel = client.get_partial_messageable(post[0], guild_id=after.guild_id)
    try:
        await pace()
        message = await channel.fetch_message(post[1])
        content = rewritten(message.content, old, new)
        if content is not None:
            await pace()
            await message.edit(content=content)
    except DISCORD_FAILURES as exc:
        log.info("board's clock line not updated: %r", exc, extra={"game_id": after.id})


async def keeping_boards_true(
    client: Any,
    runtime: Runtime,
    guild_id: int,
    user_id: int,
    change: Awaitable[T],
    pace: Callable[[], Awaitable[None]] = no_pace,
) -> T:
    """Make ``change`` (the member goes away, comes back, or their away period ends), then
    rewrite the clock line of the newest board of every game where it is their turn."""
    turns = await _their_turns(runtime, guild_id, user_id)
    away = await runtime.service.store.away_of(guild_id, user_id)  # as the boards show it
    result = await change
    for snap in turns:
        try:
            await rewrite_clock_line(client, runtime, snap, away, pace)
        except Exception:
            log.exception("board's clock line not updated", extra={"game_id": snap.id})
    return result


async def boards_after_downtime(
    client: Any,
    runtime: Runtime,
    moved: dict[int, float],
    pace: Callable[[], Awaitable[None]] = no_pace,
) -> None:
    """After downtime: the newest board of each game whose turn deadline got a grace period
    (``moved``: game id, the deadline the board shows) names the postponed deadline."""
    for game_id, shown in moved.items():
        try:
            now = await runtime.service.game(game_id)
            before = replace(now, deadline=shown)
            away = await runtime.mover_away_until(now)
            await rewrite_clock_line(client, runtime, before, away, pace)
        except Exception:
            log.exception("board's clock line not updated", extra={"game_id": game_id})
    log.info("after downtime: %d boards looked at for their postponed deadline", len(moved))
