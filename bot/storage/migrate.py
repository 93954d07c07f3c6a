"""One series of migrations for both backends: ``migrations/NNNN_*.sql``, recorded in
``schema_version`` (number, file name, when).

A migration is written once; where SQLite and PostgreSQL spell a type differently it says so
with a word in braces (``{id}``), which ``bot.storage.dialect`` fills in. The numbers are the
ones SQLite databases have always recorded, so those open as they are, at whatever level. A
PostgreSQL database made before the one series recorded its own numbers in
``schema_migrations``; they are translated (``POSTGRES_BEFORE``) the first time it opens.
Everything a start-up migrates happens in one transaction that other processes wait for.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from importlib import resources
from typing import Protocol

from bot.storage.connection import Connection

log = logging.getLogger(__name__)

#: each number of the former PostgreSQL series and the migrations of the one series it made
POSTGRES_BEFORE: Mapping[int, tuple[int, ...]] = {
    1: (1, 2, 3, 4, 5),  # 0001_init: the SQLite schema as 0001-0005 left it
    2: (6,),  # 0002_async_play
    3: (9,),  # 0003_meta
    4: (7,),  # 0004_ratings
    5: (8,),  # 0005_after_the_game
}

_RECORD = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)
_DONE = "SELECT version FROM schema_version"
_RECORD_ONE = (
    "INSERT INTO schema_version (version, name, applied_at) VALUES (:version, :name, :applied_at)"
)


class Migrating(Protocol):
    """A backend's connection, able to run all of a start-up's migrations as one transaction
    that no other process runs at the same time."""

    def transaction(self) -> AbstractAsyncContextManager[Connection]: ...


def migration_scripts() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every bundled migration, in order."""
    folder = resources.files(__package__).joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(target: Migrating) -> list[str]:
    """Bring the schema up to date; returns the names of the migrations applied now."""
    scripts = migration_scripts()
    applied = []
    async with target.transaction() as db:
        await db.run(_RECORD)
        await _translate_postgres_records(db, {number: name for number, name, _ in scripts})
        done = {row[0] for row in await db.rows(_DONE)}
        for number, name, sql in scripts:
            if number in done:
                continue
            await db.script(sql)
            await db.run(_RECORD_ONE, version=number, name=name, applied_at=_now())
            log.info("applied migration %s", name)
            applied.append(name)
    return applied


async def _translate_postgres_records(db: Connection, names: Mapping[int, str]) -> None:
    """A database of the former PostgreSQL series: record what it has in the one series."""
    if not await db.table_columns("schema_migrations"):
        return
    for old, applied_at in await db.rows(
        "SELECT version, CAST(applied_at AS TEXT) FROM schema_migrations ORDER BY version"
    ):
        for number in POSTGRES_BEFORE[old]:
            await db.run(_RECORD_ONE, version=number, name=names[number], applied_at=applied_at)
    await db.run("DROP TABLE schema_migrations")
    log.info("recorded the migrations of the former PostgreSQL series in schema_version")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")  # as SQLite's CURRENT_TIMESTAMP
