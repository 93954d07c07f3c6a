"""Where the adapter meets the metrics: Discord's REST answers (through aiohttp's request trace
on discord.py's session, which carries interaction responses too), and one interaction's kind
and latency (``watching``, around the gate's run of it)."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from types import SimpleNamespace

import aiohttp
import discord

from bot.ops import metrics

_API_VERSION = re.compile(r"^/api(/v\d+)?")
_TOKEN_AFTER = ("interactions", "webhooks")  # /interactions/{id}/{token}, /webhooks/{id}/{token}
#: our custom_id prefixes (bot.adapter.custom_ids), by what a click on them is
_KIND_NAMES = {
    "br": "move",
    "brs": "move",
    "brl": "lobby",
    "brv": "vote",
    "brb": "back",
    "brr": "rematch",
    "brp": "page",
}


def route_template(method: str, path: str) -> str:
    """``POST /channels/{id}/messages`` for ``/api/v10/channels/123/messages``: ids and tokens
    replaced, so the label's values stay few."""
    parts = _API_VERSION.sub("", path).strip("/").split("/")
    shown = []
    for i, part in enumerate(parts):
        if part.isdigit():
            shown.append("{id}")
        elif i >= 2 and parts[i - 2] in _TOKEN_AFTER and parts[i - 1].isdigit():
            shown.append("{token}")
        elif len(part) > 32 or "%" in part:
            shown.append("{value}")
        else:
            shown.append(part)
    return f"{method} /{'/'.join(shown)}"


@dataclass
class Watch:
    """One interaction being handled: its kind and when Discord created it (local clock)."""

    kind: str
    created: float
    answered: bool = False


_CURRENT: ContextVar[Watch | None] = ContextVar("boardroom_interaction", default=None)


def interaction_kind(interaction: discord.Interaction) -> str:
    """A bounded name: ``move``, ``lobby``, ... for our components, the command's name for a
    slash command of ours, else the interaction type."""
    data = interaction.data or {}
    if interaction.type == discord.InteractionType.component:
        prefix = str(data.get("custom_id", "")).split(":", 1)[0]
        return _KIND_NAMES.get(prefix, "component")
    if interaction.type == discord.InteractionType.application_command:
        tree = getattr(interaction.client, "tree", None)
        name = data.get("name")
        if isinstance(name, str) and tree is not None and tree.get_command(name) is not None:
            return f"/{name}"
        return "command"
    return interaction.type.name


@contextlib.contextmanager
def watching(interaction: discord.Interaction, age: float) -> Iterator[Watch]:
    """While an interaction's work runs: its first answer is timed by the trace below."""
    watch = Watch(interaction_kind(interaction), time.time() - age)
    token = _CURRENT.set(watch)
    try:
        yield watch
    finally:
        _CURRENT.reset(token)


def board_shown(watch: Watch) -> None:
    """A move's work ended: its board is in the channel, or queued for the delivery."""
    if watch.kind == "move":
        metrics.move_stage("board_shown", time.time() - watch.created)


async def _request_end(
    session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
) -> None:
    status = params.response.status
    if status < 400:
        watch = _CURRENT.get()
        if (
            watch is not None
            and not watch.answered
            and params.method == "POST"
            and params.url.path.endswith("/callback")
        ):
            watch.answered = True
            if watch.kind == "move":
                metrics.move_stage("first_answer", time.time() - watch.created)
        return
    route = route_template(params.method, params.url.path)
    if status == 429:
        metrics.rate_limited(route)
    metrics.discord_error(route, status)


async def _request_failed(
    session: aiohttp.ClientSession,
    context: SimpleNamespace,
    params: aiohttp.TraceRequestExceptionParams,
) -> None:
    metrics.discord_error(route_template(params.method, params.url.path), 0)


def discord_trace() -> aiohttp.TraceConfig:
    """The trace config for ``discord.Client(http_trace=...)``."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_request_end)
    trace.on_request_exception.append(_request_failed)
    return trace
