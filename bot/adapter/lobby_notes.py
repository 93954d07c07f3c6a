"""The lines a lobby message shows under its seats: who of the seated is away, and, in a
rematch lobby, the players of the finished game it still waits for."""

from __future__ import annotations

from bot.adapter.away_notes import away_note
from bot.adapter.runtime import Runtime
from bot.service import rematch
from bot.service.models import GameSnapshot
from i18n import join_list, t


async def waiting_note(runtime: Runtime, snap: GameSnapshot, locale: str) -> str | None:
    """"@Alice, @Bob: press Join to play again." for a rematch lobby (None: nobody awaited)."""
    awaited = await rematch.waiting_for(runtime.service, snap)
    if not awaited:
        return None
    players = join_list(locale, [f"<@{s.user_id}>" for s in awaited])
    return t(locale, "game.rematch.waiting", players=players)


async def lobby_note(runtime: Runtime, snap: GameSnapshot, locale: str) -> str | None:
    """Everything a lobby message says below its seats, in ``locale`` (None: nothing)."""
    lines = [
        await waiting_note(runtime, snap, locale),
        await away_note(runtime, snap, locale),
    ]
    return "\n".join(line for line in lines if line) or None
