"""Nim for two: take any number of sticks from one heap; whoever takes the last stick wins
(or, with ``misere``, loses). A chance step draws who starts, so the game has a logged outcome."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.base import CHANCE, TERMINAL, GameInfo, OptionSpec
from engines.errors import BadActionText, IllegalAction, OldEncoding
from engines.rng import Rng

HEAPS = {"3-4-5": (3, 4, 5), "1-3-5-7": (1, 3, 5, 7)}
UNDRAWN = -1  # nobody to move yet: the first player is still to be drawn
_TAKE = re.compile(r"take:(\d):(\d)")
_FIRST = re.compile(r"first:(\d)")


@dataclass(frozen=True, slots=True)
class NimState:
    heaps: tuple[int, ...]
    misere: bool
    mover: int = UNDRAWN
    turn: int = 0
    winner: int | None = None
    last: tuple[int, int] | None = None  # (heap, sticks) of the latest take

    @property
    def seats(self) -> int:
        return 2


class NimEngine:
    info = GameInfo(
        name="nim",
        title="Nim",
        min_seats=2,
        max_seats=2,
        max_moves=1 + sum(HEAPS["1-3-5-7"]),
        rules_version=1,
        options=(
            OptionSpec("heaps", "choice", "3-4-5", tuple(HEAPS)),
            OptionSpec("misere", "bool", False),
        ),
    )

    def initial_state(self, seats: int, options: Mapping[str, object]) -> NimState:
        normal = self.info.normalize_options(options)
        return NimState(HEAPS[str(normal["heaps"])], bool(normal["misere"]))

    def to_move(self, s: NimState) -> int:
        if s.winner is not None:
            return TERMINAL
        return CHANCE if s.mover == UNDRAWN else s.mover

    def turn(self, s: NimState) -> int:
        return s.turn

    def legal_actions(self, s: NimState) -> Sequence[str]:
        mover = self.to_move(s)
        if mover == TERMINAL:
            return ()
        if mover == CHANCE:
            return ("first:0", "first:1")
        return tuple(
            f"take:{heap + 1}:{n}" for heap, size in enumerate(s.heaps) for n in range(1, size + 1)
        )

    def apply(self, s: NimState, a: str) -> NimState:
        if a not in self.legal_actions(s):
            raise IllegalAction(a)
        if first := _FIRST.fullmatch(a):
            return replace(s, mover=int(first[1]))
        take = _TAKE.fullmatch(a)
        assert take is not None
        heap, n = int(take[1]) - 1, int(take[2])
        heaps = tuple(size - n if i == heap else size for i, size in enumerate(s.heaps))
        other = 1 - s.mover
        winner = None
        if not any(heaps):
            winner = other if s.misere else s.mover
        return replace(s, heaps=heaps, mover=other, turn=s.turn + 1, winner=winner, last=(heap, n))

    def sample_chance(self, s: NimState, rng: Rng) -> str:
        return f"first:{rng.below(2)}"

    def scores(self, s: NimState) -> tuple[int, ...]:
        return tuple(int(s.winner == seat) for seat in range(s.seats))

    def winners(self, s: NimState) -> tuple[int, ...]:
        return () if s.winner is None else (s.winner,)

    def encode_action(self, a: str) -> str:
        return a

    def decode_action(self, text: str) -> str:
        if not (_TAKE.fullmatch(text) or _FIRST.fullmatch(text)):
            raise BadActionText(text)
        return text

    def encode_state(self, s: NimState) -> dict[str, Any]:
        return {
            "heaps": list(s.heaps),
            "misere": s.misere,
            "mover": s.mover,
            "turn": s.turn,
            "winner": s.winner,
            "last": list(s.last) if s.last else None,
        }

    def decode_state(self, d: Mapping[str, Any]) -> NimState:
        if "turn" not in d:
            raise OldEncoding("nim")
        last = d["last"]
        return NimState(
            tuple(d["heaps"]),
            bool(d["misere"]),
            int(d["mover"]),
            int(d["turn"]),
            d["winner"],
            (int(last[0]), int(last[1])) if last else None,
        )

    def view(self, s: NimState, seat: int | None) -> NimState:
        return s  # nothing is hidden
