"""Rematch: a finished game played again in a new lobby of the same channel.

The new lobby has the same game, options, capacity and turn clock, and it closes by itself like
any lobby nobody starts (the server's lobby expiry). It opens with the player who pressed
Rematch (its host) and the computer opponents of the finished game; the other players are asked
and take their seats by pressing Join, where the seats moved round by one put them
(``bot.service.rematch_seats``): nobody is seated without saying yes. The host starts it as
usual. It is opened in one write transaction, which also checks that the game has no rematch yet
and that the channel is free, so a double click opens one lobby.
"""

from __future__ import annotations

import logging

from bot.service import errors
from bot.service.clocks import LOBBY_EXPIRY
from bot.service.games import GameService, Where, _check_place
from bot.service.models import GameSnapshot, Seat
from bot.service.preferences import server_play_of
from bot.service.rematch_seats import invited, opening_seats
from bot.storage.base import GameRow, OpenGameExists, TimerRow, Tx
from engines.registry import game_names, get_engine

log = logging.getLogger(__name__)

__all__ = [
    "NoSuchGameHere",
    "RematchExists",
    "RematchNotAPlayer",
    "RematchNotFinished",
    "rematch",
    "waiting_for",
]


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
    # read before the write (a read inside it would take a second pooled connection)
    server = server_play_of(await store.server_play(guild_id) if guild_id else None)
    expires_after = server.lobby_seconds(service.turn_clock.units)
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
                lobby = await _open_lobby(service, tx, old, user_id, expires_after)
    except OpenGameExists:
        busy = await store.open_game_in_channel(channel_id)
        raise (await service._busy(busy)) if busy else errors.ChannelBusy() from None
    if existing is not None:  # looked up after the write: it holds a connection of its own
        raise await _exists(service, existing)
    log.info("rematch lobby opened", extra={"game_id": lobby.id, "rematch_of": game_id})
    return service.snapshot_of(lobby)


async def _open_lobby(
    service: GameService, tx: Tx, old: GameRow, user_id: int, expires_after: float
) -> GameRow:
    """The rematch lobby of ``old``, hosted by ``user_id``: the same options and clock, the
    host and the computer opponents seated, closing after ``expires_after`` seconds."""
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
        clock_seconds=old.clock_seconds,
        bank_increment=old.bank_increment,
        bank_cap=old.bank_cap,
        rematch_of=old.id,
        rest_days=old.rest_days,
        rest_timezone=old.rest_timezone,
    )
    new_id = await tx.insert_game(row)
    await tx.set_seats(new_id, opening_seats(old.seats, user_id))
    clock = service.turn_clock
    await clock.add(
        tx,
        TimerRow(
            id=0,
            due=clock.now() + expires_after,
            kind=LOBBY_EXPIRY,
            game_id=new_id,
            guild_id=old.guild_id,
        ),
    )
    lobby = await tx.load_game(new_id)
    assert lobby is not None
    return lobby


async def waiting_for(service: GameService, snap: GameSnapshot) -> tuple[Seat, ...]:
    """The players of the finished game a rematch lobby was opened for who have not joined it
    (yet); nobody for any other lobby or game."""
    if not snap.is_lobby or snap.rematch_of is None:
        return ()
    old = await service.store.load_game(snap.rematch_of)
    if old is None:
        return ()
    seated = {s.user_id for s in snap.seats}
    return tuple(Seat(s.seat, s.user_id, s.display_name) for s in invited(seated, old.seats))


async def _exists(service: GameService, row: GameRow) -> RematchExists:
    post = await service.store.latest_post(row.id)
    return RematchExists(
        game_id=row.id,
        guild_id=row.guild_id,
        channel_id=post[0] if post else row.channel_id,
        message_id=post[1] if post else None,
    )
