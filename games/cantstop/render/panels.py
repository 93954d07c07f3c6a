"""The top bar (whose turn, doing what) and the seat legend with each seat's claims."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from games.cantstop.engine.rules import previous_seat
from games.cantstop.engine.state import COLUMNS_TO_WIN, CantStopState, Phase
from games.cantstop.render.layout import (
    HIGHLIGHT,
    LEGEND_ROW,
    LEGEND_W,
    LEGEND_X,
    LEGEND_Y,
    MIN_TEXT,
    TINTS,
    TOP_BAR,
    WIDTH,
)
from i18n import Translator
from render.canvas import (
    INK,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    badge,
    draw_lines,
    draw_text,
    draw_winner_mark,
    ellipsize,
    fit_lines,
)
from render.names import fit_name, sentence_names

_STATUS = {
    Phase.DICE: "cantstop.board.status.rolling",
    Phase.MOVE: "cantstop.board.status.move",
    Phase.DECIDE: "cantstop.board.status.decide",
}


def status(state: CantStopState, tr: Translator, names: Sequence[str] | None) -> str:
    """The one-line summary in the top bar."""
    if state.phase == Phase.OVER:
        return tr("cantstop.board.status.over", player=tr.player(state.winner, names))
    player = tr.player(state.active, names)
    if state.phase in _STATUS:
        return tr(_STATUS[state.phase], player=player)
    if state.bust and state.dice:
        busted = previous_seat(state)
        if busted == state.active:
            return tr("cantstop.board.status.bust_solo", player=player)
        return tr("cantstop.board.status.bust", busted=tr.player(busted, names), player=player)
    return tr("cantstop.board.status.roll", player=player)


#: the top bar's text sizes, largest first
BAR_SIZES = (24, MIN_TEXT)


def short_names(state: CantStopState, tr: Translator, names: Sequence[str] | None) -> list[str]:
    """Display names cut to fit a sentence in the top bar."""
    return sentence_names(tr, state.seats, names, BAR_SIZES[0])


def _current(state: CantStopState) -> int:
    """The seat the panels single out: the winner once the game is over."""
    return state.winner if state.phase == Phase.OVER else state.active


def draw_top_bar(
    img: Image.Image,
    state: CantStopState,
    tr: Translator,
    names: list[str],
    full: Sequence[str] | None = None,
) -> None:
    """Whose turn and what next, or at the end the result, naming the winner in full (``full``:
    the names as given), smaller or on two lines rather than cut."""
    seat = _current(state)
    img.paste(TINTS[seat], (0, 0, WIDTH, TOP_BAR))
    badge(img, "pill", (12, 13, 44, 45), PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
    said = status(state, tr, full if state.phase == Phase.OVER else names)
    size, lines = fit_lines(said, BAR_SIZES, True, WIDTH - 68)
    draw_lines(img, (56, TOP_BAR / 2), lines, size, INK, bold=True)


def draw_legend(
    img: Image.Image, state: CantStopState, tr: Translator, names: Sequence[str] | None
) -> None:
    """A row per seat: its marker, name and claims; the winner's row starred at the end."""
    current = _current(state)
    for seat in range(state.seats):
        y = LEGEND_Y + seat * LEGEND_ROW
        box = (LEGEND_X, y, LEGEND_X + LEGEND_W, y + LEGEND_ROW - 6)
        if seat == current:
            badge(img, "round", box, HIGHLIGHT, INK, "", 0)
        cy = (box[1] + box[3]) // 2
        marker = (LEGEND_X + 8, cy - 16, LEGEND_X + 40, cy + 16)
        badge(img, "pill", marker, PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
        text_x = LEGEND_X + 50
        right = LEGEND_X + LEGEND_W - 8
        name_right = right
        if state.phase == Phase.OVER and seat == state.winner:
            draw_winner_mark(img, (right, cy - 12), MIN_TEXT + 4, seat, "rm")
            name_right -= 28
        name = fit_name(tr.player(seat, names), MIN_TEXT, True, name_right - text_x)
        draw_text(img, (text_x, cy - 12), name, MIN_TEXT, INK, bold=True, anchor="lm")
        count = len(state.claimed_by(seat))
        claimed = tr("cantstop.board.claimed", count=count, goal=COLUMNS_TO_WIN)
        claimed = ellipsize(claimed, MIN_TEXT, False, right - text_x)
        draw_text(img, (text_x, cy + 13), claimed, MIN_TEXT, INK, anchor="lm")
