"""Settings from the environment (and a ``.env`` file in the working directory, for development)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.storage import is_postgres_url
from bot.storage.base import Shards

DEFAULT_DB = "./data/boardroom.db"
#: the container's volume; the image sets BOARDROOM_IN_CONTAINER=1 and the database must live here
DATA_VOLUME = Path("/data")


class MissingSetting(Exception):
    """A required setting is absent; the message says which and where to get it."""


class BadSetting(Exception):
    """A setting that is not of the expected form; carries its name and the form expected."""

    def __init__(self, name: str, value: str, expected: str) -> None:
        super().__init__(name, value, expected)
        self.name, self.value, self.expected = name, value, expected


def _number(env: Mapping[str, str], name: str, default: float, kind: type = int) -> Any:
    text = env.get(name, "").strip()
    if not text:
        return kind(default)
    try:
        value = kind(text)
    except ValueError:
        raise BadSetting(name, text, kind.__name__) from None
    if value < 0:
        raise BadSetting(name, text, kind.__name__)
    return value


def _anchor(env: Mapping[str, str], name: str) -> tuple[float, float] | None:
    """``"1796000000=2026-03-06T20:00:00+09:00"`` as (wall unix time, game unix time)."""
    text = env.get(name, "").strip()
    if not text:
        return None
    wall, _, when = text.partition("=")
    try:
        read = datetime.fromisoformat(when.strip())
        if read.tzinfo is None:
            raise ValueError(when)
        return float(wall), read.timestamp()
    except ValueError:
        raise BadSetting(name, text, "unix time=ISO date-time with offset") from None


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (case-insensitive); the first when the variable is empty."""
    text = env.get(name, "").strip()
    if not text:
        return choices[0]
    if text.upper() not in choices:
        raise BadSetting(name, text, "synchronous")
    return text.upper()


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level(env: Mapping[str, str]) -> str:
    text = env.get("LOG_LEVEL", "").strip()
    level = text.upper() or "INFO"
    if level not in LOG_LEVELS:
        raise BadSetting("LOG_LEVEL", text, "log_level")
    return level


LOG_FORMATS = ("text", "json")


def _log_format(env: Mapping[str, str]) -> str:
    """``LOG_FORMAT``: text lines (the default) or JSON lines for a log collector."""
    text = env.get("LOG_FORMAT", "").strip()
    chosen = text.lower() or "text"
    if chosen not in LOG_FORMATS:
        raise BadSetting("LOG_FORMAT", text, "log_format")
    return chosen


def _flag(env: Mapping[str, str], name: str) -> bool:
    """On for 1, true, yes or on (any case); off when empty or anything else."""
    return env.get(name, "").strip().lower() in ("1", "true", "yes", "on")


_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _modules(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated list of Python module paths."""
    text = env.get(name, "").strip()
    modules = tuple(part.strip() for part in text.split(",") if part.strip())
    for module in modules:
        if not _MODULE.fullmatch(module):
            raise BadSetting(name, text, "modules")
    return modules


_SHARDS = re.compile(r"(\d+)(?:-(\d+))?/(\d+)")


def _shards(env: Mapping[str, str], name: str) -> Shards | None:
    """``0-3/8``: shards 0 to 3 of 8 (``5/8``: shard 5 alone); None when the variable is empty."""
    text = env.get(name, "").strip()
    if not text:
        return None
    match = _SHARDS.fullmatch(text.replace(" ", ""))
    if not match:
        raise BadSetting(name, text, "shards")
    first, last, count = int(match[1]), int(match[2] or match[1]), int(match[3])
    if not 0 <= first <= last < count:
        raise BadSetting(name, text, "shards")
    return Shards(tuple(range(first, last + 1)), count)


def _pool(env: Mapping[str, str], name: str) -> int:
    size: int = _number(env, name, 5)
    if size < 1:
        raise BadSetting(name, env.get(name, ""), "int")
    return size


def _port(env: Mapping[str, str], name: str) -> int | None:
    """A TCP port, 1 to 65535; None when the variable is empty (or 0)."""
    port: int = _number(env, name, 0)
    if port > 65535:
        raise BadSetting(name, env.get(name, ""), "port")
    return port or None


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; ``#`` comments and blank lines ignored; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


def environment(env_file: Path | None = Path(".env")) -> dict[str, str]:
    """The process environment over the ``.env`` file: real variables win."""
    merged = read_env_file(env_file) if env_file else {}
    merged.update(os.environ)
    return merged


#: drawing processes ``auto`` starts on a machine with two or more cores (a second one draws a
#: message's two pictures at once, a few ms sooner, but holds about 140 MB more: see
#: docs/decisions.md, "Running under load")
AUTO_DRAWING_PROCESSES = 1


def auto_render_processes() -> int:
    """``BOARDROOM_RENDER_PROCESSES=auto``: drawing processes when there is a core to spare for
    them."""
    return AUTO_DRAWING_PROCESSES if (os.cpu_count() or 1) >= 2 else 0


def heartbeat_path(settings: Settings) -> Path:
    """A file the running bot touches every 30 s; the container health check reads its age."""
    return settings.database.with_name(settings.database.name + ".heartbeat")


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database: Path
    api_base: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "text"  # LOG_FORMAT: text, or json (one object a line)
    render_processes: int = 0
    max_in_flight: int = 200
    bot_pause: float = 1.0
    game_modules: tuple[str, ...] = ()  # BOARDROOM_GAMES: modules that register more games
    synchronous: str = "FULL"  # BOARDROOM_SYNCHRONOUS: FULL survives power loss, NORMAL may not
    in_container: bool = False  # BOARDROOM_IN_CONTAINER, set by the image
    allow_db_outside_data: bool = False  # BOARDROOM_ALLOW_DB_OUTSIDE_DATA: a deliberate choice
    #: BOARDROOM_DB as a postgresql:// URL; ``database`` then only names where the heartbeat and
    #: the command-sync marker go (BOARDROOM_STATE_DIR, else /data in the container, else ./data)
    db_url: str | None = None
    db_pool: int = 5  # BOARDROOM_DB_POOL: connections to PostgreSQL per process
    shards: Shards | None = None  # BOARDROOM_SHARDS, e.g. 0-3/8: the gateway shards to run
    #: BOARDROOM_METRICS_PORT: serve /metrics, /healthz and /readyz there (None: not served)
    metrics_port: int | None = None
    #: BOARDROOM_METRICS_HOST: the address the port is bound to (this host only, unless told)
    metrics_host: str = "127.0.0.1"

    @property
    def store_target(self) -> str | Path:
        """What ``bot.storage.open_store`` opens: the PostgreSQL URL, else the SQLite file."""
        return self.db_url or self.database
    #: BOARDROOM_TEST_HOUR_SECONDS, a test setting: how long an hour of game time lasts (turn
    #: clocks, reminders, votes, away periods, lobby expiry), so tests run deadline stories in
    #: seconds. None: a real hour.
    test_hour_seconds: float | None = None
    #: BOARDROOM_TEST_CALENDAR_ANCHOR, a test setting with scaled hours: ``WALL=ISO``, the game
    #: calendar reads the ISO date-time (with its offset) at unix time WALL, and runs as fast as
    #: game time from there (``bot.service.rest_time.GameTime``), so a test can place a weekend.
    #: None: it reads the wall clock when the process starts.
    test_calendar_anchor: tuple[float, float] | None = None
    #: BOARDROOM_TEST_RETRY_SCALE, a test setting: the board delivery's backoff (1 s up to its
    #: cap of 300 s) multiplied by it, so tests run refusals longer than the cap in seconds
    test_retry_scale: float = 1.0

    def __repr__(self) -> str:  # never print the token
        return (
            f"Settings(database={'<postgresql>' if self.db_url else self.database!s}, "
            f"api_base={self.api_base!r}, shards={self.shards!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"render_processes={self.render_processes}, token=<hidden>)"
        )

    __str__ = __repr__

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, need_token: bool = True) -> Settings:
        env = environment() if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if need_token and not token:
            raise MissingSetting("DISCORD_TOKEN")
        processes = env.get("BOARDROOM_RENDER_PROCESSES", "").strip().lower()
        db = env.get("BOARDROOM_DB", "").strip() or DEFAULT_DB
        in_container = _flag(env, "BOARDROOM_IN_CONTAINER")
        state_dir = env.get("BOARDROOM_STATE_DIR", "").strip() or (
            str(DATA_VOLUME) if in_container else str(Path(DEFAULT_DB).parent)
        )
        return cls(
            token=token,
            database=Path(state_dir) / "boardroom.db" if is_postgres_url(db) else Path(db),
            db_url=db if is_postgres_url(db) else None,
            db_pool=_pool(env, "BOARDROOM_DB_POOL"),
            shards=_shards(env, "BOARDROOM_SHARDS"),
            metrics_port=_port(env, "BOARDROOM_METRICS_PORT"),
            metrics_host=env.get("BOARDROOM_METRICS_HOST", "").strip() or "127.0.0.1",
            api_base=env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None,
            dev_guild_id=_number(env, "DEV_GUILD_ID", 0) or None,
            log_level=_log_level(env),
            log_format=_log_format(env),
            render_processes=auto_render_processes()
            if processes in ("", "auto")
            else _number(env, "BOARDROOM_RENDER_PROCESSES", 0),
            max_in_flight=_number(env, "BOARDROOM_MAX_IN_FLIGHT", 200),
            bot_pause=_number(env, "BOARDROOM_BOT_PAUSE", 1.0, float),
            game_modules=_modules(env, "BOARDROOM_GAMES"),
            synchronous=_choice(env, "BOARDROOM_SYNCHRONOUS", ("FULL", "NORMAL")),
            in_container=in_container,
            allow_db_outside_data=_flag(env, "BOARDROOM_ALLOW_DB_OUTSIDE_DATA"),
            test_hour_seconds=_number(env, "BOARDROOM_TEST_HOUR_SECONDS", 0, float) or None,
            test_calendar_anchor=_anchor(env, "BOARDROOM_TEST_CALENDAR_ANCHOR"),
            test_retry_scale=_number(env, "BOARDROOM_TEST_RETRY_SCALE", 1.0, float) or 1.0,
        )

    def database_off_volume(self) -> bool:
        """In the container, a database outside /data would vanish with the container."""
        if not self.in_container or self.allow_db_outside_data or self.db_url:
            return False
        return not Path(os.path.abspath(self.database)).is_relative_to(DATA_VOLUME)
