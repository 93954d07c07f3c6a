"""The whole Kokeshi board: the headline, the focused workshop large, everything else around it."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.kokeshi.state import KokeshiState, Phase
from i18n import Translator
from render.canvas import (
    INK,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    badge,
    draw_text,
    ellipsize,
    text_on,
    text_width,
)
from render.kokeshi.layout import FOCUS, HEADER_Y, MIN_TEXT, TITLE, WIDTH, base, palette
from render.kokeshi.panels import (
    draw_achievements,
    draw_animals,
    draw_display,
    draw_pending,
    draw_scores,
    draw_small,
    draw_workshop,
)
from render.kokeshi.status import round_text, status, winners


def draw(
    state: KokeshiState,
    tr: Translator,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The whole board, focused on ``focus_seat`` (default: the acting player)."""
    s = state
    if focus_seat is not None:
        seat = focus_seat
    elif s.phase == Phase.OVER:
        seat = winners(s)[0]
    else:
        seat = max(s.active, 0)
    seat = max(0, min(seat, s.seats - 1))
    img = base().copy()
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, 50), fill=FOCUS)
    headline = status(s, tr, names)
    round_words = round_text(s, tr)
    room = WIDTH - 60 - text_width(round_words, MIN_TEXT, True)
    draw_text(img, (20, 26), ellipsize(headline, TITLE, True, room), TITLE, INK, True, "lm")
    draw_text(img, (WIDTH - 20, 26), round_words, MIN_TEXT, INK, True, "rm")
    badge(
        img,
        "pill",
        (20, HEADER_Y + 4, 54, HEADER_Y + 38),
        PLAYER_COLOURS[seat],
        PLAYER_COLOURS[seat],
        PLAYER_LETTERS[seat],
        MIN_TEXT,
        text_on(PLAYER_COLOURS[seat]),
        1,
    )
    draw_workshop(img, s, seat, tr)
    draw_pending(img, s, seat, tr)
    draw_display(img, s, tr)
    draw_achievements(img, s, tr)
    draw_animals(img, s, tr)
    draw_scores(img, s, tr)
    others = [o for o in range(s.seats) if o != seat]
    for i, other in enumerate(others):
        draw_small(img, s, other, 20 + i * 230, 768, tr)
    return palette().apply(img)
