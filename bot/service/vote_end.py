"""When the table's votes close: the moment a vote's end timer falls due, and, for a game whose
turn clock ran out, until when the table is deciding what happens (what ``/mygames`` and the
digest say instead of a deadline that has passed)."""

from __future__ import annotations

import json

from bot.service.clocks import VOTE_END
from bot.service.models import GameSnapshot
from bot.storage.base import GameStore, VoteRow


async def vote_end(store: GameStore, vote: VoteRow) -> float | None:
    """When ``vote`` closes (None: no end is set, e.g. it is decided already)."""
    for timer in await store.timers_of_game(vote.game_id):
        if timer.kind == VOTE_END and json.loads(timer.data).get("vote_id") == vote.id:
            return timer.due
    return None


async def deciding_until(store: GameStore, snap: GameSnapshot, now: float) -> float | None:
    """Until when the table votes on the player whose turn clock ran out (None: the deadline
    is still ahead, or no such vote is open). Only a game past its deadline is looked up."""
    if snap.deadline is None or snap.deadline > now or snap.status != "active":
        return None
    for timer in await store.timers_of_game(snap.id):
        if timer.kind != VOTE_END:
            continue
        vote = await store.vote(json.loads(timer.data).get("vote_id", 0))
        if vote is not None and vote.kind == "expiry" and vote.outcome is None:
            return timer.due
    return None
