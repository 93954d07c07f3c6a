"""The presenter's Harmonies vocabulary: what a stack of tokens is, what a hex becomes, what a
card asks for and what its next cube scores. Colour, card and spirit words shared with the
board picture are in ``games.harmonies.words``."""

from __future__ import annotations

from games.harmonies.engine import scoring
from games.harmonies.engine.cards import CARDS, CELL_INDEX, KIND_STACKS, parse_hex
from games.harmonies.engine.state import HarmoniesState
from i18n import Translator

#: stack kinds of card patterns → shape words
KIND_SHAPE = {
    "W": "water",
    "F": "field",
    "T1": "tree1",
    "T2": "tree2",
    "T3": "tree3",
    "M1": "mountain1",
    "M2": "mountain2",
    "M3": "mountain3",
    "B": "building",
}


def shape_word(tr: Translator, stack: tuple[str, ...]) -> str:
    """What a stack of tokens is: ``tree of 2``, ``building``, ``trunk of 1`` …"""
    for kind, stacks in KIND_STACKS.items():
        if stack in stacks:
            return tr(f"harmonies.ui.shape.{KIND_SHAPE[kind]}")
    if stack and all(c == "brown" for c in stack) and len(stack) <= 2:
        return tr(f"harmonies.ui.shape.trunk{len(stack)}")
    if stack == ("red",):
        return tr("harmonies.ui.shape.red")
    return tr("harmonies.ui.shape.stack", height=len(stack))


def _cell(state: HarmoniesState, code: str) -> int | None:
    cell = parse_hex(code)
    return None if cell is None else CELL_INDEX[state.side].get(cell)


def stack_below(state: HarmoniesState, hex_code: str) -> tuple[str, ...]:
    """The tokens already on a hex of the player's board (none off the board)."""
    index = _cell(state, hex_code)
    return () if index is None else state.player.stacks[index]


def stack_description(below: tuple[str, ...], colour: str, tr: Translator) -> str:
    """A ``colour`` token put on ``below``: ``empty hex → water``, ``on trunk of 1 → tree of
    2``."""
    shape = shape_word(tr, (*below, colour))
    if not below:
        return tr("harmonies.ui.hex.empty", shape=shape)
    return tr("harmonies.ui.hex.on", below=shape_word(tr, below), shape=shape)


def card_description(card_id: int, tr: Translator) -> str:
    """``cube on water, next to field and tree of 2 · points 4 / 9``."""
    card = CARDS[card_id]
    cube = tr(f"harmonies.ui.shape.{KIND_SHAPE[card.cube_kind]}")
    others = [tr(f"harmonies.ui.shape.{KIND_SHAPE[k]}") for _, k in card.pattern[1:]]
    track = tr("harmonies.ui.card.track_sep").join(str(v) for v in card.track)
    if not others:
        return tr("harmonies.ui.card.desc_alone", cube=cube, track=track)
    return tr(
        "harmonies.ui.card.desc",
        cube=cube,
        others=tr.join(others),
        track=track,
    )


def cube_description(state: HarmoniesState, card_id: int, tr: Translator) -> str:
    """``cube 2 of 3: the card then scores 7`` (spirit cards: their bonus counts)."""
    card = CARDS[card_id]
    if card.spirit:
        return tr("harmonies.ui.option.spirit_desc")
    placed = state.player.placed(card_id)
    then = scoring.card_points(card_id, min(placed + 1, len(card.track)))
    return tr(
        "harmonies.ui.option.cube_desc",
        number=placed + 1,
        total=len(card.track),
        points=then,
    )
