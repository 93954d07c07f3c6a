"""Pig in words and buttons: Roll, and Hold once the turn has a total; each roll updates the
clicked message in place (a turn is several actions, as in Can't Stop)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.base import STEPS_IN_PLACE, Button, ControlRows, PlayedTurn
from bot.service.models import LoggedMove
from i18n import join_list, t
from tests.games.pig.engine import HOLD, ROLL, PigState


def _face(action: str) -> int:
    return int(action.split(":")[1])


class PigPresenter:
    steps = STEPS_IN_PLACE

    def controls(self, state: PigState, legal: Sequence[str], locale: str | None) -> ControlRows:
        buttons: list[Button] = []
        if ROLL in legal:
            buttons.append(Button(ROLL, t(locale, "pig.roll"), "primary", "🎲"))
        if HOLD in legal:
            buttons.append(Button(HOLD, t(locale, "pig.hold", total=state.total), "success"))
        return ControlRows((tuple(buttons),) if buttons else ())

    def events(
        self,
        before: PigState,
        moves: Sequence[LoggedMove],
        after: PigState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        return self._tell(before, moves, after, names, locale)

    def _tell(
        self,
        start: PigState,
        moves: Sequence[LoggedMove],
        end: PigState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        player = names[start.mover]
        faces = [_face(m.action) for m in moves if m.seat is None]
        lines = []
        if faces:
            rolled = join_list(locale, [str(f) for f in faces])
            lines.append(t(locale, "pig.event.rolled", player=player, faces=rolled))
        if faces and faces[-1] == 1:
            lines.append(t(locale, "pig.event.bust", player=player))
        elif end.turn > start.turn:
            score = end.scores[start.mover]
            lines.append(t(locale, "pig.event.banked", player=player, score=score))
        if end.winners:
            winners = join_list(locale, [names[seat] for seat in end.winners])
            lines.append(t(locale, "pig.event.won", winners=winners))
        return lines

    def prompt(self, state: PigState, names: Sequence[str], locale: str | None) -> str:
        return t(locale, "pig.prompt", player=names[state.mover], total=state.total)

    def describe_move(self, state_before: object, move: LoggedMove, locale: str | None) -> str:
        if move.action == ROLL:
            return t(locale, "pig.log.roll")
        if move.action == HOLD:
            return t(locale, "pig.log.hold")
        return t(locale, "pig.log.die", die=_face(move.action))

    def rules_summary(self, locale: str | None) -> str:
        return t(locale, "pig.rules")

    def turn_account(
        self,
        start: PigState,
        moves: Sequence[LoggedMove],
        end: PigState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        return self._tell(start, moves, end, names, locale)

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        items = []
        for turn in turns:
            if turn.mover is None:
                continue
            player = names[turn.mover]
            gained = turn.end.scores[turn.mover] - turn.start.scores[turn.mover]
            if gained:
                items.append(t(locale, "pig.recap.banked", player=player, points=gained))
            else:
                items.append(t(locale, "pig.recap.bust", player=player))
        return items


PRESENTER = PigPresenter()
