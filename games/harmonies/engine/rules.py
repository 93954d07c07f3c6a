"""Harmonies rules (``games/harmonies/rules.md``): setup, token stacking, cards and cubes, refills,
the end of the game and the solo mode.

Randomness only happens in chance phases (setup and after ``end``): the first player, spirit
deals, one bag token at a time into a central space, one animal card at a time into the display.
Nothing random happens inside a turn, so ``undo`` rebuilds the turn from its start snapshot.

River loops (side A, decision D1): by default a blue group's length is the larger of its
shortest-path diameter and its largest loop, a loop being a chordless cycle (a ring around
hexes outside the group, or a triangle): a ring of six scores as 6 tokens. Cycles with a
shortcut across them are not loops, which keeps worked example E3c (a shortcut lowers the
river to 11 points) true. The option ``river_loops_diameter`` selects the other reading: the
diameter alone (the ring of six then scores as 4 tokens).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.base import CHANCE, TERMINAL, GameInfo, OptionSpec
from engines.errors import BadOptions, IllegalAction
from engines.rng import Rng
from games.harmonies.engine import actions as act
from games.harmonies.engine import codec, scoring
from games.harmonies.engine.actions import END, UNDO, Action
from games.harmonies.engine.cards import (
    ADDABLE,
    ANIMAL_IDS,
    BAG,
    BOARD_CELLS,
    CARDS,
    CELL_INDEX,
    COLOURS,
    KIND_STACKS,
    PER_SLOT,
    SPIRIT_IDS,
    display_size,
    slots_for,
)
from games.harmonies.engine.state import (
    NO_SEAT,
    ChanceStep,
    HarmoniesState,
    Options,
    Phase,
    Player,
    TurnStart,
    TurnStep,
)
from games.harmonies.engine.turn import ends_turn, turn_start, turn_step

INFO = GameInfo(
    name="harmonies",
    title="Harmonies",
    min_seats=1,
    max_seats=4,
    max_moves=100_000,  # undo makes the log unbounded in principle; this is a sanity cap
    rules_version=1,
    options=(
        OptionSpec("side", "choice", "A", ("A", "B")),
        OptionSpec("spirits", "bool", False),
        OptionSpec("river_loops_diameter", "bool", False),
    ),
)

#: a player with this many empty hexes or fewer at the end of a turn triggers the game end
END_EMPTY_HEXES = 2


def cube_cells(side: str, player: Player, card_id: int) -> tuple[int, ...]:
    """Cell indexes where the card's pattern is present (any of 6 rotations) at a free hex."""
    card = CARDS[card_id]
    index = CELL_INDEX[side]
    stacks = player.stacks
    cube_ok = KIND_STACKS[card.cube_kind]
    found: list[int] = []
    for i, (q, r) in enumerate(BOARD_CELLS[side]):
        if player.cubes[i] or stacks[i] not in cube_ok:
            continue
        for rotation in card.rotations:
            for (dq, dr), kind in rotation[1:]:
                j = index.get((q + dq, r + dr))
                if j is None or stacks[j] not in KIND_STACKS[kind]:
                    break
            else:
                found.append(i)
                break
    return tuple(found)


def can_stack(
    stacks: Sequence[tuple[str, ...]], cubes: Sequence[int], cell: int, colour: str
) -> bool:
    """Stacking rules (§4): what may go on top of this hex, never on a cube."""
    return not cubes[cell] and colour in ADDABLE.get(stacks[cell], frozenset())


def can_add(player: Player, cell: int, colour: str) -> bool:
    return can_stack(player.stacks, player.cubes, cell, colour)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _remove_one(items: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
    i = items.index(value)
    return items[:i] + items[i + 1 :]


def _pending(s: HarmoniesState) -> ChanceStep | None:
    """The chance step needed next in a chance phase (None when none is)."""
    if s.first == NO_SEAT:
        return ChanceStep.FIRST
    if s.options.spirits and any(not p.spirit() and len(p.offer) < 2 for p in s.players):
        return ChanceStep.SPIRIT
    if s.refill:
        return ChanceStep.DRAW
    if 0 in s.display and (s.deck or s.discard):
        return ChanceStep.DEAL
    return None


def _settle(s: HarmoniesState) -> HarmoniesState:
    """Drop finished refills; when no chance step is left, start the active player's turn."""
    refill = s.refill
    while refill and (len(s.central[refill[0]]) >= PER_SLOT or not sum(s.bag)):
        refill = refill[1:]
    s = replace(s, refill=refill)
    if _pending(s) is not None:
        return s
    start = TurnStart(s.central, s.display, s.discard, s.player)
    return replace(s, phase=Phase.TURN, start=start, steps=())


def _next_spirit_seat(s: HarmoniesState) -> int:
    for seat, p in enumerate(s.players):
        if not p.spirit() and len(p.offer) < 2:
            return seat
    raise AssertionError("no spirit to deal")


class HarmoniesEngine:
    """Pure Harmonies rules behind the engine contract."""

    info = INFO

    # -- setup -----------------------------------------------------------------------------

    def initial_state(self, seats: int, options: Mapping[str, object]) -> HarmoniesState:
        if not INFO.min_seats <= seats <= INFO.max_seats:
            raise BadOptions(f"Harmonies takes 1-{INFO.max_seats} seats, not {seats}")
        try:
            opts = Options(**INFO.normalize_options(options))  # type: ignore[arg-type]
        except ValueError as exc:
            raise BadOptions(str(exc)) from exc
        cells = len(BOARD_CELLS[opts.side])
        player = Player(stacks=((),) * cells, cubes=(0,) * cells)
        slots = slots_for(seats)
        s = HarmoniesState(
            seats=seats,
            options=opts,
            bag=BAG,
            central=((),) * slots,
            display=(0,) * display_size(seats),
            deck=ANIMAL_IDS,
            players=(player,) * seats,
            spirit_deck=SPIRIT_IDS if opts.spirits else (),
            refill=tuple(range(slots)),
            first=0 if seats == 1 else NO_SEAT,
            turns=(0,) * seats,
        )
        return _settle(s)

    # -- contract --------------------------------------------------------------------------

    def to_move(self, s: HarmoniesState) -> int:
        if s.phase == Phase.OVER:
            return TERMINAL
        if s.phase == Phase.CHANCE:
            return CHANCE
        return s.active

    def turn(self, s: HarmoniesState) -> int:
        """Turns ended so far: End turn raises it (solo too), setup and refills do not."""
        return s.turn

    def legal_actions(self, s: HarmoniesState) -> tuple[Action, ...]:
        if s.phase == Phase.CHANCE:
            return self._chance_actions(s)
        if s.phase != Phase.TURN:
            return ()
        p = s.player
        step = turn_step(s)
        if step is TurnStep.KEEP:
            return tuple(Action("keep", num=cid) for cid in sorted(p.offer))
        found: list[Action] = []
        if step is TurnStep.TAKE:
            found += [Action("take", num=i + 1) for i, slot in enumerate(s.central) if slot]
        cells = BOARD_CELLS[s.side]
        for colour in sorted(set(s.hand)):
            found += [
                Action("place", colour=colour, cell=cells[i])
                for i in range(len(cells))
                if can_add(p, i, colour)
            ]
        if not s.card_done:
            if p.can_take_card():
                found += [Action("card", num=cid) for cid in s.display if cid]
            if s.seats == 1:
                found += [Action("discard", num=cid) for cid in s.display if cid]
        for cid in p.in_progress():
            found += [Action("cube", num=cid, cell=cells[i]) for i in cube_cells(s.side, p, cid)]
        if s.steps:
            found.append(UNDO)
        if step is TurnStep.FINISH:
            found.append(END)
        return tuple(sorted(found))

    def apply(self, s: HarmoniesState, a: Action) -> HarmoniesState:
        if s.phase == Phase.CHANCE and a.kind in act.CHANCE_KINDS:
            return self._apply_chance(s, a)
        if s.phase == Phase.TURN and a.kind in act.PLAYER_KINDS:
            if ends_turn(a):
                if turn_step(s) is not TurnStep.FINISH:
                    raise IllegalAction(act.encode(a))
                return self._end_turn(s)
            if a == UNDO:
                return self._undo(s)
            if a.kind == "keep":
                return self._keep(s, a)
            return self._turn_action(s, a)
        raise IllegalAction(act.encode(a))

    def sample_chance(self, s: HarmoniesState, rng: Rng) -> Action:
        need = _pending(s) if s.phase == Phase.CHANCE else None
        if need is ChanceStep.FIRST:
            return Action("first", num=rng.below(s.seats))
        if need is ChanceStep.SPIRIT:
            return Action("spirit", num=s.spirit_deck[rng.below(len(s.spirit_deck))])
        if need is ChanceStep.DRAW:
            colour = COLOURS[rng.weighted_index(s.bag)]
            return Action("draw", num=s.refill[0] + 1, colour=colour)
        if need is ChanceStep.DEAL:
            pile = s.deck or s.discard
            return Action("deal", num=pile[rng.below(len(pile))])
        raise IllegalAction("no chance step here")

    def scores(self, s: HarmoniesState) -> tuple[int, ...]:
        """Running totals per seat (the final score once the game is over)."""
        return tuple(b["total"] for b in scoring.state_breakdown(s))

    def breakdown(self, s: HarmoniesState) -> tuple[dict[str, int], ...]:
        """Per seat, points per category (``scoring.CATEGORIES``) and ``total``."""
        return scoring.state_breakdown(s)

    def suns(self, s: HarmoniesState) -> int:
        """Solo result in suns (§11); meaningful for one seat."""
        return scoring.solo_suns(s)

    def winners(self, s: HarmoniesState) -> tuple[int, ...]:
        """Highest total; ties broken by most cubes on the board, then shared (D2)."""
        if s.phase != Phase.OVER:
            return ()
        keys = [
            (total, scoring.cubes_on_board(p))
            for total, p in zip(self.scores(s), s.players, strict=True)
        ]
        best = max(keys)
        return tuple(seat for seat, key in enumerate(keys) if key == best)

    def encode_action(self, a: Action) -> str:
        return act.encode(a)

    def decode_action(self, text: str) -> Action:
        return act.decode(text)

    def encode_state(self, s: HarmoniesState) -> dict[str, Any]:
        return codec.encode_state(s)

    def decode_state(self, d: Mapping[str, Any]) -> HarmoniesState:
        return codec.decode_state(d)

    def view(self, s: HarmoniesState, seat: int | None) -> HarmoniesState:
        return s  # no hidden information: the bag is drawn lazily, never stored in order

    # -- chance ----------------------------------------------------------------------------

    def _chance_actions(self, s: HarmoniesState) -> tuple[Action, ...]:
        need = _pending(s)
        if need is ChanceStep.FIRST:
            return tuple(Action("first", num=i) for i in range(s.seats))
        if need is ChanceStep.SPIRIT:
            return tuple(Action("spirit", num=cid) for cid in s.spirit_deck)
        if need is ChanceStep.DRAW:
            slot = s.refill[0] + 1
            return tuple(
                sorted(
                    Action("draw", num=slot, colour=c)
                    for c, n in zip(COLOURS, s.bag, strict=True)
                    if n
                )
            )
        if need is ChanceStep.DEAL:
            return tuple(Action("deal", num=cid) for cid in (s.deck or s.discard))
        return ()

    def _apply_chance(self, s: HarmoniesState, a: Action) -> HarmoniesState:
        if a not in self._chance_actions(s):
            raise IllegalAction(act.encode(a))
        if a.kind == "first":
            return _settle(replace(s, first=a.num, active=a.num))
        if a.kind == "spirit":
            seat = _next_spirit_seat(s)
            p = s.players[seat]
            p = replace(p, offer=(*p.offer, a.num))
            return _settle(
                replace(
                    s,
                    players=_set(s.players, seat, p),
                    spirit_deck=_remove_one(s.spirit_deck, a.num),
                )
            )
        if a.kind == "draw":
            slot = a.num - 1
            colour_index = COLOURS.index(a.colour)
            bag = _set(s.bag, colour_index, s.bag[colour_index] - 1)
            central = _set(s.central, slot, (*s.central[slot], a.colour))
            return _settle(replace(s, bag=bag, central=central))
        # deal: the pile is the draw pile, or (solo, D4) the reshuffled discards
        deck, discard = (s.deck, s.discard) if s.deck else (s.discard, ())
        display = _set(s.display, s.display.index(0), a.num)
        return _settle(replace(s, deck=_remove_one(deck, a.num), discard=discard, display=display))

    # -- the player's turn ---------------------------------------------------------------------

    def _keep(self, s: HarmoniesState, a: Action) -> HarmoniesState:
        p = s.player
        if a.num not in p.offer:
            raise IllegalAction(act.encode(a))
        p = replace(p, offer=(), cards=(*p.cards, (a.num, 0)))
        s = replace(s, players=_set(s.players, s.active, p))
        return replace(s, start=TurnStart(s.central, s.display, s.discard, p))

    def _turn_action(self, s: HarmoniesState, a: Action) -> HarmoniesState:
        p = s.player
        if turn_step(s) is TurnStep.KEEP:
            raise IllegalAction(act.encode(a))
        cells = CELL_INDEX[s.side]
        if a.kind == "take":
            slot = a.num - 1
            has_tokens = 0 <= slot < len(s.central) and bool(s.central[slot])
            if turn_step(s) is not TurnStep.TAKE or not has_tokens:
                raise IllegalAction(act.encode(a))
            s = replace(s, hand=s.central[slot], central=_set(s.central, slot, ()), taken=slot)
        elif a.kind == "place":
            cell = cells.get(a.cell) if a.cell is not None else None
            if cell is None or a.colour not in s.hand or not can_add(p, cell, a.colour):
                raise IllegalAction(act.encode(a))
            p = replace(p, stacks=_set(p.stacks, cell, (*p.stacks[cell], a.colour)))
            s = replace(s, hand=_remove_one(s.hand, a.colour), players=_set(s.players, s.active, p))
        elif a.kind == "card":
            if s.card_done or not a.num or a.num not in s.display or not p.can_take_card():
                raise IllegalAction(act.encode(a))
            p = replace(p, cards=(*p.cards, (a.num, 0)))
            s = replace(
                s,
                display=_set(s.display, s.display.index(a.num), 0),
                players=_set(s.players, s.active, p),
                card_done=True,
            )
        elif a.kind == "discard":
            if s.seats != 1 or s.card_done or not a.num or a.num not in s.display:
                raise IllegalAction(act.encode(a))
            s = replace(
                s,
                display=_set(s.display, s.display.index(a.num), 0),
                discard=tuple(sorted((*s.discard, a.num))),
                card_done=True,
            )
        elif a.kind == "cube":
            cell = cells.get(a.cell) if a.cell is not None else None
            if (
                cell is None
                or a.num not in p.in_progress()
                or cell not in cube_cells(s.side, p, a.num)
            ):
                raise IllegalAction(act.encode(a))
            cards = tuple((cid, n + (cid == a.num)) for cid, n in p.cards)
            p = replace(p, cubes=_set(p.cubes, cell, a.num), cards=cards)
            s = replace(s, players=_set(s.players, s.active, p))
        else:
            raise IllegalAction(act.encode(a))
        return replace(s, steps=(*s.steps, act.encode(a)))

    def _undo(self, s: HarmoniesState) -> HarmoniesState:
        """Take back the last action of this turn by replaying the others from the turn start."""
        if not s.steps or s.start is None:
            raise IllegalAction("undo")
        base = turn_start(s)
        for code in s.steps[:-1]:
            base = self._turn_action(base, act.decode(code))
        return base

    def _end_turn(self, s: HarmoniesState) -> HarmoniesState:
        turns = _set(s.turns, s.active, s.turns[s.active] + 1)
        triggered = (
            s.triggered or sum(s.bag) < PER_SLOT or s.player.empty_cells() <= END_EMPTY_HEXES
        )
        done = replace(s, turn=s.turn + 1, turns=turns, triggered=triggered, steps=(), start=None)
        last_seat = (s.first - 1) % s.seats
        if triggered and (s.seats == 1 or s.active == last_seat):
            return replace(done, phase=Phase.OVER)
        if s.seats == 1:  # solo: the two untaken sets leave the game, all spaces refill
            dropped = sum(len(slot) for slot in s.central)
            done = replace(
                done,
                central=((),) * len(s.central),
                token_discard=s.token_discard + dropped,
                refill=tuple(range(len(s.central))),
            )
        else:
            done = replace(done, refill=(s.taken,))
        done = replace(
            done,
            phase=Phase.CHANCE,
            active=(s.active + 1) % s.seats,
            hand=(),
            taken=-1,
            card_done=False,
        )
        return _settle(done)
