"""Run inside the built image (``python -`` with this file on stdin): how the project draws a
name in Arabic there, printed as JSON for ``test_image_text``.

An Arabic name is fitted by the one name helper and drawn by the project's text drawing. With
Pillow's libraqm layout its letters join, so it matches, pixel for pixel, the same letters
written as their joined presentation forms (initial, medial, final), and not the isolated ones;
without it the letters are drawn in their isolated shapes and match neither.
"""

from __future__ import annotations

import json

from PIL import features

from render import canvas
from render.names import fit_name

SIZE = 40
#: "Muhammad": meem, hah, meem, dal
NAME = "\u0645\u062d\u0645\u062f"
#: the same letters as presentation forms: joined (initial, medial, medial, final) and isolated
JOINED_FORMS = "\ufee3\ufea4\ufee4\ufeaa"
ISOLATED_FORMS = "\ufee1\ufea1\ufee1\ufea9"


def pixels(text: str) -> bytes:
    mask = canvas.text_mask(text, SIZE, True)
    return repr(mask.size).encode() + mask.tobytes()


def probe() -> dict[str, bool]:
    shown = fit_name(NAME, SIZE, True, 20 * SIZE)
    return {
        "raqm": bool(features.check("raqm")),
        "shaping": canvas.SHAPING,
        "fitted_whole": shown == NAME,
        "drawn_joined": pixels(shown) == pixels(JOINED_FORMS),
        "drawn_isolated": pixels(shown) == pixels(ISOLATED_FORMS),
    }


if __name__ == "__main__":
    print(json.dumps(probe()))
