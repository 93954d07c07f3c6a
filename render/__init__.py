"""Board pictures: ``render_png(game, state) -> bytes``, one renderer module per game.

Each renderer module exposes ``draw(state, locale) -> PIL.Image.Image`` and
``describe(state, locale) -> str`` (the alt text). Pure functions of the state: the same state
gives the same bytes.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from render.canvas import encode_png

_RENDERERS = {
    "cantstop": "render.cantstop",
}


def _module(game: str) -> Any:
    return import_module(_RENDERERS[game])


def render_png(game: str, state: Any, locale: str | None = None, **kwargs: Any) -> bytes:
    """The board of ``state`` as PNG bytes (extra keyword arguments go to the game's renderer)."""
    return encode_png(_module(game).draw(state, locale, **kwargs))


def describe(game: str, state: Any, locale: str | None = None, **kwargs: Any) -> str:
    """A short text description of the board, used as the image's alt text."""
    return str(_module(game).describe(state, locale, **kwargs))
