"""Nim's computer opponents: easy takes at random, medium and hard play the nim-sum."""

from __future__ import annotations

from functools import reduce
from operator import xor

from engines.rng import Rng
from tests.games.nim.engine import NimEngine, NimState


class NimBot:
    def __init__(self, level: str) -> None:
        self.name = f"nim-{level}"
        self.level = level

    def choose(self, engine: NimEngine, state: NimState, rng: Rng) -> str:
        legal = list(engine.legal_actions(state))
        if self.level != "easy":
            for code in legal:
                if _wins(engine.apply(state, code)):
                    return code
        return rng.choice(legal)


def _wins(after: NimState) -> bool:
    """Is ``after`` lost for the seat to move (so the move into it wins)?"""
    if after.winner is not None:
        return after.winner != after.mover
    big = [h for h in after.heaps if h > 1]
    if after.misere and not big:
        return sum(after.heaps) % 2 == 1  # only single sticks left: an odd count loses
    return reduce(xor, after.heaps, 0) == 0


def make_bot(level: str) -> NimBot:
    return NimBot(level)
