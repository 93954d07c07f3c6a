"""Kokeshi prompts: the line that tells the seat to move what to choose now."""

from __future__ import annotations

from collections.abc import Sequence

from games.kokeshi.engine.data import SAME_COLUMN, is_ach
from games.kokeshi.engine.scoring import best_seats
from games.kokeshi.engine.state import KokeshiState, Phase
from games.kokeshi.engine.todo import ColumnChoice, EmptyGain, SideChoice, TileEffect, head
from games.kokeshi.present.game import DATA, ENGINE
from games.kokeshi.present.words import column_name, kokeshi_name, tile_text
from games.kokeshi.words import effect_text
from i18n import Translator


def prompt(s: KokeshiState, names: Sequence[str], tr: Translator) -> str:
    """What the seat to move is asked to do now (or the result once the game is over)."""
    if s.phase == Phase.OVER:
        winners = tr.join([names[w] for w in best_seats(DATA, s)])
        return tr("kokeshi.ui.prompt.over", players=winners)
    if s.phase.is_chance:
        return tr("kokeshi.ui.prompt.chance")
    player = names[s.active]
    if s.phase == Phase.START:
        placed = sum(1 for col in s.boards[s.active] if col)
        return tr(
            "kokeshi.ui.prompt.start",
            player=player,
            tile=tile_text(tr, min(s.hand)),
            number=placed + 1,
            total=DATA.setup_tiles,
        )
    if s.phase == Phase.MOVE:
        text = tr("kokeshi.ui.prompt.move", player=player)
        left = s.turns_left()
        if left is not None:
            last = tr("kokeshi.ui.prompt.last_turns", count=left)
            text = f"{text}\n{last}"
        return text
    if s.phase == Phase.SIDE:
        tile = head(s.todo, SideChoice).tile
        return tr("kokeshi.ui.prompt.side", player=player, tile=tile_text(tr, tile))
    if s.phase == Phase.PICK:
        e = head(s.todo, TileEffect).effect(DATA)
        return tr(
            "kokeshi.ui.prompt.pick",
            count=e.steps,
            player=player,
            steps=e.steps,
            effect=effect_text(tr, e),
        )
    if s.phase == Phase.ANIMAL:
        return tr("kokeshi.ui.prompt.animal", player=player)
    if s.phase == Phase.GAIN:
        gain = s.todo[0]
        if isinstance(gain, EmptyGain):
            legal = ENGINE.legal_actions(s)
            key = (
                "kokeshi.ui.prompt.gain_empty"
                if any(is_ach(a.values[0]) for a in legal)
                else "kokeshi.ui.prompt.gain_empty_display"
            )
            return tr(
                key,
                player=player,
                kokeshi=kokeshi_name(tr, gain.column),
                column=column_name(tr, gain.column),
            )
        item = head(s.todo, TileEffect)
        if item.effect(DATA).where == SAME_COLUMN:
            return tr(
                "kokeshi.ui.prompt.gain_same",
                player=player,
                column=column_name(tr, item.column),
            )
        return tr("kokeshi.ui.prompt.gain_any", player=player)
    if s.phase == Phase.COL:
        if s.todo:
            tile = head(s.todo, ColumnChoice).tile
            return tr("kokeshi.ui.prompt.col", player=player, tile=tile_text(tr, tile))
        return tr(
            "kokeshi.ui.prompt.col_free",
            player=player,
            tile=tile_text(tr, s.free[0]),
        )
    column = s.place_column()
    if s.phase == Phase.PLACE and column is not None:
        return tr("kokeshi.ui.prompt.place", player=player, column=column_name(tr, column))
    return tr("kokeshi.ui.prompt.move", player=player)
