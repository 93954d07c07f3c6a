"""Two bot processes, two gateway shards each (of 4), on one PostgreSQL database, play games in
four guilds (one per shard). One process is SIGKILLed and restarted while the other keeps serving
its guilds; boards committed but never shown are posted by the process whose shards hold their
guild, and by no other; nothing is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service.games import GameService
from bot.storage.postgres import PostgresStore
from tests.e2e.conftest import BotProcess
from tests.e2e.helpers import (
    TURN_ID,
    action_ids,
    assert_board,
    board_after_click,
    open_and_start,
    seat_users,
)
from tests.fakediscord import FakeDiscordDriver
from tests.fakediscord.driver import NoGatewaySession

SHARDS = 4


@pytest.fixture
def fake_discord_options() -> dict[str, int]:
    return {"shard_count": SHARDS}


async def all_shards_ready(driver: FakeDiscordDriver) -> None:
    await driver.fake.wait_until(
        lambda: sorted(s.shard[0] for s in driver.fake.ready_sessions() if s.shard)
        == list(range(SHARDS)),
        timeout=30,
    )


async def play(driver: FakeDiscordDriver, table, turn, moves: int):
    """Click the first legal button of whoever is to move, ``moves`` times."""
    for _ in range(moves):
        buttons = action_ids(turn)
        if not buttons:
            return turn
        mover = next(u for u in table.users if f"<@{u.id}>" in turn.content.splitlines()[-1])
        rec = await driver.click(mover, turn, buttons[sorted(buttons)[0]])
        await rec.wait_response()
        assert not rec.ephemeral, rec.content
        turn = await board_after_click(driver, rec, turn)
        assert_board(turn)
    return turn


async def commit_unshown_move(url: str, channel_id: int) -> int:
    """A move saved but never shown, as when a process dies between the two: returns the
    version the channel has not seen."""
    async with PostgresStore(url, pool_size=1) as store:
        service = GameService(store)
        snap = await service.current(channel_id)
        outcome = await service.act(
            snap.id, snap.seats[snap.to_move].user_id, snap.legal[0], snap.version
        )
        return outcome.after.version


async def seeds(url: str) -> list[int]:
    async with PostgresStore(url, pool_size=1) as store:
        return [row[0] for row in await store.table_rows("games", ["seed"])]


def shows(driver: FakeDiscordDriver, table, version: int) -> bool:
    """Is the channel's newest message the board of that game version (buttons say so)?"""
    messages = driver.channel_messages(table.channel)
    if not messages:
        return False
    found = [TURN_ID.fullmatch(c) for c in messages[-1].custom_ids]
    return any(m is not None and int(m.group(2)) == version for m in found)


def posted_to(bot: BotProcess, channel_id: int) -> bool:
    """Did this process post a board to the channel on its own (not as an interaction's
    answer)? The delivery logs each such post with the channel's id."""
    return f"board posted in the channel {channel_id}" in bot.log_text()


async def test_two_processes_split_the_shards(fake_discord, bot_process, pg_url, tmp_path: Path):
    driver = fake_discord
    guilds = [await driver.add_guild(f"Guild {s}", shard=s) for s in range(SHARDS)]
    tables = [await seat_users(driver, g, "Alice", "Bob") for g in guilds]

    def env(shards: str, name: str) -> dict[str, str]:
        return {
            "BOARDROOM_DB": pg_url,
            "BOARDROOM_SHARDS": shards,
            "BOARDROOM_STATE_DIR": str(tmp_path / name),
            "DEV_GUILD_ID": "",  # commands synced globally: every guild has them
        }

    low = await bot_process(guilds[0], **env("0-1/4", "low"))
    high = await bot_process(guilds[2], **env("2-3/4", "high"))
    await all_shards_ready(driver)
    turns = [await open_and_start(table) for table in tables]
    turns = [await play(driver, table, turn, 3) for table, turn in zip(tables, turns, strict=True)]

    # the high process dies; the low one keeps serving its guilds
    await high.kill()
    with pytest.raises(NoGatewaySession):  # Discord has nobody to give guild 2's clicks to
        await driver.click(tables[2].users[0], turns[2], next(iter(action_ids(turns[2]).values())))
    turns[0] = await play(driver, tables[0], turns[0], 2)
    turns[1] = await play(driver, tables[1], turns[1], 2)

    # boards committed but not shown, in a guild of each process
    unseen_low = await commit_unshown_move(pg_url, tables[1].channel.id)
    unseen_high = await commit_unshown_move(pg_url, tables[3].channel.id)
    high_before = len(driver.channel_messages(tables[3].channel))

    # the low process restarts (its start-up recovery runs) while the high one is still down
    await low.kill()
    await low.start(wait_sync=False)
    await driver.fake.wait_until(lambda: shows(driver, tables[1], unseen_low), timeout=20)
    await asyncio.sleep(1.0)
    assert len(driver.channel_messages(tables[3].channel)) == high_before  # not its guild
    assert not posted_to(low, tables[3].channel.id) and not posted_to(low, tables[2].channel.id)

    # the high process comes back and shows its own board; play goes on everywhere
    await high.start(wait_sync=False)
    await all_shards_ready(driver)
    await driver.fake.wait_until(lambda: shows(driver, tables[3], unseen_high), timeout=20)
    turns[1] = driver.channel_messages(tables[1].channel)[-1]
    turns[3] = driver.channel_messages(tables[3].channel)[-1]
    for i, table in enumerate(tables):
        turns[i] = await play(driver, table, turns[i], 2)

    # nothing handled by the wrong process: each posted only to its own guilds' channels
    for own, other in ((low, (2, 3)), (high, (0, 1))):
        assert not any(posted_to(own, tables[i].channel.id) for i in other)
    assert posted_to(low, tables[1].channel.id) and posted_to(high, tables[3].channel.id)
    async with PostgresStore(pg_url, pool_size=1) as store:
        service = GameService(store)
        for table in tables:
            snap = await service.current(table.channel.id)
            assert await service.verify(snap.id)
            assert await service.is_shown(snap)
    leaked = [s for s in await seeds(pg_url) for bot in (low, high) if str(s) in bot.log_text()]
    assert not leaked
    for bot in (low, high):
        bot.assert_no_traceback()
    driver.assert_no_unknown_routes()
