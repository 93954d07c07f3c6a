"""Board pictures: ``render_png(game, state, tr) -> bytes``, one renderer package per game.

A game's renderer is found by convention (``<home>.render``, beside the game's registration:
``games/<game>/render/`` for a built-in game) and exposes ``draw(state, tr, **view) ->
PIL.Image.Image`` and ``describe(state, tr, **view) -> str`` (the alt text); optionally
``rules_image(tr)``, a picture shown with ``/rules``. ``tr`` is an ``i18n.Translator``: a small
value, so drawing works in worker processes too. Pure functions of the state: the same state
gives the same bytes. View keywords a game does not use (``names``, ``focus_seat``, ``since``)
are dropped here, so callers can pass the same ones for every game.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

from engines.registry import part_module
from i18n import Translator
from render.canvas import encode_png

PART = "render"


def renderer(game: str) -> Any:
    """The renderer module of ``game`` (``KeyError`` for a game that is not registered)."""
    return import_module(part_module(game, PART))


@cache
def _accepted(func: Callable[..., Any]) -> frozenset[str] | None:
    """Keyword names ``func`` takes (None: it takes any)."""
    params = inspect.signature(func).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return frozenset(p.name for p in params)


def _call(func: Callable[..., Any], state: Any, tr: Translator, kwargs: dict[str, Any]) -> Any:
    accepted = _accepted(func)
    if accepted is not None:
        kwargs = {k: v for k, v in kwargs.items() if k in accepted}
    return func(state, tr, **kwargs)


def render_png(game: str, state: Any, tr: Translator | None = None, **kwargs: Any) -> bytes:
    """The board of ``state`` as PNG bytes."""
    return encode_png(_call(renderer(game).draw, state, tr or Translator(), kwargs))


def describe(game: str, state: Any, tr: Translator | None = None, **kwargs: Any) -> str:
    """A short text description of the board, used as the image's alt text."""
    return str(_call(renderer(game).describe, state, tr or Translator(), kwargs))


def render_board(
    game: str, state: Any, tr: Translator | None = None, **kwargs: Any
) -> tuple[bytes, str]:
    """The board as PNG bytes and its alt text, in one call: a drawing process does both, so
    neither the picture nor its description is worked out on the bot's event loop."""
    return render_png(game, state, tr, **kwargs), describe(game, state, tr, **kwargs)


#: Discord carries at most this many attachments on one message
MAX_VIEWS = 10


def turn_views(game: str, state: Any, since: Any, mover: int) -> list[dict[str, Any]]:
    """The pictures that tell a turn that just ended, as view keywords for ``render_png`` and
    ``describe``: by default one, the mover's board with what changed ``since`` the state the
    turn began in; a renderer may define ``views(state, since, mover)`` to draw more (e.g. the
    mover's board and the shared area), at most ``MAX_VIEWS``."""
    custom = getattr(renderer(game), "views", None)
    if custom is None:
        return [{"focus_seat": mover, "since": since}]
    views = [dict(view) for view in custom(state, since, mover)]
    return views[:MAX_VIEWS] or [{"focus_seat": mover, "since": since}]


def board_views(
    game: str, state: Any, focus_seat: int | None = None, table: bool = False
) -> list[dict[str, Any]]:
    """The pictures that show the position as it is (a turn in progress, ``/game board``), as
    view keywords: by default one, the whole board. A renderer may define ``board_views(state,
    focus_seat, table)`` to split it into pictures that each read on a phone: what the player
    to move needs, and with ``table`` everything (``/game board``), at most ``MAX_VIEWS``."""
    custom = getattr(renderer(game), "board_views", None)
    if custom is None:
        return [{"focus_seat": focus_seat}]
    views = [dict(view) for view in custom(state, focus_seat, table)]
    return views[:MAX_VIEWS] or [{"focus_seat": focus_seat}]


def rules_alt(game: str, tr: Translator | None = None) -> str:
    """The alt text of the ``/rules`` picture: the game's own ``rules_alt``, else its title."""
    tr = tr or Translator()
    describe_legend = getattr(renderer(game), "rules_alt", None)
    if describe_legend is not None:
        return str(describe_legend(tr))
    return tr(f"{game}.title") if tr.has(f"{game}.title") else game


def rules_png(game: str, tr: Translator | None = None) -> bytes | None:
    """The picture ``/rules`` shows beside the summary (a legend of symbols), if any."""
    draw = getattr(renderer(game), "rules_image", None)
    return None if draw is None else encode_png(draw(tr or Translator()))
