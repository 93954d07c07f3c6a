from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.service.games import GameService
from bot.storage import open_store
from bot.storage.base import GameStore


class FakeClock:
    """A clock that ticks one second per reading, so timestamps are deterministic."""

    def __init__(self) -> None:
        self._ticks = itertools.count()

    def __call__(self) -> str:
        n = next(self._ticks)
        return f"2026-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}.000+00:00"


@pytest.fixture
async def store(database: str) -> AsyncIterator[GameStore]:
    """The store on each backend in turn (``database``: a SQLite file, a PostgreSQL database)."""
    async with open_store(database) as s:
        yield s


@pytest.fixture
async def service(store: GameStore) -> GameService:
    return GameService(store, clock=FakeClock(), new_seed=lambda: 12345)
