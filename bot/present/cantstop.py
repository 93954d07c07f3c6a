"""Can't Stop in words and buttons."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.base import Button, ControlRows, chunk_buttons
from bot.service.models import LoggedMove
from engines.cantstop.state import COLUMNS, Phase
from engines.registry import get_engine
from i18n import join_list, t

ENGINE = get_engine("cantstop")


def move_label(code: str, locale: str | None) -> str:
    """``move:6+8`` → ``6 + 8``; ``move:5`` → ``5``."""
    columns = code.split(":", 1)[1].split("+")
    if len(columns) == 2:
        return t(locale, "cantstop.move.two", first=columns[0], second=columns[1])
    return t(locale, "cantstop.move.one", column=columns[0])


class CantStopPresenter:
    public_every_action = True

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        buttons = []
        for code in legal:
            if code == "roll":
                key = (
                    "cantstop.button.roll_again"
                    if state.phase == Phase.DECIDE
                    else "cantstop.button.roll"
                )
                buttons.append(Button(code, t(locale, key), "primary", "🎲"))
            elif code == "stop":
                buttons.append(Button(code, t(locale, "cantstop.button.stop"), "success", "✋"))
            else:
                buttons.append(Button(code, move_label(code, locale), "secondary"))
        return ControlRows(chunk_buttons(buttons))

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        lines: list[str] = []
        state = before
        for move in moves:
            nxt = ENGINE.apply(state, ENGINE.decode_action(move.action))
            player = names[state.active]
            kind = move.action.split(":", 1)[0]
            if kind == "dice":
                dice = " · ".join(str(d) for d in nxt.dice)
                lines.append(t(locale, "cantstop.event.rolled", player=player, dice=dice))
                if nxt.bust:
                    lines.append(t(locale, "cantstop.event.bust", player=player))
            elif kind == "move":
                label = move_label(move.action, locale)
                lines.append(t(locale, "cantstop.event.moved", player=player, move=label))
                if ENGINE.turn(nxt) > ENGINE.turn(state):  # auto_stop_on_win stopped for them
                    lines.append(t(locale, "cantstop.event.stopped", player=player))
            elif kind == "stop":
                lines.append(t(locale, "cantstop.event.stopped", player=player))
            if nxt.claimed != state.claimed:
                new = [str(c) for c in COLUMNS if nxt.owner(c) != state.owner(c)]
                lines.append(
                    t(
                        locale,
                        "cantstop.event.claimed"
                        if len(new) == 1
                        else "cantstop.event.claimed_many",
                        player=player,
                        columns=join_list(locale, new),
                    )
                )
            if nxt.phase == Phase.OVER:
                won = [str(c) for c in nxt.claimed_by(nxt.winner)]
                lines.append(
                    t(
                        locale,
                        "cantstop.event.won",
                        player=names[nxt.winner],
                        columns=join_list(locale, won),
                    )
                )
            state = nxt
        return lines

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        if state.phase == Phase.OVER:
            return t(locale, "cantstop.prompt.over", player=names[state.winner])
        key = {
            Phase.ROLL: "cantstop.prompt.roll",
            Phase.MOVE: "cantstop.prompt.move",
            Phase.DECIDE: "cantstop.prompt.decide",
        }[state.phase]
        return t(locale, key, player=names[state.active])

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        kind, _, rest = move.action.partition(":")
        if kind == "dice":
            return t(locale, "cantstop.log.dice", dice=rest.replace("-", " · "))
        if kind == "move":
            return t(locale, "cantstop.log.move", move=move_label(move.action, locale))
        return t(locale, f"cantstop.log.{kind}")

    def rules_summary(self, locale: str | None) -> str:
        return t(locale, "cantstop.rules")


PRESENTER = CantStopPresenter()
