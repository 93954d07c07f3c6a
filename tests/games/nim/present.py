"""Nim in words and buttons: one row per heap, a button per number of sticks (a menu past five)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.base import (
    MAX_BUTTONS_PER_ROW,
    STEPS_IN_PLACE,
    Button,
    Control,
    ControlRows,
    PlayedTurn,
    Select,
    SelectOption,
)
from bot.service.models import LoggedMove
from i18n import t
from tests.games.nim.engine import NimState


def _take(code: str) -> tuple[int, int]:
    _, heap, sticks = code.split(":")
    return int(heap), int(sticks)


class NimPresenter:
    steps = STEPS_IN_PLACE  # a turn is one take: there are no steps inside it

    def controls(self, state: NimState, legal: Sequence[str], locale: str | None) -> ControlRows:
        by_heap: dict[int, list[str]] = {}
        for code in legal:
            by_heap.setdefault(_take(code)[0], []).append(code)
        rows: list[tuple[Control, ...]] = []
        for heap, codes in sorted(by_heap.items()):
            labels = [t(locale, "nim.take", heap=heap, sticks=_take(c)[1]) for c in codes]
            if len(codes) <= MAX_BUTTONS_PER_ROW:
                rows.append(tuple(Button(c, label) for c, label in zip(codes, labels, strict=True)))
            else:
                options = tuple(SelectOption(c, label) for c, label in zip(codes, labels, strict=True))
                rows.append((Select(t(locale, "nim.choose", heap=heap), options),))
        return ControlRows(tuple(rows))

    def events(
        self,
        before: NimState,
        moves: Sequence[LoggedMove],
        after: NimState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        return [self._sentence(m, names, locale) for m in moves]

    def _sentence(self, move: LoggedMove, names: Sequence[str], locale: str | None) -> str:
        if move.action.startswith("first:"):
            seat = int(move.action.split(":")[1])
            return t(locale, "nim.event.first", player=names[seat])
        heap, sticks = _take(move.action)
        player = names[move.seat] if move.seat is not None else ""
        return t(locale, "nim.event.take", player=player, heap=heap, sticks=sticks)

    def prompt(self, state: NimState, names: Sequence[str], locale: str | None) -> str:
        return t(locale, "nim.prompt", player=names[state.mover])

    def describe_move(self, state_before: object, move: LoggedMove, locale: str | None) -> str:
        if move.action.startswith("first:"):
            return t(locale, "nim.log.first", seat=int(move.action.split(":")[1]) + 1)
        heap, sticks = _take(move.action)
        return t(locale, "nim.log.take", heap=heap, sticks=sticks)

    def rules_summary(self, locale: str | None) -> str:
        return t(locale, "nim.rules")

    def turn_account(
        self,
        start: NimState,
        moves: Sequence[LoggedMove],
        end: NimState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        return [self._sentence(m, names, locale) for m in moves]

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        return [
            t(locale, "nim.recap", player=names[turn.mover], heap=heap, sticks=sticks)
            for turn in turns
            if turn.mover is not None
            for heap, sticks in [_take(m.action) for m in turn.moves if m.seat is not None][-1:]
        ]


PRESENTER = NimPresenter()
