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
from render.canvas import INK, PLAYER_COLOURS, PLAYER_LETTERS, badge, draw_text, ellipsize

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


def short_names(state: CantStopState, tr: Translator, names: Sequence[str] | None) -> list[str]:
    """Display names cut to fit the top bar."""
    return [ellipsize(tr.player(s, names), 24, True, 260) for s in range(state.seats)]


def _current(state: CantStopState) -> int:
    """The seat the panels single out: the winner once the game is over."""
    return state.winner if state.phase == Phase.OVER else state.active


def draw_top_bar(img: Image.Image, state: CantStopState, tr: Translator, names: list[str]) -> None:
    seat = _current(state)
    img.paste(TINTS[seat], (0, 0, WIDTH, TOP_BAR))
    badge(img, "pill", (12, 13, 44, 45), PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
    text = ellipsize(status(state, tr, names), 24, True, WIDTH - 68)
    draw_text(img, (56, TOP_BAR / 2), text, 24, INK, bold=True, anchor="lm")


def draw_legend(img: Image.Image, state: CantStopState, tr: Translator, names: list[str]) -> None:
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
        if state.phase == Phase.OVER and seat == state.winner:
            draw_text(img, (right, cy), "★", 26, INK, bold=True, anchor="rm")
            right -= 30
        name = ellipsize(names[seat], MIN_TEXT, True, right - text_x)
        draw_text(img, (text_x, cy - 12), name, MIN_TEXT, INK, bold=True, anchor="lm")
        count = len(state.claimed_by(seat))
        claimed = tr("cantstop.board.claimed", count=count, goal=COLUMNS_TO_WIN)
        claimed = ellipsize(claimed, MIN_TEXT, False, right - text_x)
        draw_text(img, (text_x, cy + 13), claimed, MIN_TEXT, INK, anchor="lm")
