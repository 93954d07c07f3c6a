"""The alt text of the Harmonies picture: the status, the central board, the cards on offer,
then every player's score, cards and board (at most 1024 characters)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.harmonies.cards import BOARD_CELLS, hex_code
from engines.harmonies.state import HarmoniesState
from i18n import Translator, end_sentence
from i18n.games.harmonies import colour_list
from render.harmonies.status import ENGINE, status


def describe(state: HarmoniesState, tr: Translator, names: Sequence[str] | None = None) -> str:
    """Alt text: the status, the central board, the cards on offer, then every player."""
    sep = tr.sep
    parts = [
        tr("harmonies.alt.title", side=state.side),
        end_sentence(status(state, tr, names), tr.locale),
    ]
    slots = [
        tr("harmonies.alt.slot", number=i + 1, tokens=colour_list(tr, slot) or "-")
        for i, slot in enumerate(state.central)
    ]
    parts.append(tr("harmonies.alt.central", slots=sep.join(slots)))
    offer = [str(c) for c in state.display if c]
    parts.append(tr("harmonies.alt.display", cards=sep.join(offer) or "-"))
    totals = ENGINE.scores(state)
    for seat, p in enumerate(state.players):
        stacks = [
            f"{hex_code(cell)} {colour_list(tr, stack)}"
            for cell, stack in zip(BOARD_CELLS[state.side], p.stacks, strict=True)
            if stack
        ]
        parts.append(
            tr(
                "harmonies.alt.player",
                count=totals[seat],
                player=tr.player(seat, names),
                score=totals[seat],
                cards=sep.join(f"{cid} ({n})" for cid, n in p.cards) or "-",
                board="; ".join(stacks) or "-",
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"
