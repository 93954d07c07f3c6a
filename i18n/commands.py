"""Commands named in sentences: a catalogue writes a command as ``</name>`` or
``</name subcommand>`` (its English, default name), and every text ``t`` gives back shows it
through one renderer.

By default that is the command as typed, in code format (``/game board``); the Discord bot
installs a renderer that writes a command mention (``</game board:id>``, with the id Discord gave
the command when it was synced), which each reader's Discord shows clickable, in their own
language."""

from __future__ import annotations

import re
from collections.abc import Callable

#: ``</play>``, ``</game board>``, ``</settings server>``: a command, its group and subcommand
MARKER = re.compile(r"</([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})>")


def typed(name: str) -> str:
    """A command as one types it, in code format."""
    return f"`/{name}`"


_renderer: Callable[[str], str] = typed


def renderer() -> Callable[[str], str]:
    """How commands are shown now."""
    return _renderer


def set_renderer(renderer: Callable[[str], str] | None) -> None:
    """How the commands of every later text are shown (None: as typed)."""
    global _renderer
    _renderer = renderer or typed


def show_commands(text: str) -> str:
    """``text`` with each ``</name>`` marker shown by the installed renderer."""
    if "</" not in text:
        return text
    return MARKER.sub(lambda found: _renderer(found.group(1)), text)


def named_commands(text: str) -> list[str]:
    """The commands a catalogue text names (for the catalogue tests)."""
    return MARKER.findall(text)
