"""The Kokeshi board in words: the alt text of the picture."""

from __future__ import annotations

from collections.abc import Sequence

from games.kokeshi.engine.data import ach_level, is_ach, load
from games.kokeshi.engine.scoring import breakdown
from games.kokeshi.engine.state import KokeshiState
from games.kokeshi.render.board import focus_of
from games.kokeshi.render.highlights import path, placed
from games.kokeshi.render.status import round_text, status
from games.kokeshi.words import colour_word, kokeshi_word, tile_effects
from i18n import Translator, end_sentence


def tile_text(tr: Translator, tile: int) -> str:
    """``Samurai tile (move any kokeshi up 1)`` or ``Samurai achievement tile level 2``."""
    colour = colour_word(tr, tile)
    if is_ach(tile):
        return tr("kokeshi.alt.ach_tile", colour=colour, level=ach_level(tile))
    what = tile_effects(tr, tile, choice="kokeshi.alt.choice", both="kokeshi.alt.both")
    return tr("kokeshi.alt.tile", colour=colour, effect=what)


def changes(
    s: KokeshiState,
    tr: Translator,
    since: KokeshiState | None,
    seat: int,
    names: Sequence[str] | None,
) -> list[str]:
    """What the picture marks, in words: the tiles placed this turn and the cascade's landings."""
    if since is None:
        return []
    player = tr.player(seat, names)
    parts = []
    tiles = placed(since, s, seat)
    if tiles:
        parts.append(tr("kokeshi.alt.turn_tiles", count=len(tiles), player=player))
    steps = [
        tr("kokeshi.alt.step", kokeshi=kokeshi_word(tr, c), space=space)
        if space
        else tr("kokeshi.alt.step_top", kokeshi=kokeshi_word(tr, c))
        for c, space in path(since, s, seat)
    ]
    if steps:
        parts.append(tr("kokeshi.alt.turn_path", count=len(steps), steps=tr.sep.join(steps)))
    return parts


def describe(
    state: KokeshiState,
    tr: Translator,
    names: Sequence[str] | None = None,
    focus_seat: int | None = None,
    since: KokeshiState | None = None,
) -> str:
    """Alt text: status, what the last turn changed (with ``since``), round, scores, display and
    the active kokeshi positions."""
    s = state
    data = load()
    scores = [
        tr(
            "kokeshi.alt.score",
            player=tr.player(seat, names),
            total=breakdown(data, s, seat)["total"],
        )
        for seat in range(s.seats)
    ]
    parts = [
        tr("kokeshi.alt.title"),
        end_sentence(status(s, tr, names), tr.locale),
        *changes(s, tr, since, focus_of(s, focus_seat), names),
        end_sentence(round_text(s, tr), tr.locale),
        tr("kokeshi.alt.scores", scores=tr.join(scores)),
    ]
    if s.display:
        tiles = [tile_text(tr, tile) for tile in s.display]
        parts.append(tr("kokeshi.alt.display", tiles=tr.join(tiles)))
    if s.active >= 0:
        heights = [
            tr(
                "kokeshi.alt.track",
                count=s.height(s.active, c),
                kokeshi=kokeshi_word(tr, c),
                height=s.height(s.active, c),
                pos=s.pos[s.active][c],
            )
            for c in range(len(data.columns))
        ]
        parts.append(
            tr(
                "kokeshi.alt.tracks",
                player=tr.player(s.active, names),
                tracks=tr.join(heights),
            )
        )
    return " ".join(parts)
