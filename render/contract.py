"""The renderer contract: what a game's ``render`` part (``<home>.render``) exposes.

A renderer is a module, so these Protocols describe module-level functions (``self`` stands for
the module). ``Renderer`` lists what every game must have; ``RendererExtras`` what a game may
add, each one used only when present (``render.turn_views``, ``render.board_views``,
``render.rules_png``, ``render.rules_alt``). ``bot/games.py`` checks both at start-up. Callers
pass the parameters written here by position; ``draw`` and ``describe`` also get the view
keywords they name (``names``, ``focus_seat``, ``since``, ``area``), the others dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from PIL import Image

from i18n import Translator


class Renderer(Protocol):
    """Every game's board, as a picture and in words."""

    def draw(self, state: Any, tr: Translator, /) -> Image.Image:
        """The board (pure: the same state and view keywords give the same picture)."""
        ...

    def describe(self, state: Any, tr: Translator, /) -> str:
        """The board in words: the picture's alt text (at most 1,024 characters)."""
        ...


class RendererExtras(Protocol):
    """Pictures a game may add; a game without one gets the default its caller names."""

    def rules_image(self, tr: Translator, /) -> Image.Image:
        """A picture ``/rules`` shows beside the summary (default: none)."""
        ...

    def rules_alt(self, tr: Translator, /) -> str:
        """That picture's alt text (default: the game's title)."""
        ...

    def views(self, state: Any, since: Any, mover: int, /) -> Sequence[Mapping[str, Any]]:
        """The pictures of a turn that just ended, as view keywords for ``draw`` (default: one,
        the mover's board with what changed ``since``)."""
        ...

    def board_views(
        self, state: Any, focus_seat: int | None, table: bool, /
    ) -> Sequence[Mapping[str, Any]]:
        """The pictures of the position as it is, as view keywords (default: the whole board);
        ``table``: everything, for ``/game board``."""
        ...
