"""Kokeshi log lines: one logged move in words, for ``/game log``."""

from __future__ import annotations

from bot.service.models import LoggedMove
from games.kokeshi.engine.state import KokeshiState, Phase
from games.kokeshi.engine.todo import SideChoice, head
from games.kokeshi.present.game import DATA, ENGINE
from games.kokeshi.present.words import column_name, kokeshi_name, tile_text, where
from games.kokeshi.words import animal_word, effect_text
from i18n import Translator


def describe_move(s: KokeshiState | None, move: LoggedMove, tr: Translator) -> str:
    """One line of ``/game log`` (``s``: the state before the move, when known)."""
    kind = move.action.split(":", 1)[0]
    try:
        values = ENGINE.decode_action(move.action).values
    except Exception:
        return tr("kokeshi.ui.log.unknown", action=move.action)
    if kind == "first":
        return tr(
            "kokeshi.ui.log.first",
            seat=tr("kokeshi.ui.seat", seat=values[0] + 1),
        )
    if kind == "draw":
        return tr("kokeshi.ui.log.draw", tile=tile_text(tr, values[0]))
    if kind == "start":
        return tr(
            "kokeshi.ui.log.start",
            tile=tile_text(tr, values[0]),
            column=column_name(tr, values[1]),
        )
    if kind == "move":
        column = values[0]
        if s is not None and s.active >= 0:
            start = s.pos[s.active][column]
            return tr(
                "kokeshi.ui.log.move_from",
                kokeshi=kokeshi_name(tr, column),
                start=where(tr, start),
                target=where(tr, start + 1),
            )
        return tr("kokeshi.ui.log.move", kokeshi=kokeshi_name(tr, column))
    if kind == "side":
        side = "AB"[values[0]]
        if s is not None and s.phase == Phase.SIDE and s.todo:
            tile = head(s.todo, SideChoice).tile
            effect = effect_text(tr, DATA.tiles[tile].effects[values[0]])
            return tr("kokeshi.ui.log.side_effect", side=side, effect=effect)
        return tr("kokeshi.ui.log.side", side=side)
    if kind == "pick":
        return tr("kokeshi.ui.log.pick", kokeshi=kokeshi_name(tr, values[0]))
    if kind == "animal":
        return tr("kokeshi.ui.log.animal", animal=animal_word(tr, values[0]))
    if kind == "gain":
        return tr("kokeshi.ui.log.gain", tile=tile_text(tr, values[0]))
    if kind == "col":
        return tr("kokeshi.ui.log.col", column=column_name(tr, values[0]))
    if kind == "place":
        return tr("kokeshi.ui.log.place", tile=tile_text(tr, values[0]))
    return tr("kokeshi.ui.log.unknown", action=move.action)
