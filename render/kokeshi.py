"""Kokeshi board picture, its alt text and the icon legend.

A 1400x1000 picture. Left: the focused player's workshop (the acting player unless
``focus_seat`` is given) large: five tracks of eight spaces with the yellow level spaces and their
points, tiles with their effects as short symbols, the kokeshi as white pills carrying their
column letter, home below space 1, and the tiles gained this turn. Right: the display, the
achievement tiles left, the four animal tracks drawn upward like the workshop tracks (markers on a
space stand left to right in arrival order, so the leftmost wins a tie), and the scores. Bottom:
the other workshops, small. Every tile colour also has a shape and a letter.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engines.kokeshi.data import (
    ANY_COLUMN,
    GAIN_TILE,
    MOVE_ANIMAL,
    MOVE_ANY,
    MOVE_ANY_ANIMAL,
    MOVE_KOKESHI,
    MOVE_LEFT,
    MOVE_RIGHT,
    Data,
    Effect,
    ach_colour,
    ach_level,
    is_ach,
    load,
)
from engines.kokeshi.scoring import achievement_count, breakdown, leader
from engines.kokeshi.state import NONE, KokeshiState, Phase
from engines.kokeshi.todo import ColumnChoice
from i18n import join_list, t
from render.canvas import (
    BACKGROUND,
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    RGB,
    WHITE,
    FixedPalette,
    badge,
    blend,
    draw_text,
    ellipsize,
    given_name,
    text_width,
)

WIDTH, HEIGHT = 1400, 1000
#: the smallest text drawn: 1/40 of the height, readable when a phone shows the picture ~400 px wide
MIN_TEXT = 25
TITLE = 30

#: tile colours in column order, each with a shape (the second cue besides the letter)
COLOURS: tuple[RGB, ...] = (
    (222, 96, 140),  # princess
    (146, 104, 190),  # batchan
    (62, 132, 204),  # fisherman
    (72, 156, 84),  # samurai
    (232, 150, 40),  # sumotori
)
SHAPES = ("circle", "triangle", "square", "cross", "diamond")
YELLOW: RGB = (250, 222, 110)
SPACE: RGB = (255, 252, 244)
GOLD: RGB = (240, 205, 90)
MIDLINE: RGB = (200, 40, 40)
FOCUS: RGB = (255, 240, 200)

# left block: the focused workshop
COL_W, ROW_H = 140, 64
BOARD_X, HEADER_Y = 66, 64
ROWS_Y = 112
STRIP = 26  # colour strip on the left of a tile
# right block
RIGHT_X = 786
ANIMAL_W, ANIMAL_H = 150, 36


def _data() -> Data:
    return load()


def _seat_name(locale: str | None, seat: int, names: Sequence[str] | None = None) -> str:
    return given_name(names, seat) or t(locale, "kokeshi.player", letter=PLAYER_LETTERS[seat])


def _letter(locale: str | None, column: int) -> str:
    return t(locale, f"kokeshi.letter.{_data().columns[column]}")


def _animal_letter(locale: str | None, animal: int) -> str:
    return t(locale, f"kokeshi.animal_letter.{_data().animals[animal]}")


def _tint(colour: RGB) -> RGB:
    return blend(colour, WHITE, 0.62)


# -- shapes and tokens -------------------------------------------------------------------------


def _shape(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill: RGB) -> None:
    """One of the five colour shapes centred on (cx, cy) with ``r`` as half its size."""
    if kind == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif kind == "triangle":
        d.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=fill)
    elif kind == "square":
        k = r * 0.85
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill)
    elif kind == "cross":
        w = r * 0.38
        d.rectangle((cx - r, cy - w, cx + r, cy + w), fill=fill)
        d.rectangle((cx - w, cy - r, cx + w, cy + r), fill=fill)
    else:
        d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill)


#: a token is (kind, text): kind "t" plain text, "a" an animal letter in a ring
Token = tuple[str, str]


def effect_tokens(locale: str | None, e: Effect) -> list[Token]:
    if e.type == MOVE_KOKESHI:
        return [("t", "↑" + _letter(locale, e.kokeshi))]
    if e.type == MOVE_ANY:
        return [("t", "↑" * e.steps + "?")]
    if e.type == MOVE_RIGHT:
        return [("t", "→")]
    if e.type == MOVE_LEFT:
        return [("t", "←")]
    if e.type == MOVE_ANIMAL:
        return [("a", _animal_letter(locale, e.animal))]
    if e.type == MOVE_ANY_ANIMAL:
        return [("a", "?")]
    if e.type == GAIN_TILE:
        return [("t", "+□↔" if e.where == ANY_COLUMN else "+□")]
    return [("t", "·")]


def tile_lines(locale: str | None, tile: int) -> list[list[Token]]:
    """The tile's symbols: one line, and a two-line form used when one line is too wide."""
    kind = _data().tiles[tile]
    parts = [effect_tokens(locale, e) for e in kind.effects]
    joiner = "/" if kind.mode == "choice" else "+"
    if len(parts) == 1:
        return [parts[0]]
    return [parts[0], [("t", joiner), *parts[1]]]


def _token_width(tok: Token, size: int) -> int:
    kind, text = tok
    if kind == "a":
        return size + 3
    return text_width(text, size, True)


def _draw_tokens(img: Image.Image, tokens: list[Token], cx: float, cy: float, ink: RGB) -> None:
    size = MIN_TEXT
    widths = [_token_width(tok, size) for tok in tokens]
    x = cx - (sum(widths) + 2 * (len(tokens) - 1)) / 2
    d = ImageDraw.Draw(img)
    for (kind, text), w in zip(tokens, widths, strict=True):
        if kind == "a":
            r = w / 2
            d.ellipse((x, cy - r, x + w, cy + r), outline=ink, width=2)
            draw_text(img, (x + r, cy + 1), text, size, ink, True, "mm")
        else:
            draw_text(img, (x + w / 2, cy), text, size, ink, True, "mm")
        x += w + 2


def draw_tile(
    img: Image.Image,
    box: tuple[int, int, int, int],
    tile: int,
    locale: str | None,
    reserve: int = 0,
) -> None:
    """A tile filling ``box``: colour strip with its shape, then its symbols (or ★ + level)."""
    x0, y0, x1, y1 = box
    d = ImageDraw.Draw(img)
    data = _data()
    colour_index = data.colour_of(tile)
    colour = COLOURS[colour_index]
    body = GOLD if is_ach(tile) else _tint(colour)
    d.rounded_rectangle(box, radius=6, fill=body, outline=INK, width=2)
    d.rounded_rectangle((x0, y0, x0 + STRIP, y1), radius=6, fill=colour, outline=INK, width=2)
    _shape(d, SHAPES[colour_index], x0 + STRIP / 2, (y0 + y1) / 2, 8, WHITE)
    cx = (x0 + STRIP + x1 - reserve) / 2
    cy = (y0 + y1) / 2
    if is_ach(tile):
        draw_text(img, (cx, cy), f"★{ach_level(tile)}", MIN_TEXT + 3, INK, True, "mm")
        return
    lines = tile_lines(locale, tile)
    room = x1 - reserve - x0 - STRIP - 6
    one = [tok for line in lines for tok in line]
    if sum(_token_width(tok, MIN_TEXT) + 2 for tok in one) <= room or y1 - y0 < 56:
        _draw_tokens(img, one, cx, cy, INK)
    else:
        _draw_tokens(img, lines[0], cx, cy - 14, INK)
        _draw_tokens(img, lines[1], cx, cy + 15, INK)


def _colour_chip(img: Image.Image, box: tuple[int, int, int, int], column: int, text: str) -> None:
    """A column / colour label: the colour, its shape and ``text``."""
    x0, y0, _x1, y1 = box
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box, radius=8, fill=COLOURS[column], outline=INK, width=2)
    _shape(d, SHAPES[column], x0 + 18, (y0 + y1) / 2, 9, WHITE)
    draw_text(img, (x0 + 34, (y0 + y1) / 2), text, MIN_TEXT, INK, True, "lm")


def _kokeshi(img: Image.Image, x1: int, y0: int, y1: int, letter: str) -> None:
    """A kokeshi: a white pill with its column letter, standing at the right of a cell."""
    badge(img, "pill", (x1 - 36, y0 + 4, x1 - 4, y1 - 4), WHITE, INK, letter, MIN_TEXT, INK, 3)


# -- board parts -------------------------------------------------------------------------------


def _status(s: KokeshiState, locale: str | None, names: Sequence[str] | None = None) -> str:
    if s.phase == Phase.OVER:
        winners = [_seat_name(locale, seat, names) for seat in _winners(s)]
        return t(locale, "kokeshi.status.over", winners=join_list(locale, winners))
    if s.phase.is_chance:
        return t(locale, "kokeshi.status.chance")
    return t(locale, f"kokeshi.status.{s.phase}", player=_seat_name(locale, s.active, names))


def _winners(s: KokeshiState) -> tuple[int, ...]:
    from engines.kokeshi.scoring import best_seats

    return best_seats(_data(), s)


def _round_text(s: KokeshiState, locale: str | None) -> str:
    if s.in_setup:
        return t(locale, "kokeshi.setup")
    current = s.current_round()
    last = s.last_round()
    if last is not None:
        return t(locale, "kokeshi.round_last", round=current, last=last)
    return t(locale, "kokeshi.round", round=current)


def _draw_workshop(img: Image.Image, s: KokeshiState, seat: int, locale: str | None) -> None:
    d = ImageDraw.Draw(img)
    data = _data()
    for c in range(len(data.columns)):
        x0 = BOARD_X + c * COL_W
        _colour_chip(img, (x0 + 3, HEADER_Y, x0 + COL_W - 3, HEADER_Y + 42), c, _letter(locale, c))
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
                draw_tile(img, box, column[space - 1], locale, reserve=36 if here else 0)
            if here:
                _kokeshi(img, box[2], box[1], box[3], _letter(locale, c))
    home_y = ROWS_Y + data.spaces * ROW_H + 4
    draw_text(img, (BOARD_X - 10, home_y + 26), "⌂", MIN_TEXT + 4, MUTED, True, "rm")
    for c in range(len(data.columns)):
        x0 = BOARD_X + c * COL_W
        d.rectangle((x0 + 3, home_y, x0 + COL_W - 3, home_y + 52), outline=GRID, width=2)
        if s.pos[seat][c] == 0:
            _kokeshi(img, x0 + COL_W // 2 + 18, home_y, home_y + 52, _letter(locale, c))


def _draw_pending(img: Image.Image, s: KokeshiState, seat: int, locale: str | None) -> None:
    y = ROWS_Y + _data().spaces * ROW_H + 64
    if seat != s.active or s.phase == Phase.OVER:
        return  # only the acting player holds tiles to place
    items = [(tile, "→" + _letter(locale, col)) for col, tile in s.pending]
    items += [(item.tile, "→?") for item in s.todo if isinstance(item, ColumnChoice)]
    items += [(tile, "→?") for tile in s.free]
    items += [(tile, "") for tile in s.hand]
    key = "kokeshi.hand" if s.hand else "kokeshi.pending" if items else "kokeshi.pending_none"
    label = t(locale, key)
    draw_text(img, (20, y + 28), label, MIN_TEXT, INK, True, "lm")
    x = 26 + text_width(label, MIN_TEXT, True)
    for tile, where in items[:4]:
        draw_tile(img, (x, y, x + 118, y + 56), tile, locale)
        if where:
            draw_text(img, (x + 122, y + 28), where, MIN_TEXT, INK, True, "lm")
        x += 122 + text_width(where, MIN_TEXT, True) + 12


def _draw_display(img: Image.Image, s: KokeshiState, locale: str | None) -> None:
    label = t(locale, "kokeshi.display", bag=len(s.bag))
    draw_text(img, (RIGHT_X, 76), label, MIN_TEXT, INK, True, "lm")
    for i, tile in enumerate(s.display):
        x = RIGHT_X + i * 150
        draw_tile(img, (x, 94, x + 142, 156), tile, locale)


def _draw_achievements(img: Image.Image, s: KokeshiState, locale: str | None) -> None:
    data = _data()
    draw_text(img, (RIGHT_X, 178), t(locale, "kokeshi.achievements"), MIN_TEXT, INK, True, "lm")
    left = {c: [ach_level(a) for a in s.ach_supply if ach_colour(a) == c] for c in range(5)}
    for c in range(len(data.columns)):
        x = RIGHT_X + c * 120
        levels = "".join(str(lv) for lv in left[c]) or "–"
        _colour_chip(img, (x, 196, x + 114, 240), c, "★" + levels)


def _draw_animals(img: Image.Image, s: KokeshiState, locale: str | None) -> None:
    data = _data()
    d = ImageDraw.Draw(img)
    side = t(locale, f"kokeshi.side.{s.side}")
    draw_text(
        img, (RIGHT_X, 262), t(locale, "kokeshi.animals", side=side), MIN_TEXT, INK, True, "lm"
    )
    points = data.animal_points[s.side]
    top = 314
    for a, name in enumerate(data.animals):
        x0 = RIGHT_X + a * ANIMAL_W
        label = f"{_animal_letter(locale, a)} {t(locale, f'kokeshi.animal.{name}')}"
        draw_text(
            img,
            (x0 + 6, 296),
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
                _shape(d, SHAPES[colour], bx + 15, y0 + ANIMAL_H / 2, 8, WHITE)
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
                    WHITE,
                    3 if seat == lead else 1,
                )
        mid = top + (data.animal_positions - data.midline) * ANIMAL_H
        d.line((x0, mid, x0 + ANIMAL_W - 4, mid), fill=MIDLINE, width=4)
    bottom = top + data.animal_positions * ANIMAL_H
    draw_text(
        img, (RIGHT_X, bottom + 20), t(locale, "kokeshi.stack_hint"), MIN_TEXT, MUTED, False, "lm"
    )


def _draw_scores(img: Image.Image, s: KokeshiState, locale: str | None) -> None:
    data = _data()
    y = 690
    key = "kokeshi.scores_final" if s.phase == Phase.OVER else "kokeshi.scores"
    draw_text(img, (RIGHT_X, y), t(locale, key), MIN_TEXT, INK, True, "lm")
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
            WHITE,
            1,
        )
        text = t(
            locale,
            "kokeshi.score_line",
            total=parts["total"],
            achievements=achievement_count(data, s, seat),
        )
        draw_text(img, (RIGHT_X + 40, row), mark + text, MIN_TEXT, INK, seat == s.active, "lm")


def _draw_small(
    img: Image.Image, s: KokeshiState, seat: int, x: int, y: int, locale: str | None
) -> None:
    """Another player's workshop: coloured cells with their shapes, kokeshi as dark frames."""
    data = _data()
    d = ImageDraw.Draw(img)
    cw, rh = 30, 22
    label = t(locale, "kokeshi.small_score", total=breakdown(data, s, seat)["total"])
    badge(
        img,
        "pill",
        (x, y, x + 30, y + 30),
        PLAYER_COLOURS[seat],
        PLAYER_COLOURS[seat],
        PLAYER_LETTERS[seat],
        MIN_TEXT,
        WHITE,
        1,
    )
    draw_text(img, (x + 38, y + 15), label, MIN_TEXT, INK, True, "lm")
    top = y + 38
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
                _shape(
                    d,
                    SHAPES[colour],
                    (box[0] + box[2]) / 2,
                    (box[1] + box[3]) / 2,
                    6,
                    COLOURS[colour] if is_ach(tile) else WHITE,
                )
            else:
                d.rectangle(box, fill=YELLOW if space in yellow else SPACE, outline=GRID)
            if s.pos[seat][c] == space:
                d.rectangle((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1), outline=INK, width=3)


@cache
def _palette() -> FixedPalette:
    """Every solid colour of the board plus the edges where anti-aliased text and shapes meet."""
    tints = [_tint(c) for c in COLOURS]
    solids = [BACKGROUND, INK, MUTED, GRID, WHITE, SPACE, YELLOW, GOLD, MIDLINE, FOCUS]
    solids += [*COLOURS, *tints, *PLAYER_COLOURS]
    grounds = [BACKGROUND, SPACE, YELLOW, GOLD, FOCUS, WHITE, *tints, *COLOURS]
    ramps = [(INK, g) for g in grounds] + [(MUTED, SPACE), (MUTED, BACKGROUND)]
    ramps += [(WHITE, c) for c in (*COLOURS, *PLAYER_COLOURS)]
    ramps += [(p, g) for p in PLAYER_COLOURS for g in (SPACE, BACKGROUND, INK)]
    return FixedPalette(solids, ramps, steps=3)


@cache
def _base() -> Image.Image:
    return Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)


def draw(
    state: KokeshiState,
    locale: str | None = None,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The whole board, focused on ``focus_seat`` (default: the acting player)."""
    s = state
    if focus_seat is not None:
        seat = focus_seat
    elif s.phase == Phase.OVER:
        seat = _winners(s)[0]
    else:
        seat = max(s.active, 0)
    seat = max(0, min(seat, s.seats - 1))
    img = _base().copy()
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, 50), fill=FOCUS)
    status = _status(s, locale, names)
    draw_text(img, (20, 26), ellipsize(status, TITLE, True, 900), TITLE, INK, True, "lm")
    draw_text(img, (WIDTH - 20, 26), _round_text(s, locale), MIN_TEXT, INK, True, "rm")
    badge(
        img,
        "pill",
        (20, HEADER_Y + 4, 54, HEADER_Y + 38),
        PLAYER_COLOURS[seat],
        PLAYER_COLOURS[seat],
        PLAYER_LETTERS[seat],
        MIN_TEXT,
        WHITE,
        1,
    )
    _draw_workshop(img, s, seat, locale)
    _draw_pending(img, s, seat, locale)
    _draw_display(img, s, locale)
    _draw_achievements(img, s, locale)
    _draw_animals(img, s, locale)
    _draw_scores(img, s, locale)
    others = [o for o in range(s.seats) if o != seat]
    for i, other in enumerate(others):
        _draw_small(img, s, other, 20 + i * 230, 768, locale)
    return _palette().apply(img)


# -- alt text ----------------------------------------------------------------------------------


def _tile_text(locale: str | None, tile: int) -> str:
    data = _data()
    colour = t(locale, f"kokeshi.kokeshi.{data.columns[data.colour_of(tile)]}")
    if is_ach(tile):
        return t(locale, "kokeshi.alt.ach_tile", colour=colour, level=ach_level(tile))
    kind = data.tiles[tile]
    effects = [_effect_text(locale, e) for e in kind.effects]
    key = "kokeshi.alt.choice" if kind.mode == "choice" else "kokeshi.alt.both"
    what = effects[0] if len(effects) == 1 else t(locale, key, a=effects[0], b=effects[1])
    return t(locale, "kokeshi.alt.tile", colour=colour, effect=what)


def _effect_text(locale: str | None, e: Effect) -> str:
    data = _data()
    if e.type == MOVE_KOKESHI:
        name = t(locale, f"kokeshi.kokeshi.{data.columns[e.kokeshi]}")
        return t(locale, "kokeshi.effect.move_kokeshi", kokeshi=name)
    if e.type == MOVE_ANY:
        return t(locale, f"kokeshi.effect.move_any_{e.steps}")
    if e.type == MOVE_ANIMAL:
        name = t(locale, f"kokeshi.animal.{data.animals[e.animal]}")
        return t(locale, "kokeshi.effect.move_animal", animal=name)
    if e.type == GAIN_TILE:
        return t(locale, f"kokeshi.effect.gain_{e.where}")
    return t(locale, f"kokeshi.effect.{e.type}")


def describe(
    state: KokeshiState, locale: str | None = None, names: Sequence[str] | None = None
) -> str:
    """Alt text: status, round, scores, display and the active kokeshi positions."""
    s = state
    data = _data()
    scores = [
        t(
            locale,
            "kokeshi.alt.score",
            player=_seat_name(locale, seat, names),
            total=breakdown(data, s, seat)["total"],
        )
        for seat in range(s.seats)
    ]
    parts = [
        t(locale, "kokeshi.alt.title"),
        _status(s, locale, names) + ".",
        _round_text(s, locale) + ".",
        t(locale, "kokeshi.alt.scores", scores=join_list(locale, scores)),
    ]
    if s.display:
        tiles = [_tile_text(locale, tile) for tile in s.display]
        parts.append(t(locale, "kokeshi.alt.display", tiles=join_list(locale, tiles)))
    if s.active >= 0:
        heights = [
            t(
                locale,
                "kokeshi.alt.track",
                kokeshi=t(locale, f"kokeshi.kokeshi.{data.columns[c]}"),
                height=s.height(s.active, c),
                pos=s.pos[s.active][c],
            )
            for c in range(len(data.columns))
        ]
        parts.append(
            t(
                locale,
                "kokeshi.alt.tracks",
                player=_seat_name(locale, s.active, names),
                tracks=join_list(locale, heights),
            )
        )
    return " ".join(parts)


# -- legend ------------------------------------------------------------------------------------

LEGEND_W = 1150
_LEGEND_EFFECTS: Sequence[tuple[str, Effect]] = (
    ("move_kokeshi", Effect(MOVE_KOKESHI, kokeshi=0)),
    ("move_any_1", Effect(MOVE_ANY, steps=1)),
    ("move_any_2", Effect(MOVE_ANY, steps=2)),
    ("move_kokeshi_right", Effect(MOVE_RIGHT)),
    ("move_kokeshi_left", Effect(MOVE_LEFT)),
    ("move_animal", Effect(MOVE_ANIMAL, animal=0)),
    ("move_any_animal", Effect(MOVE_ANY_ANIMAL)),
    ("gain_same_column", Effect(GAIN_TILE, where="same_column")),
    ("gain_any_column", Effect(GAIN_TILE, where=ANY_COLUMN)),
)


def legend(locale: str | None = None) -> Image.Image:
    """The effect symbols, colours and board marks with their meaning (for ``/rules kokeshi``)."""
    data = _data()
    rows = len(_LEGEND_EFFECTS) + 2 + len(data.columns) + 4
    row_h = 44
    height = 70 + rows * row_h + 20
    img = Image.new("RGB", (LEGEND_W, height), BACKGROUND)
    d = ImageDraw.Draw(img)
    draw_text(img, (20, 34), t(locale, "kokeshi.legend.title"), TITLE, INK, True, "lm")
    y = 70
    for key, e in _LEGEND_EFFECTS:
        _draw_tokens(img, effect_tokens(locale, e), 80, y + row_h / 2, INK)
        text = _legend_text(locale, key, e)
        draw_text(
            img,
            (160, y + row_h / 2),
            ellipsize(text, MIN_TEXT, False, LEGEND_W - 180),
            MIN_TEXT,
            INK,
            False,
            "lm",
        )
        y += row_h
    for key, joiner in (("choice", "/"), ("both", "+")):
        _draw_tokens(img, [("t", "A" + joiner + "B")], 80, y + row_h / 2, INK)
        draw_text(
            img,
            (160, y + row_h / 2),
            t(locale, f"kokeshi.legend.{key}"),
            MIN_TEXT,
            INK,
            False,
            "lm",
        )
        y += row_h
    for c, name in enumerate(data.columns):
        _colour_chip(img, (20, y + 4, 140, y + row_h - 4), c, _letter(locale, c))
        draw_text(
            img,
            (160, y + row_h / 2),
            t(locale, f"kokeshi.kokeshi.{name}"),
            MIN_TEXT,
            INK,
            False,
            "lm",
        )
        y += row_h
    draw_tile(img, (20, y + 2, 140, y + row_h - 2), 100 + 2, locale)
    draw_text(
        img, (160, y + row_h / 2), t(locale, "kokeshi.legend.ach"), MIN_TEXT, INK, False, "lm"
    )
    y += row_h
    d.rectangle((20, y + 4, 140, y + row_h - 4), fill=YELLOW, outline=GRID, width=2)
    draw_text(
        img, (160, y + row_h / 2), t(locale, "kokeshi.legend.yellow"), MIN_TEXT, INK, False, "lm"
    )
    y += row_h
    _kokeshi(img, 100, y, y + row_h + 20, _letter(locale, 0))  # as tall as on the board
    draw_text(
        img,
        (160, y + row_h / 2 + 10),
        t(locale, "kokeshi.legend.kokeshi"),
        MIN_TEXT,
        INK,
        False,
        "lm",
    )
    y += row_h + 20
    d.line((20, y + row_h / 2, 140, y + row_h / 2), fill=MIDLINE, width=4)
    draw_text(
        img, (160, y + row_h / 2), t(locale, "kokeshi.legend.midline"), MIN_TEXT, INK, False, "lm"
    )
    return _palette().apply(img)


def _legend_text(locale: str | None, key: str, e: Effect) -> str:
    if key == "move_kokeshi":
        return t(
            locale,
            "kokeshi.legend.move_kokeshi",
            letter=_letter(locale, 0),
            kokeshi=t(locale, "kokeshi.kokeshi.princess"),
        )
    if key == "move_animal":
        letters = ", ".join(
            f"{_animal_letter(locale, a)} = {t(locale, f'kokeshi.animal.{n}')}"
            for a, n in enumerate(_data().animals)
        )
        return t(locale, "kokeshi.legend.move_animal", animals=letters)
    return t(locale, f"kokeshi.legend.{key}")


def rules_image(tr: object) -> Image.Image:
    """``/rules kokeshi`` shows the legend beside the summary."""
    return legend(tr)  # type: ignore[arg-type]
