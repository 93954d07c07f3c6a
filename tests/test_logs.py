"""Logging at DEBUG prints neither the token nor a game seed (the driver's statement log is cut
off), and tracebacks are redacted too; LOG_FORMAT=json writes the same records as JSON lines."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.logs import setup_logging
from bot.service.games import GameService
from bot.settings import BadSetting, Settings, read_env_file
from bot.storage.sqlite import SqliteStore
from tests.e2e.conftest import bot_process, fake_discord, fake_discord_options
from tests.e2e.helpers import action_ids, board_after_click, open_and_start, seat_users

__all__ = ["bot_process", "fake_discord", "fake_discord_options"]

ROOT = Path(__file__).resolve().parents[1]
SEED = 3141592653589793238 % (2**62)
TOKEN = "MTIz.fake.t0ken-for-the-log-test"


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    levels = {n: logging.getLogger(n).level for n in ("asyncpg", "discord.gateway")}
    yield
    root.handlers[:], level = saved
    root.setLevel(level)
    for name, value in levels.items():
        logging.getLogger(name).setLevel(value)


async def test_debug_logging_shows_no_seed_and_no_token(tmp_path, capfd, restore_logging) -> None:
    setup_logging("DEBUG", TOKEN)
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        service = GameService(store, new_seed=lambda: SEED)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=2, host_id=1, host_name="A", game="cantstop"
        )
        await service.join(lobby.id, 2, "B")
        outcome = await service.start(lobby.id, 1)
        await service.act(lobby.id, 1, "roll", outcome.after.version)
        assert await service.seed_of(lobby.id) == SEED
    async with SqliteStore(tmp_path / "boardroom.db") as store:  # a restart reads the seed
        await GameService(store).seed_of(lobby.id)
    log = logging.getLogger("bot.test")
    log.debug("debug lines are shown")
    log.debug("auth header Bot %s", TOKEN)
    try:
        raise RuntimeError(f"a failure that quotes {TOKEN}")
    except RuntimeError:
        log.exception("failed")
    err = capfd.readouterr().err
    assert "debug lines are shown" in err
    assert "game started" in err
    assert str(SEED) not in err and hex(SEED)[2:] not in err
    assert TOKEN not in err and err.count("<redacted>") == 2


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_json_lines_carry_the_extra_fields_and_no_token(capfd, restore_logging) -> None:
    setup_logging("INFO", TOKEN, log_format="json")
    log = logging.getLogger("bot.test")
    log.info("move %s", "roll", extra={"game_id": 7, "seq": 3, "seat": 1})
    log.debug("not shown at INFO")
    log.warning("auth header Bot %s", TOKEN, extra={"header": f"Bot {TOKEN}"})
    try:
        raise RuntimeError(f"a failure that quotes {TOKEN}")
    except RuntimeError:
        log.exception("failed", extra={"game_id": 8})
    err = capfd.readouterr().err
    assert TOKEN not in err
    move, auth, failed = json_lines(err)  # one object a line, nothing else
    assert move["message"] == "move roll" and move["level"] == "INFO"
    assert move["logger"] == "bot.test"
    assert (move["game_id"], move["seq"], move["seat"]) == (7, 3, 1)
    assert datetime.fromisoformat(move["time"]).utcoffset() == timedelta(0)
    assert auth["message"] == "auth header Bot <redacted>" and auth["level"] == "WARNING"
    assert auth["header"] == "Bot <redacted>"
    assert failed["level"] == "ERROR" and failed["game_id"] == 8
    assert failed["exception"].startswith("Traceback") and "<redacted>" in failed["exception"]
    assert "RuntimeError" in failed["exception"]


async def test_json_lines_at_debug_show_no_driver_statement(
    tmp_path, capfd, restore_logging
) -> None:
    setup_logging("DEBUG", TOKEN, log_format="json")
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        service = GameService(store, new_seed=lambda: SEED)
        lobby = await service.open_lobby(
            guild_id=1, channel_id=2, host_id=1, host_name="A", game="cantstop"
        )
        await service.join(lobby.id, 2, "B")
        await service.start(lobby.id, 1)
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        await GameService(store).seed_of(lobby.id)
    entries = json_lines(capfd.readouterr().err)
    started = [e for e in entries if e["message"] == "game started"]
    assert started and started[0]["game_id"] == lobby.id
    assert not [e for e in entries if "SELECT" in e["message"] or "INSERT" in e["message"]]
    assert str(SEED) not in json.dumps(entries)


def test_text_stays_the_default(capfd, restore_logging) -> None:
    setup_logging("INFO")
    logging.getLogger("bot.test").info("plain", extra={"game_id": 7})
    err = capfd.readouterr().err
    assert err.rstrip().endswith("INFO    bot.test: plain") and "{" not in err


async def test_the_bot_logs_json_lines_and_its_invite_url(fake_discord, bot_process) -> None:
    """``python -m bot run`` with LOG_FORMAT=json against the fake Discord: every line it
    prints is one JSON object; the invite URL carries the real application id; no token."""
    bot = await bot_process(LOG_FORMAT="json")
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    first = await open_and_start(table)
    roll = action_ids(first)["roll"]
    game_id = int(roll.split(":")[1])
    rec = await fake_discord.click(table.users[0], first, roll)
    await board_after_click(fake_discord, rec, first)
    invite = (
        f"https://discord.com/oauth2/authorize?client_id={fake_discord.application_id}"
        "&scope=bot+applications.commands&permissions=117760"
    )
    # on_ready comes once discord.py stopped waiting for more guilds (about 2 s after READY)
    for _ in range(100):
        if invite in bot.log_text():
            break
        await asyncio.sleep(0.1)
    await bot.terminate()
    text = bot.log_text()
    assert fake_discord.token not in text
    entries = json_lines(
        "\n".join(line for line in text.splitlines() if not line.startswith("====="))
    )
    assert {"DEBUG", "INFO"} <= {e["level"] for e in entries}
    assert [e["message"] for e in entries if invite in e["message"]] == [
        f"invite the bot to a server with {invite}"
    ]
    moves = [e for e in entries if e["message"] == "move roll"]
    assert len(moves) == 1 and moves[0]["logger"] == "bot.service.games"
    assert moves[0]["game_id"] == game_id and moves[0]["seat"] == 0
    assert isinstance(moves[0]["seq"], int)


@pytest.mark.parametrize(
    ("value", "expected"), [("", "text"), ("JSON", "json"), (" text ", "text")]
)
def test_log_format_is_read_like_log_level(value: str, expected: str) -> None:
    assert Settings.from_env({"LOG_FORMAT": value}, need_token=False).log_format == expected


def test_an_unknown_log_format_stops_with_one_sentence(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOARDROOM_DB")}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "xml"})
    with pytest.raises(BadSetting) as caught:
        Settings.from_env(env)
    assert (caught.value.name, caught.value.value) == ("LOG_FORMAT", "xml")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr  # one line
    assert done.stderr.startswith("LOG_FORMAT must be text") and "“xml”" in done.stderr
    assert TOKEN not in done.stderr


def test_log_format_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "| `LOG_FORMAT` | `text` |" in readme
    assert read_env_file(ROOT / ".env.example")["LOG_FORMAT"] == "text"
