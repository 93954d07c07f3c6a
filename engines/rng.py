"""The only source of randomness: a small, versioned PRNG over (game seed, step number).

Built on SHA-256 so its output never changes with a Python upgrade. Each chance step gets its own
generator, ``Rng.for_step(seed, seq)``; replays read logged outcomes and never draw again, so
changing this module can only affect new games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

RNG_VERSION = 1


class Rng:
    """Deterministic stream of integers for one chance step."""

    __slots__ = ("_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0

    @classmethod
    def for_step(cls, seed: int, seq: int) -> Rng:
        return cls(f"boardroom-rng:v{RNG_VERSION}:{seed}:{seq}".encode())

    def _next64(self) -> int:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted_index(self, weights: Sequence[int]) -> int:
        """Index ``i`` with probability ``weights[i] / sum(weights)`` (a draw from a bag)."""
        total = sum(weights)
        pick = self.below(total)
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable")
