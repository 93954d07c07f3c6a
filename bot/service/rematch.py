"""Rematch: a finished game's players, seats rotated by one, in a new lobby of the same channel.

The new lobby has the same game, options and capacity, and the same seats (computer opponents
with their levels and names), the old second seat first and the old first seat last: where the
seat order decides who begins (Can't Stop), someone else does; games that draw their first player
(Harmonies, Kokeshi) draw again. Whoever pressed Rematch hosts it (they must have played); the
host starts it as usual and anyone else may leave. It is opened in one write transaction, which
also checks that the game has no rematch yet and that the channel is free, so a double click
opens one lobby.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.service import errors
from bot.service.games import GameService, Where, _check_place
from bot.service.models import GameSnapshot
from bot.storage.base import GameRow, OpenGameExists, SeatRow, Tx
from engines.registry import game_names, get_engine

log = logging.getLogger(__name__)


class NoSuchGameHere(errors.UserFacingError):
    """An unknown game id, or one of another server (a forged or mistyped id)."""

    key = "error.no_such_game_here"


class RematchNotFinished(errors.UserFacingError):
    """Only a game played to its end can be replayed with the same seats."""

    key = "error.rematch_not_finished"


class RematchNotAPlayer(errors.UserFacingError):
    key = "error.rematch_not_a_player"


class RematchExists(errors.UserFacingError):
    """The game already has its rematch; carries its ``guild_id``, ``channel_id`` and, when it
    was posted, ``message_id`` (for a link)."""

    key = "error.rematch_exists"


def rotated(seats: tuple[SeatRow, ...]) -> list[SeatRow]:
    """The seats of a rematch: everyone moves up one, the old first seat goes last."""
    order = [*seats[1:], *seats[:1]]
    return [replace(s, seat=i) for i, s in enumerate(order)]


async def rematch(
    service: GameService,
    game_id: int,
    user_id: int,
    *,
    guild_id: int | None,
    where: Where = None,
) -> GameSnapshot:
    """Open the rematch lobby of finished game ``game_id`` for ``user_id`` (who played in it)."""
    store = service.store
    channel_id = 0
    existing: GameRow | None = None
    try:
        async with store.write() as tx:
            old = await tx.load_game(game_id)
            if old is None or old.guild_id != guild_id or old.game not in game_names():
                raise NoSuchGameHere(game_id=game_id)
            _check_place(old, where)
            channel_id = old.channel_id
            if old.status != "finished":
                raise RematchNotFinished()
            if not any(s.user_id == user_id for s in old.seats):
                raise RematchNotAPlayer()
            existing = await tx.rematch_of(game_id)
            if existing is None:
                lobby = await _open_lobby(service, tx, old, user_id)
    except OpenGameExists:
        busy = await store.open_game_in_channel(channel_id)
        raise (await service._busy(busy)) if busy else errors.ChannelBusy() from None
    if existing is not None:  # looked up after the write: it holds a connection of its own
        raise await _exists(service, existing)
    log.info("rematch lobby opened", extra={"game_id": lobby.id, "rematch_of": game_id})
    return service.snapshot_of(lobby)


async def _open_lobby(service: GameService, tx: Tx, old: GameRow, user_id: int) -> GameRow:
    """The rematch lobby of ``old``, hosted by ``user_id``, the seats rotated."""
    now = service.clock()
    row = GameRow(
        id=0,
        guild_id=old.guild_id,
        channel_id=old.channel_id,
        game=old.game,
        rules_version=get_engine(old.game).info.rules_version,
        host_id=user_id,
        options_json=old.options_json,
        capacity=old.capacity,
        seed=service.new_seed(),
        status="lobby",
        version=0,
        move_count=0,
        state_json=None,
        created_at=now,
        updated_at=now,
        rematch_of=old.id,
    )
    new_id = await tx.insert_game(row)
    await tx.set_seats(new_id, rotated(old.seats))
    lobby = await tx.load_game(new_id)
    assert lobby is not None
    return lobby


async def _exists(service: GameService, row: GameRow) -> RematchExists:
    post = await service.store.latest_post(row.id)
    return RematchExists(
        game_id=row.id,
        guild_id=row.guild_id,
        channel_id=post[0] if post else row.channel_id,
        message_id=post[1] if post else None,
    )
