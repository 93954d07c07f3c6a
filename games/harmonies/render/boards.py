"""A player's board: the hex outlines with their codes, and the token stacks on them."""

from __future__ import annotations

from collections.abc import Collection

from PIL import Image, ImageDraw

from games.harmonies.engine.cards import BOARD_CELLS, hex_code
from games.harmonies.engine.state import Player
from games.harmonies.render.layout import MIN_TEXT, board_size, hex_centre, hex_points
from games.harmonies.render.palette import HEX_EDGE, HEX_FILL, NEW
from games.harmonies.render.sprites import SS, paste_at, stack_sprite
from render.canvas import MUTED, draw_text, recorded_cache


@recorded_cache
def empty_board(side: str, radius: int, labels: bool) -> Image.Image:
    """Hex outlines (and their codes) of a side, on the background colour, as RGBA."""
    w, h = board_size(side, radius)
    img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for cell in BOARD_CELLS[side]:
        cx, cy = hex_centre(cell, radius * SS, (0, 0))
        d.polygon(hex_points(cx, cy, radius * SS - SS), fill=HEX_EDGE)
        d.polygon(hex_points(cx, cy, radius * SS - SS * 3.5), fill=HEX_FILL)
    out = img.reduce(SS)
    if labels:
        for cell in BOARD_CELLS[side]:
            cx, cy = hex_centre(cell, radius, (0, 0))
            draw_text(out, (cx, cy - radius * 0.58), hex_code(cell), MIN_TEXT, MUTED, True, "mm")
    return out


def draw_board(
    img: Image.Image,
    side: str,
    player: Player,
    radius: int,
    origin: tuple[int, int],
    labels: bool,
    ringed: Collection[int] = (),
) -> None:
    """A player's stacks and cubes on their board at ``origin``; ``labels``: the large focus
    board, with the hex codes; ``ringed``: hexes (by index) outlined as changed this turn."""
    img.paste(empty_board(side, radius, labels), origin, empty_board(side, radius, labels))
    d = ImageDraw.Draw(img)
    for i in sorted(ringed):
        cx, cy = hex_centre(BOARD_CELLS[side][i], radius, origin)
        points = hex_points(cx, cy, radius - 3)
        d.line([*points, points[0]], fill=NEW, width=6, joint="curve")
    width = round(radius * (1.0 if labels else 1.2))
    for i, cell in enumerate(BOARD_CELLS[side]):
        stack = player.stacks[i]
        if not stack:
            continue
        cx, cy = hex_centre(cell, radius, origin)
        sprite = stack_sprite(stack, width, bool(player.cubes[i]))
        paste_at(img, sprite, cx, cy + radius * (0.8 if labels else 0.7))
