"""A game's move log cut into turns: what each turn began from, its moves and who played it.

The engine's turn counter (``engine.turn(state)``) decides: a turn is the stretch of logged moves
(the player's own and the chance steps they caused) that raises the counter once, with the chance
steps that follow it (refills, draws: resolved with the move that ended the turn) up to the next
player's first move. Replaying the log gives each turn's starting state, so a
presenter can tell the whole turn (the Can't Stop rolls of one turn are several actions) and
what the others did since a player's previous turn.

A public message needs only the newest turns (``recent_turns``), so ``TurnLog`` keeps, per game,
the turns split so far (those a message can need) and the state they reach; the next message
reads and applies only the moves logged since. It is a cache of this process: a game it does not
know (a restart, another process played it, an older snapshot) is split from its whole log.
``turns_of`` gives every turn of the game, from the whole log.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.models import GameSnapshot, LoggedMove
from bot.storage.base import GameStore
from engines.base import TERMINAL, Engine
from engines.errors import GameError
from engines.registry import get_engine
from engines.replay import replay

#: games whose turns a process keeps (least recently shown first out)
KEPT_GAMES = 1024


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


@dataclass(slots=True)
class TurnSplit:
    """The turns of a log read so far, one move at a time: the turns closed by the next
    player's first move (``closed``), and the open one (begun at ``start`` with ``taken``;
    ``rose``: it ended, and closes at the next player's move). ``count`` moves give ``state``."""

    engine: Engine[Any, Any]
    seats: int
    state: Any
    count: int = 0
    closed: list[PlayedTurn] = field(default_factory=list)
    start: Any = None
    taken: list[LoggedMove] = field(default_factory=list)
    rose: bool = False

    @classmethod
    def begin(cls, game: str, seats: int, options: dict[str, Any]) -> TurnSplit:
        """Before the first move of a game."""
        engine = get_engine(game)
        state = replay(engine, seats, options, ())
        return cls(engine, seats, state, start=state)

    def copy(self) -> TurnSplit:
        """A split to go on with, leaving this one as it is (states are never changed)."""
        return TurnSplit(
            self.engine,
            self.seats,
            self.state,
            self.count,
            list(self.closed),
            self.start,
            list(self.taken),
            self.rose,
        )

    def feed(self, moves: Iterable[LoggedMove]) -> None:
        """Apply the next moves of the log."""
        engine = self.engine
        for move in moves:
            if self.rose and move.seat is not None:  # the next player's first move: a new turn
                self.closed.append(_turn(self.start, self.taken, self.state, ended=True))
                self.start, self.taken, self.rose = self.state, [], False
            before = self.state
            after = engine.apply(before, engine.decode_action(move.action))
            self.taken.append(move)
            self.rose = (
                self.rose
                or engine.turn(after) > engine.turn(before)
                or engine.to_move(after) == TERMINAL
            )
            self.state = after
            self.count += 1

    def turns(self) -> list[PlayedTurn]:
        """The turns so far, the one being played last (if it has moves)."""
        if not self.taken:
            return list(self.closed)
        return [*self.closed, _turn(self.start, self.taken, self.state, ended=self.rose)]

    def forget_old(self) -> None:
        """Drop the closed turns no message can need any more: those before every seat's
        newest ended turn (``last_ended``, ``in_progress`` and ``since_last_turn_of`` give the
        same answers, for every seat, on what is left). Nothing goes while a seat has not
        played a turn yet (its "since the game began" needs them all)."""
        newest: dict[int, int] = {}
        for i, turn in enumerate(self.closed):
            if turn.ended and turn.mover is not None:
                newest[turn.mover] = i
        if len(newest) == self.seats:
            del self.closed[: min(newest.values())]


def split_turns(
    game: str, seats: int, options: dict[str, Any], moves: Sequence[LoggedMove], until: Any = None
) -> list[PlayedTurn]:
    """Every turn of the log, the one being played last (if it has moves). ``until``: the state
    the log is read up to, when newer moves may have been appended since it was stored (the log
    is cut after the last point where the replay equals it); else the whole log."""
    if until is not None:
        moves = moves[: _moves_until(game, seats, options, moves, until)]
    split = TurnSplit.begin(game, seats, options)
    split.feed(moves)
    return split.turns()


def _moves_until(
    game: str, seats: int, options: dict[str, Any], moves: Sequence[LoggedMove], until: Any
) -> int:
    """How many moves of the log reach ``until`` (the last point where the replay equals it;
    the whole log when none does)."""
    engine = get_engine(game)
    state = replay(engine, seats, options, ())
    same = 0 if state == until else None
    for i, move in enumerate(moves, start=1):
        state = engine.apply(state, engine.decode_action(move.action))
        if state == until:
            same = i
    return len(moves) if same is None or state == until else same


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


def _moves(rows: Iterable[Any]) -> list[LoggedMove]:
    return [LoggedMove(m.seq, m.seat, m.action) for m in rows]


class TurnLog:
    """The newest turns of the games this process shows, each kept with the move count and the
    state it reached: a game's next public message reads and applies only the moves logged
    since (``GameStore.moves`` from that count), so it costs the same at move 400 as at move 4.

    The log only grows, so what was split from its first N moves stays true. A game it does not
    hold, or holds past the snapshot asked about, is split from the whole log; and when the
    split does not reach the snapshot's stored state (or the moves since do not apply to it),
    the whole log is read again and nothing is kept."""

    def __init__(self, store: GameStore, kept: int = KEPT_GAMES) -> None:
        self.store = store
        self.kept = kept
        self._splits: OrderedDict[int, tuple[str, TurnSplit]] = OrderedDict()

    async def recent(self, snap: GameSnapshot) -> list[PlayedTurn]:
        """The newest turns of ``snap``'s game up to ``snap``'s moves: every one a message
        tells (``last_ended``, ``in_progress``, ``since_last_turn_of`` answer as on every turn;
        the older ones are left out, see ``TurnSplit.forget_old``)."""
        if snap.state is None:
            return []
        count = snap.move_count
        if count is None:  # a snapshot that does not say how many moves it is
            return await self.whole(snap)
        game = _game_key(snap)
        kept = self._splits.get(snap.id)
        if kept is not None and kept[0] == game and kept[1].count <= count:
            split = kept[1].copy()
            since = _moves(await self.store.moves(snap.id, split.count))[: count - split.count]
            try:
                split.feed(since)
            except GameError:  # the kept split is not where this log got to
                self._splits.pop(snap.id, None)
                return await self.whole(snap)
        else:
            split = TurnSplit.begin(snap.game, len(snap.seats), snap.options)
            split.feed(_moves(await self.store.moves(snap.id))[:count])
        if split.count != count or split.state != snap.state:
            self._splits.pop(snap.id, None)
            return await self.whole(snap)
        split.forget_old()
        newest = self._splits.get(snap.id)
        if newest is None or newest[0] != game or newest[1].count <= count:
            self._splits[snap.id] = (game, split)
            self._splits.move_to_end(snap.id)
            while len(self._splits) > self.kept:
                self._splits.popitem(last=False)
        return split.turns()

    async def whole(self, snap: GameSnapshot) -> list[PlayedTurn]:
        """Every turn, from the whole stored log read up to ``snap``'s move count (a snapshot
        without one: up to its state)."""
        if snap.state is None:
            return []
        moves = _moves(await self.store.moves(snap.id))
        if snap.move_count is not None and len(moves) >= snap.move_count:
            split = TurnSplit.begin(snap.game, len(snap.seats), snap.options)
            split.feed(moves[: snap.move_count])
            if split.state == snap.state:
                return split.turns()
        return split_turns(snap.game, len(snap.seats), snap.options, moves, until=snap.state)


def _game_key(snap: GameSnapshot) -> str:
    """What a game's log is replayed with: a kept split of another game is not used."""
    return json.dumps([snap.game, len(snap.seats), snap.options], sort_keys=True)


async def recent_turns(service: Any, snap: GameSnapshot) -> list[PlayedTurn]:
    """The newest turns of ``snap``'s game up to ``snap``'s version, every one a public message
    tells, through the service's ``TurnLog`` (only the moves since its previous message are
    read and applied)."""
    turn_log: TurnLog = service.turn_log
    return await turn_log.recent(snap)


async def turns_of(service: Any, snap: GameSnapshot) -> list[PlayedTurn]:
    """Every turn of ``snap``'s game up to ``snap``'s version, from its whole stored move log."""
    turn_log: TurnLog = service.turn_log
    return await turn_log.whole(snap)
