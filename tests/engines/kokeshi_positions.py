"""Builders shared by the Kokeshi engine tests (no tests here): positions written as in §13."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.kokeshi.engine.data import ach_tile, is_ach
from games.kokeshi.engine.rules import KokeshiEngine
from games.kokeshi.engine.state import NONE, KokeshiState, Phase

E = KokeshiEngine()
D = E.data
COLS = D.columns
ANIMALS = D.animals


def T(name: str) -> int:
    """Tile int from its rules-text name (``princess-N7``, ``fisherman:L1``)."""
    return D.tile_index(name)


def code(name: str) -> str:
    """Tile text code from its rules-text name."""
    tile = T(name)
    return f"ach:{name.replace(':L', ':')}" if is_ach(tile) else f"t{tile}"


def filler(count: int, avoid: Iterable[str] = ()) -> list[str]:
    """``count`` distinct normal tile names not in ``avoid`` (any tiles, for full tracks)."""
    skip = set(avoid)
    names = [k.name for k in D.tiles if k.name not in skip]
    return names[:count]


def build(
    seats: int = 2,
    cols: Mapping[str, list[str]] | None = None,
    pos: Mapping[str, int] | None = None,
    display: list[str] | None = None,
    others: Mapping[int, Mapping[str, list[str]]] | None = None,
    animals: Mapping[str, list[tuple[int, int]]] | None = None,
    bonus: Mapping[str, str] | None = None,
    happiness: tuple[int, ...] | None = None,
    side: str = "basic",
    active: int = 0,
    turns: int = 0,
    end_after: int = NONE,
) -> KokeshiState:
    """A state at the start of ``active``'s turn; every tile not mentioned is in the bag.

    ``cols`` is the active seat's board, ``others`` the other seats' boards. ``animals`` gives the
    (seat, position) entries of a track in arrival order (unlisted seats stay at 0, first).
    """
    boards: list[list[list[int]]] = [[[] for _ in COLS] for _ in range(seats)]
    for name, tiles in (cols or {}).items():
        boards[active][COLS.index(name)] = [T(t) for t in tiles]
    for seat, board in (others or {}).items():
        for name, tiles in board.items():
            boards[seat][COLS.index(name)] = [T(t) for t in tiles]
    positions = [[0] * len(COLS) for _ in range(seats)]
    for name, p in (pos or {}).items():
        positions[active][COLS.index(name)] = p
    disp = [T(t) for t in (display or [])]
    bonus_tiles = [NONE] * len(ANIMALS)
    for name, tile in (bonus or {}).items():
        bonus_tiles[ANIMALS.index(name)] = T(tile)
    tracks = []
    for a in ANIMALS:
        given = list((animals or {}).get(a, []))
        listed = {seat for seat, _ in given}
        tracks.append(tuple([(s, 0) for s in range(seats) if s not in listed] + given))
    used = {t for b in boards for col in b for t in col} | set(disp) | set(bonus_tiles)
    all_ach = [ach_tile(c, lv) for c in range(len(COLS)) for lv in D.levels]
    return KokeshiState(
        seats=seats,
        side=side,
        boards=tuple(tuple(tuple(c) for c in b) for b in boards),
        pos=tuple(tuple(p) for p in positions),
        happiness=happiness or (0,) * seats,
        animals=tuple(tracks),
        bonus=tuple(bonus_tiles),
        bag=tuple(t for t in range(len(D.tiles)) if t not in used),
        display=tuple(disp),
        ach_supply=tuple(sorted(t for t in all_ach if t not in used)),
        phase=Phase.MOVE,
        first=0,
        active=active,
        in_setup=False,
        setup_done=seats,
        turns=turns,
        turn=seats + turns,  # every seat's setup, then the turns played
        end_after=end_after,
    )


def play(s: KokeshiState, *codes: str, engine: KokeshiEngine = E) -> KokeshiState:
    """Apply action codes one by one, checking each is in the legal set."""
    for text in codes:
        a = engine.decode_action(text)
        legal = [engine.encode_action(x) for x in engine.legal_actions(s)]
        assert text in legal, f"{text} not in {legal}"
        s = engine.apply(s, a)
    return s


def legal_codes(s: KokeshiState, engine: KokeshiEngine = E) -> list[str]:
    return [engine.encode_action(a) for a in engine.legal_actions(s)]


def col(s: KokeshiState, name: str, seat: int = 0) -> list[str]:
    return [D.tile_name(t) for t in s.boards[seat][COLS.index(name)]]


def kpos(s: KokeshiState, name: str, seat: int = 0) -> int:
    return s.pos[seat][COLS.index(name)]


def marker(s: KokeshiState, animal: str, seat: int = 0) -> int:
    return s.animal_pos(ANIMALS.index(animal), seat)


def disp(s: KokeshiState) -> set[str]:
    return {D.tile_name(t) for t in s.display}
