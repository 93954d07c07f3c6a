"""The Kokeshi board in words: the alt text of the picture."""

from __future__ import annotations

from collections.abc import Sequence

from engines.kokeshi.data import ach_level, is_ach, load
from engines.kokeshi.scoring import breakdown
from engines.kokeshi.state import KokeshiState
from i18n import Translator, end_sentence
from i18n.games.kokeshi import colour_word, kokeshi_word, tile_effects
from render.kokeshi.status import round_text, status


def tile_text(tr: Translator, tile: int) -> str:
    """``Samurai tile (move any kokeshi up 1)`` or ``Samurai achievement tile level 2``."""
    colour = colour_word(tr, tile)
    if is_ach(tile):
        return tr("kokeshi.alt.ach_tile", colour=colour, level=ach_level(tile))
    what = tile_effects(tr, tile, choice="kokeshi.alt.choice", both="kokeshi.alt.both")
    return tr("kokeshi.alt.tile", colour=colour, effect=what)


def describe(state: KokeshiState, tr: Translator, names: Sequence[str] | None = None) -> str:
    """Alt text: status, round, scores, display and the active kokeshi positions."""
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
