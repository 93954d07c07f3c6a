"""The built image, run as a user runs it, against the fake Discord: a game survives the container.

The container uses the host's network (``--network host``), so it reaches the fake on
127.0.0.1, and keeps its database on a named volume at /data. A game is started and a move
made; the container is removed (``docker rm -f``) and a new one started on the same volume:
the game is still there and the old board's buttons go on with it. ``boardroom health`` inside
the container reports healthy once the bot is connected, and the bot does not run as root.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from tests.e2e.helpers import (
    action_ids,
    assert_board,
    board_after_click,
    open_and_start,
    seat_users,
)
from tests.fakediscord import FakeDiscordDriver, FakeGuild
from tests.pg.server import free_port

#: one Docker daemon and image for every container test: under pytest-xdist they share one
#: worker, one after another (`--dist loadgroup`)
pytestmark = [pytest.mark.container, pytest.mark.xdist_group("container")]

READY_TIMEOUT = 90.0


async def docker(*args: str, timeout: float = 120.0) -> tuple[int, str]:
    """Run a docker command without blocking the event loop the fake Discord runs in."""
    proc = await asyncio.create_subprocess_exec(
        "docker",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace")


@dataclass
class Containers:
    """Bot containers on one volume, all removed (with the volume) at the end."""

    driver: FakeDiscordDriver
    guild: FakeGuild
    image: str
    volume: str
    names: list[str] = field(default_factory=list)

    async def start(self) -> str:
        """A new container on the volume; returns once READY was sent and commands synced."""
        name = f"boardroom-test-{uuid.uuid4().hex[:10]}"
        ready_before = self.driver.ready_count
        syncs_before = len(self.driver.sync_events)
        code, out = await docker(
            "run",
            "-d",
            "--name",
            name,
            "--network",
            "host",
            "-v",
            f"{self.volume}:/data",
            "-e",
            f"DISCORD_TOKEN={self.driver.token}",
            "-e",
            f"DISCORD_API_BASE={self.driver.api_base}",
            "-e",
            f"DEV_GUILD_ID={self.guild.id}",
            "-e",
            "BOARDROOM_BOT_PAUSE=0",
            "-e",  # on the host's network: a free metrics port, not the image's shared 9108
            f"BOARDROOM_METRICS_PORT={free_port()}",
            self.image,
        )
        assert code == 0, out
        self.names.append(name)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READY_TIMEOUT
        while not (
            self.driver.ready_count > ready_before and len(self.driver.sync_events) > syncs_before
        ):
            if loop.time() > deadline or not await self.running(name):
                _, logs = await docker("logs", name)
                raise AssertionError(f"container {name} did not connect and sync:\n{logs}")
            await asyncio.sleep(0.2)
        return name

    async def running(self, name: str) -> bool:
        code, out = await docker("inspect", "--format", "{{.State.Running}}", name)
        return code == 0 and out.strip() == "true"

    async def remove(self, name: str) -> None:
        """``docker rm -f``: the container and everything in it but the volume are gone."""
        code, out = await docker("rm", "-f", name)
        assert code == 0, out

    async def logs(self) -> str:
        texts = []
        for name in self.names:
            _, out = await docker("logs", name)
            texts.append(out)
        return "\n".join(texts)


@pytest.fixture
async def containers(
    fake_discord: FakeDiscordDriver, docker_image: str
) -> AsyncIterator[Containers]:
    volume = f"boardroom-test-{uuid.uuid4().hex[:10]}"
    code, out = await docker("volume", "create", volume)
    assert code == 0, out
    guild = await fake_discord.add_guild("Boardroom Dev")
    made = Containers(fake_discord, guild, docker_image, volume)
    try:
        yield made
    finally:
        for name in made.names:
            await docker("rm", "-f", name)
        await docker("volume", "rm", "-f", volume)


async def wait_healthy(name: str, timeout: float = 30.0) -> tuple[int, str]:
    """``boardroom health`` in the container, until it says healthy (or the time is up)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        code, out = await docker("exec", name, "boardroom", "health")
        if code == 0 or loop.time() > deadline:
            return code, out
        await asyncio.sleep(0.5)


async def test_a_game_outlives_its_container(
    fake_discord: FakeDiscordDriver, containers: Containers
) -> None:
    first_container = await containers.start()
    code, uid = await docker("exec", first_container, "id", "-u")
    assert code == 0 and uid.strip().isdigit() and int(uid) != 0, uid
    # the bot itself (PID 1, the entrypoint) runs as that user: real, effective, saved, fs
    code, status = await docker("exec", first_container, "cat", "/proc/1/status")
    (uids,) = [line.split()[1:] for line in status.splitlines() if line.startswith("Uid:")]
    assert code == 0 and uids == [uid.strip()] * 4, status
    assert "boardroom" in (await docker("exec", first_container, "cat", "/proc/1/cmdline"))[1]
    code, out = await wait_healthy(first_container)
    assert code == 0 and out.startswith("Healthy"), out

    table = await seat_users(fake_discord, containers.guild, "Alice", "Bob")
    alice, _bob = table.users
    first = await open_and_start(table)
    assert_board(first)
    rec = await fake_discord.click(alice, first, action_ids(first)["roll"])
    await rec.wait_response()
    assert not rec.ephemeral, rec.content
    after_roll = await board_after_click(fake_discord, rec, first)  # edited in place
    buttons = action_ids(after_roll)
    moves = sorted(code for code in buttons if code.startswith("move:"))
    assert moves, buttons

    await containers.remove(first_container)
    second_container = await containers.start()
    assert second_container != first_container
    code, out = await wait_healthy(second_container)
    assert code == 0 and out.startswith("Healthy"), out

    # the new container has the game: /game board gives Alice her controls back, privately
    again = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="board")
    await again.wait_response()
    (controls,) = await again.wait_followups(1, timeout=10)
    assert controls.ephemeral and action_ids(controls) == buttons
    assert_board(controls)
    # and the board posted before the container was removed goes on with the game
    rec = await fake_discord.click(alice, after_roll, buttons[moves[0]])
    await rec.wait_response()
    assert not rec.ephemeral, rec.content
    next_turn = await board_after_click(fake_discord, rec, after_roll)
    assert {"roll", "stop"} <= set(action_ids(next_turn))

    fake_discord.assert_no_unknown_routes()
    logs = await containers.logs()
    assert fake_discord.token not in logs
    assert "Traceback" not in logs, logs
