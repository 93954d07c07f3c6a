"""Shared drawing helpers: bundled fonts, the palette, cached masks, deterministic PNG encoding.

Boards are drawn in RGB with anti-aliased text and shapes pasted through cached ``L`` masks, then
mapped onto a fixed palette (:class:`FixedPalette`) so the PNG is a small palette image without a
per-image quantising step. Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache, wraps
from importlib import resources
from typing import Any, TypeVar

from fontTools.unicodedata import script as unicode_script
from PIL import Image, ImageDraw, ImageFont, features

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
#: what changed in the last turn (the ring round a moved piece, a hex that took tokens, a tile
#: placed): jade, a hue at least 45 degrees from every player colour (the orange it replaces
#: was 10 degrees from vermilion A) and a 3:1 contrast with the background
#: (tests/render/test_colour_vision.py)
CHANGED: RGB = (0, 150, 90)

#: PNG zlib level: on an 800x600 board 3 takes ~1.2 ms (~18 KiB), 6 takes ~2.5 ms (~14 KiB)
COMPRESS_LEVEL = 3

_SUPERSAMPLE = 4


@dataclass(frozen=True)
class Face:
    """A bundled typeface: its name (what a text's runs report) and its two files."""

    name: str
    regular: str
    bold: str
    #: a colour bitmap font (CBDT), drawn at its one strike size and scaled to the text's
    colour: bool = False


#: every face text is drawn with, in the order a character without a preferred face tries them:
#: BIZ UDPGothic (SIL Open Font Licence, BIZUDPGOTHIC-LICENSE.txt) draws Latin and Japanese, so
#: the layout is the same in every language; DejaVu Sans (Bitstream Vera licence,
#: FONT-LICENSE.txt) the symbols it lacks (⌂, ✦, Vietnamese tones, the narrow no-break space of
#: French numbers) and Cyrillic and Greek, which BIZ UDPGothic draws full-width; Noto Sans CJK SC
#: cut to the Hangul blocks and the Chinese characters (GB 2312, Big5) BIZ UDPGothic lacks, Noto
#: Sans Arabic and Hebrew, and Noto Color Emoji (SIL Open Font Licence, NOTO*-LICENSE.txt): names
#: come from Discord, in any script and with emoji
FACES = (
    Face("biz", "BIZUDPGothic-Regular.ttf", "BIZUDPGothic-Bold.ttf"),
    Face("dejavu", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    Face("noto-cjk", "NotoSansCJKsc-HangulHan-Regular.otf", "NotoSansCJKsc-HangulHan-Bold.otf"),
    Face("noto-arabic", "NotoSansArabic-Regular.ttf", "NotoSansArabic-Bold.ttf"),
    Face("noto-hebrew", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    Face("noto-emoji", "NotoColorEmoji.ttf", "NotoColorEmoji.ttf", colour=True),
)
_BY_NAME = {face.name: face for face in FACES}
MAIN = FACES[0]
EMOJI = _BY_NAME["noto-emoji"]
#: scripts (ISO 15924) drawn by a face of their own even where an earlier face has the letters
SCRIPT_FACES = {
    "Cyrl": "dejavu",
    "Grek": "dejavu",
    "Hang": "noto-cjk",
    "Arab": "noto-arabic",
    "Hebr": "noto-hebrew",
}
#: the one size Noto Color Emoji's bitmaps are drawn at, and how large an emoji is drawn
#: against the text's size (its bitmaps are a little taller than the em)
EMOJI_STRIKE = 109
EMOJI_SCALE = 0.9
#: whether Pillow lays text out with libraqm (shaping joined scripts, right-to-left order);
#: without it a right-to-left run is drawn in reversed order, its letters unjoined
SHAPING = features.check("raqm")

#: code points below U+10000 that Unicode shows as emoji by default (emoji-data.txt,
#: Emoji_Presentation); others in the BMP are drawn as text unless U+FE0F follows them
_EMOJI_BMP = frozenset(
    c
    for span in (
        "231A-231B",
        "23E9-23EC",
        "23F0",
        "23F3",
        "25FD-25FE",
        "2614-2615",
        "2648-2653",
        "267F",
        "2693",
        "26A1",
        "26AA-26AB",
        "26BD-26BE",
        "26C4-26C5",
        "26CE",
        "26D4",
        "26EA",
        "26F2-26F3",
        "26F5",
        "26FA",
        "26FD",
        "2705",
        "270A-270B",
        "2728",
        "274C",
        "274E",
        "2753-2755",
        "2757",
        "2795-2797",
        "27B0",
        "27BF",
        "2B1B-2B1C",
        "2B50",
        "2B55",
    )
    for c in range(int(span[:4], 16), int(span[-4:], 16) + 1)
)
_ZWJ, _TEXT_STYLE, _EMOJI_STYLE = "\u200d", "\ufe0e", "\ufe0f"


@cache
def _face_bytes(name: str) -> bytes:
    return resources.files("render").joinpath("assets", name).read_bytes()


@cache
def coverage(name: str) -> frozenset[int]:
    """The code points a bundled font file has glyphs for (its cmap)."""
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(io.BytesIO(_face_bytes(name)), lazy=True).getBestCmap())


def covers(face: Face, char: str) -> bool:
    """Whether ``face`` has a glyph for ``char`` (in both weights)."""
    return ord(char) in coverage(face.regular) and ord(char) in coverage(face.bold)


@cache
def _face(size: int, bold: bool, name: str) -> ImageFont.FreeTypeFont:
    face = _BY_NAME[name]
    if face.colour:
        size = EMOJI_STRIKE
    engine = ImageFont.Layout.RAQM if SHAPING else ImageFont.Layout.BASIC
    data = io.BytesIO(_face_bytes(face.bold if bold else face.regular))
    return ImageFont.truetype(data, size, layout_engine=engine)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The main face (BIZ UDPGothic) at ``size``; ``draw_text`` falls back per character."""
    return _face(size, bold, MAIN.name)


def _joins(char: str) -> bool:
    """A character that belongs with the one before it: a combining mark, a variation selector,
    a zero-width joiner, a skin tone, a keycap or a tag (parts of one emoji)."""
    cp = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Me")
        or char == _ZWJ
        or 0xFE00 <= cp <= 0xFE0F
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def _wants_emoji(text: str, i: int) -> bool:
    """Whether ``text[i]`` is shown as a colour emoji: a pictograph above the BMP, a BMP one
    that defaults to emoji, or any emoji character asked for as one with U+FE0F."""
    char = text[i]
    after = text[i + 1] if i + 1 < len(text) else ""
    if after == _TEXT_STYLE or ord(char) not in coverage(EMOJI.regular):
        return False
    previous = text[i - 1] if i else ""
    return ord(char) >= 0x1F000 or ord(char) in _EMOJI_BMP or _EMOJI_STYLE in (after, previous)


def face_for(text: str, i: int) -> Face:
    """The face that draws ``text[i]``: colour emoji where it is one, the face its script
    prefers, else the first face that has it (the main face draws what none has)."""
    char = text[i]
    if _wants_emoji(text, i):
        return EMOJI
    preferred = SCRIPT_FACES.get(unicode_script(char))
    if preferred is not None and covers(_BY_NAME[preferred], char):
        return _BY_NAME[preferred]
    return next((f for f in FACES if not f.colour and covers(f, char)), MAIN)


def drawable(char: str) -> bool:
    """Whether one of the bundled faces has a glyph for ``char``."""
    return char.isspace() or _joins(char) or any(covers(face, char) for face in FACES)


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[str, str], ...]:
    """``text`` cut into runs drawn by one face each: (run, the face's name). Marks, joiners and
    the like stay with the character before them, and spaces with the run they follow (a name
    in one script stays one run, so it is shaped and ordered whole), but not after an emoji."""
    found: list[tuple[str, str]] = []
    for i, char in enumerate(text):
        previous = found[-1][1] if found else None
        space = char.isspace() and previous not in (None, EMOJI.name)
        if previous is not None and (_joins(char) or (space and covers(_BY_NAME[previous], char))):
            found[-1] = (found[-1][0] + char, previous)
            continue
        name = face_for(text, i).name
        if found and previous == name:
            found[-1] = (found[-1][0] + char, name)
        else:
            found.append((char, name))
    return tuple(found)


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


def _right_to_left(run: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in run)


@dataclass(frozen=True)
class _Layout:
    """A text ready to paste: its ink as a mask (and its colour emoji, if any, as an RGBA
    picture of the same box), where the ink starts from the origin, the advance width, and the
    main face's capital height (coordinates from its top-left origin; every run sits on its
    baseline)."""

    mask: Image.Image
    colour: Image.Image | None
    left: int
    top: int
    width: int
    cap_top: int
    cap_bottom: int
    runs: tuple[tuple[str, str], ...]


def _emoji_run(run: str, size: int) -> tuple[Image.Image, float, float, float]:
    """A run of colour emoji scaled to ``size``: the picture, its left and top from the pen on
    the baseline, and its advance."""
    face = _face(size, False, EMOJI.name)
    scale = size * EMOJI_SCALE / EMOJI_STRIKE
    left, top, right, bottom = face.getbbox(run, anchor="ls")
    strike = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(strike).text((-left, -top), run, font=face, anchor="ls", embedded_color=True)
    width = max(1, round(strike.width * scale))
    height = max(1, round(strike.height * scale))
    picture = strike.resize((width, height), Image.Resampling.LANCZOS)
    return picture, left * scale, top * scale, face.getlength(run) * scale


@lru_cache(maxsize=4096)
def _text_layout(text: str, size: int, bold: bool) -> _Layout:
    main = font(size, bold)
    baseline = main.getmetrics()[0]
    inked: list[tuple[str, ImageFont.FreeTypeFont, float, tuple[float, float, float, float]]] = []
    pictures: list[tuple[Image.Image, float, float]] = []
    x = 0.0
    text_runs = runs(text)
    for run, name in text_runs or (("", MAIN.name),):
        if _BY_NAME[name].colour:
            picture, left, top, advance = _emoji_run(run, size)
            pictures.append((picture, x + left, baseline + top))
            x += advance
            continue
        face = _face(size, bold, name)
        shown = run if SHAPING or not _right_to_left(run) else run[::-1]
        left, top, right, bottom = face.getbbox(shown, anchor="ls")
        inked.append((shown, face, x, (x + left, baseline + top, x + right, baseline + bottom)))
        x += face.getlength(shown)
    boxes = [box for *_, box in inked]
    boxes += [(px, py, px + p.width, py + p.height) for p, px, py in pictures]
    x0 = int(min(b[0] for b in boxes) // 1)
    y0 = int(min(b[1] for b in boxes) // 1)
    x1 = int(-(-max(b[2] for b in boxes) // 1))
    y1 = int(-(-max(b[3] for b in boxes) // 1))
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    draw = ImageDraw.Draw(mask)
    for shown, face, at, _ in inked:
        draw.text((at - x0, baseline - y0), shown, font=face, fill=255, anchor="ls")
    colour = None
    if pictures:
        colour = Image.new("RGBA", mask.size, (0, 0, 0, 0))
        for picture, px, py in pictures:
            colour.alpha_composite(picture, (round(px - x0), round(py - y0)))
    _, cap_top, _, cap_bottom = main.getbbox("H")
    return _Layout(mask, colour, x0, y0, round(x), cap_top, cap_bottom, text_runs)


def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """The anti-aliased coverage of ``text`` as an ``L`` image cropped to its ink (colour emoji
    are not part of it)."""
    return _text_layout(text, size, bold).mask


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of ``text`` in pixels."""
    return _text_layout(text, size, bold).width


# -- what was written ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """A text drawn on a picture, cut into runs each with the name of the face that drew it."""

    text: str
    runs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Cut:
    """A text shortened to fit: what was asked for and what is shown instead."""

    asked: str
    shown: str


@dataclass(frozen=True)
class Winner:
    """A seat's row marked as a winner's."""

    seat: int


Written = Drawn | Cut | Winner
_WRITERS: list[list[Written]] = []


def _report(item: Written) -> None:
    for written in _WRITERS:
        written.append(item)


@contextmanager
def writing() -> Iterator[list[Written]]:
    """Collect every text drawn inside the block (with the face of each run) and every text
    shortened to fit (``ellipsize``, ``wrap``): tests read what a picture shows from here."""
    written: list[Written] = []
    _WRITERS.append(written)
    try:
        yield written
    finally:
        del _WRITERS[next(i for i, w in enumerate(_WRITERS) if w is written)]


# -- fitting text ----------------------------------------------------------------------------------


def graphemes(text: str) -> list[str]:
    """``text`` cut where a reader sees a new character: a letter with its marks, an emoji with
    its joiners, skin tone and variation selector, a flag's two letters stay whole."""
    found: list[str] = []
    for char in text:
        last = found[-1] if found else ""
        flag = 0x1F1E6 <= ord(char) <= 0x1F1FF and _open_flag(last)
        if last and (_joins(char) or last.endswith(_ZWJ) or flag):
            found[-1] = last + char
        else:
            found.append(char)
    return found


def _open_flag(cluster: str) -> bool:
    """Whether ``cluster`` is one regional indicator waiting for the second of its flag."""
    return len(cluster) == 1 and 0x1F1E6 <= ord(cluster) <= 0x1F1FF


def ellipsize(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``max_width`` pixels, never inside a character
    a reader sees as one (an emoji sequence, a letter and its accent); reported as a ``Cut``."""
    if text_width(text, size, bold) <= max_width:
        return text
    parts = graphemes(text)
    low, high = 0, len(parts)  # the longest prefix that fits is at least low, below high
    while high - low > 1:
        middle = (low + high) // 2
        if text_width("".join(parts[:middle]).rstrip() + "…", size, bold) <= max_width:
            low = middle
        else:
            high = middle
    shown = "".join(parts[:low]).rstrip() + "…"
    _report(Cut(text, shown))
    return shown


def wrap(text: str, size: int, bold: bool, max_width: int, max_lines: int = 2) -> list[str]:
    """``text`` in at most ``max_lines`` lines of at most ``max_width`` pixels: broken between
    words, or anywhere in a run without spaces (Japanese), the last line ellipsized if need be
    (reported as a ``Cut`` of the whole text)."""
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
        for char in graphemes(word):  # a word (or a sentence without spaces) wider than the line
            if line and text_width(line + char, size, bold) > max_width:
                lines.append(line)
                line = ""
            line += char
    lines.append(line)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    fitted = [ellipsize(x, size, bold, max_width) for x in lines]
    if fitted != lines:
        _report(Cut(text, " ".join(fitted)))
    return fitted


def fit_lines(
    text: str, sizes: Sequence[int], bold: bool, max_width: int, max_lines: int = 2
) -> tuple[int, list[str]]:
    """``text`` at the first of ``sizes`` (largest first) it fits on one line at; else at the
    last, wrapped into ``max_lines`` lines; cut only when even that is not enough."""
    for size in sizes:
        if text_width(text, size, bold) <= max_width:
            return size, [text]
    return sizes[-1], wrap(text, sizes[-1], bold, max_width, max_lines)


def draw_lines(
    image: Image.Image,
    xy: tuple[float, float],
    lines: Sequence[str],
    size: int,
    fill: RGB,
    bold: bool = False,
    anchor: str = "lm",
) -> None:
    """``lines`` one under the other, the block centred on ``xy``'s height (``anchor``'s
    horizontal letter places each line)."""
    pitch = round(size * 1.2)
    for k, line in enumerate(lines):
        y = xy[1] + (k - (len(lines) - 1) / 2) * pitch
        draw_text(image, (xy[0], y), line, size, fill, bold, anchor[0] + "m")


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    bold: bool = False,
    anchor: str = "lm",
) -> tuple[int, int, int, int]:
    """Paste ``text`` in ``fill`` (colour emoji in their own colours); returns the inked box.

    ``anchor`` is two letters like Pillow's: horizontal ``l``/``m``/``r`` (on the advance width)
    and vertical ``t``/``m``/``b`` (on the capital height, so words and numbers line up).
    """
    layout = _text_layout(text, size, bold)
    if text.strip():
        note("text", size, text)
        _report(Drawn(text, layout.runs))
    x, y = xy
    if anchor[0] == "m":
        x -= layout.width / 2
    elif anchor[0] == "r":
        x -= layout.width
    if anchor[1] == "m":
        y -= (layout.cap_top + layout.cap_bottom) / 2
    elif anchor[1] == "b":
        y -= layout.cap_bottom
    else:
        y -= layout.cap_top
    x0, y0 = round(x + layout.left), round(y + layout.top)
    box = (x0, y0, x0 + layout.mask.width, y0 + layout.mask.height)
    image.paste(fill, box, layout.mask)
    if layout.colour is not None:
        image.paste(layout.colour.convert(image.mode), box, layout.colour)
    return box


WINNER_MARK = "★"


def draw_winner_mark(
    image: Image.Image, xy: tuple[float, float], size: int, seat: int, anchor: str = "mm"
) -> tuple[int, int, int, int]:
    """The star beside a winner's row, reported as a ``Winner`` (every game marks every winner
    this way)."""
    _report(Winner(seat))
    return draw_text(image, xy, WINNER_MARK, size, INK, True, anchor)


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
