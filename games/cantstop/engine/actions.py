"""Can't Stop actions and their text codes.

``roll`` · ``stop`` · ``dice:1-3-4-6`` (chance) · ``move:6+8`` / ``move:7+7`` / ``move:5``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.errors import BadActionText

_DICE = re.compile(r"dice:([1-6])-([1-6])-([1-6])-([1-6])")
_MOVE = re.compile(r"move:(\d{1,2})(?:\+(\d{1,2}))?")


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """``kind`` is roll, stop, dice or move; ``values`` holds dice or the column steps (sorted)."""

    kind: str
    values: tuple[int, ...] = ()


ROLL = Action("roll")
STOP = Action("stop")


def move(*columns: int) -> Action:
    return Action("move", tuple(sorted(columns)))


def dice(*values: int) -> Action:
    return Action("dice", tuple(values))


def encode(action: Action) -> str:
    if action.kind == "dice":
        return "dice:" + "-".join(map(str, action.values))
    if action.kind == "move":
        return "move:" + "+".join(map(str, action.values))
    return action.kind


def decode(text: str) -> Action:
    text = text.strip().lower()
    if text in ("roll", "stop"):
        return Action(text)
    if m := _DICE.fullmatch(text):
        return dice(*(int(g) for g in m.groups()))
    if m := _MOVE.fullmatch(text):
        cols = [int(g) for g in m.groups() if g is not None]
        if all(2 <= c <= 12 for c in cols):
            return move(*cols)
    raise BadActionText(text)
