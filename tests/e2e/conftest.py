"""Fixtures: a fake Discord server, and the real bot started as a subprocess against it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from i18n.commands import set_renderer, typed
from tests.e2e.quick_retries_bot import WAITS_ENV
from tests.fakediscord import FakeDiscordDriver, FakeGuild

REPO_ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 30.0
# Variables a developer's shell may carry that must not reach the bot under test.
_SCRUBBED = ("DISCORD_TOKEN", "DISCORD_API_BASE", "BOARDROOM_DB", "DEV_GUILD_ID", "LOG_LEVEL")


@pytest.fixture
def fake_discord_options() -> dict[str, Any]:
    """Override in a test module to configure the fake (e.g. response_deadline)."""
    return {}


@pytest.fixture
async def fake_discord(fake_discord_options: dict[str, Any]) -> AsyncIterator[FakeDiscordDriver]:
    """The fake Discord on a random 127.0.0.1 port, in the test's event loop."""
    driver = FakeDiscordDriver(**fake_discord_options)
    await driver.start()
    # the test's own t() names commands as the bot does: mentions with the ids of the fake
    set_renderer(mentions_of(driver))
    try:
        yield driver
    finally:
        set_renderer(None)
        await driver.stop()


def mentions_of(driver: FakeDiscordDriver) -> Callable[[str], str]:
    """Commands as mentions with the ids the fake gave the synced commands (typed, unsynced)."""

    def render(name: str) -> str:
        top = name.split()[0]
        for synced in (*driver.fake.guild_commands.values(), driver.fake.global_commands):
            for command in synced:
                if command["name"] == top:
                    return f"</{name}:{command['id']}>"
        return typed(name)

    return render


class BotStartError(AssertionError):
    """The bot exited or timed out before READY and command sync."""


@dataclass
class BotProcess:
    """The real bot (`python -m bot run`) running against the fake."""

    driver: FakeDiscordDriver
    guild: FakeGuild
    workdir: Path
    db_path: Path
    log_path: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    #: what runs: exactly what a user runs (a benchmark swaps in its instrumented launcher)
    command: tuple[str, ...] = ("-m", "bot", "run")
    starts: int = 0
    _log: IO[bytes] | None = None

    @property
    def env(self) -> dict[str, str]:
        """The environment the bot runs with."""
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
        pythonpath = [str(REPO_ROOT), *filter(None, [env.get("PYTHONPATH")])]
        env.update(
            {
                "DISCORD_TOKEN": self.driver.token,
                "DISCORD_API_BASE": self.driver.api_base,
                "BOARDROOM_DB": str(self.db_path),
                "DEV_GUILD_ID": str(self.guild.id),
                "LOG_LEVEL": "DEBUG",
                "PYTHONUNBUFFERED": "1",
                "PYTHONPATH": os.pathsep.join(pythonpath),
            }
        )
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        """Whether the process is alive."""
        return self.proc is not None and self.proc.returncode is None

    @property
    def pid(self) -> int | None:
        """Process id of the current run."""
        return None if self.proc is None else self.proc.pid

    async def start(self, timeout: float = READY_TIMEOUT, *, wait_sync: bool = True) -> None:
        """Spawn the bot and wait for a new READY and (unless told not to) a new command PUT."""
        if self.running:
            raise RuntimeError("bot already running")
        ready_before = self.driver.ready_count
        syncs_before = len(self.driver.sync_events)
        self.starts += 1
        self._log = self.log_path.open("ab")
        self._log.write(f"\n===== start #{self.starts} =====\n".encode())
        self._log.flush()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            *self.command,
            cwd=self.workdir,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log,
            stderr=asyncio.subprocess.STDOUT,
        )
        ready = asyncio.ensure_future(
            self.driver.fake.wait_until(
                lambda: (
                    self.driver.ready_count > ready_before
                    and (not wait_sync or len(self.driver.sync_events) > syncs_before)
                ),
                timeout,
            )
        )
        exited = asyncio.ensure_future(self.proc.wait())
        done, pending = await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        for fut in pending:
            fut.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if ready in done and ready.exception() is None:
            return
        if exited in done:
            raise BotStartError(f"bot exited with {self.proc.returncode}:\n{self.log_tail()}")
        await self.kill()
        waited_for = "READY and a command sync" if wait_sync else "READY"
        raise BotStartError(f"no {waited_for} within {timeout}s:\n{self.log_tail()}")

    async def kill(self) -> None:
        """SIGKILL, as a crash or power cut would."""
        await self._stop(signal.SIGKILL, 10.0)

    async def terminate(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait (SIGKILL after `timeout`); returns the exit code."""
        await self._stop(signal.SIGTERM, timeout)
        return None if self.proc is None else self.proc.returncode

    def pause(self) -> None:
        """SIGSTOP: the process stalls (a swapping or overloaded host) until ``resume``."""
        assert self.proc is not None and self.running
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after ``pause``."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGCONT)

    @contextlib.asynccontextmanager
    async def stalled(self, seconds: float) -> AsyncIterator[None]:
        """``async with bot.stalled(3.5): <send something>``: the bot is stopped before the
        block and continued ``seconds`` after it began, so what the block sends reaches a
        process that cannot answer in time."""
        self.pause()
        started = asyncio.get_running_loop().time()
        try:
            yield
            await asyncio.sleep(max(0.0, seconds - (asyncio.get_running_loop().time() - started)))
        finally:
            self.resume()

    def tracebacks(self) -> list[str]:
        """Every traceback the bot printed, with the line that introduced it."""
        lines = self.log_text().splitlines()
        return [
            "\n".join(lines[max(0, i - 1) : i + 4])
            for i, line in enumerate(lines)
            if line.startswith("Traceback")
        ]

    def assert_no_traceback(self) -> None:
        found = self.tracebacks()
        assert not found, "the bot printed a traceback:\n" + "\n---\n".join(found)

    async def restart(self, timeout: float = READY_TIMEOUT, *, wait_sync: bool = True) -> None:
        """Kill (if running) and start again on the same database."""
        await self.kill()
        await self.start(timeout, wait_sync=wait_sync)

    async def _stop(self, sig: signal.Signals, timeout: float) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
                proc.send_signal(signal.SIGCONT)  # a stopped process acts on SIGTERM only then
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self) -> str:
        """Everything the bot printed so far (all runs)."""
        if self._log is not None:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_tail(self, lines: int = 60) -> str:
        """The last lines of the log, for failure messages."""
        return "\n".join(self.log_text().splitlines()[-lines:])

    def assert_token_not_logged(self) -> None:
        """Fail if the bot token appears anywhere in the captured output."""
        assert self.driver.token not in self.log_text(), f"token leaked into {self.log_path}"

    def seeds(self) -> list[int]:
        """Every game seed in the bot's database (read-only, outside the bot)."""
        import sqlite3

        if not self.db_path.exists():
            return []
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            return [row[0] for row in conn.execute("SELECT seed FROM games")]
        except sqlite3.OperationalError:  # killed before the first migration
            return []
        finally:
            conn.close()

    def assert_seeds_not_logged(self) -> None:
        """Fail if any game seed appears in the captured output (it would predict every die)."""
        text = self.log_text()
        leaked = [seed for seed in self.seeds() if str(seed) in text]
        assert not leaked, f"seeds {leaked} leaked into {self.log_path}"


StartBot = Callable[..., Awaitable[BotProcess]]


@pytest.fixture
async def bot_process(fake_discord: FakeDiscordDriver, tmp_path: Path) -> AsyncIterator[StartBot]:
    """Factory: `bot = await bot_process(guild=None, *, wait_sync=True, **extra_env)`.

    The bot runs as `python -m bot run` with DISCORD_TOKEN, DISCORD_API_BASE,
    BOARDROOM_DB=<tmp_path>/boardroom.db, DEV_GUILD_ID and LOG_LEVEL=DEBUG, in a
    scratch working directory; output goes to <tmp_path>/bot-N.log. The call
    returns once the fake sent READY and received the command sync PUT. At teardown
    every bot is killed and its log must contain neither the token nor a game seed.
    With ``BOARDROOM_TEST_DISCORD_WAITS`` among the settings, discord.py's own waits between
    retries are scaled by that factor (``tests/e2e/quick_retries_bot.py``).
    """
    bots: list[BotProcess] = []

    async def start(
        guild: FakeGuild | None = None, *, wait_sync: bool = True, **extra_env: str
    ) -> BotProcess:
        if guild is None:
            guilds = list(fake_discord.fake.guilds.values())
            guild = guilds[0] if guilds else await fake_discord.add_guild("Boardroom Dev")
        workdir = tmp_path / "bot-cwd"
        workdir.mkdir(exist_ok=True)
        bot = BotProcess(
            driver=fake_discord,
            guild=guild,
            workdir=workdir,
            db_path=tmp_path / "boardroom.db",
            log_path=tmp_path / f"bot-{len(bots) + 1}.log",
            extra_env=dict(extra_env),
        )
        if WAITS_ENV in extra_env:  # discord.py's own retry waits scaled (quick_retries_bot)
            bot.command = ("-m", "tests.e2e.quick_retries_bot")
        bots.append(bot)
        await bot.start(wait_sync=wait_sync)
        return bot

    try:
        yield start
    finally:
        for bot in bots:
            await bot.kill()
        for bot in bots:
            bot.assert_token_not_logged()
            bot.assert_seeds_not_logged()
