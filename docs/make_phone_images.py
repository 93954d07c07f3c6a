"""Writes docs/phone/*.png: each game's end-of-turn pictures scaled to 400 px wide, the width
Discord's phone app shows them at. Run from the project root: ``python docs/make_phone_images.py``.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from render import render_png, renderer
from tests.render.phone import PHONE_WIDTH, turn_ends

NAMES = ["Ann", "Bartholomew", "Chidi", "Dong-hyun"]
OUT = Path(__file__).resolve().parent / "phone"
#: (game, seats, seed, which end of turn)
SHOWN = (("cantstop", 3, 5, 40), ("kokeshi", 3, 5, 20), ("harmonies", 3, 5, 20))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for game, seats, seed, index in SHOWN:
        end = turn_ends(game, seats, seed)[index]
        views = getattr(renderer(game), "views", None)
        sets = views(end.state, end.since, end.mover) if views else [{"since": end.since}]
        for n, view in enumerate(sets, start=1):
            view = {"focus_seat": end.mover, **view}
            image = Image.open(io.BytesIO(render_png(game, end.state, names=NAMES, **view)))
            image = image.convert("RGB")
            height = round(image.height * PHONE_WIDTH / image.width)
            phone = image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
            name = f"{game}-{n}.png" if len(sets) > 1 else f"{game}.png"
            phone.quantize(colors=128).save(OUT / name, optimize=True)
            print(OUT / name, image.size, "->", phone.size)


if __name__ == "__main__":
    main()
