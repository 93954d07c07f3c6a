"""A whole game as one animated image: one frame per ended turn, the last frame held longer.

Pure: states in, bytes out (``animate``). ``turn_states`` picks the states to show from a move
log (the position at the start of the first turn, then the position after each turn ends, as
``engine.turn`` counts them, chance steps resolved). A long game is sampled down to a frame
budget, always keeping the first and the last frame. Frames are the boards drawn as usual,
scaled down, and mapped back onto the board's own fixed palette, so a GIF needs one global
palette and stores only what changed from one frame to the next.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engines.base import CHANCE, Engine
from i18n import Translator
from render import _call as call_with_view
from render import renderer

#: frames at most in one animation (a longer game is sampled down to this)
FRAME_BUDGET = 120
#: how long each turn is shown, and the final position (milliseconds)
FRAME_MS = 800
LAST_MS = 4000
#: Discord's attachment limit for a bot without boosts
MAX_BYTES = 8 * 1024 * 1024
#: frame width first tried, and the smaller ones tried when the file is too large
WIDTHS = (560, 440, 320, 240)
FORMATS = ("gif", "webp")
#: how many times smaller a WebP must be than the GIF to be sent instead ("much smaller")
WEBP_GAIN = 2


@dataclass(frozen=True, slots=True)
class Animation:
    data: bytes
    format: str  # "gif" or "webp"
    frames: int
    durations: tuple[int, ...]
    size: tuple[int, int]

    @property
    def filename(self) -> str:
        return f"replay.{self.format}"


def turn_states(
    engine: Engine[Any, Any], seats: int, options: Any, actions: Iterable[str]
) -> list[Any]:
    """The position before the first turn and after every ended turn (and the last one)."""
    state = engine.initial_state(seats, options)
    shown: list[Any] = []
    shown_turn = -1
    for text in actions:
        state = engine.apply(state, engine.decode_action(text))
        if engine.to_move(state) == CHANCE:
            continue  # a chance step still to come belongs to the same moment
        turn = engine.turn(state)
        if turn > shown_turn:
            shown.append(state)
            shown_turn = turn
    if not shown or shown[-1] is not state:
        shown.append(state)  # the end (or where an abandoned game stopped)
    return shown


def sample(count: int, budget: int = FRAME_BUDGET) -> list[int]:
    """Indices of at most ``budget`` of ``count`` frames, evenly spread, first and last kept."""
    if count <= budget:
        return list(range(count))
    if budget < 2:
        return [count - 1]
    step = (count - 1) / (budget - 1)
    return sorted({round(i * step) for i in range(budget)})


def same_size(boards: Sequence[Image.Image]) -> list[Image.Image]:
    """The boards on canvases of one size (an animation's frames must all have it): a board
    smaller than the largest is padded on the right and below with its own corner colour."""
    width, height = max(b.width for b in boards), max(b.height for b in boards)
    out = []
    for board in boards:
        if board.size == (width, height):
            out.append(board)
            continue
        canvas = Image.new(board.mode, (width, height), board.getpixel((0, 0)))
        if board.mode == "P":
            canvas.putpalette(board.getpalette() or [])
        canvas.paste(board, (0, 0))
        out.append(canvas)
    return out


def _frame(board: Image.Image, width: int) -> Image.Image:
    """The board scaled to ``width`` and mapped back onto its palette (when it has one)."""
    height = max(1, round(board.height * width / board.width))
    scaled = board.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)
    if board.mode != "P":
        return scaled
    palette = Image.new("P", (1, 1))
    palette.putpalette(board.getpalette() or [])
    return scaled.quantize(palette=palette, dither=Image.Dither.NONE)


def encode(frames: Sequence[Image.Image], durations: Sequence[int], fmt: str) -> bytes:
    """The frames as an animated GIF or WebP (looping)."""
    out = io.BytesIO()
    first, rest = frames[0], list(frames[1:])
    if fmt == "gif":
        first.save(
            out,
            format="GIF",
            save_all=True,
            append_images=rest,
            duration=list(durations),
            loop=0,
            optimize=False,
            disposal=1,
        )
    elif fmt == "webp":
        rgb = [f.convert("RGB") for f in frames]
        rgb[0].save(
            out,
            format="WEBP",
            save_all=True,
            append_images=rgb[1:],
            duration=list(durations),
            loop=0,
            lossless=True,
            quality=60,
            method=1,
            minimize_size=False,
        )
    else:
        raise ValueError(f"unknown animation format {fmt!r}")
    return out.getvalue()


def animate(
    game: str,
    states: Sequence[Any],
    tr: Translator | None = None,
    *,
    names: Sequence[str] | None = None,
    budget: int = FRAME_BUDGET,
    fmt: str = "auto",
    max_bytes: int = MAX_BYTES,
    widths: Sequence[int] = WIDTHS,
) -> Animation:
    """The animation of ``states`` (one frame each, sampled to ``budget``), as small as needed
    to stay under ``max_bytes``. ``fmt`` "gif", "webp", or "auto": both made, the WebP sent
    where it is much smaller (``WEBP_GAIN``)."""
    if not states:
        raise ValueError("no states to animate")
    tr = tr or Translator()
    draw = renderer(game).draw
    picked = [states[i] for i in sample(len(states), budget)]
    boards = same_size([_call_draw(draw, s, tr, names) for s in picked])
    durations = tuple([FRAME_MS] * (len(boards) - 1) + [LAST_MS])
    formats = FORMATS if fmt == "auto" else (fmt,)
    for width in widths:
        frames = [_frame(b, min(width, b.width)) for b in boards]
        made = [
            Animation(encode(frames, durations, name), name, len(frames), durations, frames[0].size)
            for name in formats
        ]
        chosen = _choose(made)
        if len(chosen.data) <= max_bytes:
            return chosen
    raise ValueError(f"animation over {max_bytes} bytes even at the smallest size")


def _choose(made: Sequence[Animation]) -> Animation:
    """GIF, which every client animates, unless the WebP is at most half its size (boards of
    flat colours usually give a WebP a quarter of the GIF: bench/replay.py measures it)."""
    by_format = {a.format: a for a in made}
    gif, webp = by_format.get("gif"), by_format.get("webp")
    if gif is None or webp is None:
        return made[0]
    return webp if len(webp.data) * WEBP_GAIN <= len(gif.data) else gif


def _call_draw(draw: Any, state: Any, tr: Translator, names: Sequence[str] | None) -> Image.Image:
    image = call_with_view(draw, state, tr, {"names": names})
    assert isinstance(image, Image.Image)
    return image


def replay_log(
    game: str,
    seats: int,
    options: Any,
    actions: Sequence[str],
    tr: Translator | None = None,
    *,
    names: Sequence[str] | None = None,
    budget: int = FRAME_BUDGET,
    fmt: str = "auto",
) -> Animation:
    """The animation of a whole game from its move log (what a drawing worker runs)."""
    from engines.registry import get_engine

    states = turn_states(get_engine(game), seats, options, actions)
    return animate(game, states, tr, names=names, budget=budget, fmt=fmt)
