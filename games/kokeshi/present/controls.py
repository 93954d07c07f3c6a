"""Kokeshi controls: the legal action codes of the seat to move as buttons and select menus."""

from __future__ import annotations

from collections.abc import Sequence

from bot.present.base import (
    MAX_BUTTONS_PER_ROW,
    MAX_LABEL,
    MAX_ROWS,
    Button,
    Control,
    ControlRows,
    Select,
    SelectOption,
    chunk_buttons,
    chunk_options,
    clip,
)
from games.kokeshi.engine.data import is_ach
from games.kokeshi.engine.state import NONE, KokeshiState
from games.kokeshi.engine.todo import SideChoice, TileEffect, head
from games.kokeshi.present.game import DATA, ENGINE
from games.kokeshi.present.words import (
    column_name,
    kokeshi_name,
    short_position,
    tile_effect,
    tile_short,
    tile_text,
)
from games.kokeshi.words import animal_word, effect_text
from i18n import Translator

#: a colour cue on the buttons, in column order (princess .. sumotori)
EMOJI = ("🌸", "🟣", "🔵", "🟢", "🟠")
MAX_DESCRIPTION = 100


def _kokeshi_step_label(tr: Translator, s: KokeshiState, column: int, steps: int) -> str:
    start = s.pos[s.active][column]
    target = start + steps
    if target > DATA.spaces:
        return tr(
            "kokeshi.ui.button.move_top",
            kokeshi=kokeshi_name(tr, column),
            start=short_position(tr, start),
            points=DATA.pass_top,
        )
    return tr(
        "kokeshi.ui.button.move",
        kokeshi=kokeshi_name(tr, column),
        start=short_position(tr, start),
        target=target,
    )


def _pick_steps(s: KokeshiState) -> int:
    return head(s.todo, TileEffect).effect(DATA).steps


def _option(tr: Translator, s: KokeshiState, code: str) -> tuple[str, str | None, str | None]:
    """(label, select description, emoji) for one legal code."""
    kind = code.split(":", 1)[0]
    values = ENGINE.decode_action(code).values
    if kind == "move":
        column = values[0]
        return _kokeshi_step_label(tr, s, column, 1), None, EMOJI[column]
    if kind == "pick":
        column = values[0]
        return _kokeshi_step_label(tr, s, column, _pick_steps(s)), None, EMOJI[column]
    if kind == "side":
        tile = head(s.todo, SideChoice).tile
        effect = effect_text(tr, DATA.tiles[tile].effects[values[0]])
        return tr("kokeshi.ui.button.side", side="AB"[values[0]], effect=effect), None, None
    if kind == "animal":
        animal = values[0]
        start = s.animal_pos(animal, s.active)
        key = (
            "kokeshi.ui.button.animal_bonus"
            if start + 1 == DATA.bonus_index and s.bonus[animal] != NONE
            else "kokeshi.ui.button.animal"
        )
        label = tr(key, animal=animal_word(tr, animal), start=start, target=start + 1)
        return label, None, None
    if kind == "col":
        column = values[0]
        label = tr(
            "kokeshi.ui.button.col",
            column=column_name(tr, column),
            height=s.height(s.active, column),
        )
        return label, None, EMOJI[column]
    if kind == "start":
        column = values[1]
        return (
            tr("kokeshi.ui.button.start", column=column_name(tr, column)),
            None,
            EMOJI[column],
        )
    if kind in ("gain", "place"):
        tile = values[0]
        if is_ach(tile):
            return tile_text(tr, tile), tr("kokeshi.ui.option.ach"), None
        label = tile_text(tr, tile)
        if len(label) > MAX_LABEL:  # the effect is what matters; the colour goes below it
            label = tile_effect(tr, tile)
        key = "kokeshi.ui.option.display" if kind == "gain" else "kokeshi.ui.option.pending"
        description = tr(key, tile=tile_short(tr, tile))
        return label, description, EMOJI[DATA.colour_of(tile)]
    return code, None, None


#: kinds whose options carry long tile texts: always a select menu (placeholder keys)
_SELECT_KINDS = {"gain": "kokeshi.ui.select.gain", "place": "kokeshi.ui.select.place"}

_PLACEHOLDERS = {**_SELECT_KINDS, "start": "kokeshi.ui.select.start"}


def _selects(placeholder: str, options: list[SelectOption]) -> tuple[tuple[Control, ...], ...]:
    """One select per 25 options, each alone in its row."""
    return tuple((Select(placeholder, part),) for part in chunk_options(options))


def controls(s: KokeshiState, legal: Sequence[str], tr: Translator) -> ControlRows:
    """Buttons for short lists (moves, sides, kokeshi, animals, columns); a select menu for tiles
    to gain or place (their effects need words) and for anything longer than a row of buttons."""
    if not legal:
        return ControlRows()
    kinds = {code.split(":", 1)[0] for code in legal}
    items = [(code, *_option(tr, s, code)) for code in legal]
    # one row of buttons for short lists; tiles (long effect texts) and longer lists: a menu
    use_select = bool(kinds & set(_SELECT_KINDS)) or len(items) > MAX_BUTTONS_PER_ROW
    if not use_select:
        buttons = [
            Button(code, clip(label), "primary" if code.startswith("move:") else "secondary", emoji)
            for code, label, _, emoji in items
        ]
        return ControlRows(chunk_buttons(buttons))
    kind = sorted(kinds)[0]
    key = _PLACEHOLDERS.get(kind, "kokeshi.ui.select.choose")
    options = [
        SelectOption(code, clip(label), clip(description, MAX_DESCRIPTION) if description else None)
        for code, label, description, _ in items
    ]
    return ControlRows(_selects(tr(key), options)[:MAX_ROWS])
