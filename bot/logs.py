"""Logging set-up: the bot token and the game seeds stay out of every log line, at every level.

The token is redacted wherever it appears (message, traceback, stack). Seeds never reach a log
because nothing of ours logs them and the database driver's statement log is cut off: at DEBUG,
aiosqlite prints every statement with its parameters, and the game INSERT carries the seed, from
which every die and bag draw could be predicted (``engines/rng.py`` is public).
"""

from __future__ import annotations

import logging

#: loggers that print SQL parameters below INFO; their DEBUG records are dropped
DRIVER_LOGGERS = ("aiosqlite", "asyncpg")


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


def setup_logging(level: str, *secrets: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(DropDriverStatements())
    handler.addFilter(RedactSecrets(*secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quiet = max(logging.getLevelName(level), logging.INFO)
    logging.getLogger("discord.gateway").setLevel(quiet)
    for name in DRIVER_LOGGERS:
        logging.getLogger(name).setLevel(quiet)
