"""Apply ``migrations/NNNN_*.sql`` in order and record them in ``schema_version``."""

from __future__ import annotations

import logging
from importlib import resources

import aiosqlite

log = logging.getLogger(__name__)


def migration_scripts() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every bundled migration, in order."""
    folder = resources.files(__package__).joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(conn: aiosqlite.Connection) -> list[str]:
    """Bring the schema up to date; returns the names of the migrations applied now."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL"
        " DEFAULT CURRENT_TIMESTAMP)"
    )
    async with conn.execute("SELECT version FROM schema_version") as cursor:
        done = {row[0] for row in await cursor.fetchall()}
    applied = []
    for number, name, sql in migration_scripts():
        if number in done:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(sql):
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name) VALUES (?, ?)", (number, name)
            )
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        log.info("applied migration %s", name)
        applied.append(name)
    return applied


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of literals)."""
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    return [part.strip() for part in "\n".join(lines).split(";") if part.strip()]
