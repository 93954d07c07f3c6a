"""Logging set-up, with a filter that keeps the bot token out of every log line."""

from __future__ import annotations

import logging


class RedactSecrets(logging.Filter):
    """Replace any occurrence of the given secrets in a record's final message."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(s in message for s in self.secrets):
            for secret in self.secrets:
                message = message.replace(secret, "<redacted>")
            record.msg, record.args = message, None
        return True


def setup_logging(level: str, *secrets: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactSecrets(*secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.gateway").setLevel(max(logging.getLevelName(level), logging.INFO))
