"""The compose files, run as a self-hoster runs them, with Debian's ``docker-compose``.

Both setups (SQLite alone, and with ``compose.postgres.yaml``) must pass ``docker-compose
config``, with log rotation on every service. Each is then brought up from a copy of the
project's compose files and an ``.env`` as the README says, on the locally built images and the
host's network (the only changes, in ``compose.override.yaml``; the PostgreSQL service runs the
image built from Debian's package, ``docker/postgres``, as the README offers for a host without
the registry), against the fake Discord: a game is started and a move made, ``down`` and ``up``
again keep the game, and the old board's buttons go on with it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

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

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 90.0
ROTATED = {"driver": "json-file", "options": {"max-size": "10m", "max-file": "5"}}


async def run(*args: str, cwd: Path, timeout: float = 180.0) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace")


def compose_missing() -> str | None:
    return None if shutil.which("docker-compose") else "docker-compose is not installed"


@dataclass
class Project:
    """A folder holding the project's compose files and an .env, as a self-hoster has it."""

    folder: Path
    name: str

    async def compose(self, *args: str) -> tuple[int, str]:
        return await run("docker-compose", "-p", self.name, *args, cwd=self.folder)


def write_env(folder: Path, **values: str) -> None:
    (folder / ".env").write_text("".join(f"{k}={v}\n" for k, v in values.items()))


@pytest.fixture
def compose_folder(tmp_path: Path, docker_image: str) -> Path:
    reason = compose_missing()
    if reason is not None:
        advice = f"{reason}; run .ci/container-setup (as root) to set it up"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the compose test cannot run: {advice}", pytrace=False)
        pytest.skip(advice)
    for name in ("compose.yaml", "compose.postgres.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


async def test_both_compose_setups_are_valid_with_rotated_logs(compose_folder: Path) -> None:
    project = Project(compose_folder, f"boardroom-config-{uuid.uuid4().hex[:8]}")
    write_env(compose_folder, DISCORD_TOKEN="x")
    code, out = await project.compose("config")
    assert code == 0, out
    alone = yaml.safe_load(out)
    assert set(alone["services"]) == {"bot"}
    assert alone["services"]["bot"]["logging"] == ROTATED

    write_env(
        compose_folder,
        DISCORD_TOKEN="x",
        COMPOSE_FILE="compose.yaml:compose.postgres.yaml",
        POSTGRES_PASSWORD="secret",
        BOARDROOM_DB="postgresql://boardroom:secret@db:5432/boardroom",
    )
    code, out = await project.compose("config")
    assert code == 0, out
    both = yaml.safe_load(out)
    assert set(both["services"]) == {"bot", "db"}
    assert both["services"]["bot"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert both["services"]["bot"]["environment"]["BOARDROOM_DB"].startswith("postgresql://")
    assert "healthcheck" in both["services"]["db"]
    assert all(service["logging"] == ROTATED for service in both["services"].values())

    # without a password of one's own, the PostgreSQL setup refuses to start
    write_env(compose_folder, DISCORD_TOKEN="x", COMPOSE_FILE="compose.yaml:compose.postgres.yaml")
    code, out = await project.compose("config")
    assert code != 0 and "POSTGRES_PASSWORD" in out, out


@pytest.fixture
async def sqlite_project(
    compose_folder: Path, fake_discord: FakeDiscordDriver, docker_image: str
) -> AsyncIterator[tuple[Project, FakeGuild]]:
    guild = await fake_discord.add_guild("Boardroom Dev")
    write_env(
        compose_folder,
        DISCORD_TOKEN=fake_discord.token,
        DISCORD_API_BASE=fake_discord.api_base,
        DEV_GUILD_ID=str(guild.id),
        BOARDROOM_BOT_PAUSE="0",
        # on the host's network the image's default metrics port (9108) would be shared with
        # any other bot on the machine: a free one of its own
        BOARDROOM_METRICS_PORT=str(free_port()),
    )
    (compose_folder / "compose.override.yaml").write_text(
        f"services:\n  bot:\n    image: {docker_image}\n    network_mode: host\n"
    )
    project = Project(compose_folder, f"boardroom-test-{uuid.uuid4().hex[:8]}")
    try:
        yield project, guild
    finally:
        await project.compose("down", "-v", "--remove-orphans")


async def up(project: Project, driver: FakeDiscordDriver) -> None:
    """``up -d`` on the built image; returns once the bot connected and synced its commands."""
    ready_before, syncs_before = driver.ready_count, len(driver.sync_events)
    code, out = await project.compose("up", "-d", "--no-build")
    assert code == 0, out
    loop = asyncio.get_running_loop()
    deadline = loop.time() + READY_TIMEOUT
    while not (driver.ready_count > ready_before and len(driver.sync_events) > syncs_before):
        if loop.time() > deadline:
            _, logs = await project.compose("logs", "--no-color")
            raise AssertionError(f"the compose bot did not connect and sync:\n{logs}")
        await asyncio.sleep(0.2)


async def play_across_down_and_up(
    project: Project, driver: FakeDiscordDriver, guild: FakeGuild
) -> None:
    """A game started and a move made, ``down`` and ``up`` (the volumes stay): the game goes on
    from the old board's buttons, and ``/game board`` gives the player her controls back."""
    await up(project, driver)

    table = await seat_users(driver, guild, "Alice", "Bob")
    alice, _bob = table.users
    first = await open_and_start(table)
    assert_board(first)
    rec = await driver.click(alice, first, action_ids(first)["roll"])
    await rec.wait_response()
    after_roll = await board_after_click(driver, rec, first)
    buttons = action_ids(after_roll)
    moves = sorted(code for code in buttons if code.startswith("move:"))
    assert moves, buttons

    code, out = await project.compose("down")  # the volumes stay
    assert code == 0, out
    await up(project, driver)

    again = await driver.slash(alice, table.channel, "game", {}, subcommand="board")
    await again.wait_response()
    (controls,) = await again.wait_followups(1, timeout=10)
    assert controls.ephemeral and action_ids(controls) == buttons
    rec = await driver.click(alice, after_roll, buttons[moves[0]])
    await rec.wait_response()
    assert not rec.ephemeral, rec.content
    next_turn = await board_after_click(driver, rec, after_roll)
    assert {"roll", "stop"} <= set(action_ids(next_turn))

    code, logs = await project.compose("logs", "--no-color")
    assert driver.token not in logs
    assert "Traceback" not in logs, logs


async def test_a_game_outlives_compose_down_and_up(
    fake_discord: FakeDiscordDriver, sqlite_project: tuple[Project, FakeGuild]
) -> None:
    project, guild = sqlite_project
    await play_across_down_and_up(project, fake_discord, guild)


@dataclass
class PostgresSetup:
    project: Project
    guild: FakeGuild
    password: str
    metrics_port: int


@pytest.fixture
async def postgres_project(
    compose_folder: Path, fake_discord: FakeDiscordDriver, docker_image: str, postgres_image: str
) -> AsyncIterator[PostgresSetup]:
    """The README's PostgreSQL setup: both compose files and an .env naming them, a password of
    its own. On the host's network the bot reaches the database on 127.0.0.1 (a free port, which
    PGPORT gives the server and its health check), not as ``db``."""
    guild = await fake_discord.add_guild("Boardroom Dev")
    password = secrets.token_hex(12)
    db_port, metrics_port = free_port(), free_port()
    write_env(
        compose_folder,
        COMPOSE_FILE="compose.yaml:compose.postgres.yaml:compose.override.yaml",
        POSTGRES_PASSWORD=password,
        BOARDROOM_DB=f"postgresql://boardroom:{password}@127.0.0.1:{db_port}/boardroom",
        DISCORD_TOKEN=fake_discord.token,
        DISCORD_API_BASE=fake_discord.api_base,
        DEV_GUILD_ID=str(guild.id),
        BOARDROOM_BOT_PAUSE="0",
        BOARDROOM_METRICS_PORT=str(metrics_port),
    )
    (compose_folder / "compose.override.yaml").write_text(
        "services:\n"
        f"  bot:\n    image: {docker_image}\n    network_mode: host\n"
        f"  db:\n    image: {postgres_image}\n    network_mode: host\n"
        f"    environment:\n      PGPORT: '{db_port}'\n"
        "    command: ['-c', 'listen_addresses=127.0.0.1']\n"
    )
    project = Project(compose_folder, f"boardroom-pg-{uuid.uuid4().hex[:8]}")
    try:
        yield PostgresSetup(project, guild, password, metrics_port)
    finally:
        await project.compose("down", "-v", "--remove-orphans")


def http_answer(url: str) -> tuple[int, str]:
    """The status and body of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def ready_within(url: str, seconds: float) -> tuple[int, str]:
    """``/readyz`` until it says ready, at most ``seconds``: a probe's answer is of its moment
    (a database check over its time limit on a busy machine, a gateway reconnecting)."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = await asyncio.to_thread(http_answer, url)
        if status == 200 or time.monotonic() > deadline:
            return status, body
        await asyncio.sleep(0.5)


async def test_a_game_on_postgres_outlives_compose_down_and_up(
    fake_discord: FakeDiscordDriver, postgres_project: PostgresSetup
) -> None:
    project = postgres_project.project
    await play_across_down_and_up(project, fake_discord, postgres_project.guild)

    # the game is in PostgreSQL (the db service's volume), not in a SQLite file on /data
    code, out = await project.compose(
        "exec",
        "-T",
        "db",
        "psql",
        "-U",
        "boardroom",
        "-d",
        "boardroom",
        "-Atc",
        "SELECT count(*) FROM games",
    )
    assert code == 0 and out.strip() == "1", out
    code, out = await project.compose("exec", "-T", "bot", "ls", "-A", "/data")
    assert code == 0 and "boardroom.db" not in out.split(), out
    # ready by the bot's own definition: /readyz, and `boardroom health` (the HEALTHCHECK) agree
    url = f"http://127.0.0.1:{postgres_project.metrics_port}/readyz"
    status, body = await ready_within(url, 20.0)
    assert status == 200, body
    code, out = await project.compose("exec", "-T", "bot", "boardroom", "health")
    assert code == 0 and out.startswith("Healthy"), out
    _, logs = await project.compose("logs", "--no-color")
    assert postgres_project.password not in logs
