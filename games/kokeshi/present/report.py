"""What one outcome announces: the logged moves replayed into each seat's stretch of events,
told as sentences, with the setup placements, the final scoring and a summary of long cascades."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import LoggedMove
from games.kokeshi.engine.state import KokeshiState, Phase, new_events
from games.kokeshi.present.final_scoring import final_lines
from games.kokeshi.present.game import ENGINE
from games.kokeshi.present.log import describe_move
from games.kokeshi.present.narration import Event, Line, narrate_turn
from games.kokeshi.present.words import column_name, tile_text
from i18n import Translator

#: events text stays under this many characters (long cascades are summarised)
MAX_EVENTS = 1500


class _Turn:
    """One seat's stretch of events, and whether it begins with the seat's own move."""

    def __init__(self, seat: int, from_start: bool) -> None:
        self.seat = seat
        self.from_start = from_start
        self.events: list[Event] = []


def events(
    before: KokeshiState,
    moves: Sequence[LoggedMove],
    after: KokeshiState,
    names: Sequence[str],
    tr: Translator,
) -> list[str]:
    """What the logged moves (one action and its chance steps, or a bot's whole turn) did.

    The steps inside a turn are answered privately, so the action that ends the turn tells the
    whole turn again, publicly; setup placements are told as one line per seat once done.
    """
    try:
        turns, starts = _replay(before, moves)
    except Exception:  # a log that does not replay: narrate what the state says
        turns, starts = [_Turn(max(after.active, 0), False)], []
        turns[0].events = list(after.events)
    handed_on = after.phase == Phase.OVER or ENGINE.turn(after) > ENGINE.turn(before)
    if (
        turns
        and handed_on
        and not before.in_setup
        and before.phase != Phase.MOVE
        and turns[0].seat == before.active
        and not turns[0].from_start
    ):
        turns[0].events = list(before.events) + turns[0].events  # the whole turn, publicly
        turns[0].from_start = True
    lines: list[Line] = [(text, False) for text in _start_lines(tr, starts, after, names)]
    for turn in turns:
        lines += narrate_turn(tr, names[turn.seat], turn.events, turn.from_start, after)
    if not lines:  # e.g. a tile taken whose column is chosen next: say what was chosen
        lines += [
            (
                tr(
                    "kokeshi.ui.event.chose",
                    player=names[m.seat],
                    action=describe_move(before if i == 0 else None, m, tr),
                ),
                False,
            )
            for i, m in enumerate(moves)
            if m.seat is not None
        ]
    tail = final_lines(tr, after, names) if after.phase == Phase.OVER else []
    return summarise(lines, tail, tr)


def _replay(
    before: KokeshiState, moves: Sequence[LoggedMove]
) -> tuple[list[_Turn], list[tuple[int, int, int, bool]]]:
    """Re-apply the logged moves: each seat's events, and the setup placements made."""
    turns: list[_Turn] = []
    starts: list[tuple[int, int, int, bool]] = []  # seat, tile, column, setup finished
    state = before
    for move in moves:
        nxt = ENGINE.apply(state, ENGINE.decode_action(move.action))
        if state.in_setup:
            if move.action.startswith("start:"):
                tile, column = ENGINE.decode_action(move.action).values
                done = ENGINE.turn(nxt) > ENGINE.turn(state)  # its last setup tile
                starts.append((state.active, tile, column, done))
        else:
            new = new_events(state, nxt)
            if move.action.startswith("move:") or not turns or turns[-1].seat != state.active:
                turns.append(_Turn(state.active, move.action.startswith("move:")))
            turns[-1].events += list(new)
        state = nxt
    return turns, starts


def _start_lines(
    tr: Translator,
    starts: list[tuple[int, int, int, bool]],
    after: KokeshiState,
    names: Sequence[str],
) -> list[str]:
    lines: list[str] = []
    finished = {seat for seat, _, _, done in starts if done}
    for seat, tile, column, _ in starts:
        if seat in finished:
            continue
        lines.append(
            tr(
                "kokeshi.ui.event.start_one",
                player=names[seat],
                tile=tile_text(tr, tile),
                column=column_name(tr, column),
            )
        )
    for seat in sorted(finished, key=lambda x: [s for s, *_ in starts].index(x)):
        items = [
            tr(
                "kokeshi.ui.event.start_item",
                tile=tile_text(tr, col[0]),
                column=column_name(tr, c),
            )
            for c, col in enumerate(after.boards[seat])
            if col
        ]
        lines.append(
            tr(
                "kokeshi.ui.event.start_all",
                player=names[seat],
                tiles=tr.join(items),
            )
        )
    return lines


def summarise(lines: list[Line], tail: list[str], tr: Translator) -> list[str]:
    """Keep the text under ``MAX_EVENTS``: drop minor lines, then cut the middle."""

    def size(items: list[Line]) -> int:
        return sum(len(text) + 1 for text, _ in items) + sum(len(x) + 1 for x in tail)

    if size(lines) > MAX_EVENTS:
        lines = [line for line in lines if not line[1]]
    if size(lines) > MAX_EVENTS and len(lines) > 2:
        head, rest = lines[:1], lines[1:]
        dropped = 0
        marker_size = 40
        while rest and size(head + rest) + marker_size > MAX_EVENTS:
            rest = rest[1:]
            dropped += 1
        lines = [*head, (tr("kokeshi.ui.event.more", count=dropped), False), *rest]
    return [text for text, _ in lines] + tail
