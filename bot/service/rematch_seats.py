"""Who sits where in a rematch: the finished game's seats moved round by one.

A rematch lobby opens with the player who asked and the computer opponents of the finished game;
every other player takes their seat by pressing Join. Whoever joins sits where the rotation puts
them, so the order of the finished game decides the new one however late people answer:
everyone moves up one and the old first seat goes last (where the seat order decides who begins,
someone else does). Newcomers, who did not play the finished game, sit after them in the order
they joined.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from bot.storage.base import SeatRow


def rotated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats of a rematch: everyone moves up one, the old first seat goes last; nobody is
    stood in for any more, and every time bank starts afresh."""
    order = [*seats[1:], *seats[:1]]
    return [
        replace(s, seat=i, stand_in=None, stood_in=False, bank_left=None)
        for i, s in enumerate(order)
    ]


def _who(seat: SeatRow) -> tuple[int | None, str, str | None]:
    """A seat's occupant: a person by their id, a computer opponent by its name and level."""
    if seat.user_id is not None:
        return (seat.user_id, "", None)
    return (None, seat.display_name, seat.bot_level)


def opening_seats(old: Sequence[SeatRow], host_id: int) -> list[SeatRow]:
    """The seats a rematch lobby opens with: the one who asked and the computer opponents."""
    kept = [s for s in rotated(old) if s.user_id == host_id or s.user_id is None]
    return [replace(s, seat=i) for i, s in enumerate(kept)]


def in_rematch_order(seats: Sequence[SeatRow], old: Sequence[SeatRow]) -> list[SeatRow]:
    """``seats`` of a rematch lobby ordered as the rotation of ``old`` places them (newcomers
    last, in the order they joined), numbered from 0."""
    places = {_who(s): s.seat for s in rotated(old)}
    ordered = sorted(seats, key=lambda s: places.get(_who(s), len(old)))  # stable: join order
    return [replace(s, seat=i) for i, s in enumerate(ordered)]


def invited(seated: Collection[int | None], old: Sequence[SeatRow]) -> list[SeatRow]:
    """The people of the finished game not seated (yet) in its rematch lobby (``seated``: the
    ids of those who are), in their new seat order."""
    return [s for s in rotated(old) if s.user_id is not None and s.user_id not in seated]
