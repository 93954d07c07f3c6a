"""A whole Kokeshi turn as one line of ``/game log``: the starting tiles placed, or the move
and what its cascade brought the player (tiles fired, tiles gained, points for passing the
top, animal tracks), and the player's score after it. The public account of the turn tells
the cascade step by step (``report``); the record keeps one line a turn."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import LoggedMove
from games.kokeshi.engine.state import KokeshiState, new_events
from games.kokeshi.present.game import ENGINE
from games.kokeshi.present.words import column_name, kokeshi_name, tile_short, where
from games.kokeshi.words import animal_word
from i18n import Translator

Event = tuple[str | int, ...]


def turn_summary(
    start: KokeshiState,
    moves: Sequence[LoggedMove],
    end: KokeshiState,
    names: Sequence[str],
    tr: Translator,
) -> str:
    """``alice: moves the Samurai from home to space 1 · 2 tiles fired · gains Sumotori tile
    · 12 points in all``."""
    seat = next((m.seat for m in moves if m.seat is not None), 0)
    starts: list[str] = []
    events: list[Event] = []
    state = start
    for move in moves:
        action = ENGINE.decode_action(move.action)
        after = ENGINE.apply(state, action)
        if state.in_setup:
            if move.action.startswith("start:"):
                tile, column = action.values
                starts.append(
                    tr(
                        "kokeshi.ui.event.start_item",
                        tile=tile_short(tr, tile),
                        column=column_name(tr, column),
                    )
                )
        elif state.active == seat:
            events += new_events(state, after)
        state = after
    parts = [tr("kokeshi.ui.turn.start", tiles=tr.join(starts))] if starts else []
    parts += _cascade(events, tr)
    parts.append(tr("kokeshi.ui.turn.score", count=ENGINE.scores(end)[seat]))
    steps = tr("kokeshi.ui.turn.sep").join(parts)
    return tr("kokeshi.ui.turn.line", player=tr.player(seat, names), steps=steps)


def _cascade(events: Sequence[Event], tr: Translator) -> list[str]:
    """The player's move and, in short, what followed it."""
    parts: list[str] = []
    moved = next((e for e in events if e[0] == "move"), None)
    if moved is not None:
        _, column, begin, target = moved
        parts.append(
            tr(
                "kokeshi.ui.log.move_from",
                kokeshi=kokeshi_name(tr, int(column)),
                start=where(tr, int(begin)),
                target=where(tr, int(target)),
            )
        )
    fired = sum(1 for e in events if e[0] == "fire")
    if fired:
        parts.append(tr("kokeshi.ui.turn.fired", count=fired))
    top = sum(int(e[2]) for e in events if e[0] == "top")
    if top:
        parts.append(tr("kokeshi.ui.turn.top", count=top))
    gains = [tile_short(tr, int(e[2])) for e in events if e[0] in ("gain", "bonus")]
    if gains:
        parts.append(tr("kokeshi.ui.turn.gains", tiles=tr.join(gains)))
    tracks: dict[int, int] = {}
    for e in events:
        if e[0] == "animal":
            tracks[int(e[1])] = int(e[2])
    if tracks:
        items = [
            tr("kokeshi.ui.turn.track", animal=animal_word(tr, animal), position=position)
            for animal, position in tracks.items()
        ]
        parts.append(tr("kokeshi.ui.turn.tracks", tracks=tr.join(items)))
    return parts
