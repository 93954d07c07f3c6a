"""Shared drawing helpers: bundled fonts, the palette, cached masks, deterministic PNG encoding.

Boards are drawn in RGB with anti-aliased text and shapes pasted through cached ``L`` masks, then
mapped onto a fixed palette (:class:`FixedPalette`) so the PNG is a small palette image without a
per-image quantising step. Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache, wraps
from importlib import resources
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

BACKGROUND: RGB = (246, 241, 230)
INK: RGB = (40, 36, 32)
MUTED: RGB = (120, 112, 100)
GRID: RGB = (200, 190, 172)
WHITE: RGB = (255, 255, 255)

#: player colours with a letter each, so the board reads without colour vision: vermilion, blue,
#: yellow and plum, after Okabe and Ito's colour-blind-safe set, told apart by lightness as well as
#: hue so they stay distinct under protanopia, deuteranopia and tritanopia
#: (tests/render/test_colour_vision.py)
PLAYER_COLOURS: tuple[RGB, ...] = ((200, 70, 0), (35, 112, 215), (240, 210, 60), (80, 30, 90))
PLAYER_LETTERS = ("A", "B", "C", "D")

#: PNG zlib level: on an 800x600 board 3 takes ~1.2 ms (~18 KiB), 6 takes ~2.5 ms (~14 KiB)
COMPRESS_LEVEL = 3

_SUPERSAMPLE = 4


#: the faces every language is drawn with: BIZ UDPGothic (SIL Open Font Licence, see
#: BIZUDPGOTHIC-LICENSE.txt) has Japanese, Latin, Greek and Cyrillic, so the layout is the same in
#: every language; DejaVu Sans (Bitstream Vera licence, FONT-LICENSE.txt) draws the few symbols and
#: letters it lacks (⌂, ✦, Vietnamese tones, the narrow no-break space of French numbers)
FACES = (
    ("BIZUDPGothic-Regular.ttf", "BIZUDPGothic-Bold.ttf"),
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
)


@cache
def _face_bytes(name: str) -> bytes:
    return resources.files("render").joinpath("assets", name).read_bytes()


@cache
def coverage(name: str) -> frozenset[int]:
    """The code points a bundled font file has glyphs for (its cmap)."""
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(io.BytesIO(_face_bytes(name)), lazy=True).getBestCmap())


@cache
def _face(size: int, bold: bool, fallback: bool) -> ImageFont.FreeTypeFont:
    name = FACES[1 if fallback else 0][1 if bold else 0]
    return ImageFont.truetype(io.BytesIO(_face_bytes(name)), size)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The main face (BIZ UDPGothic) at ``size``; ``draw_text`` falls back per character."""
    return _face(size, bold, False)


def drawable(char: str) -> bool:
    """Whether one of the bundled faces has a glyph for ``char``."""
    return char.isspace() or any(ord(char) in coverage(regular) for regular, _ in FACES)


def _runs(text: str, bold: bool) -> list[tuple[str, bool]]:
    """``text`` cut into runs drawn by one face each: (run, drawn by the fallback face)."""
    main = coverage(FACES[0][0])
    spare = coverage(FACES[1][0])
    runs: list[tuple[str, bool]] = []
    for char in text:
        fallback = ord(char) not in main and ord(char) in spare
        if runs and runs[-1][1] == fallback:
            runs[-1] = (runs[-1][0] + char, fallback)
        else:
            runs.append((char, fallback))
    return runs


# -- legibility records ---------------------------------------------------------------------------

#: one thing drawn that carries game information: ("text" or "symbol", its height in pixels,
#: the text itself or "")
Mark = tuple[str, int, str]
_RECORDERS: list[list[Mark]] = []
F = TypeVar("F", bound=Callable[..., Any])


def note(kind: str, height: float, text: str = "") -> None:
    """Record that a text (its font size) or a symbol (its height) of ``height`` px was drawn."""
    for marks in _RECORDERS:
        marks.append((kind, round(height), text))


@contextmanager
def measuring() -> Iterator[list[Mark]]:
    """Collect the sizes of every text and symbol drawn inside the block (the phone-width test
    divides the smallest by the picture's width)."""
    marks: list[Mark] = []
    _RECORDERS.append(marks)
    try:
        yield marks
    finally:  # by identity: two recorders holding the same marks are equal lists
        del _RECORDERS[next(i for i, r in enumerate(_RECORDERS) if r is marks)]


def recorded_cache(func: F) -> F:
    """``functools.cache`` for a drawing step (a sprite, an empty board) that also replays the
    sizes it noted when it was first drawn, so a cached sprite counts like a fresh one."""
    store: dict[Any, tuple[Any, tuple[Mark, ...]]] = {}

    @wraps(func)
    def cached(*args: Any) -> Any:
        hit = store.get(args)
        if hit is None:
            with measuring() as marks:
                value = func(*args)
            store[args] = (value, tuple(marks))  # the outer recorders saw the marks already
            return value
        for kind, height, text in hit[1]:
            note(kind, height, text)
        return hit[0]

    cached.cache_clear = store.clear  # type: ignore[attr-defined]
    return cached  # type: ignore[return-value]


# -- colours -------------------------------------------------------------------------------------


def blend(a: RGB, b: RGB, f: float) -> RGB:
    """``a`` moved a fraction ``f`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * f),
        round(a[1] + (b[1] - a[1]) * f),
        round(a[2] + (b[2] - a[2]) * f),
    )


def _luminance(c: RGB) -> float:
    def chan(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * chan(c[0]) + 0.7152 * chan(c[1]) + 0.0722 * chan(c[2])


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(fill: RGB) -> RGB:
    """White or ink, whichever reads better on ``fill``."""
    return WHITE if contrast(WHITE, fill) >= contrast(INK, fill) else INK


class FixedPalette:
    """A fixed 256-entry palette: base colours plus blend ramps for anti-aliased edges.

    ``ramps`` lists colour pairs that meet at anti-aliased edges (text on a fill, a disc on a
    background); ``steps`` in-between shades of each pair are added so smooth edges survive the
    mapping to the palette.
    """

    def __init__(
        self, base: Iterable[RGB], ramps: Iterable[tuple[RGB, RGB]] = (), steps: int = 4
    ) -> None:
        colours: list[RGB] = []
        for c in base:
            if c not in colours:
                colours.append(c)
        for a, b in ramps:
            for k in range(1, steps + 1):
                c = blend(a, b, k / (steps + 1))
                if c not in colours:
                    colours.append(c)
        if len(colours) > 256:
            raise ValueError(f"palette needs {len(colours)} colours, 256 is the limit")
        self.colours: tuple[RGB, ...] = tuple(colours)
        flat = [v for c in colours for v in c]
        flat += list(colours[0]) * (256 - len(colours))
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(flat)

    def index(self, colour: RGB) -> int:
        return self.colours.index(colour)

    def apply(self, image: Image.Image) -> Image.Image:
        """Map an RGB image onto this palette (nearest colour, no dithering)."""
        return image.quantize(palette=self.image, dither=Image.Dither.NONE)


# -- cached masks --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _text_layout(text: str, size: int, bold: bool) -> tuple[Image.Image, int, int, int, int, int]:
    """Mask cropped to the ink, then ink left, ink top, advance width, cap top, cap bottom
    (coordinates from the main face's top-left origin; fallback runs sit on its baseline)."""
    main = font(size, bold)
    baseline = main.getmetrics()[0]
    placed = []
    x = 0.0
    for run, fallback in _runs(text, bold) or [("", False)]:
        face = _face(size, bold, fallback)
        left, top, right, bottom = face.getbbox(run, anchor="ls")
        placed.append((run, face, x, (x + left, baseline + top, x + right, baseline + bottom)))
        x += face.getlength(run)
    left = min(box[0] for *_, box in placed)
    top = min(box[1] for *_, box in placed)
    right = max(box[2] for *_, box in placed)
    bottom = max(box[3] for *_, box in placed)
    x0, y0 = int(left // 1), int(top // 1)
    mask = Image.new("L", (max(1, int(-(-right // 1)) - x0), max(1, int(-(-bottom // 1)) - y0)), 0)
    draw = ImageDraw.Draw(mask)
    for run, face, at, _ in placed:
        draw.text((at - x0, baseline - y0), run, font=face, fill=255, anchor="ls")
    _, cap_top, _, cap_bottom = main.getbbox("H")
    return mask, x0, y0, round(x), cap_top, cap_bottom


def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """The anti-aliased coverage of ``text`` as an ``L`` image cropped to its ink."""
    return _text_layout(text, size, bold)[0]


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of ``text`` in pixels."""
    return _text_layout(text, size, bold)[3]


def ellipsize(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width`` pixels."""
    if text_width(text, size, bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold) > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, bold: bool, max_width: int, max_lines: int = 2) -> list[str]:
    """``text`` in at most ``max_lines`` lines of at most ``max_width`` pixels: broken between
    words, or anywhere in a run without spaces (Japanese), the last line ellipsized if need be."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if text_width(trial, size, bold) <= max_width:
            line = trial
            continue
        if line:
            lines.append(line)
            line = ""
        for char in word:  # a word (or a sentence without spaces) wider than the line
            if line and text_width(line + char, size, bold) > max_width:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    return [ellipsize(x, size, bold, max_width) for x in lines]


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    anchor: str = "lm",
) -> tuple[int, int, int, int]:
    """Paste ``text`` in ``fill``; returns the inked box.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` (on the advance width)
    and vertical ``t``/``m``/``b`` (on the capital height, so words and numbers line up).
    """
    mask, left, ink_top, width, cap_top, cap_bottom = _text_layout(text, size, bold)
    if text.strip():
        note("text", size, text)
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    if anchor[1] == "m":
        y -= (cap_top + cap_bottom) / 2
    elif anchor[1] == "b":
        y -= cap_bottom
    else:
        y -= cap_top
    x0, y0 = round(x + left), round(y + ink_top)
    box = (x0, y0, x0 + mask.width, y0 + mask.height)
    image.paste(fill, box, mask)
    return box


@lru_cache(maxsize=512)
def shape_mask(kind: str, width: int, height: int, inset: int = 0) -> Image.Image:
    """Anti-aliased ``L`` mask of a shape filling a ``width`` x ``height`` box.

    ``kind``: ``pill`` (rounded to a capsule or circle), ``round`` (rounded corners),
    ``house`` (a pentagon pointing up). ``inset`` shrinks the shape by that many pixels per side.
    """
    s = _SUPERSAMPLE
    big = Image.new("L", (width * s, height * s), 0)
    d = ImageDraw.Draw(big)
    x0, y0 = inset * s, inset * s
    x1, y1 = (width - inset) * s - 1, (height - inset) * s - 1
    if kind == "pill":
        d.rounded_rectangle((x0, y0, x1, y1), radius=min(x1 - x0, y1 - y0) // 2, fill=255)
    elif kind == "round":
        d.rounded_rectangle((x0, y0, x1, y1), radius=min(x1 - x0, y1 - y0) // 4, fill=255)
    elif kind == "house":
        shoulder = y0 + (y1 - y0) * 2 // 5
        d.polygon(
            [((x0 + x1) // 2, y0), (x1, shoulder), (x1, y1), (x0, y1), (x0, shoulder)], fill=255
        )
    else:
        raise ValueError(kind)
    return big.reduce(s)


def paste_shape(
    image: Image.Image, kind: str, box: tuple[int, int, int, int], fill: RGB, inset: int = 0
) -> None:
    """Paste an anti-aliased shape of ``kind`` filling ``box`` (inclusive-exclusive)."""
    x0, y0, x1, y1 = box
    mask = shape_mask(kind, x1 - x0, y1 - y0, inset)
    image.paste(fill, box, mask)


def badge(
    image: Image.Image,
    kind: str,
    box: tuple[int, int, int, int],
    fill: RGB,
    outline: RGB,
    text: str,
    size: int,
    text_fill: RGB | None = None,
    border: int = 2,
) -> None:
    """A filled outlined shape with a centred bold label (markers, runners, sum badges)."""
    paste_shape(image, kind, box, outline)
    paste_shape(image, kind, box, fill, inset=border)
    note("symbol", box[3] - box[1])
    if text:
        cx = (box[0] + box[2]) / 2
        cy = (box[1] + box[3]) / 2
        if kind == "house":
            cy += (box[3] - box[1]) / 10
        draw_text(image, (cx, cy), text, size, text_fill or text_on(fill), bold=True, anchor="mm")


# -- encoding ------------------------------------------------------------------------------------


def encode_png(image: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes with no timestamps or metadata, so equal images give equal bytes.

    Palette (``P``) images are written as they are. Other modes are quantised to a 256-colour
    palette first (slower: renderers that care about speed draw onto a :class:`FixedPalette`).
    """
    if image.mode != "P":
        image = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()
