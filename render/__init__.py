"""Board pictures: ``render_png(game, state) -> bytes``, one renderer module per game.

Each renderer module exposes ``draw(state, locale, **view) -> PIL.Image.Image`` and
``describe(state, locale, **view) -> str`` (the alt text). Pure functions of the state: the same
state gives the same bytes. View keywords a game does not use (``names``, ``focus_seat``) are
dropped here, so callers can pass the same ones for every game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

from render.canvas import encode_png

_RENDERERS = {
    "cantstop": "render.cantstop",
    "kokeshi": "render.kokeshi",
    "harmonies": "render.harmonies",
}


def _module(game: str) -> Any:
    return import_module(_RENDERERS[game])


@cache
def _accepted(func: Callable[..., Any]) -> frozenset[str] | None:
    """Keyword names ``func`` takes (None: it takes any)."""
    params = inspect.signature(func).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params)


def _call(func: Callable[..., Any], state: Any, locale: str | None, kwargs: dict[str, Any]) -> Any:
    accepted = _accepted(func)
    if accepted is not None:
        kwargs = {k: v for k, v in kwargs.items() if k in accepted}
    return func(state, locale, **kwargs)


def render_png(game: str, state: Any, locale: str | None = None, **kwargs: Any) -> bytes:
    """The board of ``state`` as PNG bytes."""
    return encode_png(_call(_module(game).draw, state, locale, kwargs))


def describe(game: str, state: Any, locale: str | None = None, **kwargs: Any) -> str:
    """A short text description of the board, used as the image's alt text."""
    return str(_call(_module(game).describe, state, locale, kwargs))
