"""Commands named in messages are command mentions with the ids Discord gave them, through the
real bot and the fake Discord: after a sync to the development server, after a global sync,
and after a restart that did not sync (the ids are fetched)."""

from __future__ import annotations

from tests.e2e.helpers import seat_users


def command_id(commands: list[dict], name: str) -> str:
    return next(str(c["id"]) for c in commands if c["name"] == name)


async def nothing_running(fake_discord, table, locale: str = "en-US") -> str:
    """/mygames of someone not playing: the answer names </play>."""
    rec = await fake_discord.slash(table.users[0], table.channel, "mygames", {}, locale=locale)
    await rec.wait_response()
    assert rec.ephemeral
    return rec.content or ""


async def test_messages_mention_the_commands_they_name(fake_discord, bot_process) -> None:
    bot = await bot_process()  # synced to the development server
    table = await seat_users(fake_discord, bot.guild, "Alice")
    play = command_id(fake_discord.commands(bot.guild), "play")
    said = await nothing_running(fake_discord, table)
    assert said.endswith(f"Start one with </play:{play}>."), said
    ja = await nothing_running(fake_discord, table, "ja")  # each reader sees their own name
    assert f"</play:{play}>" in ja and "/遊ぶ" not in ja and "`/" not in ja, ja
    away = await fake_discord.slash(table.users[0], table.channel, "away", {})
    await away.wait_response()
    assert f"</away:{command_id(fake_discord.commands(bot.guild), 'away')}>" in away.content
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_global_commands_are_mentioned_after_a_restart_without_sync(
    fake_discord, bot_process
) -> None:
    bot = await bot_process(DEV_GUILD_ID="")
    play = command_id(fake_discord.commands(), "play")
    table = await seat_users(fake_discord, bot.guild, "Alice")
    assert f"</play:{play}>" in await nothing_running(fake_discord, table)
    syncs = len(fake_discord.sync_events)
    await bot.restart(wait_sync=False)
    assert f"</play:{play}>" in await nothing_running(fake_discord, table)
    assert len(fake_discord.sync_events) == syncs  # not synced again: the ids were fetched
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
