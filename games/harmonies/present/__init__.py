"""Harmonies in words, buttons and select menus (the presenter).

One module per job: ``words`` (the game's vocabulary), ``controls`` (legal actions as buttons
and menus, see its doc for the layout), ``narration`` (events as sentences), ``results`` (the
final scoring), ``log`` (one move in words), ``turn_line`` (a turn's line of ``/game log``)
and ``prompt``. Colour, card and spirit words
shared with the board picture are in ``games.harmonies.words``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.base import ACCOUNT_ITEM, STEPS_PRIVATE, ControlRows, PlayedTurn, clip
from bot.service.models import LoggedMove
from games.harmonies.engine.cards import CARDS
from games.harmonies.engine.state import Player
from games.harmonies.present.controls import layout
from games.harmonies.present.game import ENGINE
from games.harmonies.present.log import describe_code
from games.harmonies.present.narration import narrate
from games.harmonies.present.prompt import prompt
from games.harmonies.present.turn_line import turn_summary
from games.harmonies.words import card_name
from i18n import translator

__all__ = ["ENGINE", "PRESENTER", "HarmoniesPresenter", "layout"]


class HarmoniesPresenter:
    """Turn steps are answered privately; ``end`` publishes the new board for everyone."""

    steps = STEPS_PRIVATE

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

    def turn_account(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        """Where each token went, the cards taken and completed, as the turn stands at End turn
        (steps taken back are left out), then refills and new cards."""
        tail = _from_end_turn(moves)
        if tail is None:
            return self.events(start, moves, end, names, locale)
        state = start
        for move in moves[:tail]:
            state = ENGINE.apply(state, ENGINE.decode_action(move.action))
        return self.events(state, moves[tail:], end, names, locale)

    def turn_summary(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> str:
        """One line of ``/game log`` for the whole turn (``turn_line``)."""
        return turn_summary(start, moves, end, names, translator(locale))

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        """Tokens placed, cards completed and the score after each turn."""
        tr = translator(locale)
        items = []
        for turn in turns:
            seat = turn.mover if turn.mover is not None else 0
            before, after = turn.start.players[seat], turn.end.players[seat]
            tokens = _tokens(after) - _tokens(before)
            done = [card_name(tr, c) for c in _completed(after) - _completed(before)]
            score = ENGINE.scores(turn.end)[seat]
            player = tr.player(seat, names)
            if done:
                text = tr(
                    "harmonies.ui.recap.cards",
                    count=tokens,
                    player=player,
                    cards=tr.join(done),
                    score=score,
                )
            else:
                text = tr("harmonies.ui.recap.tokens", count=tokens, player=player, score=score)
            items.append(clip(text, ACCOUNT_ITEM))
        return items


def _from_end_turn(moves: Sequence[LoggedMove]) -> int | None:
    """Where the turn's End turn is in ``moves`` (None: not played yet)."""
    ends = [i for i, m in enumerate(moves) if m.seat is not None and m.action == "end"]
    return ends[-1] if ends else None


def _tokens(player: Player) -> int:
    return sum(len(stack) for stack in player.stacks)


def _completed(player: Player) -> set[int]:
    return {c for c, n in player.cards if n == len(CARDS[c].track) and not CARDS[c].spirit}


PRESENTER = HarmoniesPresenter()
