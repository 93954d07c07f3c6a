"""The alt text of the Harmonies picture: the status, the central board, the cards on offer,
then every player's score, cards and board (at most 1024 characters)."""

from __future__ import annotations

from collections.abc import Sequence

from games.harmonies.engine.cards import BOARD_CELLS, hex_code
from games.harmonies.engine.state import HarmoniesState
from games.harmonies.render.highlights import highlights
from games.harmonies.render.status import ENGINE, status
from games.harmonies.words import colour_list
from i18n import Translator, end_sentence


def changes(
    state: HarmoniesState,
    tr: Translator,
    since: HarmoniesState | None,
    seat: int,
    names: Sequence[str] | None,
) -> list[str]:
    """What the picture marks, in words: the hexes that took tokens, the cards completed."""
    marks = highlights(since, state, seat)
    player = tr.player(seat, names)
    parts = []
    cells = [hex_code(BOARD_CELLS[state.side][i]) for kind, i in sorted(marks) if kind == "token"]
    if cells:
        parts.append(tr("harmonies.alt.turn", player=player, cells=tr.join(cells)))
    done = [str(cid) for kind, cid in sorted(marks) if kind == "done"]
    if done:
        key = "harmonies.alt.turn_done"
        parts.append(tr(key, count=len(done), player=player, cards=tr.join(done)))
    return parts


def describe(
    state: HarmoniesState,
    tr: Translator,
    names: Sequence[str] | None = None,
    focus_seat: int | None = None,
    since: HarmoniesState | None = None,
    area: str | None = None,
) -> str:
    """Alt text of the picture ``draw`` makes with the same keywords: the status and what the
    last turn changed (with ``since``) above the focus player's area; the central board and the
    cards on offer in the shared area; the players drawn (every player's score, cards and board;
    the shared area lists each player's score alone)."""
    sep = tr.sep
    seat = min(max(state.active if focus_seat is None else focus_seat, 0), state.seats - 1)
    parts = [tr("harmonies.alt.title", side=state.side)]
    if area != "others":
        parts.append(end_sentence(status(state, tr, names), tr.locale))
    if area in (None, "player"):
        parts.extend(changes(state, tr, since, seat, names))
    if area in (None, "shared"):
        slots = [
            tr("harmonies.alt.slot", number=i + 1, tokens=colour_list(tr, slot) or "-")
            for i, slot in enumerate(state.central)
        ]
        parts.append(tr("harmonies.alt.central", slots=sep.join(slots)))
        offer = [str(c) for c in state.display if c]
        parts.append(tr("harmonies.alt.display", cards=sep.join(offer) or "-"))
    totals = ENGINE.scores(state)
    shown = {
        None: range(state.seats),
        "player": (seat,),
        "others": [s for s in range(state.seats) if s != seat],
    }.get(area, ())
    if area == "shared":
        scores = [
            tr("harmonies.alt.score", count=totals[s], player=tr.player(s, names), score=totals[s])
            for s in range(state.seats)
        ]
        parts.append(tr("harmonies.alt.scores", scores=tr.join(scores)))
    for shown_seat in shown:
        p = state.players[shown_seat]
        stacks = [
            f"{hex_code(cell)} {colour_list(tr, stack)}"
            for cell, stack in zip(BOARD_CELLS[state.side], p.stacks, strict=True)
            if stack
        ]
        parts.append(
            tr(
                "harmonies.alt.player",
                count=totals[shown_seat],
                player=tr.player(shown_seat, names),
                score=totals[shown_seat],
                cards=sep.join(f"{cid} ({n})" for cid, n in p.cards) or "-",
                board="; ".join(stacks) or "-",
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"
