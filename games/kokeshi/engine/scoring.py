"""Final scoring (§9) and the tie-breaks (D27), recounted from the board every time."""

from __future__ import annotations

from games.kokeshi.engine.data import Data, ach_level, is_ach
from games.kokeshi.engine.state import NONE, KokeshiState

#: breakdown keys, in the order of §9 (in-game happiness first, total last)
STEPS = ("happiness", "height", "achievements", "animals", "leaders", "adjacency", "total")


def track_height_points(data: Data, height: int) -> int:
    """D24: only the highest level reached counts."""
    best = 0
    for level, space in data.yellow.items():
        if height >= space:
            best = max(best, data.height_score[level])
    return best


def adjacency_pairs(data: Data, board: tuple[tuple[int, ...], ...]) -> int:
    """D26: orthogonal same-colour pairs, achievement tiles included."""
    pairs = 0
    for c, column in enumerate(board):
        for i, tile in enumerate(column):
            colour = data.colour_of(tile)
            if i + 1 < len(column) and data.colour_of(column[i + 1]) == colour:
                pairs += 1
            right = board[c + 1] if c + 1 < len(board) else ()
            if i < len(right) and data.colour_of(right[i]) == colour:
                pairs += 1
    return pairs


def leader(s: KokeshiState, animal: int) -> int:
    """The most advanced seat on a track; ties go to the earlier arrival (D25: none at 0)."""
    best = max(where for _, where in s.animals[animal])
    if best == 0:
        return NONE
    return next(who for who, where in s.animals[animal] if where == best)


def achievement_count(data: Data, s: KokeshiState, seat: int) -> int:
    """Achievement tiles owned (placed or pending) plus midlines passed (§8, C1)."""
    tiles = sum(1 for col in s.boards[seat] for t in col if is_ach(t))
    if seat == s.active:
        tiles += sum(1 for _, t in s.pending if is_ach(t))
    lines = sum(1 for a in range(len(s.animals)) if s.animal_pos(a, seat) >= data.midline)
    return tiles + lines


def breakdown(data: Data, s: KokeshiState, seat: int) -> dict[str, int]:
    """Points per scoring step for ``seat`` as if the game were scored now (placed tiles only)."""
    board = s.boards[seat]
    points = data.animal_points[s.side]
    parts = {
        "happiness": s.happiness[seat],
        "height": sum(track_height_points(data, len(col)) for col in board),
        "achievements": sum(
            data.ach_points[ach_level(t)] for col in board for t in col if is_ach(t)
        ),
        "animals": sum(points[s.animal_pos(a, seat)] for a in range(len(s.animals))),
        "leaders": sum(data.leader_bonus for a in range(len(s.animals)) if leader(s, a) == seat),
        "adjacency": data.adjacency * adjacency_pairs(data, board),
    }
    parts["total"] = sum(parts.values())
    return parts


def totals(data: Data, s: KokeshiState) -> tuple[int, ...]:
    return tuple(breakdown(data, s, seat)["total"] for seat in range(s.seats))


def ranking_key(data: Data, s: KokeshiState, seat: int) -> tuple[int, int, int]:
    """Higher is better: total, then achievements, then fewer adjacency pairs (D27)."""
    return (
        breakdown(data, s, seat)["total"],
        achievement_count(data, s, seat),
        -adjacency_pairs(data, s.boards[seat]),
    )


def tiebreak(data: Data, s: KokeshiState) -> str | None:
    """The tie-break (D27) that separated seats level on points: ``"achievements"``,
    ``"pairs"`` (fewer adjacency pairs), or None when no tie-break decided anything."""
    keys = [ranking_key(data, s, seat) for seat in range(s.seats)]
    best = max(total for total, _, _ in keys)
    tied = [key for key in keys if key[0] == best]
    if len({achievements for _, achievements, _ in tied}) > 1:
        return "achievements"
    if len({pairs for _, _, pairs in tied}) > 1:
        return "pairs"
    return None


def best_seats(data: Data, s: KokeshiState) -> tuple[int, ...]:
    keys = [ranking_key(data, s, seat) for seat in range(s.seats)]
    top = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == top)
