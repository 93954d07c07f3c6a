"""What each server chose for itself (today: the language of its public messages), kept in the
store and remembered in memory, since every public message asks."""

from __future__ import annotations

from collections.abc import Callable

from bot.service.games import utc_now
from bot.storage.base import GameStore


class ServerSettings:
    """Per-server choices over the store; one instance per bot process (it caches reads)."""

    def __init__(self, store: GameStore, *, clock: Callable[[], str] = utc_now) -> None:
        self.store = store
        self.clock = clock
        self._locales: dict[int, str | None] = {}

    async def locale(self, guild_id: int | None) -> str | None:
        """The language chosen for a server's public messages (None: its Discord locale)."""
        if guild_id is None:
            return None
        if guild_id not in self._locales:
            self._locales[guild_id] = await self.store.server_locale(guild_id)
        return self._locales[guild_id]

    async def set_locale(self, guild_id: int, locale: str | None) -> None:
        """Choose the language of a server's public messages (None: back to its Discord one)."""
        await self.store.set_server_locale(guild_id, locale, self.clock())
        self._locales[guild_id] = locale
