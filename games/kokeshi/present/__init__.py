"""Kokeshi in words, buttons and menus.

Public or private: ``steps`` is ``STEPS_PRIVATE``. A Kokeshi turn is one move followed by a
few small choices of the same player (which side of a tile, which kokeshi or animal, which tile
to gain, which column). Posting a board for each of them would bury the channel in pictures, so
those steps are answered privately to the acting player (a preview and the next controls), and
the action that completes the turn posts one public message that tells the whole turn's cascade
step by step (the move, every tile that fired, gains, animal moves, draws, placements, the end
trigger), then the board and the next player's controls. The two starting placements work the
same way: the first privately, the second publicly with both tiles.

Controls are built only from the legal action codes: buttons for short lists (moves, sides,
kokeshi, animals, columns), a select menu for tiles to gain or place (their effects need words)
and for anything longer than one row of buttons.

Modules: ``words`` (the vocabulary), ``controls``, ``prompt``, ``narration`` (events in
sentences), ``report`` (what an outcome announces), ``final_scoring``, ``log`` (one move in
words) and ``turn_line`` (a turn's line of ``/game log``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.base import ACCOUNT_ITEM, STEPS_PRIVATE, ControlRows, PlayedTurn, clip, plain
from bot.service.models import LoggedMove
from games.kokeshi.present import controls as control_specs
from games.kokeshi.present import log, report, turn_line
from games.kokeshi.present import prompt as prompts
from games.kokeshi.present.game import ENGINE
from i18n import translator


class KokeshiPresenter:
    steps = STEPS_PRIVATE

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        return control_specs.controls(state, legal, translator(locale))

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        return report.events(before, moves, after, names, translator(locale))

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        return prompts.prompt(state, names, translator(locale))

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        return log.describe_move(state_before, move, translator(locale))

    def rules_summary(self, locale: str | None) -> str:
        return translator(locale)("kokeshi.ui.rules")

    def turn_account(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        """The whole turn's cascade step by step (long cascades summarised, see ``report``)."""
        return report.events(start, moves, end, names, translator(locale))

    def turn_summary(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> str:
        """One line of ``/game log`` for the whole turn (``turn_line``)."""
        return turn_line.turn_summary(start, moves, end, names, translator(locale))

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        """Each turn's move (its first line) and the mover's score after it."""
        tr = translator(locale)
        items = []
        for turn in turns:
            lines = report.events(turn.start, turn.moves, turn.end, names, tr)
            seat = turn.mover if turn.mover is not None else 0
            score = ENGINE.scores(turn.end)[seat]
            move = plain(lines[0]) if lines else names[seat]
            items.append(clip(tr("kokeshi.ui.recap.item", move=move, score=score), ACCOUNT_ITEM))
        return items


PRESENTER = KokeshiPresenter()
