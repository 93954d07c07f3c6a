"""Kokeshi state: frozen, hashable, JSON-codable.

Tiles are ints (see ``engines.kokeshi.data``: normal ``0..49``, achievement ``100 + 10c + L``).
Columns and kokeshi share the indices 0..4 (princess .. sumotori); animals are 0..3.
"""

from __future__ import annotations

from dataclasses import dataclass

NONE = -1

#: phases; the first two are chance steps, the rest are decisions of ``active``
PH_FIRST = "first"  # chance: pick the first player
PH_DRAW = "draw"  # chance: draw one tile from the bag (setup or display refill)
PH_START = "start"  # setup: place a drawn tile at space 1 of an empty column
PH_MOVE = "move"  # turn step 1: choose a kokeshi
PH_SIDE = "side"  # choose one side of an ``A / B`` tile
PH_PICK = "pick"  # choose the kokeshi an any/left/right effect moves
PH_ANIMAL = "animal"  # choose the animal track of a move_any_animal effect
PH_GAIN = "gain"  # choose a display tile (or an achievement tile after an empty landing)
PH_COL = "col"  # choose the column of an any-column gain or of a free tile
PH_PLACE = "place"  # choose which pending tile of a column goes in first
PH_OVER = "over"

#: markers used in the ``todo`` queue instead of a tile number
TODO_EMPTY_GAIN = -1  # (TODO_EMPTY_GAIN, column, 0): gain for a column after an empty landing
TODO_REFILL = -2  # (TODO_REFILL, 0, 0): refill the display to full
TODO_COLUMN = -3  # (TODO_COLUMN, tile, 0): choose the column of an any-column tile
EFFECT_CHOICE = -1  # (tile, EFFECT_CHOICE, column): the side of an A / B tile is still open


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
    things to do before the next queued move: ``(tile, effect_index, activating_column)`` or one of
    the ``TODO_*`` markers; ``pending`` the column-bound tiles gained this turn as
    ``(column, tile)``; ``free`` the free (animal bonus) tiles; ``hand`` the setup tiles drawn by
    ``active`` and not yet placed. ``turns`` counts finished turns (setup excluded); the active
    seat of turn ``n`` is ``(first + n) % seats``. ``end_after`` is the turn count at which the game
    ends once triggered (``NONE`` before).

    ``events`` narrates the current (or, between turns, the last) turn, one tuple per step:
      ``("move", column, from, to)`` a kokeshi moves (``to`` above the track = passing the top)
      ``("top", column, points)`` +points and home
      ``("fire", column, space, tile)`` a normal tile is resolved
      ``("side", tile, index)`` the side chosen on an A / B tile
      ``("extra", column, space)`` landed on an achievement tile: one more step
      ``("empty", column, space)`` empty space: home, gain for that column
      ``("queue", column, steps)`` a kokeshi move joins the queue
      ``("skip", tile, effect_index)`` an effect that could not be performed (index ``-1``:
        no side of an A / B tile could); ``("skip", -1, column)``: an empty landing with
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
    phase: str = PH_FIRST
    first: int = NONE
    active: int = NONE
    in_setup: bool = True
    setup_done: int = 0  # seats that have placed their setup tiles
    hand: tuple[int, ...] = ()
    queue: tuple[tuple[int, int], ...] = ()
    todo: tuple[tuple[int, int, int], ...] = ()
    pending: tuple[tuple[int, int], ...] = ()
    free: tuple[int, ...] = ()
    turns: int = 0
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
