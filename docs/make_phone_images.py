"""Writes docs/phone/*.png: each game's end-of-turn pictures (and, where the table is split into
areas, the pictures of ``/game board``) scaled to 400 px wide, the width Discord's phone app shows
them at. Run from the project root: ``python docs/make_phone_images.py``.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render import board_views, render_png, renderer, turn_views
from tests.render.phone import PHONE_WIDTH, turn_ends

NAMES = ["Ann", "Bartholomew", "Chidi", "Dong-hyun"]
OUT = Path(__file__).resolve().parent / "phone"
#: (game, seats, seed, which end of turn)
SHOWN = (("cantstop", 3, 5, 40), ("kokeshi", 3, 5, 20), ("harmonies", 3, 5, 20))


def save(image: Image.Image, name: str) -> None:
    """``image`` scaled to phone width, as ``docs/phone/<name>``."""
    image = image.convert("RGB")
    height = round(image.height * PHONE_WIDTH / image.width)
    phone = image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
    phone.quantize(colors=128).save(OUT / name, optimize=True)
    print(OUT / name, image.size, "->", phone.size)


def picture(game: str, state: object, view: dict[str, object]) -> Image.Image:
    return Image.open(io.BytesIO(render_png(game, state, names=NAMES, **view)))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game, seats, seed, index in SHOWN:
        end = turn_ends(game, seats, seed)[index]
        sets = turn_views(game, end.state, end.since, end.mover)
        for n, view in enumerate(sets, start=1):
            name = f"{game}-{n}.png" if len(sets) > 1 else f"{game}.png"
            save(picture(game, end.state, view), name)
        if getattr(renderer(game), "board_views", None) is None:
            continue  # /game board posts the one board
        table = board_views(game, end.state, None, table=True)
        for n, view in enumerate(table, start=1):
            save(picture(game, end.state, view), f"{game}-board-{n}.png")


if __name__ == "__main__":
    main()
