"""What the store needs of one database connection: running the statements of
``bot.storage.statements``, and the few things only one backend has to do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Connection(Protocol):
    """A connection of one backend (``bot.storage.sqlite.SqliteConnection``,
    ``bot.storage.postgres.PostgresConnection``). Parameters go by name (``game_id=3``); a
    list stands for its values (``IN (:kinds)``)."""

    #: what a broken unique index raises (e.g. a second open game in a channel)
    duplicate_key: tuple[type[Exception], ...]

    async def rows(self, sql: str, /, **params: Any) -> Sequence[Sequence[Any]]: ...

    async def row(self, sql: str, /, **params: Any) -> Sequence[Any] | None: ...

    async def value(self, sql: str, /, **params: Any) -> Any:
        """The first column of the first row (None: no row)."""
        ...

    async def run(self, sql: str, /, **params: Any) -> int:
        """Run a statement; returns how many rows it changed."""
        ...

    async def run_many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> None: ...

    async def script(self, sql: str) -> None:
        """Several statements without parameters (a migration), in the transaction under way."""
        ...

    async def table_columns(self, table: str) -> list[str]:
        """The table's columns in their order (empty when there is no such table)."""
        ...

    async def serialise_ratings(self, guild_id: int, game: str) -> None:
        """Until this transaction ends, no other one changes this server and game's ratings."""
        ...

    async def serialise_rating_rebuild(self) -> None:
        """Until this transaction ends, no other one changes any rating."""
        ...

    async def after_copy(self, counted: Sequence[str]) -> None:
        """Rows with their ids were copied into the ``counted`` tables: new ids follow them."""
        ...
