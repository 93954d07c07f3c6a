"""A server's finished games: the history list, one game looked up by id, the export.

Every lookup by id is limited to the asking server: an unknown id, another server's game or a
lobby that never started is answered as "no such game here" (``NoSuchGameHere``), whatever the
reason, so an id tells nothing about other servers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.service import errors, fairness
from bot.service.games import GameService
from bot.service.models import GameSnapshot
from bot.service.rematch import NoSuchGameHere
from engines.registry import game_names
from engines.rng import RNG_VERSION

#: how many games ``/game history`` lists
HISTORY_SIZE = 10
#: the export file's format (``boardroom verify`` reads this one)
EXPORT_FORMAT = 1
ENDED = ("finished", "abandoned")


class GameStillRunning(errors.UserFacingError):
    """An export asked for while the game runs: its seed would predict every die to come."""

    key = "error.export_running"


@dataclass(frozen=True, slots=True)
class PastGame:
    """One finished game of the history: the game, when it ended (Unix seconds) and where its
    final message is (``(channel_id, message_id)``, None when nothing was posted)."""

    snap: GameSnapshot
    ended_at: int
    final_post: tuple[int, int] | None


def unix_time(stored: str) -> int:
    """A stored ISO time as Unix seconds (for Discord's ``<t:…>`` timestamps)."""
    return int(datetime.fromisoformat(stored).timestamp())


async def finished_games(
    service: GameService, guild_id: int, user_id: int | None = None, limit: int = HISTORY_SIZE
) -> list[PastGame]:
    """The server's newest finished games (of ``user_id``, when given), newest first."""
    rows = await service.store.newest_finished_games(guild_id, user_id, limit)
    found = []
    for row in rows:
        if row.game not in game_names():  # a plugin game no longer loaded
            continue
        post = await service.store.latest_post(row.id)
        found.append(PastGame(service.snapshot_of(row), unix_time(row.updated_at), post))
    return found


async def game_here(service: GameService, game_id: int, guild_id: int | None) -> GameSnapshot:
    """Game ``game_id`` if it belongs to this server and was started (running or over)."""
    row = await service.store.load_game(game_id)
    if (
        row is None
        or guild_id is None
        or row.guild_id != guild_id
        or row.game not in game_names()
        or row.status in ("lobby", "cancelled")
    ):
        raise NoSuchGameHere(game_id=game_id)
    return service.snapshot_of(row)


async def export(service: GameService, game_id: int, guild_id: int | None) -> dict[str, Any]:
    """Everything needed to check a game that has ended: its seed, the commitment shown when it
    started, and every move with its seat and time (``boardroom verify`` replays it)."""
    snap = await game_here(service, game_id, guild_id)
    if snap.status not in ENDED:
        raise GameStillRunning(game=snap.game)
    row = await service.store.load_game(game_id)
    assert row is not None
    moves = await service.store.moves(game_id)
    return {
        "format": EXPORT_FORMAT,
        "game": row.game,
        "game_id": row.id,
        "rules_version": row.rules_version,
        "rng_version": RNG_VERSION,
        "status": row.status,
        "options": json.loads(row.options_json),
        "seats": [
            {"seat": s.seat, "name": s.display_name, "bot_level": s.bot_level}
            for s in row.seats
        ],
        "created_at": row.created_at,
        "ended_at": row.updated_at,
        "seed": row.seed,
        "commitment": fairness.commitment(row.game, row.id, row.seed),
        "commitment_scheme": fairness.SCHEME,
        "scores": list(snap.scores),
        "winners": list(snap.winners),
        "moves": [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "time": m.created_at}
            for m in moves
        ],
    }


def export_json(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
