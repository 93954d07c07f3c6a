"""``boardroom copy-db``: move every row from one database to another (SQLite ↔ PostgreSQL).

The tables to copy are listed once, here, parents before children; a table a later migration
adds goes on the list and is copied wherever both databases have it (the columns both have). The
target must hold no games yet. Every game of the source must replay to its stored state before
anything is written, the rows go over in one transaction (ids kept), and afterwards every game
of the target must replay to its stored state and every copied table must read back the same.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.storage import is_postgres_url, open_store

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresStore
    from bot.storage.sqlite import SqliteStore

    Store = SqliteStore | PostgresStore

#: every table with data, parents first (rows of a child point at rows copied before them)
COPIED_TABLES: tuple[str, ...] = (
    "games",
    "seats",
    "moves",
    "posts",
    "server_settings",
    "timers",  # migration 0006 on: asynchronous play
    "votes",
    "ballots",
    "player_settings",
    "away",
    "game_outcomes",  # migration 0007 on: results and ratings
    "game_results",
    "ratings",
    "rating_history",
    "meta",  # migration 0009 on
    "private_steps",  # migration 0010 on
    "away_periods",  # migration 0011 on
    "reminded",  # migration 0014 on
)


class CopyRefused(Exception):
    """Nothing was written; ``reason`` is one of ``no_source``, ``target_not_empty``,
    ``source_not_verified`` (then ``games`` lists the games that do not replay)."""

    def __init__(self, reason: str, games: Sequence[int] = ()) -> None:
        super().__init__(reason, tuple(games))
        self.reason = reason
        self.games = tuple(games)


class CopyFailed(Exception):
    """The rows were written but do not read back the same (``games``: those that do not
    replay; ``tables``: those whose rows differ)."""

    def __init__(self, games: Sequence[int], tables: Sequence[str]) -> None:
        super().__init__(tuple(games), tuple(tables))
        self.games = tuple(games)
        self.tables = tuple(tables)


@dataclass
class CopyReport:
    games: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # listed tables one side lacks


async def _plan(source: Store, target: Store) -> tuple[dict[str, list[str]], list[str]]:
    """The columns to copy per table (those both sides have), and the tables one side lacks."""
    plan: dict[str, list[str]] = {}
    skipped = []
    for table in COPIED_TABLES:
        theirs = set(await source.table_columns(table))
        ours = await target.table_columns(table)
        columns = [c for c in ours if c in theirs]
        if theirs and ours:
            plan[table] = columns
        else:
            skipped.append(table)
    return plan, skipped


#: the games of a store whose move log does not replay to their stored state (the caller's
#: game service knows how to replay; storage itself knows rows only)
Unverified = Callable[["Store"], Awaitable[list[int]]]


async def copy_database(
    source_target: str | Path, target_target: str | Path, unverified: Unverified
) -> CopyReport:
    """Copy everything from ``source_target`` into ``target_target`` (a file or a URL)."""
    if not is_postgres_url(source_target) and not Path(source_target).is_file():
        raise CopyRefused("no_source")
    async with open_store(source_target) as source, open_store(target_target) as target:
        if await target.table_rows("games", ["id"]):
            raise CopyRefused("target_not_empty")
        bad = await unverified(source)
        if bad:
            raise CopyRefused("source_not_verified", bad)
        plan, skipped = await _plan(source, target)
        report = CopyReport(skipped=skipped)
        read: dict[str, list[tuple[Any, ...]]] = {}
        for table, columns in plan.items():
            read[table] = await source.table_rows(table, columns)
        async with target.write() as tx:
            for table, columns in plan.items():
                await tx.insert_rows(table, columns, read[table])
                report.rows[table] = len(read[table])
            await tx.after_copy()
        report.games = report.rows.get("games", 0)
        differing = [
            table
            for table, columns in plan.items()
            if await target.table_rows(table, columns) != read[table]
        ]
        bad = await unverified(target)
        if bad or differing:
            raise CopyFailed(bad, differing)
        return report
