"""Discord-shaped JSON error responses."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with exactly `Content-Type: application/json` (discord.py compares it verbatim)."""
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def error(status: int, code: int, message: str) -> web.Response:
    """A JSON error body as Discord sends it."""
    return json_response({"message": message, "code": code}, status=status)


def unknown_interaction() -> web.Response:
    """404 Unknown interaction (10062): unknown, expired or late."""
    return error(404, 10062, "Unknown interaction")


def already_acknowledged() -> web.Response:
    """400 Interaction has already been acknowledged (40060)."""
    return error(400, 40060, "Interaction has already been acknowledged.")


def unknown_webhook() -> web.Response:
    """404 Unknown Webhook (10015)."""
    return error(404, 10015, "Unknown Webhook")


def unknown_message() -> web.Response:
    """404 Unknown Message (10008)."""
    return error(404, 10008, "Unknown Message")


def unknown_channel() -> web.Response:
    """404 Unknown Channel (10003)."""
    return error(404, 10003, "Unknown Channel")


def empty_message() -> web.Response:
    """400 Cannot send an empty message (50006)."""
    return error(400, 50006, "Cannot send an empty message")


def invalid_form(detail: str) -> web.Response:
    """400 Invalid Form Body (50035)."""
    return error(400, 50035, f"Invalid Form Body: {detail}")
