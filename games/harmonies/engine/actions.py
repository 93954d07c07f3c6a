"""Harmonies actions and their text codes.

Player actions: ``keep:33`` (keep a dealt spirit card) · ``take:2`` (take all tokens of central
space 2, spaces numbered from 1) · ``place:blue:c3`` (put a taken token on hex c3) · ``card:17``
(take face-up animal card 17) · ``cube:17:c3`` (put card 17's next cube on c3) · ``discard:17``
(solo: discard a face-up card instead of taking one) · ``undo`` · ``end``.

Chance outcomes: ``first:2`` (seat 2 starts) · ``spirit:35`` (next spirit card dealt) ·
``draw:1:blue`` (one token from the bag into central space 1) · ``deal:17`` (animal card 17 into
the first empty display slot).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.errors import BadActionText
from games.harmonies.engine.cards import CARDS, COLOURS, Cell, hex_code, parse_hex

PLAYER_KINDS = ("keep", "take", "place", "card", "cube", "discard", "undo", "end")
CHANCE_KINDS = ("first", "spirit", "draw", "deal")


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """``num`` is a card id, a 1-based space number or a seat; ``cell`` an axial hex."""

    kind: str
    num: int = 0
    colour: str = ""
    cell: Cell | None = None


UNDO = Action("undo")
END = Action("end")


def encode(a: Action) -> str:
    if a.kind in ("undo", "end"):
        return a.kind
    if a.kind == "place" and a.cell is not None:
        return f"place:{a.colour}:{hex_code(a.cell)}"
    if a.kind == "cube" and a.cell is not None:
        return f"cube:{a.num}:{hex_code(a.cell)}"
    if a.kind == "draw":
        return f"draw:{a.num}:{a.colour}"
    return f"{a.kind}:{a.num}"


def _int(text: str) -> int:
    if not text.isdigit() or len(text) > 3:
        raise ValueError(text)
    return int(text)


def decode(text: str) -> Action:
    raw = text
    text = text.strip().lower()
    parts = text.split(":")
    kind = parts[0]
    try:
        if kind in ("undo", "end") and len(parts) == 1:
            return Action(kind)
        if kind == "place" and len(parts) == 3 and parts[1] in COLOURS:
            cell = parse_hex(parts[2])
            if cell is not None:
                return Action("place", colour=parts[1], cell=cell)
        if kind == "cube" and len(parts) == 3:
            cell = parse_hex(parts[2])
            num = _int(parts[1])
            if cell is not None and num in CARDS:
                return Action("cube", num=num, cell=cell)
        if kind == "draw" and len(parts) == 3 and parts[2] in COLOURS:
            return Action("draw", num=_int(parts[1]), colour=parts[2])
        if kind in ("keep", "card", "discard", "spirit", "deal") and len(parts) == 2:
            num = _int(parts[1])
            if num in CARDS:
                return Action(kind, num=num)
        if kind in ("take", "first") and len(parts) == 2:
            return Action(kind, num=_int(parts[1]))
    except ValueError:
        pass
    raise BadActionText(raw)
