"""Can't Stop board picture and its alt text.

An 800x600 board: the eleven columns (2 to 12, 3 to 13 spaces) stand on a common baseline with
their numbers below. Saved markers are coloured discs carrying the seat letter, runners are white
pentagons carrying the active seat's letter, and pieces sharing a space sit side by side. Claimed
columns are tinted in the owner's colour with the owner's letter in every space. The top bar says
whose turn it is and what they do next; the dice (split into the pairing used by the last move)
sit in the empty corner above the short columns on the left, the seat legend with claims on the
right.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engines.cantstop.rules import previous_seat, split_of_move
from engines.cantstop.state import (
    COLUMNS,
    COLUMNS_TO_WIN,
    HEIGHTS,
    NO_OWNER,
    CantStopState,
    Phase,
)
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
    paste_shape,
    text_on,
)

WIDTH, HEIGHT = 800, 600
#: the smallest text drawn, in pixels (the board stays readable at ~400 px wide on a phone)
MIN_TEXT = 16

CELL: RGB = (255, 253, 247)
TOP_CELL: RGB = (250, 231, 186)
HIGHLIGHT: RGB = (255, 226, 130)
MOVED: RGB = (235, 150, 0)
ALERT: RGB = (190, 35, 30)
TINTS: tuple[RGB, ...] = tuple(blend(c, WHITE, 0.7) for c in PLAYER_COLOURS)

# board geometry
COL_PITCH, CELL_W = 70, 62
ROW_PITCH, CELL_H = 38, 34
BOARD_X = (WIDTH - len(COLUMNS) * COL_PITCH) // 2 + (COL_PITCH - CELL_W) // 2
BASE_Y = 556  # bottom of the lowest space
LABEL_Y = 578
TOP_BAR = 58
# corners: dice above columns 2-4, legend above columns 10-12
DICE_X, DICE_Y, DIE = 16, 70, 44
LEGEND_X, LEGEND_Y, LEGEND_W, LEGEND_ROW = 576, 66, 216, 56


def _palette() -> FixedPalette:
    base = [BACKGROUND, INK, MUTED, GRID, WHITE, CELL, TOP_CELL, HIGHLIGHT, MOVED, ALERT]
    base += [*PLAYER_COLOURS, *TINTS]
    ramps = [(INK, c) for c in (BACKGROUND, CELL, TOP_CELL, WHITE, HIGHLIGHT, GRID)]
    ramps += [(INK, c) for c in (*PLAYER_COLOURS, *TINTS)]
    ramps += [(WHITE, c) for c in (*PLAYER_COLOURS, ALERT)]
    ramps += [(c, tint) for c, tint in zip(PLAYER_COLOURS, TINTS, strict=True)]
    ramps += [(c, BACKGROUND) for c in (*PLAYER_COLOURS, ALERT, MUTED)]
    return FixedPalette(base, ramps, steps=5)


PALETTE = _palette()


def cell_box(column: int, space: int) -> tuple[int, int, int, int]:
    """Pixel box of ``space`` (1 = bottom) in ``column``."""
    x0 = BOARD_X + (column - 2) * COL_PITCH
    y0 = BASE_Y - space * ROW_PITCH + (ROW_PITCH - CELL_H)
    return x0, y0, x0 + CELL_W, y0 + CELL_H


def _centre_x(column: int) -> int:
    return BOARD_X + (column - 2) * COL_PITCH + CELL_W // 2


def player_name(locale: str | None, seat: int, names: Sequence[str] | None) -> str:
    """The display name of ``seat``, or "Player A" style when none is given."""
    return given_name(names, seat) or t(
        locale, "cantstop.board.player", letter=PLAYER_LETTERS[seat]
    )


# -- static background ---------------------------------------------------------------------------


@cache
def _background() -> Image.Image:
    """Empty board (spaces and column numbers), drawn once."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    d = ImageDraw.Draw(img)
    for col in COLUMNS:
        for space in range(1, HEIGHTS[col] + 1):
            fill = TOP_CELL if space == HEIGHTS[col] else CELL
            d.rounded_rectangle(cell_box(col, space), radius=6, fill=fill, outline=GRID, width=2)
        draw_text(img, (_centre_x(col), LABEL_Y), str(col), 24, INK, bold=True, anchor="mm")
    return img


# -- pieces --------------------------------------------------------------------------------------


def _cell_items(state: CantStopState) -> dict[tuple[int, int], list[tuple[int, bool]]]:
    """(column, space) -> [(seat, is_runner)] in seat order."""
    items: dict[tuple[int, int], list[tuple[int, bool]]] = {}
    for seat in range(state.seats):
        for col in COLUMNS:
            space = state.saved[seat][col - 2]
            if space > 0:
                items.setdefault((col, space), []).append((seat, False))
    for col, space in state.runners:
        items.setdefault((col, space), []).append((state.active, True))
    for pieces in items.values():
        pieces.sort()
    return items


def _draw_pieces(
    img: Image.Image, box: tuple[int, int, int, int], pieces: list[tuple[int, bool]]
) -> None:
    """Lay the pieces of one space side by side, each as tall as the space allows."""
    x0, y0, x1, y1 = box
    n = len(pieces)
    gap = 2
    if n >= 3:  # crowded: spill into the gutters between columns
        spill = (COL_PITCH - CELL_W) // 2 - 1
        x0, x1, gap = x0 - spill, x1 + spill, 1
    slot = (x1 - x0 - 4 - gap * (n - 1)) / n
    h = y1 - y0 - 4
    w = min(int(slot), h)
    size = 20 if w >= 24 else MIN_TEXT
    for i, (seat, runner) in enumerate(pieces):
        cx = x0 + 2 + slot * i + gap * i + slot / 2
        left = round(cx - w / 2)
        piece_box = (left, y0 + 2, left + w, y0 + 2 + h)
        letter = PLAYER_LETTERS[seat]
        if runner:
            # too narrow for a letter: the white pentagon alone still says "runner"
            label = letter if w >= 18 else ""
            badge(img, "house", piece_box, WHITE, INK, label, size, INK, border=3 if w >= 18 else 2)
        else:
            border = 2 if w >= 20 else 1
            badge(img, "pill", piece_box, PLAYER_COLOURS[seat], INK, letter, size, border=border)


def _draw_columns(img: Image.Image, state: CantStopState) -> None:
    d = ImageDraw.Draw(img)
    for col in COLUMNS:
        owner = state.owner(col)
        if owner == NO_OWNER:
            continue
        colour, tint = PLAYER_COLOURS[owner], TINTS[owner]
        for space in range(1, HEIGHTS[col] + 1):
            box = cell_box(col, space)
            d.rounded_rectangle(box, radius=6, fill=tint, outline=colour, width=2)
            if space < HEIGHTS[col]:
                cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                draw_text(img, (cx, cy), PLAYER_LETTERS[owner], 18, colour, True, "mm")
        cx = _centre_x(col)
        paste_shape(img, "pill", (cx - 22, LABEL_Y - 19, cx + 22, LABEL_Y + 19), colour)
        draw_text(img, (cx, LABEL_Y), str(col), 24, text_on(colour), bold=True, anchor="mm")
    if state.phase == Phase.DECIDE:
        for col in sorted(set(state.last_move)):
            space = state.runner_at(col)
            if space:
                x0, y0, x1, y1 = cell_box(col, space)
                d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), 8, outline=MOVED, width=3)
    for (col, space), pieces in _cell_items(state).items():
        _draw_pieces(img, cell_box(col, space), pieces)


# -- status, dice, legend ------------------------------------------------------------------------


def _status(state: CantStopState, locale: str | None, names: Sequence[str] | None) -> str:
    """The one-line summary in the top bar."""
    if state.phase == Phase.OVER:
        winner = player_name(locale, state.winner, names)
        return t(locale, "cantstop.board.status.over", player=winner)
    player = player_name(locale, state.active, names)
    if state.phase == Phase.DICE:
        return t(locale, "cantstop.board.status.rolling", player=player)
    if state.phase == Phase.MOVE:
        return t(locale, "cantstop.board.status.move", player=player)
    if state.phase == Phase.DECIDE:
        return t(locale, "cantstop.board.status.decide", player=player)
    if state.bust and state.dice:
        busted = previous_seat(state)
        if busted == state.active:
            return t(locale, "cantstop.board.status.bust_solo", player=player)
        name = player_name(locale, busted, names)
        return t(locale, "cantstop.board.status.bust", busted=name, player=player)
    return t(locale, "cantstop.board.status.roll", player=player)


def _short_names(
    locale: str | None, state: CantStopState, names: Sequence[str] | None
) -> list[str]:
    """Display names cut to fit the top bar."""
    return [ellipsize(player_name(locale, s, names), 24, True, 260) for s in range(state.seats)]


def _draw_top_bar(
    img: Image.Image, state: CantStopState, locale: str | None, names: list[str]
) -> None:
    seat = state.winner if state.phase == Phase.OVER else state.active
    img.paste(TINTS[seat], (0, 0, WIDTH, TOP_BAR))
    badge(img, "pill", (12, 13, 44, 45), PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], 18)
    text = ellipsize(_status(state, locale, names), 24, True, WIDTH - 68)
    draw_text(img, (56, TOP_BAR / 2), text, 24, INK, bold=True, anchor="lm")


_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def _draw_die(img: Image.Image, x: int, y: int, value: int, faded: bool) -> None:
    ink = MUTED if faded else INK
    paste_shape(img, "round", (x, y, x + DIE, y + DIE), ink)
    paste_shape(img, "round", (x, y, x + DIE, y + DIE), WHITE, inset=2)
    r = 5
    for fx, fy in _PIPS[value]:
        cx, cy = round(x + fx * DIE), round(y + fy * DIE)
        paste_shape(img, "pill", (cx - r, cy - r, cx + r, cy + r), ink)


def _draw_dice(img: Image.Image, state: CantStopState, locale: str | None) -> None:
    if not state.dice or state.phase in (Phase.DICE, Phase.OVER):
        return
    busted = state.bust and state.phase not in (Phase.MOVE, Phase.DECIDE)
    pairing = split_of_move(state.dice, state.last_move) if state.phase == Phase.DECIDE else None
    if pairing is None:
        for i, value in enumerate(state.dice):
            _draw_die(img, DICE_X + i * (DIE + 10), DICE_Y, value, faded=busted)
        if busted:
            box = (DICE_X, DICE_Y + DIE + 12, DICE_X + 4 * DIE + 30, DICE_Y + DIE + 54)
            paste_shape(img, "round", box, ALERT)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            draw_text(img, (cx, cy), t(locale, "cantstop.board.bust"), 26, WHITE, True, "mm")
        return
    used = list(state.last_move)
    for p, (a, b) in enumerate(pairing):
        x = DICE_X + p * (2 * DIE + 26)
        _draw_die(img, x, DICE_Y, state.dice[a], faded=False)
        _draw_die(img, x + DIE + 6, DICE_Y, state.dice[b], faded=False)
        total = state.dice[a] + state.dice[b]
        box = (x + 8, DICE_Y + DIE + 10, x + 2 * DIE - 2, DICE_Y + DIE + 46)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if total in used:
            used.remove(total)
            colour = PLAYER_COLOURS[state.active]
            badge(img, "round", box, colour, INK, str(total), 24)
        else:
            badge(img, "round", box, BACKGROUND, MUTED, str(total), 24, MUTED)
            ImageDraw.Draw(img).line((box[0] + 6, box[3] - 7, box[2] - 6, box[1] + 7), MUTED, 3)


def _draw_legend(
    img: Image.Image, state: CantStopState, locale: str | None, names: list[str]
) -> None:
    current = state.winner if state.phase == Phase.OVER else state.active
    for seat in range(state.seats):
        y = LEGEND_Y + seat * LEGEND_ROW
        box = (LEGEND_X, y, LEGEND_X + LEGEND_W, y + LEGEND_ROW - 6)
        if seat == current:
            badge(img, "round", box, HIGHLIGHT, INK, "", 0)
        cy = (box[1] + box[3]) // 2
        marker = (LEGEND_X + 8, cy - 16, LEGEND_X + 40, cy + 16)
        badge(img, "pill", marker, PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], 18)
        text_x = LEGEND_X + 50
        right = LEGEND_X + LEGEND_W - 8
        if state.phase == Phase.OVER and seat == state.winner:
            draw_text(img, (right, cy), "★", 26, INK, bold=True, anchor="rm")
            right -= 30
        name = ellipsize(names[seat], 18, True, right - text_x)
        draw_text(img, (text_x, cy - 11), name, 18, INK, bold=True, anchor="lm")
        claimed = t(
            locale,
            "cantstop.board.claimed",
            count=len(state.claimed_by(seat)),
            goal=COLUMNS_TO_WIN,
        )
        draw_text(img, (text_x, cy + 12), claimed, 18, INK, anchor="lm")


# -- public API ----------------------------------------------------------------------------------


def draw_rgb(
    state: CantStopState, locale: str | None = None, names: Sequence[str] | None = None
) -> Image.Image:
    """The board as an RGB image (before the palette mapping)."""
    img = _background().copy()
    shown = _short_names(locale, state, names)
    _draw_columns(img, state)
    _draw_top_bar(img, state, locale, shown)
    _draw_dice(img, state, locale)
    _draw_legend(img, state, locale, shown)
    return img


def draw(
    state: CantStopState, locale: str | None = None, names: Sequence[str] | None = None
) -> Image.Image:
    """The board of ``state`` as an 800x600 palette image.

    ``names`` gives optional display names per seat; seats without one are "Player A" and so on.
    """
    return PALETTE.apply(draw_rgb(state, locale, names))


def describe(
    state: CantStopState, locale: str | None = None, names: Sequence[str] | None = None
) -> str:
    """Alt text: whose turn and what happens next, the dice, runners, then each seat's claims."""
    sep = t(locale, "list.sep")
    dice = sep.join(map(str, state.dice))
    player = player_name(locale, state.active, names)
    parts = [t(locale, "cantstop.board.alt.title")]
    if state.phase == Phase.OVER:
        winner = player_name(locale, state.winner, names)
        parts.append(t(locale, "cantstop.board.alt.over", player=winner))
    else:
        if state.bust and state.dice and state.phase not in (Phase.MOVE, Phase.DECIDE):
            busted = player_name(locale, previous_seat(state), names)
            parts.append(t(locale, "cantstop.board.alt.bust", busted=busted, dice=dice))
        if state.phase == Phase.MOVE:
            parts.append(t(locale, "cantstop.board.alt.move", player=player, dice=dice))
        elif state.phase == Phase.DECIDE:
            move = join_list(locale, [str(c) for c in state.last_move])
            text = t(locale, "cantstop.board.alt.decide", player=player, move=move, dice=dice)
            parts.append(text)
        elif state.phase == Phase.DICE:
            parts.append(t(locale, "cantstop.board.alt.rolling", player=player))
        else:
            parts.append(t(locale, "cantstop.board.alt.roll", player=player))
    if state.runners:
        runners = [
            t(locale, "cantstop.board.alt.runner", column=c, space=h, height=HEIGHTS[c])
            for c, h in state.runners
        ]
        parts.append(t(locale, "cantstop.board.alt.runners", runners=sep.join(runners)))
    none = t(locale, "cantstop.board.alt.none")
    for seat in range(state.seats):
        claimed = [str(c) for c in state.claimed_by(seat)]
        markers = [
            t(locale, "cantstop.board.alt.marker", column=c, space=h, height=HEIGHTS[c])
            for c in COLUMNS
            if (h := state.saved[seat][c - 2]) and state.owner(c) != seat
        ]
        parts.append(
            t(
                locale,
                "cantstop.board.alt.player",
                player=player_name(locale, seat, names),
                letter=PLAYER_LETTERS[seat],
                claimed=join_list(locale, claimed) if claimed else none,
                markers=sep.join(markers) if markers else none,
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"
