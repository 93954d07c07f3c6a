"""Kokeshi actions and their text codes.

Chance: ``first:2`` (seat 2 starts) · ``draw:t17`` (tile 17 comes out of the bag).
Player: ``start:t12:c2`` (setup tile 12 to column 2) · ``move:3`` (kokeshi of column 3 up one)
· ``side:a`` / ``side:b`` (side of an A / B tile) · ``pick:k2`` (the kokeshi an any/left/right
effect moves) · ``animal:fox`` · ``gain:t17`` / ``gain:ach:fisherman:1`` · ``col:4`` (column of an
any-column or free tile) · ``place:t17`` / ``place:ach:fisherman:1`` (next tile placed in a
column holding several pending tiles).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.errors import BadActionText
from games.kokeshi.engine.data import ach_colour, ach_level, ach_tile, is_ach, load

FIRST = "first"
DRAW = "draw"
START = "start"
MOVE = "move"
SIDE = "side"
PICK = "pick"
ANIMAL = "animal"
GAIN = "gain"
COL = "col"
PLACE = "place"

_TILE = r"(t\d{1,2}|ach:[a-z]+:\d)"
_PATTERNS = {
    FIRST: re.compile(r"first:(\d)"),
    DRAW: re.compile(r"draw:" + _TILE),
    START: re.compile(r"start:" + _TILE + r":c(\d)"),
    MOVE: re.compile(r"move:(\d)"),
    SIDE: re.compile(r"side:([ab])"),
    PICK: re.compile(r"pick:k(\d)"),
    ANIMAL: re.compile(r"animal:([a-z]+)"),
    GAIN: re.compile(r"gain:" + _TILE),
    COL: re.compile(r"col:(\d)"),
    PLACE: re.compile(r"place:" + _TILE),
}


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """``kind``: one of the names above; ``values``: ints (tiles, columns, seats, indices)."""

    kind: str
    values: tuple[int, ...] = ()


def act(kind: str, *values: int) -> Action:
    return Action(kind, tuple(values))


def tile_code(tile: int) -> str:
    data = load()
    if is_ach(tile):
        return f"ach:{data.columns[ach_colour(tile)]}:{ach_level(tile)}"
    return f"t{tile}"


def _tile(text: str) -> int:
    if text.startswith("t"):
        return int(text[1:])
    _, colour, level = text.split(":")
    columns = load().columns
    if colour not in columns:
        raise BadActionText(text)
    return ach_tile(columns.index(colour), int(level))


def encode(a: Action) -> str:
    v = a.values
    if a.kind in (DRAW, GAIN, PLACE):
        return f"{a.kind}:{tile_code(v[0])}"
    if a.kind == START:
        return f"start:{tile_code(v[0])}:c{v[1]}"
    if a.kind == SIDE:
        return "side:" + "ab"[v[0]]
    if a.kind == PICK:
        return f"pick:k{v[0]}"
    if a.kind == ANIMAL:
        return f"animal:{load().animals[v[0]]}"
    return f"{a.kind}:{v[0]}"


def decode(text: str) -> Action:
    text = text.strip().lower()
    kind = text.split(":", 1)[0]
    pattern = _PATTERNS.get(kind)
    m = pattern.fullmatch(text) if pattern else None
    if m is None:
        raise BadActionText(text)
    groups = m.groups()
    if kind in (DRAW, GAIN, PLACE):
        return act(kind, _tile(groups[0]))
    if kind == START:
        return act(kind, _tile(groups[0]), int(groups[1]))
    if kind == SIDE:
        return act(kind, "ab".index(groups[0]))
    if kind == ANIMAL:
        animals = load().animals
        if groups[0] not in animals:
            raise BadActionText(text)
        return act(kind, animals.index(groups[0]))
    return act(kind, int(groups[0]))
