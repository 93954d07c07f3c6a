"""The words of the final scoring, told when the game ends."""

from __future__ import annotations

from collections.abc import Sequence

from games.harmonies.engine import scoring
from games.harmonies.engine.state import HarmoniesState
from games.harmonies.present.game import ENGINE
from games.harmonies.words import solo_result
from i18n import Translator


def final_lines(s: HarmoniesState, names: Sequence[str], tr: Translator) -> list[str]:
    """Points per category for everyone, the solo result, and how a tie on points was settled."""
    lines = [tr("harmonies.ui.event.over")]
    for seat, parts in enumerate(ENGINE.breakdown(s)):
        text = tr.sep.join(
            tr(
                "harmonies.ui.event.final_part",
                category=tr(f"harmonies.ui.category.{c}"),
                points=parts[c],
            )
            for c in scoring.categories(s)
        )
        lines.append(
            tr(
                "harmonies.ui.event.final",
                count=parts["total"],
                player=tr.player(seat, names),
                total=parts["total"],
                parts=text,
            )
        )
    if s.seats == 1:
        total = ENGINE.scores(s)[0]
        lines.append(tr("harmonies.ui.event.solo", **solo_result(tr, total, ENGINE.suns(s))))
        return lines
    totals = ENGINE.scores(s)
    tied = [seat for seat, total in enumerate(totals) if total == max(totals)]
    if len(tied) > 1:  # the result line names the winners; say how the tie was settled
        players = tr.join([tr.player(seat, names) for seat in tied])
        shared = len(ENGINE.winners(s)) == len(tied)
        key = "harmonies.ui.event.shared" if shared else "harmonies.ui.event.tiebreak"
        lines.append(tr(key, players=players))
    return lines
