"""The board in words (the picture's alt text)."""

from __future__ import annotations

from collections.abc import Sequence

import games.cantstop.words as words
from games.cantstop.engine.rules import previous_seat
from games.cantstop.engine.state import COLUMNS, HEIGHTS, CantStopState, Phase
from games.cantstop.render.highlights import highlights
from i18n import Translator
from render.canvas import PLAYER_LETTERS

#: Discord's limit on an attachment's description
MAX_ALT = 1024


def _turn(state: CantStopState, tr: Translator, names: Sequence[str] | None) -> list[str]:
    """Whose turn and what happens next (the result once it is over)."""
    if state.phase == Phase.OVER:
        return [words.game_over(tr, tr.player(state.winner, names))]
    parts = []
    player = tr.player(state.active, names)
    dice = tr.sep.join(map(str, state.dice))
    if state.bust and state.dice and state.phase not in (Phase.MOVE, Phase.DECIDE):
        busted = tr.player(previous_seat(state), names)
        parts.append(tr("cantstop.board.alt.bust", busted=busted, dice=dice))
    if state.phase == Phase.MOVE:
        parts.append(tr("cantstop.board.alt.move", player=player, dice=dice))
    elif state.phase == Phase.DECIDE:
        move = words.columns(tr, state.last_move)
        parts.append(tr("cantstop.board.alt.decide", player=player, move=move, dice=dice))
    elif state.phase == Phase.DICE:
        parts.append(tr("cantstop.board.alt.rolling", player=player))
    else:
        parts.append(tr("cantstop.board.alt.roll", player=player))
    return parts


def _seat(state: CantStopState, tr: Translator, seat: int, names: Sequence[str] | None) -> str:
    """One seat's claimed columns and markers."""
    none = tr("cantstop.board.alt.none")
    claimed = state.claimed_by(seat)
    markers = [
        tr("cantstop.board.alt.marker", column=c, space=h, height=HEIGHTS[c])
        for c in COLUMNS
        if (h := state.saved[seat][c - 2]) and state.owner(c) != seat
    ]
    return tr(
        "cantstop.board.alt.player",
        player=tr.player(seat, names),
        letter=PLAYER_LETTERS[seat],
        claimed=words.columns(tr, claimed) if claimed else none,
        markers=tr.sep.join(markers) if markers else none,
    )


def changes(
    state: CantStopState,
    tr: Translator,
    since: CantStopState | None,
    seat: int,
    names: Sequence[str] | None,
) -> list[str]:
    """What the picture marks, in words: the spaces reached this turn, the columns claimed."""
    marks = highlights(since, state, seat)
    player = tr.player(seat, names)
    parts = []
    reached = sorted((col, space) for kind, col, space in marks if kind == "to")
    if reached:
        moves = [
            tr("cantstop.board.alt.marker", column=c, space=s, height=HEIGHTS[c])
            for c, s in reached
        ]
        parts.append(tr("cantstop.board.alt.climbed", player=player, moves=tr.sep.join(moves)))
    claimed = sorted(col for kind, col, _ in marks if kind == "claimed")
    if claimed:
        columns = words.columns(tr, claimed)
        key = "cantstop.board.alt.claimed_now"
        parts.append(tr(key, count=len(claimed), player=player, columns=columns))
    return parts


def describe(
    state: CantStopState,
    tr: Translator,
    names: Sequence[str] | None = None,
    focus_seat: int | None = None,
    since: CantStopState | None = None,
) -> str:
    """Alt text: what the last turn changed (with ``since``), whose turn and what happens next,
    the dice, runners, then each seat's claims."""
    seat = state.active if focus_seat is None else focus_seat
    parts = [tr("cantstop.board.alt.title"), *changes(state, tr, since, seat, names)]
    parts += _turn(state, tr, names)
    if state.runners:
        runners = [
            tr("cantstop.board.alt.runner", column=c, space=h, height=HEIGHTS[c])
            for c, h in state.runners
        ]
        parts.append(tr("cantstop.board.alt.runners", runners=tr.sep.join(runners)))
    parts += [_seat(state, tr, seat, names) for seat in range(state.seats)]
    text = " ".join(parts)
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"
