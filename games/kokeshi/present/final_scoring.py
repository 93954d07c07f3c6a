"""Kokeshi final scoring in words: each seat's points per step, the winners and the tie-break."""

from __future__ import annotations

from collections.abc import Sequence

from games.kokeshi.engine.scoring import best_seats, tiebreak
from games.kokeshi.engine.state import KokeshiState
from games.kokeshi.present.game import DATA, ENGINE
from i18n import Translator


def final_lines(tr: Translator, s: KokeshiState, names: Sequence[str]) -> list[str]:
    """The final scoring per step for every seat, and the winner(s) with the tie-break used."""
    lines = [tr("kokeshi.ui.event.final_title")]
    totals = []
    for seat in range(s.seats):
        parts = ENGINE.breakdown(s, seat)
        totals.append(parts["total"])
        lines.append(
            tr(
                "kokeshi.ui.event.final_line",
                player=names[seat],
                total=parts["total"],
                happiness=parts["happiness"],
                height=parts["height"],
                achievements=parts["achievements"],
                animals=parts["animals"],
                leaders=parts["leaders"],
                pairs=-parts["adjacency"],
            )
        )
    winners = best_seats(DATA, s)
    best = max(totals)
    players = tr.join([names[w] for w in winners])
    # one winner, or a shared win: two sentences, each with its plural forms for the points
    key = "kokeshi.ui.event.winners" if len(winners) > 1 else "kokeshi.ui.event.winner"
    lines.append(tr(key, count=best, players=players, points=best))
    decided_by = tiebreak(DATA, s)
    if decided_by is not None:
        lines.append(tr(f"kokeshi.ui.event.tiebreak_{decided_by}"))
    return lines
