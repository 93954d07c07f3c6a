"""The panels of the Harmonies picture: top bar, central board, cards on offer, the focus
player's cards, the other players' boards and the score table."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from games.harmonies.engine import scoring
from games.harmonies.engine.state import HarmoniesState, Phase
from games.harmonies.render.boards import draw_board
from games.harmonies.render.cards import card_sprite, chip, chip_width
from games.harmonies.render.layout import (
    BOARD_Y,
    CARD_H,
    CARD_W,
    HEIGHT,
    LEFT_X,
    MIN_TEXT,
    RIGHT_X,
    TOP_BAR,
    WIDTH,
    board_size,
)
from games.harmonies.render.palette import CARD_FILL, HIGHLIGHT, NEW, TINTS
from games.harmonies.render.sprites import cube_sprite, disc_sprite
from games.harmonies.render.status import ENGINE, banner_seat, status
from games.harmonies.words import spirit_rule
from i18n import Translator
from render.canvas import (
    BACKGROUND,
    GRID,
    INK,
    MUTED,
    PLAYER_COLOURS,
    PLAYER_LETTERS,
    badge,
    draw_text,
    draw_winner_mark,
    ellipsize,
    text_width,
    wrap,
)
from render.names import fit_name, sentence_names


def draw_top_bar(
    img: Image.Image,
    state: HarmoniesState,
    tr: Translator,
    names: Sequence[str] | None,
    width: int = WIDTH,
) -> None:
    seat = banner_seat(state)
    img.paste(TINTS[seat], (0, 0, width, TOP_BAR))
    badge(img, "pill", (12, 10, 48, 46), PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
    right = width - 16
    if state.hand:  # tokens taken but not yet placed
        for colour in reversed(state.hand):
            sprite = disc_sprite(colour, 40)
            img.paste(sprite, (right - 40, 8), sprite)
            right -= 43
    # the result names every winner in full; a prompt names the player cut to fit a sentence
    over = state.phase == Phase.OVER
    said = status(state, tr, names if over else sentence_names(tr, state.seats, names, 28))
    label = tr("harmonies.board.hand") if state.hand else ""
    room = right - 8 - (text_width(label, MIN_TEXT, True) + 12 if label else 0) - 60
    # the status in full: a smaller size first, then without the "In hand" label (the tokens
    # beside it still say it), then on two lines; cut only when even that is not enough
    size = 28 if text_width(said, 28, True) <= room else MIN_TEXT
    if label and text_width(said, size, True) > room:
        label, room = "", right - 68
    if label:
        draw_text(img, (right - 8, TOP_BAR / 2), label, MIN_TEXT, INK, True, "rm")
    lines = [said] if text_width(said, size, True) <= room else wrap(said, size, True, room)
    for k, line in enumerate(lines):
        y = TOP_BAR / 2 + (k - (len(lines) - 1) / 2) * 25
        draw_text(img, (60, y), line, size, INK, True, "lm")


def draw_central(img: Image.Image, state: HarmoniesState, tr: Translator) -> None:
    y = BOARD_Y
    draw_text(img, (RIGHT_X, y + 14), tr("harmonies.board.central"), MIN_TEXT, INK, True)
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


def draw_display(img: Image.Image, state: HarmoniesState, tr: Translator) -> None:
    y = BOARD_Y + 116
    draw_text(img, (RIGHT_X, y + 14), tr("harmonies.board.display"), MIN_TEXT, INK, True)
    for i, cid in enumerate(state.display):
        x = RIGHT_X + i * (CARD_W + 4)
        if cid:
            img.paste(card_sprite(cid, 0, False, tr), (x, y + 32))
        else:
            badge(img, "round", (x, y + 32, x + CARD_W, y + 32 + CARD_H), BACKGROUND, GRID, "", 0)


def draw_focus_cards(
    img: Image.Image,
    state: HarmoniesState,
    seat: int,
    tr: Translator,
    top: int,
    marked: Collection[int] = (),
) -> int:
    """The cards ``seat`` holds (or the spirit cards offered); ``marked``: ids of the cards that
    took a cube this turn, framed. Returns the lowest row drawn (the player's picture ends
    under it)."""
    p = state.players[seat]
    if p.offer:
        draw_text(img, (LEFT_X, top + 14), tr("harmonies.board.offer"), MIN_TEXT, INK, True)
        for k, cid in enumerate(p.offer):
            img.paste(card_sprite(cid, 0, False, tr), (LEFT_X + k * (CARD_W + 6), top + 32))
        below = top + 32 + CARD_H
        return max(below, _spirit_rules(img, p.offer, tr, below + 24))
    draw_text(img, (LEFT_X, top + 14), tr("harmonies.board.cards"), MIN_TEXT, INK, True)
    open_cards = [(cid, n) for cid, n in p.cards if cid in p.in_progress()]
    done = [(cid, n) for cid, n in p.cards if cid not in p.in_progress()]
    x = LEFT_X
    d = ImageDraw.Draw(img)
    for cid, n in open_cards:
        img.paste(card_sprite(cid, n, True, tr), (x, top + 32))
        if cid in marked:
            box = (x - 2, top + 30, x + CARD_W + 2, top + 34 + CARD_H)
            d.rounded_rectangle(box, 16, outline=NEW, width=5)
        x += CARD_W + 4
    bottom = top + 34 + CARD_H if open_cards else top + 28
    if not p.cards:
        draw_text(img, (LEFT_X, top + 60), tr("harmonies.board.no_cards"), MIN_TEXT, MUTED)
        bottom = top + 76
    cy = top + 32 + (CARD_H + 8 if open_cards else 48)
    x = LEFT_X
    for cid, n in done:
        if x > LEFT_X and x + chip_width(cid, tr) > RIGHT_X - 16:
            x, cy = LEFT_X, cy + 40
        if cy + 34 > HEIGHT - 4:
            break
        w = chip(img, x, cy, cid, n, tr)
        if cid in marked:  # completed this turn
            d.rounded_rectangle((x - 3, cy - 3, x + w + 3, cy + 37), 10, outline=NEW, width=4)
        x += w + 6
        bottom = cy + 37
    spirit = p.spirit()
    if spirit:
        bottom = max(bottom, _spirit_rules(img, (spirit,), tr, cy + (52 if done else 12)))
    return bottom


def _spirit_rules(img: Image.Image, ids: Sequence[int], tr: Translator, y: int) -> int:
    """One line per spirit card saying what it scores, under the focus player's cards; returns
    the lower edge of the last line (0: none drawn)."""
    bottom = 0
    for cid in ids:
        if y + 14 > HEIGHT - 4:
            break
        text = ellipsize(spirit_rule(tr, cid), MIN_TEXT, False, RIGHT_X - 32)
        draw_text(img, (LEFT_X, y), text, MIN_TEXT, INK, False, "lm")
        bottom = y + 16
        y += 34
    return bottom


#: an other player's board in the "others" picture: big enough that the shape cue on each
#: token (0.32 x 1.2 x the radius) is 10 px at phone width on a picture as wide as the player's
OTHER_RADIUS = {"A": 38, "B": 37}
#: in the overview (``draw`` with no area, e.g. a replay's frames: scaled down anyway), the
#: other boards stand side by side, smaller
OVERVIEW_RADIUS = {"A": 30, "B": 24}
#: the held cards go right of a board this narrow or narrower, below a wider one
_CARDS_BESIDE = 320


def others_height(state: HarmoniesState, radius: int, rows: int) -> int:
    """How tall the other boards are drawn in ``rows`` rows at ``radius``."""
    bw, bh = board_size(state.side, radius)
    row = 48 + bh + (16 if bw <= _CARDS_BESIDE else 100)
    return 12 + row * rows


def draw_others(
    img: Image.Image,
    state: HarmoniesState,
    focus: int,
    tr: Translator,
    names: Sequence[str] | None,
    cell_w: int,
    *,
    radius: int,
    columns: int = 1,
) -> None:
    """Every other player's board, ``columns`` to a row in cells ``cell_w`` wide, each named,
    with their cards in progress beside it (or under it when the board is wide); cards that do
    not fit are counted as ``+N``."""
    bw, bh = board_size(state.side, radius)
    beside = bw <= _CARDS_BESIDE
    others = [seat for seat in range(state.seats) if seat != focus]
    rows = -(-len(others) // columns)
    row_h = (others_height(state, radius, rows) - 12) // max(1, rows)
    for k, seat in enumerate(others):
        x = LEFT_X + (k % columns) * cell_w
        top = 12 + (k // columns) * row_h
        right = x - LEFT_X + cell_w - 8
        marker = (x, top, x + 32, top + 32)
        badge(img, "pill", marker, PLAYER_COLOURS[seat], INK, PLAYER_LETTERS[seat], MIN_TEXT)
        player = sentence_names(tr, state.seats, names, MIN_TEXT)[seat]
        name = tr("harmonies.board.board_of", player=player)
        name = ellipsize(name, MIN_TEXT, True, right - x - 48)
        draw_text(img, (x + 40, top + 16), name, MIN_TEXT, INK, True, "lm")
        draw_board(img, state.side, state.players[seat], radius, (x, top + 40), False)
        if beside:
            box = (x + bw + 24, top + 48, right, top + 40 + bh)
        else:
            box = (x, top + 48 + bh, right, top + row_h - 8)
        _held_chips(img, state, seat, tr, box)


def _held_chips(
    img: Image.Image,
    state: HarmoniesState,
    seat: int,
    tr: Translator,
    box: tuple[int, int, int, int],
) -> None:
    """The cards ``seat`` has in progress as chips, in rows inside ``box``."""
    left, cy, right, bottom = box
    p = state.players[seat]
    held = [(cid, n) for cid, n in p.cards if cid in p.in_progress()]
    cx = left
    for index, (cid, n) in enumerate(held):
        if cx > left and cx + chip_width(cid, tr) > right:
            cx, cy = left, cy + 40
        if cy + 34 > bottom:  # no room for another row: count the rest at the row's end
            more = f"+{len(held) - index}"
            draw_text(img, (right, cy - 40 + 17), more, MIN_TEXT, INK, True, "rm")
            return
        cx += chip(img, cx, cy, cid, n, tr) + 6


#: the token whose colour heads each score column
CATEGORY_COLOUR: dict[str, str] = {
    "trees": "green",
    "mountains": "grey",
    "fields": "yellow",
    "buildings": "red",
    "water": "blue",
}


def draw_scores(
    img: Image.Image,
    state: HarmoniesState,
    tr: Translator,
    names: Sequence[str] | None,
    top: int,
) -> None:
    """The score table: a row per player, a column per category, the total; at the end every
    winner's row is lit and starred."""
    cats = scoring.categories(state)
    parts = scoring.state_breakdown(state)
    over = state.phase == Phase.OVER
    winners = set(ENGINE.winners(state)) if over and state.seats > 1 else set()
    col_w, sum_w, star_w = 54, 56, 30
    # the names take what the figures leave
    name_w = WIDTH - 8 - RIGHT_X - len(cats) * col_w - sum_w - star_w
    sum_x = RIGHT_X + name_w + len(cats) * col_w + sum_w / 2
    title = ellipsize(tr("harmonies.board.scores"), MIN_TEXT, True, name_w - 4)
    head = top + 20
    draw_text(img, (RIGHT_X, head), title, MIN_TEXT, INK, True, "lm")
    for k, cat in enumerate(cats):
        cx = RIGHT_X + name_w + k * col_w + col_w / 2
        if cat in CATEGORY_COLOUR:
            sprite = disc_sprite(CATEGORY_COLOUR[cat], 34)
            img.paste(sprite, (round(cx - 17), round(head - 17)), sprite)
        elif cat == "animals":
            sprite = cube_sprite(22)
            img.paste(sprite, (round(cx - 11), head - 8))
        else:
            draw_text(img, (cx, head), "✦", 28, INK, True, "mm")
    draw_text(img, (sum_x, head), "Σ", 28, INK, True, "mm")
    for seat in range(state.seats):
        y = head + 30 + seat * 38
        if seat in winners or (seat == state.active and not over):
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
        won = seat in winners
        name = fit_name(tr.player(seat, names), MIN_TEXT, won, name_w - 44)
        draw_text(img, (RIGHT_X + 38, cy), name, MIN_TEXT, INK, won, "lm")
        for k, cat in enumerate(cats):
            cx = RIGHT_X + name_w + k * col_w + col_w / 2
            draw_text(img, (cx, cy), str(parts[seat][cat]), MIN_TEXT, INK, False, "mm")
        total = str(parts[seat]["total"])
        draw_text(img, (sum_x, cy), total, MIN_TEXT, INK, True, "mm")
        if won:
            draw_winner_mark(img, (WIDTH - 8 - star_w / 2, cy), MIN_TEXT + 2, seat)
