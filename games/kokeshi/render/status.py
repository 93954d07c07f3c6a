"""The headline of the board, also the start of its alt text: who does what, and the round."""

from __future__ import annotations

from collections.abc import Sequence

from games.kokeshi.engine.data import load
from games.kokeshi.engine.scoring import best_seats
from games.kokeshi.engine.state import KokeshiState, Phase
from i18n import Translator


def winners(s: KokeshiState) -> tuple[int, ...]:
    return best_seats(load(), s)


def status(s: KokeshiState, tr: Translator, names: Sequence[str] | None = None) -> str:
    if s.phase == Phase.OVER:
        return tr("kokeshi.status.over", winners=tr.join(tr.player(w, names) for w in winners(s)))
    if s.phase.is_chance:
        return tr("kokeshi.status.chance")
    return tr(f"kokeshi.status.{s.phase}", player=tr.player(s.active, names))


def round_text(s: KokeshiState, tr: Translator) -> str:
    if s.in_setup:
        return tr("kokeshi.setup")
    current = s.current_round()
    last = s.last_round()
    if last is not None:
        return tr("kokeshi.round_last", round=current, last=last)
    return tr("kokeshi.round", round=current)
