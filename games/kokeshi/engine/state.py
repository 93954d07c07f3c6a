"""Kokeshi state: frozen, hashable, JSON-codable.

Tiles are ints (see ``games.kokeshi.engine.data``: normal ``0..49``, achievement ``100 + 10c + L``).
Columns and kokeshi share the indices 0..4 (princess .. sumotori); animals are 0..3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.kokeshi.engine.todo import Todo

NONE = -1


class Phase(StrEnum):
    """Where the game stands; the values are what the stored JSON holds.

    The first two are chance steps, ``OVER`` ends the game, the rest are decisions of ``active``.
    """

    FIRST = "first"  # chance: pick the first player
    DRAW = "draw"  # chance: draw one tile from the bag (setup or display refill)
    START = "start"  # setup: place a drawn tile at space 1 of an empty column
    MOVE = "move"  # turn step 1: choose a kokeshi
    SIDE = "side"  # choose one side of an ``A / B`` tile
    PICK = "pick"  # choose the kokeshi an any/left/right effect moves
    ANIMAL = "animal"  # choose the animal track of a move_any_animal effect
    GAIN = "gain"  # choose a display tile (or an achievement tile after an empty landing)
    COL = "col"  # choose the column of an any-column gain or of a free tile
    PLACE = "place"  # choose which pending tile of a column goes in first
    OVER = "over"

    @property
    def is_chance(self) -> bool:
        return self in (Phase.FIRST, Phase.DRAW)


@dataclass(frozen=True, slots=True)
class KokeshiState:
    """One moment of a game; a pure value between any two actions.

    Board: ``boards[seat][column]`` lists the tiles bottom-up (space 1 first); ``pos[seat][column]``
    is the kokeshi position (0 = home). ``happiness`` holds in-game points (passing the top).
    Animals: ``animals[a]`` lists ``(seat, position)`` for every seat in arrival order, so among
    markers on one position the earlier entry is lower in the stack. ``bonus[a]`` is the bonus
    tile still lying on track ``a`` (``NONE`` once taken).
    Supply: ``bag`` (sorted, drawn lazily), ``display`` (in draw order), ``ach_supply`` (sorted),
    ``removed`` (out of the game: capped achievement tiles, free tiles with no room).

    Turn progress: ``queue`` is the FIFO of kokeshi moves ``(column, steps)``; ``todo`` the FIFO of
    things to do before the next queued move (the records of ``games.kokeshi.engine.todo``);
    ``pending`` the column-bound tiles gained this turn as ``(column, tile)``; ``free`` the free
    (animal bonus) tiles; ``hand`` the setup tiles drawn by ``active`` and not yet placed.
    ``turns`` counts finished turns (setup excluded); the active seat of turn ``n`` is
    ``(first + n) % seats``. ``end_after`` is the turn count at which the game
    ends once triggered (``NONE`` before). ``turn`` is the contract's count of ended turns
    (``Engine.turn``): one more when a seat has placed its setup tiles and when a played turn
    ends, so it equals ``setup_done + turns``.

    ``events`` narrates the current (or, between turns, the last) turn, one tuple per step:
      ``("move", column, from, to)`` a kokeshi moves (``to`` above the track = passing the top)
      ``("top", column, points)`` +points and home
      ``("fire", column, space, tile)`` a normal tile is resolved
      ``("side", tile, index)`` the side chosen on an A / B tile
      ``("extra", column, space)`` landed on an achievement tile: one more step
      ``("empty", column, space)`` empty space: home, gain for that column
      ``("queue", column, steps)`` a kokeshi move joins the queue
      ``("skip", tile, effect_index)`` an effect that could not be performed (index ``NONE``:
        no side of an A / B tile could); ``("skip", NONE, column)``: an empty landing with
        nothing to gain
      ``("animal", animal, position)`` the active marker advances
      ``("bonus", animal, tile)`` the animal bonus tile is taken (a free tile)
      ``("gain", column, tile)`` a tile is gained for a column (pending until placement)
      ``("draw", tile)`` a bag draw refills the display
      ``("place", column, space, tile)`` placement step
      ``("discard", tile)`` a free tile found no room and leaves the game
      ``("trigger", reason)`` the end is triggered (``"achievements"`` or ``"display"``)
    """

    seats: int
    side: str  # animal board side: basic | advanced
    boards: tuple[tuple[tuple[int, ...], ...], ...]
    pos: tuple[tuple[int, ...], ...]
    happiness: tuple[int, ...]
    animals: tuple[tuple[tuple[int, int], ...], ...]
    bonus: tuple[int, ...]
    bag: tuple[int, ...]
    display: tuple[int, ...] = ()
    ach_supply: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    phase: Phase = Phase.FIRST
    first: int = NONE
    active: int = NONE
    in_setup: bool = True
    setup_done: int = 0  # seats that have placed their setup tiles
    hand: tuple[int, ...] = ()
    queue: tuple[tuple[int, int], ...] = ()
    todo: tuple[Todo, ...] = ()
    pending: tuple[tuple[int, int], ...] = ()
    free: tuple[int, ...] = ()
    turns: int = 0
    turn: int = 0
    end_after: int = NONE
    events: tuple[tuple[str | int, ...], ...] = ()
    v: int = 1

    def height(self, seat: int, column: int) -> int:
        return len(self.boards[seat][column])

    def pending_for(self, column: int) -> tuple[int, ...]:
        return tuple(tile for col, tile in self.pending if col == column)

    def animal_pos(self, animal: int, seat: int) -> int:
        for who, where in self.animals[animal]:
            if who == seat:
                return where
        raise KeyError(seat)

    def stack(self, animal: int, position: int) -> tuple[int, ...]:
        """Seats on ``position`` of track ``animal``, bottom of the stack first."""
        return tuple(who for who, where in self.animals[animal] if where == position)

    def current_round(self) -> int:
        """The round being played, from 1; once the game is over, the last round played."""
        return self.turns // self.seats + (0 if self.phase == Phase.OVER else 1)

    def last_round(self) -> int | None:
        """The round after which the game ends, once the end is triggered (§8)."""
        return None if self.end_after == NONE else self.end_after // self.seats

    def turns_left(self) -> int | None:
        """Turns still to play, this one included, once the end is triggered."""
        return None if self.end_after == NONE else self.end_after - self.turns

    def place_column(self) -> int | None:
        """The column whose pending tiles' order the player chooses next (D22)."""
        return crowded_column(self.pending)


def crowded_column(pending: Sequence[tuple[int, int]]) -> int | None:
    """The first column holding two or more of the ``(column, tile)`` pending tiles."""
    counts = Counter(column for column, _ in pending)
    crowded = [column for column, count in counts.items() if count >= 2]
    return min(crowded) if crowded else None


def new_events(before: KokeshiState, after: KokeshiState) -> tuple[tuple[str | int, ...], ...]:
    """The events one action (with its chance steps) added: a move starts the turn's list anew."""
    if before.phase == Phase.MOVE:
        return after.events
    old = len(before.events)
    return after.events[old:] if after.events[:old] == before.events else after.events
