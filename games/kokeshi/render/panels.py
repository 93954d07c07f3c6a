"""The panels of the Kokeshi board: the focused workshop and the tiles its player holds, the
display, the achievement tiles left, the animal tracks, the scores and the other workshops."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.kokeshi.engine.data import ach_colour, ach_level, is_ach, load
from games.kokeshi.engine.scoring import achievement_count, best_seats, breakdown, leader
from games.kokeshi.engine.state import NONE, KokeshiState, Phase
from games.kokeshi.engine.todo import ColumnChoice
from games.kokeshi.render.layout import (
    ANIMAL_H,
    ANIMAL_W,
    BOARD_X,
    COL_W,
    COLOURS,
    GOLD,
    HEADER_Y,
    MIDLINE,
    MIN_TEXT,
    RIGHT_X,
    ROW_H,
    ROWS_Y,
    SHAPES,
    SMALL_CELL,
    SMALL_W,
    SPACE,
    WIDTH,
    YELLOW,
)
from games.kokeshi.render.sprites import colour_chip, draw_tile, kokeshi_pill, shape
from games.kokeshi.words import animal_letter, animal_word, kokeshi_letter
from i18n import Translator
from render.canvas import (
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    WHITE,
    badge,
    draw_text,
    draw_winner_mark,
    ellipsize,
    text_on,
    text_width,
    wrap,
)
from render.names import fit_name


def draw_workshop(img: Image.Image, s: KokeshiState, seat: int, tr: Translator) -> None:
    d = ImageDraw.Draw(img)
    data = load()
    for c in range(len(data.columns)):
        x0 = BOARD_X + c * COL_W
        colour_chip(
            img, (x0 + 3, HEADER_Y, x0 + COL_W - 3, HEADER_Y + 42), c, kokeshi_letter(tr, c)
        )
    yellow = {space: data.height_score[level] for level, space in data.yellow.items()}
    for space in range(1, data.spaces + 1):
        y0 = ROWS_Y + (data.spaces - space) * ROW_H
        if space in yellow:
            draw_text(
                img, (BOARD_X - 10, y0 + ROW_H / 2), str(yellow[space]), MIN_TEXT, INK, True, "rm"
            )
        for c in range(len(data.columns)):
            x0 = BOARD_X + c * COL_W
            box = (x0 + 3, y0 + 3, x0 + COL_W - 3, y0 + ROW_H - 3)
            fill = YELLOW if space in yellow else SPACE
            d.rectangle(box, fill=fill, outline=GRID, width=2)
            column = s.boards[seat][c]
            here = s.pos[seat][c] == space
            if space <= len(column):
                draw_tile(img, box, column[space - 1], tr, reserve=36 if here else 0)
            if here:
                kokeshi_pill(img, box[2], box[1], box[3], kokeshi_letter(tr, c))
    home_y = ROWS_Y + data.spaces * ROW_H + 4
    draw_text(img, (BOARD_X - 10, home_y + 26), "⌂", MIN_TEXT + 4, MUTED, True, "rm")
    for c in range(len(data.columns)):
        x0 = BOARD_X + c * COL_W
        d.rectangle((x0 + 3, home_y, x0 + COL_W - 3, home_y + 52), outline=GRID, width=2)
        if s.pos[seat][c] == 0:
            kokeshi_pill(img, x0 + COL_W // 2 + 18, home_y, home_y + 52, kokeshi_letter(tr, c))


def draw_pending(img: Image.Image, s: KokeshiState, seat: int, tr: Translator) -> None:
    y = ROWS_Y + load().spaces * ROW_H + 64
    if seat != s.active or s.phase == Phase.OVER:
        return  # only the acting player holds tiles to place
    items = [(tile, "→" + kokeshi_letter(tr, col)) for col, tile in s.pending]
    items += [(item.tile, "→?") for item in s.todo if isinstance(item, ColumnChoice)]
    items += [(tile, "→?") for tile in s.free]
    items += [(tile, "") for tile in s.hand]
    key = "kokeshi.hand" if s.hand else "kokeshi.pending" if items else "kokeshi.pending_none"
    label = tr(key)
    draw_text(img, (20, y + 28), label, MIN_TEXT, INK, True, "lm")
    x = 26 + text_width(label, MIN_TEXT, True)
    for tile, where in items[:4]:
        draw_tile(img, (x, y, x + 118, y + 56), tile, tr)
        if where:
            draw_text(img, (x + 122, y + 28), where, MIN_TEXT, INK, True, "lm")
        x += 122 + text_width(where, MIN_TEXT, True) + 12


def draw_display(img: Image.Image, s: KokeshiState, tr: Translator, dy: int = 0) -> None:
    label = tr("kokeshi.display", bag=len(s.bag))
    draw_text(img, (RIGHT_X, dy + 76), label, MIN_TEXT, INK, True, "lm")
    for i, tile in enumerate(s.display):
        x = RIGHT_X + i * 150
        draw_tile(img, (x, dy + 94, x + 142, dy + 156), tile, tr)


def draw_achievements(img: Image.Image, s: KokeshiState, tr: Translator, dy: int = 0) -> None:
    data = load()
    draw_text(img, (RIGHT_X, dy + 178), tr("kokeshi.achievements"), MIN_TEXT, INK, True, "lm")
    left = {c: [ach_level(a) for a in s.ach_supply if ach_colour(a) == c] for c in range(5)}
    for c in range(len(data.columns)):
        x = RIGHT_X + c * 120
        levels = "".join(str(lv) for lv in left[c]) or "–"
        colour_chip(img, (x, dy + 196, x + 114, dy + 240), c, "★" + levels)


def draw_animals(img: Image.Image, s: KokeshiState, tr: Translator, dy: int = 0) -> None:
    data = load()
    d = ImageDraw.Draw(img)
    side = tr(f"kokeshi.side.{s.side}")
    label = tr("kokeshi.animals", side=side)
    draw_text(img, (RIGHT_X, dy + 262), label, MIN_TEXT, INK, True, "lm")
    points = data.animal_points[s.side]
    top = dy + 314
    for a in range(len(data.animals)):
        x0 = RIGHT_X + a * ANIMAL_W
        label = f"{animal_letter(tr, a)} {animal_word(tr, a)}"
        draw_text(
            img,
            (x0 + 6, dy + 296),
            ellipsize(label, MIN_TEXT, True, ANIMAL_W - 10),
            MIN_TEXT,
            INK,
            True,
            "lm",
        )
        lead = leader(s, a)
        for p in range(data.animal_positions):
            y0 = top + (data.animal_positions - 1 - p) * ANIMAL_H
            box = (x0 + 2, y0 + 1, x0 + ANIMAL_W - 6, y0 + ANIMAL_H - 1)
            d.rectangle(box, fill=SPACE, outline=GRID, width=1)
            draw_text(
                img, (x0 + 8, y0 + ANIMAL_H / 2), str(points[p]), MIN_TEXT, MUTED, False, "lm"
            )
            stack = s.stack(a, p)
            if p == data.bonus_index and s.bonus and s.bonus[a] != NONE and not stack:
                colour = data.colour_of(s.bonus[a])
                bx = x0 + 44
                d.rounded_rectangle(
                    (bx, y0 + 4, bx + 60, y0 + ANIMAL_H - 4),
                    radius=5,
                    fill=COLOURS[colour],
                    outline=INK,
                    width=2,
                )
                shape(d, SHAPES[colour], bx + 16, y0 + ANIMAL_H / 2, 10, WHITE)
                draw_text(img, (bx + 42, y0 + ANIMAL_H / 2), "★", MIN_TEXT - 2, INK, True, "mm")
            if p == 0 and lead == NONE and stack == tuple(range(s.seats)):
                continue  # everybody still at the start: leave the row clean
            for i, seat in enumerate(stack):
                mx = x0 + 38 + i * 29
                ring = INK if seat == lead else PLAYER_COLOURS[seat]
                badge(
                    img,
                    "pill",
                    (mx, y0 + 3, mx + 28, y0 + 33),
                    PLAYER_COLOURS[seat],
                    ring,
                    PLAYER_LETTERS[seat],
                    MIN_TEXT,
                    text_on(PLAYER_COLOURS[seat]),
                    3 if seat == lead else 1,
                )
        mid = top + (data.animal_positions - data.midline) * ANIMAL_H
        d.line((x0, mid, x0 + ANIMAL_W - 4, mid), fill=MIDLINE, width=4)
    bottom = top + data.animal_positions * ANIMAL_H
    width = WIDTH - RIGHT_X - 16
    for k, line in enumerate(wrap(tr("kokeshi.stack_hint"), MIN_TEXT, False, width)):
        draw_text(img, (RIGHT_X, bottom + 20 + k * 30), line, MIN_TEXT, MUTED, False, "lm")


def draw_scores(
    img: Image.Image,
    s: KokeshiState,
    tr: Translator,
    names: Sequence[str] | None = None,
    dy: int = 0,
) -> None:
    data = load()
    y = dy + 690
    key = "kokeshi.scores_final" if s.phase == Phase.OVER else "kokeshi.scores"
    draw_text(img, (RIGHT_X, y), tr(key), MIN_TEXT, INK, True, "lm")
    for seat in range(s.seats):
        row = y + 36 + seat * 36
        parts = breakdown(data, s, seat)
        mark = "▶ " if seat == s.active and s.phase != Phase.OVER else ""
        badge(
            img,
            "pill",
            (RIGHT_X, row - 15, RIGHT_X + 30, row + 15),
            PLAYER_COLOURS[seat],
            PLAYER_COLOURS[seat],
            PLAYER_LETTERS[seat],
            MIN_TEXT,
            text_on(PLAYER_COLOURS[seat]),
            1,
        )
        text = tr(
            "kokeshi.score_line",
            count=parts["total"],
            total=parts["total"],
            achievements=achievement_count(data, s, seat),
        )
        won = s.phase == Phase.OVER and seat in best_seats(data, s)
        bold = won or (seat == s.active and s.phase != Phase.OVER)
        room = 170 - text_width(mark, MIN_TEXT, bold)
        name = mark + fit_name(tr.player(seat, names), MIN_TEXT, bold, room)
        draw_text(img, (RIGHT_X + 40, row), name, MIN_TEXT, INK, bold, "lm")
        text = ellipsize(text, MIN_TEXT, bold, WIDTH - RIGHT_X - 260)
        right = draw_text(img, (RIGHT_X + 220, row), text, MIN_TEXT, INK, bold, "lm")[2]
        if won:
            draw_winner_mark(img, (right + 12, row), MIN_TEXT + 4, seat, "lm")


def draw_small(
    img: Image.Image,
    s: KokeshiState,
    seat: int,
    x: int,
    y: int,
    tr: Translator,
    names: Sequence[str] | None = None,
    width: int = SMALL_W,
) -> None:
    """Another player's workshop: their name and score, coloured cells with their shapes,
    kokeshi as dark frames."""
    data = load()
    d = ImageDraw.Draw(img)
    cw, rh = SMALL_CELL
    total = breakdown(data, s, seat)["total"]
    badge(
        img,
        "pill",
        (x, y, x + 30, y + 30),
        PLAYER_COLOURS[seat],
        PLAYER_COLOURS[seat],
        PLAYER_LETTERS[seat],
        MIN_TEXT,
        text_on(PLAYER_COLOURS[seat]),
        1,
    )
    name = fit_name(tr.player(seat, names), MIN_TEXT, True, width - 40)
    draw_text(img, (x + 38, y + 15), name, MIN_TEXT, INK, True, "lm")
    label = tr("kokeshi.small_score", count=total, total=total)
    draw_text(img, (x + 38, y + 48), label, MIN_TEXT, INK, False, "lm")
    top = y + 68
    yellow = set(data.yellow.values())
    for space in range(1, data.spaces + 1):
        y0 = top + (data.spaces - space) * rh
        for c in range(len(data.columns)):
            x0 = x + c * cw
            box = (x0 + 1, y0 + 1, x0 + cw - 1, y0 + rh - 1)
            column = s.boards[seat][c]
            if space <= len(column):
                tile = column[space - 1]
                colour = data.colour_of(tile)
                d.rectangle(box, fill=GOLD if is_ach(tile) else COLOURS[colour], outline=INK)
                shape(
                    d,
                    SHAPES[colour],
                    (box[0] + box[2]) / 2,
                    (box[1] + box[3]) / 2,
                    10,
                    COLOURS[colour] if is_ach(tile) else WHITE,
                )
            else:
                d.rectangle(box, fill=YELLOW if space in yellow else SPACE, outline=GRID)
            if s.pos[seat][c] == space:
                d.rectangle((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1), outline=INK, width=3)
