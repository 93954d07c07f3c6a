"""The one-line summary of the game in the top bar (and the alt text)."""

from __future__ import annotations

from collections.abc import Sequence

from games.harmonies.engine.rules import HarmoniesEngine
from games.harmonies.engine.state import HarmoniesState, Phase, TurnStep
from games.harmonies.engine.turn import turn_step
from games.harmonies.words import solo_result
from i18n import Translator

#: the engine the picture asks for scores and winners
ENGINE = HarmoniesEngine()


def banner_seat(state: HarmoniesState) -> int:
    """The seat whose colours the top bar wears: the player to move, or the first winner."""
    if state.phase != Phase.OVER:
        return state.active
    return (ENGINE.winners(state) or (0,))[0]


def status(state: HarmoniesState, tr: Translator, names: Sequence[str] | None) -> str:
    """The one-line summary in the top bar."""
    if state.phase == Phase.OVER:
        if state.seats == 1:
            total = ENGINE.scores(state)[0]
            result = solo_result(tr, total, ENGINE.suns(state))
            return tr("harmonies.board.status.solo_over", **result)
        winners = [tr.player(s, names) for s in ENGINE.winners(state)]
        if len(winners) > 1:
            return tr("harmonies.board.status.tie", players=tr.join(winners))
        return tr("harmonies.board.status.over", player=winners[0])
    player = tr.player(state.active, names)
    if state.phase == Phase.CHANCE:
        return tr("harmonies.board.status.refill")
    step = turn_step(state)
    if step is TurnStep.KEEP:
        return tr("harmonies.board.status.keep", player=player)
    if step is TurnStep.TAKE:
        return tr("harmonies.board.status.take", player=player)
    if step is TurnStep.PLACE:
        return tr("harmonies.board.status.place", player=player, count=len(state.hand))
    return tr("harmonies.board.status.finish", player=player)
