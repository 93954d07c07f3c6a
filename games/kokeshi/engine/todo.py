"""The pending work of a turn: small typed records, stored as today's integer triples.

The ``todo`` queue of a state holds what must happen before the next queued kokeshi move. In the
stored JSON every item is a triple of ints, kept exactly as before the records existed so saved
games read the same: ``(tile, index, column)`` an effect, ``(tile, -1, column)`` an open A / B
side, ``(-1, column, 0)`` a gain after an empty landing, ``(-2, 0, 0)`` a display refill and
``(-3, tile, 0)`` the column of an any-column tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from games.kokeshi.engine.data import Data, Effect

#: the negative first numbers of the stored triples that are not a tile
_EMPTY_GAIN, _REFILL, _COLUMN = -1, -2, -3
#: the second number of an A / B tile whose side is still open
_OPEN_SIDE = -1

Triple = tuple[int, int, int]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class TileEffect:
    """Resolve effect ``index`` of ``tile``, the tile the kokeshi of ``column`` landed on."""

    tile: int
    index: int
    column: int

    def effect(self, data: Data) -> Effect:
        return data.tiles[self.tile].effects[self.index]


@dataclass(frozen=True, slots=True)
class SideChoice:
    """An ``A / B`` tile landed on in ``column``: its side is still to be chosen."""

    tile: int
    column: int


@dataclass(frozen=True, slots=True)
class EmptyGain:
    """A kokeshi landed on an empty space of ``column``: gain a tile for it."""

    column: int


@dataclass(frozen=True, slots=True)
class Refill:
    """Refill the display to full from the bag."""


@dataclass(frozen=True, slots=True)
class ColumnChoice:
    """A tile gained by an any-column effect waits for its column."""

    tile: int


Todo = TileEffect | SideChoice | EmptyGain | Refill | ColumnChoice


def encode(item: Todo) -> Triple:
    """The stored triple of one item."""
    match item:
        case TileEffect(tile, index, column):
            return (tile, index, column)
        case SideChoice(tile, column):
            return (tile, _OPEN_SIDE, column)
        case EmptyGain(column):
            return (_EMPTY_GAIN, column, 0)
        case Refill():
            return (_REFILL, 0, 0)
        case ColumnChoice(tile):
            return (_COLUMN, tile, 0)
    raise TypeError(f"not a todo item: {item!r}")


def decode(triple: Sequence[int]) -> Todo:
    """The item a stored triple stands for."""
    first, second, third = triple
    if first == _EMPTY_GAIN:
        return EmptyGain(second)
    if first == _REFILL:
        return Refill()
    if first == _COLUMN:
        return ColumnChoice(second)
    if second == _OPEN_SIDE:
        return SideChoice(first, third)
    return TileEffect(first, second, third)


def head(items: Sequence[Todo], kind: type[T]) -> T:
    """The first item, which the phase says is a ``kind`` (``TypeError`` when it is not)."""
    item = items[0] if items else None
    if not isinstance(item, kind):
        raise TypeError(f"expected {kind.__name__} first, not {item!r}")
    return item
