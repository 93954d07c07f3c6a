"""Kokeshi component data, read once from ``data.json`` (games/kokeshi/rules.md §11).

Every number of the game lives in the JSON file, so a corrected value is a data change only.
Tiles are plain ints in states: normal tile ``i`` is entry ``i`` of ``normal_tiles`` (text code
``t<i>``); achievement tile of colour ``c`` and level ``L`` is ``ACH_BASE + 10 * c + L``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

ACH_BASE = 100

#: effect type names used in the data file
MOVE_KOKESHI = "move_kokeshi"
MOVE_ANY = "move_any_kokeshi"
MOVE_RIGHT = "move_kokeshi_right"
MOVE_LEFT = "move_kokeshi_left"
MOVE_ANIMAL = "move_animal"
MOVE_ANY_ANIMAL = "move_any_animal"
GAIN_TILE = "gain_tile"
SAME_COLUMN = "same_column"
ANY_COLUMN = "any_column"


@dataclass(frozen=True, slots=True)
class Effect:
    """One printed effect; ``kokeshi``/``animal`` are indices (-1 when not used)."""

    type: str
    steps: int = 1
    kokeshi: int = -1
    animal: int = -1
    where: str = ""


@dataclass(frozen=True, slots=True)
class TileKind:
    name: str  # e.g. "princess-N7"
    colour: int
    kind: str
    mode: str  # single | both | choice
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Data:
    """The parsed data file. Dict-valued fields are keyed by level or player count."""

    columns: tuple[str, ...]
    spaces: int
    yellow: dict[int, int]
    pass_top: int
    height_score: dict[int, int]
    levels: tuple[int, ...]
    ach_points: dict[int, int]
    max_owners: dict[int, int]
    ach_extra_steps: int
    animals: tuple[str, ...]
    animal_positions: int
    midline: int
    bonus_index: int
    animal_points: dict[str, tuple[int, ...]]
    leader_bonus: int
    display_size: int
    setup_tiles: int
    trigger: dict[int, int]
    adjacency: int
    tiles: tuple[TileKind, ...]

    @property
    def top_index(self) -> int:
        return self.animal_positions - 1

    def tile_index(self, name: str) -> int:
        """The int of a tile named as in the rules text: ``princess-N7`` or ``fisherman:L1``."""
        if ":L" in name:
            colour, level = name.split(":L")
            return ach_tile(self.columns.index(colour), int(level))
        for i, kind in enumerate(self.tiles):
            if kind.name == name:
                return i
        raise KeyError(name)

    def colour_of(self, tile: int) -> int:
        return ach_colour(tile) if is_ach(tile) else self.tiles[tile].colour

    def tile_name(self, tile: int) -> str:
        if is_ach(tile):
            return f"{self.columns[ach_colour(tile)]}:L{ach_level(tile)}"
        return self.tiles[tile].name


def is_ach(tile: int) -> bool:
    return tile >= ACH_BASE


def ach_tile(colour: int, level: int) -> int:
    return ACH_BASE + 10 * colour + level


def ach_colour(tile: int) -> int:
    return (tile - ACH_BASE) // 10


def ach_level(tile: int) -> int:
    return (tile - ACH_BASE) % 10


def _effect(raw: dict[str, Any], columns: list[str], animals: list[str]) -> Effect:
    return Effect(
        type=raw["type"],
        steps=int(raw.get("steps", 1)),
        kokeshi=columns.index(raw["kokeshi"]) if "kokeshi" in raw else -1,
        animal=animals.index(raw["animal"]) if "animal" in raw else -1,
        where=raw.get("where", ""),
    )


def parse(raw: dict[str, Any]) -> Data:
    """Build ``Data`` from the decoded JSON (tests use this for synthetic tiles)."""
    columns = list(raw["kokeshi_columns"])
    animals = raw["animals"]
    ids = list(animals["ids"])
    ach = raw["achievement_tiles"]
    track = raw["track"]
    tiles = tuple(
        TileKind(
            name=t["id"],
            colour=columns.index(t["colour"]),
            kind=t["kind"],
            mode=t["mode"],
            effects=tuple(_effect(e, columns, ids) for e in t["effects"]),
        )
        for t in raw["normal_tiles"]
    )
    return Data(
        columns=tuple(columns),
        spaces=int(track["spaces"]),
        yellow={int(k): int(v) for k, v in track["yellow_level_space"].items()},
        pass_top=int(track["pass_top_happiness"]),
        height_score={int(k): int(v) for k, v in track["height_score"].items()},
        levels=tuple(int(x) for x in ach["per_colour_levels"]),
        ach_points={int(k): int(v) for k, v in ach["points"].items()},
        max_owners={int(k): int(v) for k, v in ach["max_owners_per_colour"].items()},
        ach_extra_steps=int(ach["extra_steps"]),
        animals=tuple(ids),
        animal_positions=int(animals["positions"]),
        midline=int(animals["midline_first_index"]),
        bonus_index=int(animals["bonus_tile_at_index"]),
        animal_points={k: tuple(v) for k, v in animals["points"].items()},
        leader_bonus=int(animals["leader_bonus"]),
        display_size=int(raw["display_size"]),
        setup_tiles=int(raw["setup_tiles_per_player"]),
        trigger={int(k): int(v) for k, v in raw["end_trigger_achievements"].items()},
        adjacency=int(raw["adjacency_penalty_per_pair"]),
        tiles=tiles,
    )


def raw_data() -> dict[str, Any]:
    """The data file as decoded JSON (a fresh copy each call)."""
    text = resources.files(__package__).joinpath("data.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


@cache
def load() -> Data:
    return parse(raw_data())
