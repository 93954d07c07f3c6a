"""A game's move log cut into turns: what each turn began from, its moves and who played it.

The engine's turn counter (``engine.turn(state)``) decides: a turn is the stretch of logged moves
(the player's own and the chance steps they caused) that raises the counter once, with the chance
steps that follow it (refills, draws: resolved with the move that ended the turn) up to the next
player's first move. Replaying the log gives each turn's starting state, so a
presenter can tell the whole turn (the Can't Stop rolls of one turn are several actions) and
what the others did since a player's previous turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.models import GameSnapshot, LoggedMove
from engines.base import TERMINAL
from engines.registry import get_engine
from engines.replay import replay


@dataclass(frozen=True, slots=True)
class PlayedTurn:
    """One turn from the log: ``start`` and ``end`` states, its ``moves`` (player and chance),
    the seat that played it (None: only chance moves, e.g. drawing who begins) and whether it
    ended (False: the turn still being played)."""

    start: Any
    moves: tuple[LoggedMove, ...]
    end: Any
    mover: int | None
    ended: bool


def split_turns(
    game: str, seats: int, options: dict[str, Any], moves: Sequence[LoggedMove], until: Any = None
) -> list[PlayedTurn]:
    """Every turn of the log, the one being played last (if it has moves). ``until``: the state
    the log is read up to, when newer moves may have been appended since it was stored (the log
    is cut after the last point where the replay equals it); else the whole log."""
    engine = get_engine(game)
    states = [replay(engine, seats, options, ())]
    for move in moves:
        states.append(engine.apply(states[-1], engine.decode_action(move.action)))
    if until is not None and states[-1] != until:
        same = [i for i, state in enumerate(states) if state == until]
        if same:
            moves, states = moves[: same[-1]], states[: same[-1] + 1]
    turns: list[PlayedTurn] = []
    first, rose = 0, False
    taken: list[LoggedMove] = []
    for i, move in enumerate(moves):
        if rose and move.seat is not None:  # the next player's first move: a new turn
            turns.append(_turn(states[first], taken, states[i], ended=True))
            first, taken, rose = i, [], False
        before, after = states[i], states[i + 1]
        taken.append(move)
        rose = rose or engine.turn(after) > engine.turn(before) or engine.to_move(after) == TERMINAL
    if taken:
        turns.append(_turn(states[first], taken, states[-1], ended=rose))
    return turns


def _turn(start: Any, moves: list[LoggedMove], end: Any, *, ended: bool) -> PlayedTurn:
    mover = next((m.seat for m in moves if m.seat is not None), None)
    return PlayedTurn(start, tuple(moves), end, mover, ended)


def last_ended(turns: Sequence[PlayedTurn]) -> PlayedTurn | None:
    """The newest turn that ended (with a player's move in it)."""
    return next((t for t in reversed(turns) if t.ended and t.mover is not None), None)


def in_progress(turns: Sequence[PlayedTurn]) -> PlayedTurn | None:
    """The turn being played now, if it has moves already."""
    return turns[-1] if turns and not turns[-1].ended else None


def since_last_turn_of(turns: Sequence[PlayedTurn], seat: int) -> list[PlayedTurn]:
    """The ended turns the other seats played since ``seat``'s previous turn (or since the
    game began when ``seat`` has not played yet)."""
    played = [t for t in turns if t.ended and t.mover is not None]
    for i in range(len(played) - 1, -1, -1):
        if played[i].mover == seat:
            return played[i + 1 :]
    return played


async def turns_of(service: Any, snap: GameSnapshot) -> list[PlayedTurn]:
    """The turns of ``snap``'s game up to ``snap``'s version, from its stored move log."""
    if snap.state is None:
        return []
    moves = await service.history(snap.id)
    return split_turns(snap.game, len(snap.seats), snap.options, moves, until=snap.state)
