"""Game-agnostic persistence: games, seats, the append-only move log and posted messages.

``open_store`` picks the backend from where the database is: a ``postgresql://`` URL is
PostgreSQL (``bot.storage.postgres``), anything else a SQLite file (``bot.storage.sqlite``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresStore
    from bot.storage.sqlite import SqliteStore


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def open_store(
    target: str | Path, *, pool_size: int = 5, synchronous: str = "FULL"
) -> SqliteStore | PostgresStore:
    """The store for ``target`` (not opened yet: ``async with open_store(...) as store``)."""
    if is_postgres_url(target):
        from bot.storage.postgres import PostgresStore

        return PostgresStore(str(target), pool_size=pool_size)
    from bot.storage.sqlite import SqliteStore

    return SqliteStore(target, synchronous=synchronous)
