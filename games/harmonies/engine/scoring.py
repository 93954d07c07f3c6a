"""Harmonies scoring (rules §6, §7, §9): landscape categories, animal and spirit cards.

Every function reads only a board (stacks, cubes, cards), so the same code gives the running
score during play and the final score.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from games.harmonies.engine.cards import CARDS, NEIGHBOURS, SCORING, SOLO_SUNS
from games.harmonies.engine.state import HarmoniesState, Player

Stacks = Sequence[tuple[str, ...]]

CATEGORIES: tuple[str, ...] = (
    "trees",
    "mountains",
    "fields",
    "buildings",
    "water",
    "animals",
    "spirit",
)


def categories(s: HarmoniesState) -> tuple[str, ...]:
    """The categories this game scores: the spirit column only with the spirit cards."""
    return tuple(c for c in CATEGORIES if c != "spirit" or s.options.spirits)


_TREE = {int(k): v for k, v in SCORING["tree_by_height"].items()}
_MOUNTAIN = {int(k): v for k, v in SCORING["mountain_by_height"].items()}
_RIVER = {int(k): v for k, v in SCORING["river_points_by_length"].items()}


def top(stack: tuple[str, ...]) -> str:
    return stack[-1] if stack else ""


def is_building(stack: tuple[str, ...]) -> bool:
    return len(stack) == 2 and stack[-1] == "red"


def groups(side: str, cells: set[int]) -> list[list[int]]:
    """Connected groups (hex adjacency) of the given cell indexes, in a stable order."""
    seen: set[int] = set()
    found: list[list[int]] = []
    for start in sorted(cells):
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        for cell in group:
            for nb in NEIGHBOURS[side][cell]:
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    group.append(nb)
        found.append(sorted(group))
    return found


def trees(stacks: Stacks) -> int:
    return sum(_TREE[len(s)] for s in stacks if top(s) == "green")


def mountains(side: str, stacks: Stacks) -> int:
    grey = {i for i, s in enumerate(stacks) if top(s) == "grey"}
    return sum(
        _MOUNTAIN[len(stacks[i])] for i in grey if any(nb in grey for nb in NEIGHBOURS[side][i])
    )


def fields(side: str, stacks: Stacks) -> int:
    yellow = {i for i, s in enumerate(stacks) if top(s) == "yellow"}
    minimum = SCORING["field_group_min_size"]
    return sum(SCORING["field_group_points"] for g in groups(side, yellow) if len(g) >= minimum)


def buildings(side: str, stacks: Stacks) -> int:
    total = 0
    for i, s in enumerate(stacks):
        if is_building(s):
            colours = {top(stacks[nb]) for nb in NEIGHBOURS[side][i] if stacks[nb]}
            if len(colours) >= SCORING["building_min_distinct_neighbour_top_colours"]:
                total += SCORING["building_points"]
    return total


def river_points(length: int) -> int:
    if length in _RIVER:
        return int(_RIVER[length])
    longest = max(_RIVER)
    return int(_RIVER[longest] + (length - longest) * SCORING["river_points_per_token_beyond_6"])


def _diameter(side: str, group: list[int]) -> int:
    """Largest shortest-path distance inside the group, counted in hexes."""
    members = set(group)
    best = 0
    for start in group:
        dist = {start: 1}
        frontier = [start]
        for cell in frontier:
            for nb in NEIGHBOURS[side][cell]:
                if nb in members and nb not in dist:
                    dist[nb] = dist[cell] + 1
                    frontier.append(nb)
        best = max(best, max(dist.values()))
    return best


def _blocks(side: str, nodes: set[int]) -> list[set[int]]:
    """Biconnected components (as node sets) of the subgraph induced by ``nodes`` (Tarjan)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    edges: list[tuple[int, int]] = []
    found: list[set[int]] = []

    def visit(u: int, parent: int) -> None:
        index[u] = low[u] = len(index)
        for w in NEIGHBOURS[side][u]:
            if w not in nodes or w == parent:
                continue
            if w not in index:
                edges.append((u, w))
                visit(w, u)
                low[u] = min(low[u], low[w])
                if low[w] >= index[u]:
                    block: set[int] = set()
                    while True:
                        a, b = edges.pop()
                        block.update((a, b))
                        if (a, b) == (u, w):
                            break
                    found.append(block)
            elif index[w] < index[u]:
                edges.append((u, w))
                low[u] = min(low[u], index[w])

    for node in sorted(nodes):
        if node not in index:
            visit(node, -1)
    return found


def _path_bound(side: str, nodes: set[int], u: int, v: int) -> int:
    """Cells that can lie on a simple path from ``u`` to ``v`` inside ``nodes`` (0: no path).

    Those are the cells of the blocks on the u-v path of the block-cut tree.
    """
    blocks = _blocks(side, nodes)
    # block-cut tree search: from u's blocks, walk through shared cut cells to v
    by_cell: dict[int, list[int]] = {}
    for i, block in enumerate(blocks):
        for cell in block:
            by_cell.setdefault(cell, []).append(i)
    parent: dict[int, int] = {i: -1 for i in by_cell.get(u, [])}
    queue = list(parent)
    for i in queue:
        if v in blocks[i]:
            usable: set[int] = set()
            while i != -1:
                usable |= blocks[i]
                i = parent[i]
            return len(usable)
        for cell in blocks[i]:
            for j in by_cell[cell]:
                if j not in parent:
                    parent[j] = i
                    queue.append(j)
    return 0


@cache
def longest_ring(side: str, group: tuple[int, ...]) -> int:
    """Hexes on the largest chordless cycle of the group (0 if it has none).

    A chordless cycle is a loop whose hexes touch only their two loop neighbours: a ring around
    one or more hexes that are not in the group, or a triangle. Cycles with a shortcut across
    are not loops (rules E3c: adding a shortcut never lengthens a river).
    """
    best = 0
    for block in _blocks(side, set(group)):
        if len(block) < 3 or len(block) <= best:
            continue
        members = sorted(block)
        for index, start in enumerate(members):
            allowed = set(members[index:])
            if len(allowed) <= best:
                break
            best = max(best, _ring_from(side, start, allowed, best))
    return best


def _ring_from(side: str, start: int, allowed: set[int], best: int) -> int:
    """The longest chordless cycle through ``start`` inside ``allowed`` if longer than ``best``."""
    path = [start]
    on_path = {start}

    def extend(cell: int) -> None:
        nonlocal best
        for nb in NEIGHBOURS[side][cell]:
            if nb not in allowed or nb in on_path:
                continue
            touching = [x for x in NEIGHBOURS[side][nb] if x in on_path and x != cell]
            if not touching:
                free = (allowed - on_path) | {start}
                if len(path) + _path_bound(side, free, nb, start) - 1 <= best:
                    continue
                path.append(nb)
                on_path.add(nb)
                extend(nb)
                path.pop()
                on_path.discard(nb)
            elif touching == [start] and len(path) + 1 > best:
                best = len(path) + 1

    extend(start)
    return best


def river_length(side: str, stacks: Stacks, loops_diameter: bool = False) -> int:
    """Side A: the best blue group's length (D1: the larger of its diameter and largest loop)."""
    blue = {i for i, s in enumerate(stacks) if top(s) == "blue"}
    best = 0
    for g in groups(side, blue):
        length = _diameter(side, g)
        if not loops_diameter and len(g) > length and len(g) >= 3:
            length = max(length, longest_ring(side, tuple(g)))
        best = max(best, length)
    return best


def islands(side: str, stacks: Stacks) -> int:
    land = {i for i, s in enumerate(stacks) if top(s) != "blue"}
    return len(groups(side, land))


def water(side: str, stacks: Stacks, loops_diameter: bool = False) -> int:
    if side == "B":
        return islands(side, stacks) * int(SCORING["island_points"])
    return river_points(river_length(side, stacks, loops_diameter))


def card_points(card_id: int, placed: int) -> int:
    """Highest uncovered track value (0 without cubes); spirit cards score by their rule."""
    card = CARDS[card_id]
    if card.spirit or placed == 0:
        return 0
    return card.track[placed - 1]


def _by_size(table: dict[str, int], size: int) -> int:
    for key, points in table.items():
        low = int(key.rstrip("+"))
        if size == low or (key.endswith("+") and size >= low):
            return int(points)
    return 0


def spirit_points(card_id: int, side: str, stacks: Stacks) -> int:
    """A completed spirit card's bonus (§9), added to the landscape score (D6)."""
    rule: dict[str, Any] = dict(CARDS[card_id].scoring)
    kind = rule["kind"]
    if kind == "water_tokens":
        return int(rule["points_per_blue_hex"]) * sum(1 for s in stacks if top(s) == "blue")
    if kind in ("trees", "mountains_any"):
        colour = "green" if kind == "trees" else "grey"
        table = rule["points_by_height"]
        return sum(_by_size(table, len(s)) for s in stacks if top(s) == colour)
    if kind == "building_groups":
        cells = {i for i, s in enumerate(stacks) if is_building(s)}
    else:
        colour = "yellow" if kind == "field_groups" else "blue"
        cells = {i for i, s in enumerate(stacks) if top(s) == colour}
    table = rule["points_by_group_size"]
    return sum(_by_size(table, len(g)) for g in groups(side, cells))


def breakdown(side: str, player: Player, loops_diameter: bool = False) -> dict[str, int]:
    """Points per category (``CATEGORIES`` order) plus ``total``."""
    stacks = player.stacks
    spirit = 0
    for cid, placed in player.cards:
        if CARDS[cid].spirit and placed:
            spirit += spirit_points(cid, side, stacks)
    parts = {
        "trees": trees(stacks),
        "mountains": mountains(side, stacks),
        "fields": fields(side, stacks),
        "buildings": buildings(side, stacks),
        "water": water(side, stacks, loops_diameter),
        "animals": sum(card_points(cid, n) for cid, n in player.cards),
        "spirit": spirit,
    }
    parts["total"] = sum(parts.values())
    return parts


def state_breakdown(s: HarmoniesState) -> tuple[dict[str, int], ...]:
    """Per seat, the running score per category."""
    return tuple(breakdown(s.side, p, s.options.river_loops_diameter) for p in s.players)


def cubes_on_board(player: Player) -> int:
    return sum(1 for c in player.cubes if c)


def suns_for(total: int, side: str, spirits: bool, spirit_id: int = 0) -> int:
    """Solo suns (§11): by score, +1 on side A, +2 without spirits or +1 for a group spirit."""
    suns = 0
    for threshold, value in SOLO_SUNS["score_thresholds"]:
        if total >= threshold:
            suns = value
    suns += SOLO_SUNS["side_A_bonus"] if side == "A" else SOLO_SUNS["side_B_bonus"]
    if not spirits:
        suns += SOLO_SUNS["no_spirit_bonus"]
    elif spirit_id in SOLO_SUNS["group_spirit_ids"]:
        suns += SOLO_SUNS["group_spirit_bonus"]
    return int(suns)


def solo_suns(s: HarmoniesState) -> int:
    """The solo result in suns for seat 0's running score."""
    p = s.players[0]
    total = breakdown(s.side, p, s.options.river_loops_diameter)["total"]
    return suns_for(total, s.side, s.options.spirits, p.spirit())
