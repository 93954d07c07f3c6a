"""The ``/stats`` card: a player's record per game, drawn as a small PNG, with its alt text.

Pure: plain numbers in (a ``Section`` per game), a picture out. The rating is the conservative
estimate mu - 3 sigma (what the leaderboard sorts by); the sparkline draws it after each rated
game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image, ImageDraw

from i18n import Translator
from render.canvas import draw_text, ellipsize, encode_png, wrap
from render.names import SENTENCE_NAME_EMS, fit_name

WIDTH = 640
HEADER = 64
SECTION = 176
#: text sizes: the smallest, 16 px on a 640 px card, is 10 px on a phone (400 px wide)
TITLE, GAME, RATING, RECORD, EXTRAS = 26, 22, 19, 17, 16
MARGIN = 20
SPARK = (170, 54)  # width, height of a sparkline

BACKGROUND = (250, 247, 240)
PANEL = (255, 255, 255)
INK = (32, 33, 36)
MUTED = (96, 99, 104)
ACCENT = (37, 99, 178)
RULE = (222, 216, 204)


class Section(Protocol):
    """One game's section of the card: what the service's ``GameStats`` carries (read here
    as it is, without a copy)."""

    @property
    def game(self) -> str: ...  # registry id (its title comes from the catalogue)
    @property
    def played(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def average(self) -> float: ...
    @property
    def best(self) -> int: ...
    @property
    def rating(self) -> float | None: ...  # None: no rated game yet
    @property
    def rated_games(self) -> int: ...
    @property
    def history(self) -> tuple[float, ...]: ...
    @property
    def extras(self) -> Mapping[str, float]: ...


@dataclass(frozen=True, slots=True)
class CardGame:
    """A section made by hand (tests, previews)."""

    game: str
    played: int
    wins: int
    average: float
    best: int
    rating: float | None
    rated_games: int
    history: tuple[float, ...] = ()
    extras: dict[str, float] = field(default_factory=dict)


def _title(tr: Translator, game: str) -> str:
    key = f"{game}.title"
    return tr(key) if tr.has(key) else game


def _decimal(tr: Translator, value: float) -> str:
    return tr.number(round(value, 1))


def _extras_line(tr: Translator, section: Section) -> str:
    """The game's own averages per game ("" for a game that keeps none)."""
    parts = [
        tr("stats.card.extra", label=tr(f"stats.extra.{key}"), value=_decimal(tr, value))
        for key, value in section.extras.items()
    ]
    return tr("stats.card.averages", items=tr.sep.join(parts)) if parts else ""


def _record_line(tr: Translator, s: Section) -> str:
    return tr(
        "stats.card.record",
        games=tr("stats.card.games", count=s.played),
        wins=tr("stats.card.wins", count=s.wins),
        average=_decimal(tr, s.average),
        best=s.best,
    )


def _rating_line(tr: Translator, s: Section) -> str:
    if s.rating is None:
        return tr("stats.card.unrated")
    return tr("stats.card.rating", rating=_decimal(tr, s.rating), count=s.rated_games)


def sparkline(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], values: Sequence[float]
) -> None:
    """The values as a line from left to right, scaled to the box (a dot for a single value)."""
    left, top, right, bottom = box
    draw.rectangle(box, outline=RULE)
    if not values:
        return
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    inner = (left + 4, top + 4, right - 4, bottom - 4)

    def point(i: int, v: float) -> tuple[float, float]:
        x = inner[0] + (inner[2] - inner[0]) * (i / (len(values) - 1) if len(values) > 1 else 0.5)
        y = inner[3] - (inner[3] - inner[1]) * ((v - low) / span if high > low else 0.5)
        return x, y

    points = [point(i, v) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=ACCENT, width=2, joint="curve")
    x, y = points[-1]
    draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=ACCENT)


def draw(player: str, sections: Sequence[Section], tr: Translator | None = None) -> Image.Image:
    """The card of ``player`` with one section per game."""
    tr = tr or Translator()
    height = HEADER + SECTION * max(1, len(sections)) + MARGIN // 2
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    pen = ImageDraw.Draw(image)
    name = fit_name(player, TITLE, True, SENTENCE_NAME_EMS * TITLE)
    title = ellipsize(tr("stats.card.title", player=name), TITLE, True, WIDTH - 2 * MARGIN)
    draw_text(image, (MARGIN, HEADER / 2), title, TITLE, INK, True)
    if not sections:
        draw_text(image, (MARGIN, HEADER + SECTION / 2), tr("stats.card.none"), RATING, MUTED)
    for i, s in enumerate(sections):
        top = HEADER + i * SECTION
        pen.rounded_rectangle(
            (MARGIN // 2, top, WIDTH - MARGIN // 2, top + SECTION - 10),
            10,
            fill=PANEL,
            outline=RULE,
        )
        beside = WIDTH - 2 * MARGIN - (SPARK[0] + MARGIN if s.history else 0)
        draw_text(
            image,
            (MARGIN, top + 26),
            ellipsize(_title(tr, s.game), GAME, True, beside),
            GAME,
            INK,
            True,
        )
        rating = ellipsize(_rating_line(tr, s), RATING, True, beside)
        draw_text(image, (MARGIN, top + 60), rating, RATING, ACCENT, True)
        record = ellipsize(_record_line(tr, s), RECORD, False, WIDTH - 2 * MARGIN)
        draw_text(image, (MARGIN, top + 94), record, RECORD, INK)
        extras = _extras_line(tr, s)
        lines = wrap(extras, EXTRAS, False, WIDTH - 2 * MARGIN) if extras else []
        for j, line in enumerate(lines):
            draw_text(image, (MARGIN, top + 124 + j * 21), line, EXTRAS, MUTED)
        if s.history:
            spark = (WIDTH - MARGIN - SPARK[0], top + 12, WIDTH - MARGIN, top + 12 + SPARK[1])
            sparkline(pen, spark, s.history)
    return image


def describe(player: str, sections: Sequence[Section], tr: Translator | None = None) -> str:
    """The card's alt text: the same numbers as sentences."""
    tr = tr or Translator()
    if not sections:
        return tr("stats.alt.none", player=player)
    parts = []
    for s in sections:
        words = {
            "game": _title(tr, s.game),
            "rating": _rating_line(tr, s),
            "record": _record_line(tr, s),
        }
        extras = _extras_line(tr, s)
        if extras:
            parts.append(tr("stats.alt.game_extras", extras=extras, **words))
        else:
            parts.append(tr("stats.alt.game", **words))
    return tr("stats.alt.card", player=player, games=" ".join(parts))


def card_png(player: str, sections: Sequence[Section], tr: Translator | None = None) -> bytes:
    return encode_png(draw(player, sections, tr))
