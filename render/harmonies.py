"""Harmonies board picture and its alt text.

A 1280x960 picture. Left: the focus player's board, large, every hex labelled with the code the
actions use (``c3``) and its token stack drawn as a pile of discs, animal cubes as white cubes
on top; below it that player's cards with their habitat patterns and point tracks. Right: the
central board, the face-up animal cards, the other players' boards (smaller) with their cards
in progress, and the running score per category for everyone.

Tokens carry a shape besides their colour so the board reads without colour vision: waves on
water, a peak on mountains, a trunk line on brown, a leaf on green, furrows on fields and a
house on red.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from engines.harmonies import scoring
from engines.harmonies.cards import BOARD_CELLS, CARDS, COLOURS, KIND_STACKS, Cell, hex_code
from engines.harmonies.rules import HarmoniesEngine
from engines.harmonies.state import HarmoniesState, Phase, Player, TurnStep
from engines.harmonies.turn import turn_step
from i18n import t
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
    text_width,
)

WIDTH, HEIGHT = 1280, 960
#: the smallest text drawn (1/40 of the height), so the picture reads on a phone
MIN_TEXT = 24
TOP_BAR = 56
SQRT3 = math.sqrt(3)

TOKEN: dict[str, RGB] = {
    "blue": (52, 120, 205),
    "grey": (150, 150, 156),
    "brown": (128, 84, 48),
    "green": (62, 150, 62),
    "yellow": (238, 200, 60),
    "red": (200, 56, 46),
}
SIDE: dict[str, RGB] = {c: blend(v, INK, 0.35) for c, v in TOKEN.items()}
ICON: dict[str, RGB] = {
    "blue": WHITE,
    "grey": INK,
    "brown": (240, 220, 190),
    "green": WHITE,
    "yellow": (120, 80, 20),
    "red": WHITE,
}
HEX_FILL: RGB = (252, 248, 238)
HEX_EDGE: RGB = (176, 164, 140)
CARD_FILL: RGB = (255, 252, 244)
SPIRIT_FILL: RGB = (232, 226, 246)
EARNED: RGB = (255, 214, 90)
HIGHLIGHT: RGB = (255, 236, 160)
TINTS: tuple[RGB, ...] = tuple(blend(c, WHITE, 0.72) for c in PLAYER_COLOURS)

_engine = HarmoniesEngine()


def _palette() -> FixedPalette:
    base = [BACKGROUND, INK, MUTED, GRID, WHITE, HEX_FILL, HEX_EDGE, CARD_FILL, SPIRIT_FILL]
    base += [EARNED, HIGHLIGHT, *PLAYER_COLOURS, *TINTS, *TOKEN.values(), *SIDE.values()]
    base += list(ICON.values())
    ramps = [(INK, c) for c in (BACKGROUND, HEX_FILL, CARD_FILL, SPIRIT_FILL, WHITE, EARNED)]
    ramps += [(INK, c) for c in (*PLAYER_COLOURS, *TINTS, HIGHLIGHT)]
    ramps += [(ICON[c], TOKEN[c]) for c in COLOURS]
    ramps += [(ICON[c], SIDE[c]) for c in COLOURS]
    ramps += [(TOKEN[c], SIDE[c]) for c in COLOURS]
    ramps += [(SIDE[c], HEX_FILL) for c in COLOURS]
    ramps += [(SIDE[c], CARD_FILL) for c in COLOURS]
    ramps += [(SIDE[c], BACKGROUND) for c in COLOURS]
    ramps += [(HEX_EDGE, c) for c in (BACKGROUND, CARD_FILL, HEX_FILL)]
    ramps += [(MUTED, c) for c in (BACKGROUND, HEX_FILL, CARD_FILL)]
    return FixedPalette(base, ramps, steps=3)


PALETTE = _palette()


# -- geometry ------------------------------------------------------------------------------------


def _rows(q: int, r: int) -> int:
    return r + (q - (q & 1)) // 2


def board_size(side: str, radius: float) -> tuple[int, int]:
    cells = BOARD_CELLS[side]
    columns = max(q for q, _ in cells) + 1
    rows = max(_rows(q, r) for q, r in cells) + 1
    return round(1.5 * radius * (columns - 1) + 2 * radius), round(SQRT3 * radius * rows)


def hex_centre(cell: Cell, radius: float, origin: tuple[float, float]) -> tuple[float, float]:
    q, r = cell
    x = origin[0] + radius + 1.5 * radius * q
    y = origin[1] + SQRT3 / 2 * radius * (2 * _rows(q, r) + (q & 1) + 1)
    return x, y


def _hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.pi / 3 * k), cy + radius * math.sin(math.pi / 3 * k))
        for k in range(6)
    ]


# -- sprites -------------------------------------------------------------------------------------

_SS = 4  # supersampling for sprites


def _icon(d: ImageDraw.ImageDraw, colour: str, box: tuple[float, float, float, float]) -> None:
    """The shape cue of a token colour, drawn inside ``box`` (supersampled coordinates)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    ink = ICON[colour]
    line = max(2, round(min(w, h) * 0.16))
    if colour == "blue":
        for fy in (0.3, 0.72):
            pts = [
                (x0 + w * k / 12, y0 + h * fy + math.sin(k / 12 * 2 * math.pi) * h * 0.14)
                for k in range(13)
            ]
            d.line(pts, fill=ink, width=line, joint="curve")
    elif colour == "grey":
        d.polygon([(x0 + w / 2, y0), (x1, y1), (x0, y1)], fill=ink)
    elif colour == "brown":
        d.rectangle((x0 + w * 0.38, y0, x1 - w * 0.38, y1), fill=ink)
        d.line([(x0 + w / 2, y0 + h * 0.4), (x0 + w * 0.15, y0 + h * 0.1)], fill=ink, width=line)
    elif colour == "green":
        d.ellipse((x0 + w * 0.12, y0, x1 - w * 0.12, y1 - h * 0.1), fill=ink)
        d.line([(x0 + w / 2, y0 + h * 0.2), (x0 + w / 2, y1)], fill=TOKEN["green"], width=line)
    elif colour == "yellow":
        for fy in (0.15, 0.5, 0.85):
            d.line([(x0, y0 + h * fy), (x1, y0 + h * fy)], fill=ink, width=line)
    else:  # red: a house
        d.polygon(
            [(x0 + w / 2, y0), (x1, y0 + h * 0.45), (x1, y1), (x0, y1), (x0, y0 + h * 0.45)],
            fill=ink,
        )


@cache
def stack_sprite(stack: tuple[str, ...], width: int, cube: bool = False) -> Image.Image:
    """A pile of token discs seen from the side (bottom first), as an RGBA image.

    Discs are ``width`` wide; the top face carries the colour's shape (what lies below a top
    colour follows from the stacking rules, so the height is the other thing to read).
    ``cube`` adds an animal cube on top.
    """
    s = _SS
    face = width * 0.42
    thick = width * 0.22
    height = face + thick * 3 + (width * 0.4 if cube else 0)
    img = Image.new("RGBA", (width * s, math.ceil(height) * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    bottom = (height - face / 2 - thick) * s  # centre of the lowest disc's top face
    for level, colour in enumerate(stack):
        cy = bottom - level * thick * s
        half = face / 2 * s
        x0, x1 = s, (width - 1) * s
        edge = SIDE[colour]
        d.ellipse((x0, cy - half + thick * s, x1, cy + half + thick * s), fill=edge)
        d.rectangle((x0, cy, x1, cy + thick * s), fill=edge)
        d.ellipse((x0, cy - half, x1, cy + half), fill=TOKEN[colour])
        if level == len(stack) - 1:
            iw, ih = width * 0.34 * s, face * 0.62 * s
            mid = (x0 + x1) / 2
            _icon(d, colour, (mid - iw / 2, cy - ih / 2, mid + iw / 2, cy + ih / 2))
    if cube and stack:
        top = bottom - (len(stack) - 1) * thick * s
        size = width * 0.36 * s
        mid = width * s / 2
        box = (mid - size / 2, top - size * 1.05, mid + size / 2, top - size * 0.05)
        d.rectangle(box, fill=INK)
        inset = max(s * 2, size * 0.14)
        d.rectangle((box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), fill=WHITE)
    return img.reduce(s)


@cache
def disc_sprite(colour: str, size: int) -> Image.Image:
    """A token seen from above (central board), as an RGBA image."""
    s = _SS
    img = Image.new("RGBA", (size * s, size * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, size * s - 1, size * s - 1), fill=SIDE[colour])
    d.ellipse((s * 2, s * 2, size * s - 1 - s * 2, size * s - 1 - s * 2), fill=TOKEN[colour])
    m = size * s * 0.27
    _icon(d, colour, (m, m * 1.05, size * s - m, size * s - m * 1.05))
    return img.reduce(s)


@cache
def cube_sprite(size: int) -> Image.Image:
    img = Image.new("RGBA", (size, size), INK)
    inset = max(2, size // 6)
    ImageDraw.Draw(img).rectangle((inset, inset, size - 1 - inset, size - 1 - inset), fill=WHITE)
    return img


def _paste(img: Image.Image, sprite: Image.Image, cx: float, bottom: float) -> None:
    """Paste ``sprite`` centred on ``cx`` with its lower edge at ``bottom``."""
    x = round(cx - sprite.width / 2)
    y = round(bottom - sprite.height)
    img.paste(sprite, (x, y), sprite)


# -- boards --------------------------------------------------------------------------------------


@cache
def _empty_board(side: str, radius: int, labels: bool) -> Image.Image:
    """Hex outlines (and their codes) of a side, on the background colour, as RGBA."""
    w, h = board_size(side, radius)
    img = Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for cell in BOARD_CELLS[side]:
        cx, cy = hex_centre(cell, radius * _SS, (0, 0))
        d.polygon(_hex_points(cx, cy, radius * _SS - _SS), fill=HEX_EDGE)
        d.polygon(_hex_points(cx, cy, radius * _SS - _SS * 3.5), fill=HEX_FILL)
    out = img.reduce(_SS)
    if labels:
        for cell in BOARD_CELLS[side]:
            cx, cy = hex_centre(cell, radius, (0, 0))
            draw_text(out, (cx, cy - radius * 0.58), hex_code(cell), MIN_TEXT, MUTED, True, "mm")
    return out


def _draw_board(
    img: Image.Image,
    side: str,
    player: Player,
    radius: int,
    origin: tuple[int, int],
    labels: bool,
) -> None:
    img.paste(_empty_board(side, radius, labels), origin, _empty_board(side, radius, labels))
    width = round(radius * (1.0 if labels else 1.2))
    for i, cell in enumerate(BOARD_CELLS[side]):
        stack = player.stacks[i]
        if not stack:
            continue
        cx, cy = hex_centre(cell, radius, origin)
        sprite = stack_sprite(stack, width, bool(player.cubes[i]))
        _paste(img, sprite, cx, cy + radius * (0.8 if labels else 0.7))


# -- cards ---------------------------------------------------------------------------------------

CARD_W, CARD_H = 130, 214
PATTERN_R = 24


@cache
def card_sprite(card_id: int, placed: int, held: bool, locale: str | None) -> Image.Image:
    """One card: number, habitat pattern (cube hex marked), point track."""
    card = CARDS[card_id]
    fill = SPIRIT_FILL if card.spirit else CARD_FILL
    img = Image.new("RGB", (CARD_W, CARD_H), BACKGROUND)
    badge(img, "round", (0, 0, CARD_W, CARD_H), fill, HEX_EDGE, "", 0)
    label = t(locale, "harmonies.board.card", number=card_id)
    draw_text(img, (10, 20), label, MIN_TEXT, INK, True, "lm")
    if card.spirit:
        draw_text(img, (CARD_W - 10, 20), "✦", MIN_TEXT, INK, True, "rm")
    # pattern, in its printed orientation, centred in the middle band
    r = PATTERN_R
    pattern = card.pattern
    raw_x = [1.5 * dq for (dq, dr), _ in pattern]
    raw_y = [SQRT3 * (dr + dq / 2) for (dq, dr), _ in pattern]
    xs = [x - min(raw_x) for x in raw_x]
    ys = [y - min(raw_y) for y in raw_y]
    span_x, span_y = max(xs) * r + 2 * r, max(ys) * r + SQRT3 * r
    ox = (CARD_W - span_x) / 2 + r
    oy = 40 + (104 - span_y) / 2 + SQRT3 / 2 * r
    d = ImageDraw.Draw(img)
    for x, y in zip(xs, ys, strict=True):
        cx, cy = ox + x * r, oy + y * r
        d.polygon(_hex_points(cx, cy, r - 1), fill=HEX_EDGE)
        d.polygon(_hex_points(cx, cy, r - 2.5), fill=HEX_FILL)
    for index, ((_, kind), x, y) in enumerate(zip(pattern, xs, ys, strict=True)):
        sprite = stack_sprite(_kind_stack(kind), round(r * 1.3), index == 0)
        _paste(img, sprite, ox + x * r, oy + y * r + r * 0.75)
    # track
    if card.spirit:
        text = t(locale, "harmonies.board.spirit_done" if placed else "harmonies.board.spirit")
        draw_text(img, (CARD_W / 2, CARD_H - 26), text, MIN_TEXT, INK, True, "mm")
        return img
    values = card.track
    rows = [values[:3], values[3:]] if len(values) > 3 else [values]
    y = CARD_H - 26 - 32 * (len(rows) - 1)
    k = 0
    for row in rows:
        w = 40
        x = (CARD_W - w * len(row)) / 2
        for value in row:
            box = (round(x + 2), round(y - 14), round(x + w - 2), round(y + 14))
            earned = held and k < placed
            current = held and k == placed - 1
            badge(img, "round", box, EARNED if earned else WHITE, INK if current else GRID, "", 0)
            draw_text(img, ((box[0] + box[2]) / 2, y), str(value), MIN_TEXT, INK, current, "mm")
            x += w
            k += 1
        y += 32
    return img


def _kind_stack(kind: str) -> tuple[str, ...]:
    """The stack drawn for a pattern kind (a building is shown on grey)."""
    if kind == "B":
        return ("grey", "red")
    return next(iter(KIND_STACKS[kind]))


# -- text ----------------------------------------------------------------------------------------


def player_name(locale: str | None, seat: int, names: Sequence[str] | None) -> str:
    return given_name(names, seat) or t(
        locale, "harmonies.board.player", letter=PLAYER_LETTERS[seat]
    )


def status(state: HarmoniesState, locale: str | None, names: Sequence[str] | None) -> str:
    """The one-line summary in the top bar."""
    if state.phase == Phase.OVER:
        if state.seats == 1:
            total = _engine.scores(state)[0]
            return t(
                locale, "harmonies.board.status.solo_over", score=total, suns=_engine.suns(state)
            )
        winners = [player_name(locale, s, names) for s in _engine.winners(state)]
        if len(winners) > 1:
            return t(locale, "harmonies.board.status.tie", players=" & ".join(winners))
        return t(locale, "harmonies.board.status.over", player=winners[0])
    player = player_name(locale, state.active, names)
    if state.phase == Phase.CHANCE:
        return t(locale, "harmonies.board.status.refill")
    step = turn_step(state)
    if step is TurnStep.KEEP:
        return t(locale, "harmonies.board.status.keep", player=player)
    if step is TurnStep.TAKE:
        return t(locale, "harmonies.board.status.take", player=player)
    if step is TurnStep.PLACE:
        key = "place_one" if len(state.hand) == 1 else "place"
        return t(locale, f"harmonies.board.status.{key}", player=player, count=len(state.hand))
    return t(locale, "harmonies.board.status.finish", player=player)


# -- panels --------------------------------------------------------------------------------------

LEFT_X, BOARD_Y = 16, 72
RIGHT_X = 560


def _draw_top_bar(
    img: Image.Image, state: HarmoniesState, locale: str | None, names: Sequence[str] | None
) -> None:
    seat = state.active if state.phase != Phase.OVER else (_engine.winners(state) or (0,))[0]
    img.paste(TINTS[seat], (0, 0, WIDTH, TOP_BAR))
    badge(img, "pill", (12, 10, 48, 46), PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
    right = WIDTH - 16
    if state.hand:  # tokens taken but not yet placed
        for colour in reversed(state.hand):
            sprite = disc_sprite(colour, 44)
            img.paste(sprite, (right - 44, 6), sprite)
            right -= 48
        label = t(locale, "harmonies.board.hand")
        right -= 8
        draw_text(img, (right, TOP_BAR / 2), label, MIN_TEXT, INK, True, "rm")
        right -= text_width(label, MIN_TEXT, True) + 12
    text = ellipsize(status(state, locale, names), 28, True, right - 60)
    draw_text(img, (60, TOP_BAR / 2), text, 28, INK, True, "lm")


def _draw_central(img: Image.Image, state: HarmoniesState, locale: str | None) -> None:
    y = BOARD_Y
    draw_text(img, (RIGHT_X, y + 14), t(locale, "harmonies.board.central"), MIN_TEXT, INK, True)
    slot_w = 140
    for i, slot in enumerate(state.central):
        x = RIGHT_X + i * slot_w
        box = (x, y + 32, x + slot_w - 8, y + 104)
        taken = i == state.taken
        badge(img, "round", box, HIGHLIGHT if taken else CARD_FILL, GRID, "", 0)
        draw_text(img, (x + 16, y + 68), str(i + 1), MIN_TEXT, INK, True, "mm")
        for k, colour in enumerate(slot):
            sprite = disc_sprite(colour, 32)
            img.paste(sprite, (x + 32 + k * 33, y + 52), sprite)


def _draw_display(img: Image.Image, state: HarmoniesState, locale: str | None) -> None:
    y = BOARD_Y + 116
    draw_text(img, (RIGHT_X, y + 14), t(locale, "harmonies.board.display"), MIN_TEXT, INK, True)
    for i, cid in enumerate(state.display):
        x = RIGHT_X + i * (CARD_W + 4)
        if cid:
            img.paste(card_sprite(cid, 0, False, locale), (x, y + 32))
        else:
            badge(img, "round", (x, y + 32, x + CARD_W, y + 32 + CARD_H), BACKGROUND, GRID, "", 0)


def chip_width(card_id: int, locale: str | None) -> int:
    label = t(locale, "harmonies.board.card", number=card_id)
    return 18 + text_width(label, MIN_TEXT, True) + len(CARDS[card_id].track) * 13


def _chip(img: Image.Image, x: int, y: int, card_id: int, placed: int, locale: str | None) -> int:
    """A held card in short: its number and one box per track value (filled when earned)."""
    card = CARDS[card_id]
    slots = len(card.track)
    label = t(locale, "harmonies.board.card", number=card_id)
    w = chip_width(card_id, locale)
    fill = SPIRIT_FILL if card.spirit else CARD_FILL
    badge(img, "round", (x, y, x + w, y + 34), fill, HEX_EDGE, "", 0)
    draw_text(img, (x + 8, y + 17), label, MIN_TEXT, INK, True, "lm")
    bx = x + w - slots * 13 - 4
    for k in range(slots):
        box = (bx + k * 13, y + 10, bx + k * 13 + 10, y + 24)
        paste_shape(img, "round", box, INK)
        if k >= placed:
            paste_shape(img, "round", box, WHITE, inset=2)
    return w


def _draw_focus_cards(
    img: Image.Image, state: HarmoniesState, seat: int, locale: str | None, top: int
) -> None:
    p = state.players[seat]
    if p.offer:
        draw_text(img, (LEFT_X, top + 14), t(locale, "harmonies.board.offer"), MIN_TEXT, INK, True)
        for k, cid in enumerate(p.offer):
            img.paste(card_sprite(cid, 0, False, locale), (LEFT_X + k * (CARD_W + 6), top + 32))
        _spirit_rules(img, p.offer, locale, top + 32 + CARD_H + 24)
        return
    draw_text(img, (LEFT_X, top + 14), t(locale, "harmonies.board.cards"), MIN_TEXT, INK, True)
    open_cards = [(cid, n) for cid, n in p.cards if cid in p.in_progress()]
    done = [(cid, n) for cid, n in p.cards if cid not in p.in_progress()]
    x = LEFT_X
    for cid, n in open_cards:
        img.paste(card_sprite(cid, n, True, locale), (x, top + 32))
        x += CARD_W + 4
    if not p.cards:
        draw_text(img, (LEFT_X, top + 60), t(locale, "harmonies.board.no_cards"), MIN_TEXT, MUTED)
    cy = top + 32 + (CARD_H + 8 if open_cards else 48)
    x = LEFT_X
    for cid, n in done:
        if x > LEFT_X and x + chip_width(cid, locale) > RIGHT_X - 16:
            x, cy = LEFT_X, cy + 40
        if cy + 34 > HEIGHT - 4:
            break
        x += _chip(img, x, cy, cid, n, locale) + 6
    spirit = p.spirit()
    if spirit:
        _spirit_rules(img, (spirit,), locale, cy + (52 if done else 12))


def _spirit_rules(img: Image.Image, ids: Sequence[int], locale: str | None, y: int) -> None:
    """One line per spirit card saying what it scores, under the focus player's cards."""
    for cid in ids:
        if y + 14 > HEIGHT - 4:
            return
        text = ellipsize(t(locale, f"harmonies.spirit.{cid}"), MIN_TEXT, False, RIGHT_X - 32)
        draw_text(img, (LEFT_X, y), text, MIN_TEXT, INK, False, "lm")
        y += 34


def _draw_others(
    img: Image.Image,
    state: HarmoniesState,
    focus: int,
    locale: str | None,
    names: Sequence[str] | None,
    top: int,
    bottom: int,
) -> None:
    """Other players' boards and cards in progress, kept above ``bottom`` (the score table);
    cards that do not fit are counted as ``+N``."""
    others = [s for s in range(state.seats) if s != focus]
    radius = {1: 26, 2: 22, 3: 18}[len(others)]
    if state.side == "B":
        radius = radius * 7 // 8
    col_w = (WIDTH - RIGHT_X) // 3
    for k, seat in enumerate(others):
        x = RIGHT_X + k * col_w
        marker = (x, top, x + 32, top + 32)
        badge(img, "pill", marker, PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
        name = ellipsize(player_name(locale, seat, names), MIN_TEXT, True, col_w - 48)
        draw_text(img, (x + 40, top + 16), name, MIN_TEXT, INK, True, "lm")
        _draw_board(img, state.side, state.players[seat], radius, (x, top + 40), False)
        _, bh = board_size(state.side, radius)
        cy = top + 48 + bh
        cx = x
        p = state.players[seat]
        held = [(cid, n) for cid, n in p.cards if cid in p.in_progress()]
        for index, (cid, n) in enumerate(held):
            if cx > x and cx + chip_width(cid, locale) > x + col_w - 6:
                cx, cy = x, cy + 38
            if cy + 34 > bottom:  # no room for another row: count the rest at the row's end
                more = f"+{len(held) - index}"
                draw_text(img, (x + col_w - 8, cy - 38 + 17), more, MIN_TEXT, INK, True, "rm")
                break
            cx += _chip(img, cx, cy, cid, n, locale) + 4


CATEGORY_STACKS: dict[str, tuple[str, ...]] = {
    "trees": ("brown", "green"),
    "mountains": ("grey", "grey"),
    "fields": ("yellow",),
    "buildings": ("grey", "red"),
    "water": ("blue",),
}


def _draw_scores(
    img: Image.Image,
    state: HarmoniesState,
    locale: str | None,
    names: Sequence[str] | None,
    top: int,
) -> None:
    cats = [c for c in scoring.CATEGORIES if c != "spirit" or state.options.spirits]
    parts = scoring.state_breakdown(state)
    name_w = 150
    col_w = min(66, (WIDTH - RIGHT_X - name_w - 80) // len(cats))
    title = ellipsize(t(locale, "harmonies.board.scores"), MIN_TEXT, True, name_w - 4)
    head = top + 20
    draw_text(img, (RIGHT_X, head), title, MIN_TEXT, INK, True, "lm")
    for k, cat in enumerate(cats):
        cx = RIGHT_X + name_w + k * col_w + col_w / 2
        if cat in CATEGORY_STACKS:
            _paste(img, stack_sprite(CATEGORY_STACKS[cat], 34), cx, head + 16)
        elif cat == "animals":
            sprite = cube_sprite(22)
            img.paste(sprite, (round(cx - 11), head - 8))
        else:
            draw_text(img, (cx, head), "✦", 28, INK, True, "mm")
    draw_text(img, (RIGHT_X + name_w + len(cats) * col_w + 40, head), "Σ", 28, INK, True, "mm")
    for seat in range(state.seats):
        y = head + 30 + seat * 38
        if seat == state.active and state.phase != Phase.OVER:
            img.paste(HIGHLIGHT, (RIGHT_X - 4, y, WIDTH - 8, y + 36))
        cy = y + 18
        badge(
            img,
            "pill",
            (RIGHT_X, cy - 15, RIGHT_X + 30, cy + 15),
            PLAYER_COLOURS[seat],
            INK,
            PLAYER_LETTERS[seat],
            MIN_TEXT,
        )
        name = ellipsize(player_name(locale, seat, names), MIN_TEXT, False, name_w - 44)
        draw_text(img, (RIGHT_X + 38, cy), name, MIN_TEXT, INK, False, "lm")
        for k, cat in enumerate(cats):
            cx = RIGHT_X + name_w + k * col_w + col_w / 2
            draw_text(img, (cx, cy), str(parts[seat][cat]), MIN_TEXT, INK, False, "mm")
        total = str(parts[seat]["total"])
        draw_text(
            img, (RIGHT_X + name_w + len(cats) * col_w + 40, cy), total, MIN_TEXT, INK, True, "mm"
        )


# -- public API ----------------------------------------------------------------------------------


def draw_rgb(
    state: HarmoniesState,
    locale: str | None = None,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    focus = state.active if focus_seat is None else focus_seat
    focus = min(max(focus, 0), state.seats - 1)
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    _draw_top_bar(img, state, locale, names)
    radius = 60 if state.side == "A" else 48
    label = t(locale, "harmonies.board.board_of", player=player_name(locale, focus, names))
    draw_text(
        img, (LEFT_X + 40, BOARD_Y + 14), ellipsize(label, MIN_TEXT, True, 480), MIN_TEXT, INK, True
    )
    badge(
        img,
        "pill",
        (LEFT_X, BOARD_Y, LEFT_X + 30, BOARD_Y + 30),
        PLAYER_COLOURS[focus],
        INK,
        PLAYER_LETTERS[focus],
        MIN_TEXT,
    )
    _draw_board(img, state.side, state.players[focus], radius, (LEFT_X, BOARD_Y + 36), True)
    _, bh = board_size(state.side, radius)
    _draw_focus_cards(img, state, focus, locale, BOARD_Y + 36 + bh + 8)
    _draw_central(img, state, locale)
    _draw_display(img, state, locale)
    others_top = BOARD_Y + 116 + 32 + CARD_H + 14
    score_top = HEIGHT - 62 - 38 * state.seats
    if state.seats > 1:
        _draw_others(img, state, focus, locale, names, others_top, score_top)
    else:
        text = t(locale, "harmonies.board.suns", suns=_engine.suns(state))
        draw_text(img, (RIGHT_X, others_top + 16), text, MIN_TEXT, INK, True, "lm")
    _draw_scores(img, state, locale, names, score_top)
    return img


def draw(
    state: HarmoniesState,
    locale: str | None = None,
    focus_seat: int | None = None,
    names: Sequence[str] | None = None,
) -> Image.Image:
    """The board of ``state`` as a 1280x960 palette image.

    ``focus_seat`` chooses whose board is drawn large (default: the player to move);
    ``names`` gives optional display names per seat.
    """
    return PALETTE.apply(draw_rgb(state, locale, focus_seat, names))


def describe(
    state: HarmoniesState, locale: str | None = None, names: Sequence[str] | None = None
) -> str:
    """Alt text: the status, the central board, the cards on offer, then every player."""
    sep = t(locale, "list.sep")

    def colours(items: Sequence[str]) -> str:
        return sep.join(t(locale, f"harmonies.colour.{c}") for c in items)

    parts = [t(locale, "harmonies.alt.title", side=state.side), status(state, locale, names) + "."]
    slots = [
        t(locale, "harmonies.alt.slot", number=i + 1, tokens=colours(slot) or "-")
        for i, slot in enumerate(state.central)
    ]
    parts.append(t(locale, "harmonies.alt.central", slots=sep.join(slots)))
    offer = [str(c) for c in state.display if c]
    parts.append(t(locale, "harmonies.alt.display", cards=sep.join(offer) or "-"))
    totals = _engine.scores(state)
    for seat, p in enumerate(state.players):
        stacks = [
            f"{hex_code(cell)} {colours(stack)}"
            for cell, stack in zip(BOARD_CELLS[state.side], p.stacks, strict=True)
            if stack
        ]
        parts.append(
            t(
                locale,
                "harmonies.alt.player",
                player=player_name(locale, seat, names),
                score=totals[seat],
                cards=sep.join(f"{cid} ({n})" for cid, n in p.cards) or "-",
                board="; ".join(stacks) or "-",
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"
