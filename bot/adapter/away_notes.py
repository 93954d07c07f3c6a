"""The line a lobby or turn message shows for a player who is away (``/away``): kept apart from
the ``/away`` command so the message builders can use it without importing the command."""

from __future__ import annotations

import math

from bot.adapter.runtime import Runtime
from bot.service.clocks import TimeUnits
from bot.service.models import GameSnapshot
from i18n import DEFAULT_LOCALE, t


def until_text(until: float) -> str:
    """When an away period ends, as Discord shows it to each reader (their zone, language)."""
    stamp = round(until)
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def span_text(locale: str, seconds: float, units: TimeUnits) -> str:
    """A span of away time in whole hours of game time, rounded down: "3 days", "19 days
    12 hours", "5 hours", "0 hours" (never more than there is)."""
    # (a tenth of a millisecond more: stored unix times carry a float's rounding)
    whole = max(0, math.floor((units.in_hours(seconds) or 0.0) + (units.in_hours(1e-4) or 0.0)))
    days, hours = divmod(whole, 24)
    if days and hours:
        return t(
            locale,
            "away.span",
            days=t(locale, "clock.days", count=days),
            hours=t(locale, "clock.hours", count=hours),
        )
    if days:
        return t(locale, "clock.days", count=days)
    return t(locale, "clock.hours", count=hours)


async def away_note(runtime: Runtime, snap: GameSnapshot, locale: str | None = None) -> str | None:
    """The line a public message shows about players who are away: in a running game the one to
    move, in a lobby everyone seated (None: nobody is away). ``locale``: the message's language
    (by default the one chosen for the server's public messages)."""
    if snap.guild_id is None or snap.is_over:
        return None
    table = runtime.table
    if snap.is_lobby:
        seats = [s for s in snap.seats if s.user_id is not None]
    else:
        mover = snap.player_to_move()
        seats = [mover] if mover is not None and mover.user_id is not None else []
    if not seats:
        return None
    lang = locale or await runtime.servers.locale(snap.guild_id) or DEFAULT_LOCALE
    lines = []
    for seat in seats:
        until = await table.away_until(snap.guild_id, seat.user_id)
        if until is not None:
            key = "away.note.lobby" if snap.is_lobby else "away.note.turn"
            lines.append(t(lang, key, player=f"<@{seat.user_id}>", until=until_text(until)))
    return "\n".join(lines) or None
