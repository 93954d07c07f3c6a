"""What the service reads off a stored state (who moves, the legal moves, scores, turn, winners),
kept per game for the state it was worked out from.

Every action loads its game's row and every message shows a snapshot of it; decoding the state's
JSON and asking the engine for its legal moves and scores each time costs more than the rest of
a move's bookkeeping (a Harmonies board has dozens of legal placements). States are frozen, and
the same stored JSON always decodes to the same state, so a position is kept with the JSON it
came from and used again only for a row carrying exactly that JSON: another process's commit, a
rolled-back one or an older row simply decode afresh.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from engines.base import CHANCE, TERMINAL, Engine
from engines.registry import get_engine

#: games whose newest position a process keeps (least recently used first out)
KEPT_GAMES = 1024


@dataclass(frozen=True, slots=True)
class Position:
    """A decoded state and what the engine says of it (``legal``: empty unless a seat moves)."""

    state: Any
    mover: int
    legal: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int
    winners: tuple[int, ...]


def position_of(engine: Engine[Any, Any], state: Any) -> Position:
    mover = engine.to_move(state)
    seat_moves = mover not in (CHANCE, TERMINAL)
    return Position(
        state=state,
        mover=mover,
        legal=tuple(engine.encode_action(a) for a in engine.legal_actions(state))
        if seat_moves
        else (),
        scores=tuple(engine.scores(state)),
        turn=engine.turn(state),
        winners=tuple(engine.winners(state)),
    )


class Positions:
    """The newest position of each game this process read or wrote, by its state JSON."""

    def __init__(self, kept: int = KEPT_GAMES) -> None:
        self.kept = kept
        self._kept: OrderedDict[int, tuple[str, str, Position]] = OrderedDict()

    def of(self, game_id: int, game: str, state_json: str, state: Any = None) -> Position:
        """The position stored as ``state_json`` (``state``: already decoded from it)."""
        kept = self._kept.get(game_id)
        if kept is not None and kept[0] == game and kept[1] == state_json:
            self._kept.move_to_end(game_id)
            return kept[2]
        engine = get_engine(game)
        if state is None:
            state = engine.decode_state(json.loads(state_json))
        position = position_of(engine, state)
        self._kept[game_id] = (game, state_json, position)
        self._kept.move_to_end(game_id)
        while len(self._kept) > self.kept:
            self._kept.popitem(last=False)
        return position
