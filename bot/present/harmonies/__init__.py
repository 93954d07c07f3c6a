"""Harmonies in words, buttons and select menus (the presenter).

One module per job: ``words`` (the game's vocabulary), ``controls`` (legal actions as buttons
and menus, see its doc for the layout), ``narration`` (events as sentences), ``results`` (the
final scoring), ``log`` (``/game log`` lines) and ``prompt``. Colour, card and spirit words
shared with the board picture are in ``i18n.games.harmonies``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.base import ControlRows
from bot.present.harmonies.controls import layout
from bot.present.harmonies.game import ENGINE
from bot.present.harmonies.log import describe_code
from bot.present.harmonies.narration import narrate
from bot.present.harmonies.prompt import prompt
from bot.service.models import LoggedMove
from i18n import translator

__all__ = ["ENGINE", "PRESENTER", "HarmoniesPresenter", "layout"]


class HarmoniesPresenter:
    """Turn steps are answered privately; ``end`` publishes the new board for everyone."""

    public_every_action = False

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        return layout(state, legal, translator(locale))[0]

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        tr = translator(locale)
        try:
            return narrate(before, moves, after, names, tr)
        except Exception:  # words must never break a turn: fall back to the log lines
            return [describe_code(None, m.action, tr) for m in moves] or ["…"]

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        return prompt(state, names, translator(locale))

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        return describe_code(state_before, move.action, translator(locale))

    def rules_summary(self, locale: str | None) -> str:
        tr = translator(locale)
        return tr("harmonies.ui.rules")


PRESENTER = HarmoniesPresenter()
