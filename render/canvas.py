"""Shared drawing helpers: bundled fonts, the palette, deterministic PNG encoding."""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import Image, ImageFont

BACKGROUND = (246, 241, 230)
INK = (40, 36, 32)
MUTED = (120, 112, 100)
GRID = (200, 190, 172)

#: player colours with a letter each, so the board reads without colour vision
PLAYER_COLOURS = ((200, 60, 50), (40, 110, 200), (40, 150, 80), (220, 150, 20))
PLAYER_LETTERS = ("A", "B", "C", "D")


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, bundled in render/assets (Bitstream Vera licence, see FONT-LICENSE.txt)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render").joinpath("assets", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def encode_png(image: Image.Image) -> bytes:
    """PNG bytes with no timestamps or metadata, so equal images give equal bytes.

    Quantising to a 256-colour palette keeps files small and encoding fast.
    """
    if image.mode != "P":
        image = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
