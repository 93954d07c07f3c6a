"""Harmonies in words, buttons and select menus.

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
  typed with ``/game move``, and the prompt says so. ``layout`` reports the codes left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

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
from bot.service.models import LoggedMove
from engines.harmonies.cards import CARDS, CELL_INDEX, KIND_STACKS, parse_hex
from engines.harmonies.scoring import CATEGORIES
from engines.harmonies.state import HarmoniesState, Phase, TurnStep
from engines.harmonies.turn import ends_turn, turn_start, turn_step
from engines.registry import get_engine
from i18n import join_list, t

ENGINE = get_engine("harmonies")
MAX_OPTION_LABEL = 100
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


# -- small words --------------------------------------------------------------------------------


def colour_word(locale: str | None, colour: str) -> str:
    return t(locale, f"harmonies.colour.{colour}")


def colours_text(locale: str | None, colours: Sequence[str]) -> str:
    return join_list(locale, [colour_word(locale, c) for c in colours])


def card_text(locale: str | None, card_id: int) -> str:
    """``#17 boar``."""
    card = CARDS.get(card_id)
    if card is None:
        return f"#{card_id}"
    animal = t(locale, f"harmonies.ui.animal.{card.name}")
    return t(locale, "harmonies.ui.card", number=card_id, animal=animal)


def shape_word(locale: str | None, stack: tuple[str, ...]) -> str:
    """What a stack of tokens is: ``tree of 2``, ``building``, ``trunk of 1`` …"""
    for kind, stacks in KIND_STACKS.items():
        if stack in stacks:
            return t(locale, f"harmonies.ui.shape.{KIND_SHAPE[kind]}")
    if stack and all(c == "brown" for c in stack) and len(stack) <= 2:
        return t(locale, f"harmonies.ui.shape.trunk{len(stack)}")
    if stack == ("red",):
        return t(locale, "harmonies.ui.shape.red")
    return t(locale, "harmonies.ui.shape.other", height=len(stack))


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else str(seat + 1)


def _cell(state: HarmoniesState, code: str) -> int | None:
    cell = parse_hex(code)
    return None if cell is None else CELL_INDEX[state.side].get(cell)


def place_description(state: HarmoniesState, colour: str, hex_code: str, locale: str | None) -> str:
    """``empty hex → water`` or ``on trunk of 1 → tree of 2``."""
    index = _cell(state, hex_code)
    below: tuple[str, ...] = () if index is None else state.player.stacks[index]
    shape = shape_word(locale, (*below, colour))
    if not below:
        return t(locale, "harmonies.ui.hex.empty", shape=shape)
    return t(locale, "harmonies.ui.hex.on", below=shape_word(locale, below), shape=shape)


def card_description(card_id: int, locale: str | None) -> str:
    card = CARDS[card_id]
    cube = t(locale, f"harmonies.ui.shape.{KIND_SHAPE[card.cube_kind]}")
    others = [t(locale, f"harmonies.ui.shape.{KIND_SHAPE[k]}") for _, k in card.pattern[1:]]
    track = t(locale, "harmonies.ui.card.track_sep").join(str(v) for v in card.track)
    if not others:
        return t(locale, "harmonies.ui.card.desc_alone", cube=cube, track=track)
    return t(
        locale,
        "harmonies.ui.card.desc",
        cube=cube,
        others=join_list(locale, others),
        track=track,
    )


def cube_description(state: HarmoniesState, card_id: int, locale: str | None) -> str:
    card = CARDS[card_id]
    if card.spirit:
        return t(locale, "harmonies.ui.option.spirit_desc")
    placed = state.player.placed(card_id)
    index = min(placed, len(card.track) - 1)
    return t(
        locale,
        "harmonies.ui.option.cube_desc",
        number=placed + 1,
        total=len(card.track),
        points=card.track[index],
    )


# -- controls -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Group:
    """Options for one select: ``short`` labels when alone, ``long`` ones when merged."""

    placeholder: str
    short: tuple[SelectOption, ...]
    long: tuple[SelectOption, ...]

    def __len__(self) -> int:
        return len(self.short)


def _groups(state: HarmoniesState, legal: Sequence[str], locale: str | None) -> list[_Group]:
    """Select groups in priority order: places per colour, cards, discards, cubes."""
    places: dict[str, list[tuple[SelectOption, SelectOption]]] = {}
    cards: list[tuple[SelectOption, SelectOption]] = []
    discards: list[tuple[SelectOption, SelectOption]] = []
    cubes: list[tuple[SelectOption, SelectOption]] = []
    for code in legal:
        kind, _, rest = code.partition(":")
        if kind == "place":
            colour, _, hex_code = rest.partition(":")
            desc = place_description(state, colour, hex_code, locale)
            long = t(
                locale,
                "harmonies.ui.option.place",
                colour=colour_word(locale, colour),
                hex=hex_code,
            )
            places.setdefault(colour, []).append(
                (SelectOption(code, hex_code, desc), SelectOption(code, long, desc))
            )
        elif kind == "card":
            cid = int(rest)
            option = SelectOption(code, card_text(locale, cid), card_description(cid, locale))
            cards.append((option, option))
        elif kind == "discard":
            cid = int(rest)
            label = t(locale, "harmonies.ui.option.discard", card=card_text(locale, cid))
            option = SelectOption(code, label, card_description(cid, locale))
            discards.append((option, option))
        elif kind == "cube":
            num, _, hex_code = rest.partition(":")
            cid = int(num)
            label = t(locale, "harmonies.ui.option.cube", card=card_text(locale, cid), hex=hex_code)
            option = SelectOption(code, label, cube_description(state, cid, locale))
            cubes.append((option, option))
    found = [
        (t(locale, "harmonies.ui.select.place", colour=colour_word(locale, colour)), options)
        for colour, options in places.items()
    ]
    found += [
        (t(locale, "harmonies.ui.select.card"), cards),
        (t(locale, "harmonies.ui.select.discard"), discards),
        (t(locale, "harmonies.ui.select.cube"), cubes),
    ]
    groups: list[_Group] = []
    for placeholder, options in found:
        parts = chunk_options(options)
        for n, part in enumerate(parts, start=1):
            label = placeholder
            if len(parts) > 1:
                label = t(
                    locale,
                    "harmonies.ui.select.part",
                    placeholder=placeholder,
                    part=n,
                    parts=len(parts),
                )
            groups.append(_Group(label, tuple(s for s, _ in part), tuple(long for _, long in part)))
    return groups


def _buttons(state: HarmoniesState, legal: Sequence[str], locale: str | None) -> list[Button]:
    buttons: list[Button] = []
    for code in legal:
        kind, _, rest = code.partition(":")
        if kind == "keep":
            spirit = t(locale, f"harmonies.spirit.{rest}")
            label = t(locale, "harmonies.ui.button.keep", spirit=spirit)
            buttons.append(Button(code, clip(label), "primary"))
        elif kind == "take":
            slot = int(rest) - 1
            tokens = state.central[slot] if 0 <= slot < len(state.central) else ()
            words = t(locale, "list.sep").join(colour_word(locale, c) for c in tokens)
            label = t(locale, "harmonies.ui.button.take", number=rest, tokens=words)
            buttons.append(Button(code, clip(label), "primary"))
    if "undo" in legal:
        buttons.append(Button("undo", t(locale, "harmonies.ui.button.undo"), "danger", "↩️"))
    if "end" in legal:
        buttons.append(Button("end", t(locale, "harmonies.ui.button.end"), "success"))
    return buttons


def layout(
    state: HarmoniesState, legal: Sequence[str], locale: str | None
) -> tuple[ControlRows, tuple[str, ...]]:
    """The control rows for ``legal`` and the codes that did not fit (see the module doc)."""
    button_rows = chunk_buttons(_buttons(state, legal, locale))
    groups = [g for g in _groups(state, legal, locale) if len(g)]
    free = MAX_ROWS - len(button_rows)
    mixed = t(locale, "harmonies.ui.select.mixed")
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
        options = tuple(
            replace(
                o,
                label=clip(o.label, MAX_OPTION_LABEL),
                description=o.description and clip(o.description, MAX_OPTION_LABEL),
            )
            for o in group.short
        )
        rows.append((Select(clip(group.placeholder, 150), options),))
    left_out = tuple(o.action for g in dropped for o in g.short)
    return ControlRows(tuple(rows)), left_out


# -- events ---------------------------------------------------------------------------------------


class _Lines:
    """Collects a turn's sentences, grouping consecutive token and cube placements."""

    def __init__(self, locale: str | None) -> None:
        self.locale = locale
        self.lines: list[str] = []
        self.places: list[str] = []
        self.cubes: list[str] = []
        self.player = ""

    def flush(self) -> None:
        loc = self.locale
        if self.places:
            text = join_list(loc, self.places)
            self.lines.append(
                t(loc, "harmonies.ui.event.place", player=self.player, placements=text)
            )
        if self.cubes:
            text = join_list(loc, self.cubes)
            key = (
                "harmonies.ui.event.cube" if len(self.cubes) > 1 else "harmonies.ui.event.cube_one"
            )
            self.lines.append(t(loc, key, player=self.player, cubes=text))
        self.places, self.cubes = [], []

    def add(self, line: str) -> None:
        self.flush()
        self.lines.append(line)

    def step(self, s: HarmoniesState, code: str, player: str) -> HarmoniesState:
        """Describe one player step taken in ``s`` and return the state after it."""
        loc = self.locale
        nxt = ENGINE.apply(s, ENGINE.decode_action(code))
        kind, _, rest = code.partition(":")
        if player != self.player:
            self.flush()
            self.player = player
        if kind == "take":
            slot = int(rest) - 1
            tokens = colours_text(loc, s.central[slot])
            self.add(t(loc, "harmonies.ui.event.take", player=player, number=rest, tokens=tokens))
        elif kind == "place":
            colour, _, hex_code = rest.partition(":")
            if self.cubes:
                self.flush()
            self.places.append(
                t(
                    loc,
                    "harmonies.ui.event.place_item",
                    colour=colour_word(loc, colour),
                    hex=hex_code,
                )
            )
        elif kind == "cube":
            num, _, hex_code = rest.partition(":")
            cid = int(num)
            if self.places:
                self.flush()
            card = card_text(loc, cid)
            if CARDS[cid].spirit:
                self.cubes.append(t(loc, "harmonies.ui.event.spirit_item", card=card, hex=hex_code))
            else:
                placed = nxt.players[s.active].placed(cid)
                points = CARDS[cid].track[placed - 1]
                key = (
                    "harmonies.ui.event.cube_item_done"
                    if placed == len(CARDS[cid].track)
                    else "harmonies.ui.event.cube_item"
                )
                self.cubes.append(t(loc, key, card=card, hex=hex_code, points=points))
        elif kind in ("card", "discard", "keep"):
            card = card_text(loc, int(rest))
            self.add(t(loc, f"harmonies.ui.event.{kind}", player=player, card=card))
        elif kind == "undo":
            step = describe_code(s, s.steps[-1], loc) if s.steps else ""
            self.add(t(loc, "harmonies.ui.event.undo", player=player, step=step))
        return nxt


def describe_code(state: HarmoniesState | None, code: str, locale: str | None) -> str:
    """One move code in words (``state`` is the state before it, when known)."""
    kind, _, rest = code.partition(":")
    parts = rest.split(":")
    try:
        if kind == "take":
            if state is not None and 0 < int(rest) <= len(state.central):
                tokens = colours_text(locale, state.central[int(rest) - 1])
                return t(locale, "harmonies.ui.log.take_tokens", number=rest, tokens=tokens)
            return t(locale, "harmonies.ui.log.take", number=rest)
        if kind == "place":
            return t(
                locale, "harmonies.ui.log.place", colour=colour_word(locale, parts[0]), hex=parts[1]
            )
        if kind == "cube":
            return t(
                locale, "harmonies.ui.log.cube", card=card_text(locale, int(parts[0])), hex=parts[1]
            )
        if kind in ("card", "discard", "keep", "spirit", "deal"):
            return t(locale, f"harmonies.ui.log.{kind}", card=card_text(locale, int(rest)))
        if kind == "first":
            return t(locale, "harmonies.ui.log.first", seat=int(rest) + 1)
        if kind == "draw":
            return t(
                locale,
                "harmonies.ui.log.draw",
                colour=colour_word(locale, parts[1]),
                number=parts[0],
            )
        if kind in ("undo", "end"):
            return t(locale, f"harmonies.ui.log.{kind}")
    except (ValueError, IndexError, KeyError):
        pass
    return code


def _final_lines(s: HarmoniesState, names: Sequence[str], locale: str | None) -> list[str]:
    lines = [t(locale, "harmonies.ui.event.over")]
    sep = t(locale, "list.sep")
    for seat, parts in enumerate(ENGINE.breakdown(s)):
        text = sep.join(
            t(
                locale,
                "harmonies.ui.event.final_part",
                category=t(locale, f"harmonies.ui.category.{c}"),
                points=parts[c],
            )
            for c in CATEGORIES
            if c != "spirit" or s.options.spirits
        )
        lines.append(
            t(
                locale,
                "harmonies.ui.event.final",
                player=name_of(names, seat),
                total=parts["total"],
                parts=text,
            )
        )
    if s.seats == 1:
        total = ENGINE.scores(s)[0]
        lines.append(t(locale, "harmonies.ui.event.solo", score=total, suns=ENGINE.suns(s)))
        return lines
    totals = ENGINE.scores(s)
    tied = [seat for seat, total in enumerate(totals) if total == max(totals)]
    if len(tied) > 1:  # the result line names the winners; say how the tie was settled
        players = join_list(locale, [name_of(names, seat) for seat in tied])
        shared = len(ENGINE.winners(s)) == len(tied)
        key = "harmonies.ui.event.shared" if shared else "harmonies.ui.event.tiebreak"
        lines.append(t(locale, key, players=players))
    return lines


# -- the presenter --------------------------------------------------------------------------------


class HarmoniesPresenter:
    """Turn steps are answered privately; ``end`` publishes the new board for everyone."""

    public_every_action = False

    def ends_turn(self, moves: Sequence[LoggedMove]) -> bool:
        """End turn is public even when the same seat plays next (solo)."""
        return any(ends_turn(ENGINE.decode_action(m.action)) for m in moves)

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        return layout(state, legal, locale)[0]

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        try:
            return self._events(before, moves, after, names, locale)
        except Exception:  # words must never break a turn: fall back to the log lines
            return [describe_code(None, m.action, locale) for m in moves] or ["…"]

    def _events(
        self,
        before: HarmoniesState,
        moves: Sequence[LoggedMove],
        after: HarmoniesState,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        out = _Lines(locale)
        refills: dict[int, list[str]] = {}
        deals: list[str] = []
        steps_here = 0
        state = before
        for move in moves:
            kind = move.action.partition(":")[0]
            if move.seat is None or state.phase == Phase.CHANCE:
                if kind == "draw":
                    space, _, colour = move.action.partition(":")[2].partition(":")
                    refills.setdefault(int(space), []).append(colour)
                elif kind == "deal":
                    deals.append(card_text(locale, int(move.action.partition(":")[2])))
                state = ENGINE.apply(state, ENGINE.decode_action(move.action))
                continue
            player = name_of(names, state.active)
            if ends_turn(ENGINE.decode_action(move.action)):
                if not steps_here:  # the steps were private: tell everyone the whole turn
                    replay = turn_start(state)
                    for code in state.steps:
                        replay = out.step(replay, code, player)
                nxt = ENGINE.apply(state, ENGINE.decode_action(move.action))
                score = ENGINE.scores(nxt)[state.active]
                out.add(t(locale, "harmonies.ui.event.end", player=player, score=score))
                if nxt.triggered and not state.triggered and nxt.phase != Phase.OVER:
                    out.add(t(locale, "harmonies.ui.event.triggered"))
                steps_here = 0
                state = nxt
            else:
                state = out.step(state, move.action, player)
                steps_here += 1
        out.flush()
        lines = out.lines
        if refills:
            spaces = [
                t(
                    locale,
                    "harmonies.ui.event.refill_item",
                    number=n,
                    tokens=colours_text(locale, colours),
                )
                for n, colours in sorted(refills.items())
            ]
            joined = t(locale, "harmonies.ui.event.refill_sep").join(spaces)
            lines.append(t(locale, "harmonies.ui.event.refill", spaces=joined))
        if deals:
            lines.append(t(locale, "harmonies.ui.event.deal", cards=join_list(locale, deals)))
        if after.phase == Phase.OVER and before.phase != Phase.OVER:
            lines += _final_lines(after, names, locale)
        return lines

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        s: HarmoniesState = state
        if s.phase == Phase.OVER:
            if s.seats == 1:
                total = ENGINE.scores(s)[0]
                return t(locale, "harmonies.ui.prompt.solo_over", score=total, suns=ENGINE.suns(s))
            winners = [name_of(names, w) for w in ENGINE.winners(s)]
            return t(locale, "harmonies.ui.prompt.over", players=join_list(locale, winners))
        if s.phase == Phase.CHANCE:
            return t(locale, "harmonies.ui.prompt.chance")
        player = name_of(names, s.active)
        legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]
        cards = any(c.startswith(("card:", "discard:")) for c in legal)
        cubes = any(c.startswith("cube:") for c in legal)
        more = "_more" if cards or cubes else ""
        params: dict[str, object] = {}
        step = turn_step(s)
        if step is TurnStep.KEEP:
            key = "harmonies.ui.prompt.keep"
        elif step is TurnStep.TAKE:
            key = f"harmonies.ui.prompt.take{more}"
        elif step is TurnStep.PLACE:
            key = f"harmonies.ui.prompt.place{'' if len(s.hand) > 1 else '_one'}{more}"
            params = {"count": len(s.hand), "tokens": colours_text(locale, s.hand)}
        else:
            key = {
                (True, True): "harmonies.ui.prompt.finish",
                (False, True): "harmonies.ui.prompt.finish_no_card",
                (True, False): "harmonies.ui.prompt.finish_card",
                (False, False): "harmonies.ui.prompt.finish_end",
            }[(cards, cubes)]
        text = t(locale, key, player=player, **params)
        if layout(s, legal, locale)[1]:
            text = "\n".join([text, t(locale, "harmonies.ui.prompt.more")])
        return text

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        return describe_code(state_before, move.action, locale)

    def rules_summary(self, locale: str | None) -> str:
        return t(locale, "harmonies.ui.rules")


PRESENTER = HarmoniesPresenter()
