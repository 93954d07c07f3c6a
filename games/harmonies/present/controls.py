"""Harmonies controls: legal action codes as buttons and select menus.

Control layout (built only from the legal codes, at most 5 rows):

* Buttons first, in rows of five: ``keep:N`` (spirit cards), ``take:N`` (labelled with the
  space's tokens), ``undo``, ``end``.
* Then one select per group, in priority order: one per colour in hand (``place:<colour>:<hex>``,
  label the hex, description what the hex becomes), the animal cards to take (``card:N``), the
  solo discards (``discard:N``) and the cube placements (``cube:N:<hex>``).
* A group with more than 25 options is split into parts of 25. While there are more groups than
  rows left, the two smallest groups that fit one select together are merged (their options then
  carry self-explanatory labels such as ``blue → c3``). If nothing can be merged any more, the
  lowest-priority groups (cube placements last) are left out: those moves stay legal and can be
  typed with ``/game move``, and the Discord message says so (``bot.adapter.messages``).
  ``layout`` reports the codes left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from bot.present.base import (
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Button,
    Control,
    ControlRows,
    Select,
    SelectOption,
    chunk_buttons,
    chunk_options,
    clip,
)
from games.harmonies.engine.state import HarmoniesState
from games.harmonies.present.words import (
    card_description,
    cube_description,
    stack_below,
    stack_description,
)
from games.harmonies.words import card_name, colour_list, colour_word, spirit_rule
from i18n import Translator

MAX_OPTION_LABEL = 100


@dataclass(frozen=True, slots=True)
class _Group:
    """Options for one select: ``short`` labels when alone, ``long`` ones when merged."""

    placeholder: str
    short: tuple[SelectOption, ...]
    long: tuple[SelectOption, ...]

    def __len__(self) -> int:
        return len(self.short)


# The options of a place, a card and a discard depend on their words alone (the stack a token
# would go on, the card): kept, since a board lists dozens and most are the same at the next move.
@lru_cache(maxsize=4096)
def _place_options(
    tr: Translator, code: str, below: tuple[str, ...]
) -> tuple[SelectOption, SelectOption]:
    """The short (hex alone) and long (colour and hex) options of ``place:colour:hex``, on a hex
    holding ``below``."""
    colour, _, hex_code = code.removeprefix("place:").partition(":")
    desc = stack_description(below, colour, tr)
    long = tr("harmonies.ui.option.place", colour=colour_word(tr, colour), hex=hex_code)
    return SelectOption(code, hex_code, desc), SelectOption(code, long, desc)


@lru_cache(maxsize=1024)
def _card_option(tr: Translator, code: str) -> SelectOption:
    card_id = int(code.removeprefix("card:"))
    return SelectOption(code, card_name(tr, card_id), card_description(card_id, tr))


@lru_cache(maxsize=1024)
def _discard_option(tr: Translator, code: str) -> SelectOption:
    card_id = int(code.removeprefix("discard:"))
    label = tr("harmonies.ui.option.discard", card=card_name(tr, card_id))
    return SelectOption(code, label, card_description(card_id, tr))


def _groups(state: HarmoniesState, legal: Sequence[str], tr: Translator) -> list[_Group]:
    """Select groups in priority order: places per colour, cards, discards, cubes."""
    places: dict[str, list[tuple[SelectOption, SelectOption]]] = {}
    cards: list[tuple[SelectOption, SelectOption]] = []
    discards: list[tuple[SelectOption, SelectOption]] = []
    cubes: list[tuple[SelectOption, SelectOption]] = []
    for code in legal:
        kind, _, rest = code.partition(":")
        if kind == "place":
            colour, _, hex_code = rest.partition(":")
            places.setdefault(colour, []).append(
                _place_options(tr, code, stack_below(state, hex_code))
            )
        elif kind == "card":
            option = _card_option(tr, code)
            cards.append((option, option))
        elif kind == "discard":
            option = _discard_option(tr, code)
            discards.append((option, option))
        elif kind == "cube":
            num, _, hex_code = rest.partition(":")
            cid = int(num)
            label = tr("harmonies.ui.option.cube", card=card_name(tr, cid), hex=hex_code)
            option = SelectOption(code, label, cube_description(state, cid, tr))
            cubes.append((option, option))
    found = [
        (tr("harmonies.ui.select.place", colour=colour_word(tr, colour)), options)
        for colour, options in places.items()
    ]
    found += [
        (tr("harmonies.ui.select.card"), cards),
        (tr("harmonies.ui.select.discard"), discards),
        (tr("harmonies.ui.select.cube"), cubes),
    ]
    groups: list[_Group] = []
    for placeholder, options in found:
        parts = chunk_options(options)
        for n, part in enumerate(parts, start=1):
            label = placeholder
            if len(parts) > 1:
                label = tr(
                    "harmonies.ui.select.part",
                    placeholder=placeholder,
                    part=n,
                    parts=len(parts),
                )
            groups.append(_Group(label, tuple(s for s, _ in part), tuple(long for _, long in part)))
    return groups


def _buttons(state: HarmoniesState, legal: Sequence[str], tr: Translator) -> list[Button]:
    buttons: list[Button] = []
    for code in legal:
        kind, _, rest = code.partition(":")
        if kind == "keep":
            spirit = spirit_rule(tr, int(rest))
            label = tr("harmonies.ui.button.keep", spirit=spirit)
            buttons.append(Button(code, clip(label), "primary"))
        elif kind == "take":
            slot = int(rest) - 1
            tokens = state.central[slot] if 0 <= slot < len(state.central) else ()
            words = colour_list(tr, tokens)
            label = tr("harmonies.ui.button.take", number=rest, tokens=words)
            buttons.append(Button(code, clip(label), "primary"))
    if "undo" in legal:
        buttons.append(Button("undo", tr("harmonies.ui.button.undo"), "danger", "↩️"))
    if "end" in legal:
        buttons.append(Button("end", tr("harmonies.ui.button.end"), "success"))
    return buttons


def _clipped(option: SelectOption) -> SelectOption:
    """The option with a label and description Discord takes (the same option when they fit,
    as they nearly always do: a board has dozens of options)."""
    label = clip(option.label, MAX_OPTION_LABEL)
    description = option.description and clip(option.description, MAX_OPTION_LABEL)
    if label is option.label and description is option.description:
        return option
    return replace(option, label=label, description=description)


def layout(
    state: HarmoniesState, legal: Sequence[str], tr: Translator
) -> tuple[ControlRows, tuple[str, ...]]:
    """The control rows for ``legal`` and the codes that did not fit (see the module doc)."""
    button_rows = chunk_buttons(_buttons(state, legal, tr))
    groups = [g for g in _groups(state, legal, tr) if len(g)]
    free = MAX_ROWS - len(button_rows)
    mixed = tr("harmonies.ui.select.mixed")
    while len(groups) > free:
        pairs = [
            (len(a) + len(b), i, j)
            for i, a in enumerate(groups)
            for j, b in enumerate(groups)
            if i < j and len(a) + len(b) <= MAX_SELECT_OPTIONS
        ]
        if not pairs:
            break
        _, i, j = min(pairs)
        merged = _Group(mixed, groups[i].long + groups[j].long, groups[i].long + groups[j].long)
        groups = [*groups[:i], merged, *groups[i + 1 : j], *groups[j + 1 :]]
    kept, dropped = groups[: max(free, 0)], groups[max(free, 0) :]
    rows: list[tuple[Control, ...]] = list(button_rows)
    for group in kept:
        options = tuple(_clipped(o) for o in group.short)
        rows.append((Select(clip(group.placeholder, 150), options),))
    left_out = tuple(o.action for g in dropped for o in g.short)
    return ControlRows(tuple(rows)), left_out
