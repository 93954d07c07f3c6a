"""A whole Harmonies turn as one line of ``/game log``: the space taken (with the tokens it
held), the tokens placed, the cards taken and the cubes placed, as the turn stood at End turn
(steps taken back are left out), and the player's score after it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import LoggedMove
from games.harmonies.engine.state import HarmoniesState
from games.harmonies.engine.turn import turn_start
from games.harmonies.present.game import ENGINE
from games.harmonies.present.narration import cube_item
from games.harmonies.words import card_name, colour_word, colours_and
from i18n import Translator


def turn_summary(
    start: HarmoniesState,
    moves: Sequence[LoggedMove],
    end: HarmoniesState,
    names: Sequence[str],
    tr: Translator,
) -> str:
    """``alice: took space 3 (brown, blue and blue) · placed brown on a3, … · 19 points in
    all``; the refills and cards dealt after it are the next turns' (their takes tell them)."""
    seat = next((m.seat for m in moves if m.seat is not None), 0)
    state, kept = start, None
    for move in moves:
        if move.seat is not None and move.action == "end":
            kept = state  # the turn as it stands at End turn
        state = ENGINE.apply(state, ENGINE.decode_action(move.action))
    parts = _steps(kept if kept is not None else state, tr)
    points = tr("harmonies.ui.points", count=ENGINE.scores(end)[seat])
    parts.append(tr("harmonies.ui.turn.score", points=points))
    steps = tr("harmonies.ui.turn.sep").join(parts)
    return tr("harmonies.ui.turn.line", player=tr.player(seat, names), steps=steps)


def _steps(state: HarmoniesState, tr: Translator) -> list[str]:
    """The kept steps of the turn ``state`` is in, consecutive placements in one part."""
    parts: list[str] = []
    places: list[str] = []
    cubes: list[str] = []

    def flush() -> None:
        if places:
            parts.append(tr("harmonies.ui.turn.place", placements=tr.join(places)))
        if cubes:
            parts.append(tr("harmonies.ui.turn.cubes", count=len(cubes), cubes=tr.join(cubes)))
        places.clear()
        cubes.clear()

    replay = turn_start(state)
    for code in state.steps:
        nxt = ENGINE.apply(replay, ENGINE.decode_action(code))
        kind, _, rest = code.partition(":")
        if kind == "place":
            if cubes:
                flush()
            colour, _, hex_code = rest.partition(":")
            places.append(
                tr("harmonies.ui.event.place_item", colour=colour_word(tr, colour), hex=hex_code)
            )
        elif kind == "cube":
            if places:
                flush()
            cubes.append(cube_item(tr, replay, nxt, code))
        else:
            flush()
            if kind == "take":
                tokens = colours_and(tr, replay.central[int(rest) - 1])
                parts.append(tr("harmonies.ui.log.take_tokens", number=rest, tokens=tokens))
            elif kind in ("card", "discard", "keep"):
                parts.append(tr(f"harmonies.ui.log.{kind}", card=card_name(tr, int(rest))))
        replay = nxt
    flush()
    return parts
