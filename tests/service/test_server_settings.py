"""A server's chosen language: stored per server (migration 0004), survives a restart, and can be
forgotten again."""

from __future__ import annotations

from bot.service.servers import ServerSettings
from bot.storage import open_store


async def test_a_servers_language_is_kept_per_server_and_survives_a_restart(database) -> None:
    async with open_store(database) as store:
        servers = ServerSettings(store, clock=lambda: "t1")
        assert await servers.locale(1) is None and await servers.locale(None) is None
        await servers.set_locale(1, "ja")
        await servers.set_locale(2, "de")
        await servers.set_locale(2, "fr")  # a second choice replaces the first
        assert await servers.locale(1) == "ja" and await servers.locale(2) == "fr"
    async with open_store(database) as store:
        servers = ServerSettings(store)
        assert (await servers.locale(1), await servers.locale(2), await servers.locale(3)) == (
            "ja",
            "fr",
            None,
        )
        await servers.set_locale(1, None)  # back to the server's own Discord language
        assert await servers.locale(1) is None
        rows = await store.table_rows("server_settings", ["guild_id", "locale"])
    assert sorted(rows) == [(1, None), (2, "fr")]


async def test_a_lookup_is_remembered(database) -> None:
    async with open_store(database) as store:
        servers = ServerSettings(store)
        await servers.set_locale(7, "de")
        calls = 0
        real = store.server_locale

        async def counted(guild_id: int) -> str | None:
            nonlocal calls
            calls += 1
            return await real(guild_id)

        store.server_locale = counted  # type: ignore[method-assign]
        assert [await servers.locale(7) for _ in range(3)] == ["de"] * 3
        assert [await servers.locale(8) for _ in range(3)] == [None] * 3
        assert calls == 1  # 7 was known since it was set; 8 was read once
