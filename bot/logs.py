"""Logging set-up: the bot token and the game seeds stay out of every log line, at every level.

The token is redacted wherever it appears (message, traceback, stack). Seeds never reach a log
because nothing of ours logs them and a database driver's statement log is cut off: at DEBUG,
a driver may print every statement with its parameters, and the game INSERT carries the seed,
from which every die and bag draw could be predicted (``engines/rng.py`` is public). SQLite is
reached through the standard library's ``sqlite3``, which logs nothing.

``LOG_FORMAT=json`` writes one JSON object a line (for log collectors) with the same filters:
``time``, ``level``, ``logger``, ``message``, the ``extra`` fields the code passes (such as
``game_id``), and ``exception`` / ``stack`` when there is one.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

#: loggers that print SQL parameters below INFO; their DEBUG records are dropped
DRIVER_LOGGERS = ("asyncpg",)


class RedactSecrets(logging.Filter):
    """Replace any occurrence of the given secrets in a record's message and traceback."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def _redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<redacted>")
        return text

    def _leaks(self, text: str | None) -> bool:
        return bool(text) and any(s in text for s in self.secrets)  # type: ignore[operator]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for name, value in extra_fields(record).items():  # JSON lines print these too
            if isinstance(value, str) and self._leaks(value):
                setattr(record, name, self._redact(value))
        if self._leaks(message):
            record.msg, record.args = self._redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if self._leaks(record.exc_text):
            record.exc_text = self._redact(record.exc_text or "")
        if self._leaks(record.stack_info):
            record.stack_info = self._redact(record.stack_info or "")
        return True


class DropDriverStatements(logging.Filter):
    """Drop the database driver's records below INFO (they carry statement parameters)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.INFO:
            return True
        return not any(
            record.name == name or record.name.startswith(name + ".") for name in DRIVER_LOGGERS
        )


#: the attributes every LogRecord has; anything else on a record came from ``extra=``
_RECORD_FIELDS = frozenset(
    logging.LogRecord("", 0, "", 0, "", (), None).__dict__.keys() | {"message", "asctime"}
)


def extra_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The ``extra={...}`` fields a record was logged with."""
    return {k: v for k, v in record.__dict__.items() if k not in _RECORD_FIELDS}


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name, value in extra_fields(record).items():
            entry.setdefault(name, value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def setup_logging(level: str, *secrets: str, log_format: str = "text") -> None:
    """Logs to stderr at ``level``, as text lines or (``log_format="json"``) JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(DropDriverStatements())
    handler.addFilter(RedactSecrets(*secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quiet = max(logging.getLevelName(level), logging.INFO)
    logging.getLogger("discord.gateway").setLevel(quiet)
    # at DEBUG it prints every request body: message text, such as the seed an ended game reveals
    logging.getLogger("discord.http").setLevel(quiet)
    for name in DRIVER_LOGGERS:
        logging.getLogger(name).setLevel(quiet)
