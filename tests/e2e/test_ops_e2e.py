"""The bot's HTTP port (BOARDROOM_METRICS_PORT) through the real bot process and the fake Discord:
/metrics after moves, /healthz and /readyz, ``boardroom health``; and a SIGTERM during a burst of
moves, which loses no acknowledged move and leaves no board undelivered after the restart."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.conftest import REPO_ROOT
from tests.e2e.helpers import action_ids, board_after_click, open_and_start, seat_users
from tests.e2e.reliability import game_version, posted_versions, shown
from tests.e2e.test_failures_e2e import BAD_GATEWAY


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


Samples = list[tuple[str, dict[str, str], float]]


def samples(text: str) -> Samples:
    """(name, labels, value) for every sample of an exposition, read by Prometheus's parser."""
    return [
        (sample.name, sample.labels, sample.value)
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for sample, have, value in found
        if sample == name and all(have.get(k) == v for k, v in labels.items())
    )


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.text()


async def ready(port: int, timeout: float = 10.0) -> None:
    """Wait for /readyz to say 200 (discord.py is ready once the guilds came, after READY)."""
    deadline = time.monotonic() + timeout
    while (answer := await get(port, "/readyz"))[0] != 200:
        assert time.monotonic() < deadline, answer
        await asyncio.sleep(0.1)


def health(port: int, db_path) -> subprocess.CompletedProcess[str]:
    """``boardroom health`` as the container's HEALTHCHECK runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOARDROOM_", "DISCORD_"))}
    env |= {"BOARDROOM_METRICS_PORT": str(port), "BOARDROOM_DB": str(db_path)}
    env["PYTHONPATH"] = str(REPO_ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, capture_output=True, text=True, timeout=30
    )


async def test_metrics_and_health_after_a_few_moves(fake_discord, bot_process) -> None:
    port = free_port()
    bot = await bot_process(BOARDROOM_METRICS_PORT=str(port))
    await ready(port)
    assert (await get(port, "/healthz"))[0] == 200
    checked = await asyncio.to_thread(health, port, bot.db_path)
    assert checked.returncode == 0 and "Healthy" in checked.stdout, checked

    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    turn = await open_and_start(table)
    before = samples((await get(port, "/metrics"))[1])
    # the first answer to a roll is refused twice: two errors on the callback route
    outage = fake_discord.fail_next("POST", "/callback", count=2, **BAD_GATEWAY)
    for _ in range(4):
        buttons = action_ids(turn)
        mover = table.users[0] if f"<@{table.users[0].id}>" in turn.content else table.users[1]
        action = "roll" if "roll" in buttons else sorted(buttons)[0]
        rec = await fake_discord.click(mover, turn, buttons[action])
        if outage.failed < 2:
            await fake_discord.fake.wait_until(lambda: outage.failed == 2, 10)
            await shown(bot, int(buttons[action].split(":")[1]))
            turn = [m for m in fake_discord.channel_messages(table.channel) if action_ids(m)][-1]
            continue
        turn = await board_after_click(fake_discord, rec, turn)
    # an interaction is counted once its work has ended, which may be just after its board
    # reached the player: read until the fourth click is in (or the time is up)
    deadline = time.monotonic() + 10
    while True:
        status, body = await get(port, "/metrics")
        assert status == 200
        after = samples(body)
        moves = total(after, "boardroom_interactions_total", kind="move") - total(
            before, "boardroom_interactions_total", kind="move"
        )
        if moves >= 4 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert moves >= 4, body
    assert total(after, "boardroom_interactions_total", kind="/play", outcome="ok") == 1
    assert total(after, "boardroom_move_seconds_count", stage="board_shown") - total(
        before, "boardroom_move_seconds_count", stage="board_shown"
    ) >= 4
    assert total(after, "boardroom_move_seconds_count", stage="first_answer") >= 3
    callback = "POST /interactions/{id}/{token}/callback"
    assert total(after, "boardroom_discord_errors_total", route=callback, status="502") == 2
    assert total(after, "boardroom_drawing_seconds_count", kind="board") >= 4
    assert total(after, "boardroom_db_write_seconds_count") >= 5
    assert total(after, "boardroom_games_running", game="cantstop") >= 1
    names = {name for name, _, _ in after}
    for gauge in ("boardroom_delivery_waiting", "boardroom_delivery_oldest_seconds",
                  "boardroom_timers_due", "boardroom_timers_late_seconds"):
        assert gauge in names, gauge
    assert total(after, "boardroom_gateway_ready") == 1
    # no id in any label: only names, routes with placeholders, numbers
    for name, labels, _ in after:
        assert not any(re.search(r"\d{6,}", value) for value in labels.values()), (name, labels)
    bot.assert_no_traceback()


async def test_health_says_not_healthy_once_the_bot_stopped(fake_discord, bot_process) -> None:
    port = free_port()
    bot = await bot_process(BOARDROOM_METRICS_PORT=str(port))
    await ready(port)
    await bot.terminate()
    checked = await asyncio.to_thread(health, port, bot.db_path)
    assert checked.returncode == 1 and "Not healthy: nothing answers" in checked.stdout, checked


async def test_sigterm_during_a_burst_of_moves_loses_nothing(fake_discord, bot_process) -> None:
    """Six games, a roll clicked in each at once, SIGTERM while they are handled: the bot exits
    within 10 s; after the restart every acknowledged move is stored and every game's newest
    board is in its channel."""
    bot = await bot_process()
    games = []
    for n in range(6):
        table = await seat_users(fake_discord, bot.guild, f"A{n}", f"B{n}")
        games.append((table, await open_and_start(table)))
    clicks = []
    for table, turn in games:
        buttons = action_ids(turn)
        clicks.append((int(buttons["roll"].split(":")[2]), int(buttons["roll"].split(":")[1]),
                       await fake_discord.click(table.users[0], turn, buttons["roll"])))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    code = await bot.terminate(timeout=15)
    assert time.monotonic() - started < 10, bot.log_tail()
    assert code == 0, bot.log_tail()
    assert "stopping: the moves in flight finish first" in bot.log_text()
    acknowledged = [(version, gid) for version, gid, rec in clicks if rec.responded]
    await bot.start()
    for version, gid in acknowledged:
        assert game_version(bot, gid) > version, (gid, version)
    for _, gid, _ in clicks:
        await shown(bot, gid, timeout=15)
        assert posted_versions(bot, gid)[-1] == game_version(bot, gid)
    bot.assert_no_traceback()
