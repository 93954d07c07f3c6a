"""Harmonies component data (rules §14, kept verbatim in ``data.json``) as typed constants.

Coordinates are axial ``(q, r)`` on flat-topped hexes in columns (odd columns sit lower). A hex's
text code is its column letter and 1-based row from the top of that column: ``(2, 1)`` is ``c3``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

DATA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8")
)

#: token colours in bag order (the order of chance outcomes and of the bag counts)
COLOURS: tuple[str, ...] = ("blue", "grey", "brown", "green", "yellow", "red")
BAG: tuple[int, ...] = tuple(DATA["tokens"][c] for c in COLOURS)
TOKENS_TOTAL: int = DATA["tokens"]["total"]
PER_SLOT: int = DATA["central_board"]["tokens_per_space"]
MAX_IN_PROGRESS: int = DATA["max_cards_in_progress"]

Cell = tuple[int, int]

#: neighbour steps N, NE, SE, S, SW, NW
DIRECTIONS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

BOARD_CELLS: dict[str, tuple[Cell, ...]] = {
    side: tuple((q, r) for q, r in spec["cells"]) for side, spec in DATA["boards"].items()
}
CELL_INDEX: dict[str, dict[Cell, int]] = {
    side: {cell: i for i, cell in enumerate(cells)} for side, cells in BOARD_CELLS.items()
}
#: per side, per cell index: indexes of the adjacent board cells
NEIGHBOURS: dict[str, tuple[tuple[int, ...], ...]] = {
    side: tuple(
        tuple(
            CELL_INDEX[side][(q + dq, r + dr)]
            for dq, dr in DIRECTIONS
            if (q + dq, r + dr) in CELL_INDEX[side]
        )
        for q, r in cells
    )
    for side, cells in BOARD_CELLS.items()
}

#: exact stacks (bottom -> top) each pattern kind accepts
KIND_STACKS: dict[str, frozenset[tuple[str, ...]]] = {
    "W": frozenset({("blue",)}),
    "F": frozenset({("yellow",)}),
    "T1": frozenset({("green",)}),
    "T2": frozenset({("brown", "green")}),
    "T3": frozenset({("brown", "brown", "green")}),
    "M1": frozenset({("grey",)}),
    "M2": frozenset({("grey", "grey")}),
    "M3": frozenset({("grey", "grey", "grey")}),
    "B": frozenset({("grey", "red"), ("brown", "red"), ("red", "red")}),
}

#: what may be added on top of a stack (empty stack: anything); everything else is blocked
ADDABLE: dict[tuple[str, ...], frozenset[str]] = {
    (): frozenset(COLOURS),
    ("brown",): frozenset({"brown", "green", "red"}),
    ("brown", "brown"): frozenset({"green"}),
    ("grey",): frozenset({"grey", "red"}),
    ("grey", "grey"): frozenset({"grey"}),
    ("red",): frozenset({"red"}),
}


def rotate(cell: Cell) -> Cell:
    """Rotate an offset by 60 degrees clockwise."""
    dq, dr = cell
    return (-dr, dq + dr)


def hex_code(cell: Cell) -> str:
    """``(q, r)`` -> ``c3``: column letter and 1-based row from the top of the column."""
    q, r = cell
    return f"{chr(ord('a') + q)}{r + (q - (q & 1)) // 2 + 1}"


def parse_hex(code: str) -> Cell | None:
    if len(code) != 2 or not "a" <= code[0] <= "g" or not "1" <= code[1] <= "5":
        return None
    q = ord(code[0]) - ord("a")
    return (q, int(code[1]) - 1 - (q - (q & 1)) // 2)


@dataclass(frozen=True, slots=True)
class Card:
    """An animal or spirit card. ``rotations`` holds the distinct rotated patterns, each a tuple
    of ``((dq, dr), kind)`` cells with the cube hex ``(0, 0)`` first."""

    id: int
    name: str
    track: tuple[int, ...]
    pattern: tuple[tuple[Cell, str], ...]
    rotations: tuple[tuple[tuple[Cell, str], ...], ...]
    spirit: bool
    scoring: tuple[tuple[str, Any], ...] = ()

    @property
    def cube_kind(self) -> str:
        return self.pattern[0][1]


def _rotations(pattern: tuple[tuple[Cell, str], ...]) -> tuple[tuple[tuple[Cell, str], ...], ...]:
    found: list[tuple[tuple[Cell, str], ...]] = []
    current = pattern
    for _ in range(6):
        key = tuple(sorted(current))
        if key not in {tuple(sorted(f)) for f in found}:
            found.append(current)
        current = tuple((rotate(c), kind) for c, kind in current)
    return tuple(found)


def _card(raw: dict[str, Any], spirit: bool) -> Card:
    cells = sorted(((dq, dr), kind) for dq, dr, kind in raw["pattern"])
    cells.sort(key=lambda item: item[0] != (0, 0))  # cube hex first
    pattern = tuple(cells)
    return Card(
        id=raw["id"],
        name=raw["name"],
        track=tuple(raw.get("track", (0,))),
        pattern=pattern,
        rotations=_rotations(pattern),
        spirit=spirit,
        scoring=tuple(sorted(raw.get("scoring", {}).items())),
    )


CARDS: dict[int, Card] = {
    **{raw["id"]: _card(raw, False) for raw in DATA["animal_cards"]},
    **{raw["id"]: _card(raw, True) for raw in DATA["spirit_cards"]},
}
ANIMAL_IDS: tuple[int, ...] = tuple(sorted(c.id for c in CARDS.values() if not c.spirit))
SPIRIT_IDS: tuple[int, ...] = tuple(sorted(c.id for c in CARDS.values() if c.spirit))

SCORING: dict[str, Any] = DATA["scoring"]
SOLO_SUNS: dict[str, Any] = DATA["solo_suns"]


def slots_for(seats: int) -> int:
    """Central board spaces (solo uses the 3-space side)."""
    key = "solo_spaces" if seats == 1 else "multiplayer_spaces"
    return int(DATA["central_board"][key])


def display_size(seats: int) -> int:
    return int(DATA["animal_river_face_up"]["solo" if seats == 1 else "multiplayer"])
