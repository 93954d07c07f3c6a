"""Computer opponents for Harmonies.

* ``easy``   - random legal actions with mild preferences: places a cube when one fits, likes to
  stack on its own tokens, sometimes takes a card; never undoes.
* ``medium`` - greedy one-ply: values a central space by the best gain of each of its tokens
  on the board as it stands, then places the tokens one at a time on the hex that raises the
  board value most; the value is the running score plus progress towards the patterns of the
  animal cards it holds. Places every cube it can (best track gain first) and, once its tokens
  are down, takes the face-up card that fits its board best if it is worth a slot.
* ``hard``   - plans the whole turn: a beam search over the three placements of every central
  space (nothing random happens inside a turn), jointly with which card to take, on a richer
  board value (unfinished trees, mountains, buildings and fields count for what they can still
  become while the board has room). An animal card counts for what its pattern can still
  become anywhere it fits (``card_base``), not only for the part already built, so hard takes
  cards early, while the board has room for their patterns; everything unfinished fades as
  the end nears, judged by the emptiest board at the table (``horizon``: the game ends when
  any board is nearly full). Close calls between the best plans are settled by a look-ahead
  over determinised chance: sampled refills of the central board and opponents' picks, valued
  by the best space it could take next turn.

Measured heads-up against medium, side A, seats alternated, seeds 1-200 (the games of
``python -m bench.bots_games --only harmonies --pairs hard-medium --seed 1``; 95 % Wilson
intervals): hard wins 94.2 % (90.1-96.7 %), 93.6 % moving first and 95.1 % second, scoring 88.4
points on average against medium's 64.5 (animal cards 39.3 against 18.6). Before cards counted
for what they can become and the end was judged by every board, the same seeds gave 79.0 %
(72.8-84.1 %) and 79.2 points. A hard decision takes 4.6 ms of processor time at the median,
283 ms at p95, 404 ms at p99 and 637 ms at most (n = 5,944, seeds 101-200, one core); the
turn's first decision, which plans the whole turn, is the costly one. At bigger tables
(``python -m bench.bots_tables --only harmonies``, 30 games each, hard's seat rotated; before ->
now on the same seeds): with two mediums hard wins 66.7 % -> 93.3 % (78.7-98.2 %), average
rank 1.40 -> 1.07 of 3; with two mediums and easy 73.3 % -> 85.0 % (68.4-93.7 %), rank 1.37 ->
1.17 of 4; with three mediums 51.7 % -> 76.7 % (59.1-88.2 %), rank 1.73 -> 1.30 of 4.

Bots keep no memory between calls: every decision re-plans the rest of the turn from the
state, which gives the same plan because the planner is deterministic. Search sizes are fixed
(beam width, plans re-ranked, samples), never bounded by the clock, so a decision depends only
on the state and the ``Rng`` handed in (sampled chance uses generators derived from it).
Hexes are handled as cell indexes of ``cards.BOARD_CELLS``; actions are always taken from
``engine.legal_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from engines.bots.search import derive
from engines.rng import Rng
from games.harmonies.engine import scoring
from games.harmonies.engine.actions import Action
from games.harmonies.engine.cards import (
    ADDABLE,
    BOARD_CELLS,
    CARDS,
    CELL_INDEX,
    COLOURS,
    KIND_STACKS,
    NEIGHBOURS,
    PER_SLOT,
)
from games.harmonies.engine.rules import can_stack
from games.harmonies.engine.state import HarmoniesState, Phase, Player, TurnStep
from games.harmonies.engine.turn import turn_step

Stack = tuple[str, ...]
Stacks = tuple[Stack, ...]
Placement = tuple[int, tuple[tuple[int, str], ...]]

# --------------------------------------------------------------------------------------------
# board geometry helpers


@cache
def placements(side: str, card_id: int) -> tuple[Placement, ...]:
    """Every on-board position of a card's pattern: (cube cell, ((cell, kind), ...)), cube first."""
    index = CELL_INDEX[side]
    found: list[Placement] = []
    for i, (q, r) in enumerate(BOARD_CELLS[side]):
        for rotation in CARDS[card_id].rotations:
            members: list[tuple[int, str]] = []
            for (dq, dr), kind in rotation:
                j = index.get((q + dq, r + dr))
                if j is None:
                    break
                members.append((j, kind))
            else:
                found.append((i, tuple(members)))
    return tuple(found)


@cache
def compat(kind: str, stack: Stack) -> float:
    """How far ``stack`` is towards a pattern kind: 1 exact, a fraction on the way, -1 never."""
    targets = KIND_STACKS[kind]
    if stack in targets:
        return 1.0
    best = -1.0
    for target in targets:
        if len(stack) < len(target) and target[: len(stack)] == stack:
            best = max(best, len(stack) / len(target))
    return best


def track_gains(card_id: int, placed: int) -> list[float]:
    """Points each further cube of an animal card adds (the track is cumulative)."""
    track = CARDS[card_id].track
    return [track[i] - (track[i - 1] if i else 0) for i in range(placed, len(track))]


# --------------------------------------------------------------------------------------------
# board value


@dataclass(frozen=True, slots=True)
class Weights:
    """Knobs of the board value (points-equivalent)."""

    partial: float = 0.6  # value share of a pattern that is only on its way (times progress^2)
    cards_ahead: int = 3  # how many further cubes of a card count
    trunk1: float = 0.0  # a lone brown (can become a tree of 2 or 3)
    trunk2: float = 0.0  # brown + brown (a green makes it a 7)
    mountain: float = 0.0  # an unfinished grey stack that can still grow
    lone_red: float = 0.0  # a red on its own (may become a building)
    building: float = 0.0  # a building that lacks neighbour colours but has empty neighbours
    field: float = 0.0  # a lone yellow with an empty neighbour
    empty: float = 0.0  # each empty hex (room to build later)
    spirit_floor: float = 6.0  # assumed bonus of an unplaced spirit cube
    card_min: float = 3.0  # a card must be worth this much to take a slot
    room: float = 8.0  # empty hexes below which potentials fade
    end_at: float = 0.0  # empty hexes at which potentials are worth nothing
    horizon: bool = False  # fade potentials with the emptiest opponent board too
    card_base: float = 0.0  # value share of a card pattern that still fits, however far off
    card_decay: float = 1.0  # weight of each further cube of a card relative to the one before


MEDIUM_WEIGHTS = Weights()
HARD_WEIGHTS = Weights(
    partial=0.9,
    trunk1=1.2,
    trunk2=3.0,
    mountain=0.8,
    lone_red=0.8,
    building=1.5,
    field=1.2,
    empty=0.2,
    card_base=0.3,
    horizon=True,
)


def card_value(
    side: str,
    stacks: Stacks,
    cubes: Sequence[int],
    card_id: int,
    placed: int,
    w: Weights,
    late: float,
) -> float:
    """Expected further points of a card: full for patterns present, partial for the way there."""
    card = CARDS[card_id]
    if card.spirit:
        gains = [max(float(scoring.spirit_points(card_id, side, stacks)), w.spirit_floor)]
    else:
        gains = track_gains(card_id, placed)[: w.cards_ahead]
    if not gains:
        return 0.0
    best: dict[int, float] = {}
    for anchor, members in placements(side, card_id):
        if cubes[anchor]:
            continue
        total = 0.0
        for cell, kind in members:
            c = compat(kind, stacks[cell])
            if c < 0 or (c < 1 and cubes[cell]):
                break
            total += c
        else:
            p = total / len(members)
            if p > best.get(anchor, -1.0):
                best[anchor] = p
    progress = sorted(best.values(), reverse=True)[: len(gains)]
    value = 0.0
    weight = 1.0
    for gain, p in zip(gains, progress, strict=False):
        if p >= 1.0:
            value += gain
        else:
            value += gain * weight * late * (w.card_base + w.partial * p * p)
            weight *= w.card_decay
    return value


def landscape_potential(side: str, stacks: Stacks, cubes: Sequence[int], w: Weights) -> float:
    """What unfinished stacks may still become (hard bot only)."""
    nbs = NEIGHBOURS[side]
    value = 0.0
    for i, st in enumerate(stacks):
        if not st:
            value += w.empty
            continue
        if cubes[i]:
            continue
        n = len(st)
        if st == ("brown",):
            value += w.trunk1
        elif st == ("brown", "brown"):
            value += w.trunk2
        elif st[-1] == "grey" and n < 3:
            value += w.mountain
        elif st == ("red",):
            value += w.lone_red
        elif n == 2 and st[-1] == "red":
            tops = {stacks[j][-1] for j in nbs[i] if stacks[j]}
            if len(tops) < 3 and any(not stacks[j] for j in nbs[i]):
                value += w.building
        elif (
            st == ("yellow",)
            and not any(stacks[j] == ("yellow",) for j in nbs[i])
            and any(not stacks[j] for j in nbs[i])
        ):
            value += w.field
    return value


class BoardValue:
    """Values one player's board: running score plus card and landscape potential.

    One instance serves one decision, where the cubes on the board do not change: the parts
    that depend on the stacks alone (landscape score and potential, each card's outlook) are
    remembered per board, since the plans of a turn reach the same boards many times.
    """

    def __init__(
        self, side: str, loops_diameter: bool, w: Weights, landscape: bool, horizon: int = 99
    ) -> None:
        self.side = side
        self.loops = loops_diameter
        self.w = w
        self.landscape = landscape
        #: fewest empty hexes on an opponent's board (the game ends near 2)
        self.horizon = horizon
        self._boards: dict[tuple[Stacks, tuple[int, ...]], tuple[int, float, float]] = {}
        self._cards: dict[tuple[Stacks, tuple[int, ...], int, int], float] = {}

    def late(self, stacks: Stacks) -> float:
        """1 with room to build, falling to 0 as the game end nears."""
        empties = min(sum(1 for st in stacks if not st), self.horizon)
        return max(0.0, min(1.0, (empties - self.w.end_at) / self.w.room))

    def _board(self, stacks: Stacks, cubes: tuple[int, ...]) -> tuple[int, float, float]:
        """(landscape points, late factor, landscape potential) of a board, remembered."""
        key = (stacks, cubes)
        found = self._boards.get(key)
        if found is None:
            side, loops = self.side, self.loops
            points = (
                scoring.trees(stacks)
                + scoring.mountains(side, stacks)
                + scoring.fields(side, stacks)
                + scoring.buildings(side, stacks)
                + scoring.water(side, stacks, loops)
            )
            late = self.late(stacks)
            potential = landscape_potential(side, stacks, cubes, self.w) if self.landscape else 0.0
            found = self._boards[key] = (points, late, potential)
        return found

    def _card(
        self, stacks: Stacks, cubes: tuple[int, ...], card_id: int, placed: int, late: float
    ) -> float:
        key = (stacks, cubes, card_id, placed)
        found = self._cards.get(key)
        if found is None:
            found = card_value(self.side, stacks, cubes, card_id, placed, self.w, late)
            self._cards[key] = found
        return found

    def __call__(
        self,
        stacks: Stacks,
        cubes: Sequence[int],
        cards: Sequence[tuple[int, int]],
    ) -> float:
        side = self.side
        cubes_t = tuple(cubes)
        points, late, potential = self._board(stacks, cubes_t)
        total = points
        for cid, placed in cards:
            if CARDS[cid].spirit:
                if placed:
                    total += scoring.spirit_points(cid, side, stacks)
            else:
                total += scoring.card_points(cid, placed)
        value = float(total)
        for cid, placed in cards:
            if placed < len(CARDS[cid].track):
                value += self._card(stacks, cubes_t, cid, placed, late)
        if self.landscape:
            value += late * potential
        return value


# --------------------------------------------------------------------------------------------
# turn planning


def plan_placements(
    stacks: Stacks,
    cubes: Sequence[int],
    cards: Sequence[tuple[int, int]],
    hand: Sequence[str],
    value: BoardValue,
    beam: int,
) -> tuple[float, tuple[str, int] | None, Stacks]:
    """Best placement of the ``hand`` tokens: (value, first placement (colour, cell), board).

    A beam search over one token at a time (``beam == 1`` is plain greedy); boards reached by
    different orders are merged. Without tokens the board is valued as it stands.
    """
    frontier: list[tuple[float, Stacks, tuple[str, ...], tuple[str, int] | None]] = [
        (value(stacks, cubes, cards), stacks, tuple(sorted(hand)), None)
    ]
    cells = range(len(stacks))
    while frontier[0][2]:
        seen: dict[Stacks, tuple[float, Stacks, tuple[str, ...], tuple[str, int] | None]] = {}
        for _, board, left, first in frontier:
            for colour in sorted(set(left)):
                rest = list(left)
                rest.remove(colour)
                rest_t = tuple(rest)
                for cell in cells:
                    if not can_stack(board, cubes, cell, colour):
                        continue
                    new = (*board[:cell], (*board[cell], colour), *board[cell + 1 :])
                    if new in seen:
                        continue
                    v = value(new, cubes, cards)
                    seen[new] = (v, new, rest_t, first or (colour, cell))
        if not seen:  # no legal spot (cannot happen with >= 3 empty hexes)
            break
        ranked = sorted(seen.values(), key=lambda item: (-item[0], item[1]))
        frontier = ranked[:beam]
    best = frontier[0]
    return best[0], best[3], best[1]


def one_ply_take(
    stacks: Stacks,
    cubes: Sequence[int],
    cards: Sequence[tuple[int, int]],
    tokens: Sequence[str],
    value: BoardValue,
) -> float:
    """One-ply value of a central space: each token's best gain on the board as it stands."""
    base = value(stacks, cubes, cards)
    total = base
    for colour in tokens:
        best = 0.0
        for cell in range(len(stacks)):
            if can_stack(stacks, cubes, cell, colour):
                new = (*stacks[:cell], (*stacks[cell], colour), *stacks[cell + 1 :])
                best = max(best, value(new, cubes, cards) - base)
        total += best
    return total


def _action_for(actions: Sequence[Action], kind: str, **match: Any) -> Action | None:
    for a in actions:
        if a.kind == kind and all(getattr(a, k) == v for k, v in match.items()):
            return a
    return None


class PlannerBot:
    """Medium and hard Harmonies bot: see the module docstring."""

    def __init__(
        self,
        name: str,
        weights: Weights,
        landscape: bool,
        beam: int,
        joint_cards: int,
        lookahead: int,
    ) -> None:
        self.name = name
        self.w = weights
        self.landscape = landscape
        self.beam = beam
        self.joint_cards = joint_cards
        self.lookahead = lookahead

    def board_value(self, s: HarmoniesState) -> BoardValue:
        """The active player's board value for this decision (its own potentials fade as the
        game end nears: with ``horizon``, also when an opponent's board is almost full)."""
        horizon = 99
        if self.w.horizon:
            others = [p.empty_cells() for i, p in enumerate(s.players) if i != s.active]
            horizon = min(others, default=99)
        return BoardValue(s.side, s.options.river_loops_diameter, self.w, self.landscape, horizon)

    def choose(self, engine: Any, state: HarmoniesState, rng: Rng) -> Action:
        actions: Sequence[Action] = engine.legal_actions(state)
        if state.phase != Phase.TURN:
            return actions[0]
        p = state.player
        value = self.board_value(state)
        keeps = [a for a in actions if a.kind == "keep"]
        if keeps:
            return max(keeps, key=lambda a: (self._fit(state, p, a.num, value), -a.num))
        cubes = [a for a in actions if a.kind == "cube"]
        if cubes:
            return self._best_cube(state, p, cubes)
        cards = [a for a in actions if a.kind == "card"]
        step = turn_step(state)
        if step is TurnStep.TAKE:
            return self._start_turn(engine, state, actions, cards, value, rng)
        if step is TurnStep.PLACE:
            _, first, _ = plan_placements(
                p.stacks, p.cubes, p.cards, state.hand, value, max(1, self.beam)
            )
            if first is not None:
                colour, cell = first
                found = _action_for(
                    actions, "place", colour=colour, cell=BOARD_CELLS[state.side][cell]
                )
                if found is not None:
                    return found
            return next(a for a in actions if a.kind == "place")
        if cards:
            best = self._best_card(state, p, cards, value)
            if best is not None:
                return best
        end = _action_for(actions, "end")
        return end if end is not None else actions[0]

    # -- pieces of a turn ------------------------------------------------------------------

    def _fit(self, s: HarmoniesState, p: Player, card_id: int, value: BoardValue) -> float:
        late = value.late(p.stacks)
        return card_value(s.side, p.stacks, p.cubes, card_id, 0, self.w, late)

    def _best_card(
        self, s: HarmoniesState, p: Player, cards: Sequence[Action], value: BoardValue
    ) -> Action | None:
        scored = [(self._fit(s, p, a.num, value), -a.num, a) for a in cards]
        fit, _, best = max(scored)
        return best if fit >= self.w.card_min else None

    def _best_cube(self, s: HarmoniesState, p: Player, cubes: Sequence[Action]) -> Action:
        index = CELL_INDEX[s.side]

        def gain(a: Action) -> tuple[float, int, Action]:
            card = CARDS[a.num]
            placed = p.placed(a.num)
            if card.spirit:
                points = float(scoring.spirit_points(a.num, s.side, p.stacks))
            else:
                points = float(track_gains(a.num, placed)[0])
            cell = index[a.cell] if a.cell is not None else 0
            # prefer hexes that cannot grow any more (a cube freezes its hex)
            frozen = 0 if ADDABLE.get(p.stacks[cell]) else 1
            return points, frozen, a

        return max((gain(a) for a in cubes), key=lambda item: (item[0], item[1]))[2]

    def _start_turn(
        self,
        engine: Any,
        s: HarmoniesState,
        actions: Sequence[Action],
        cards: Sequence[Action],
        value: BoardValue,
        rng: Rng,
    ) -> Action:
        """Choose a card to take first (or none) and the central space to take."""
        p = s.player
        takes = [a for a in actions if a.kind == "take"]
        options: list[tuple[int, tuple[tuple[int, int], ...]]] = [(0, p.cards)]
        if cards:
            ranked = sorted(((self._fit(s, p, a.num, value), -a.num) for a in cards), reverse=True)
            for fit, neg_id in ranked[: self.joint_cards]:
                if fit >= self.w.card_min:
                    options.append((-neg_id, (*p.cards, (-neg_id, 0))))
        if not takes:
            if len(options) > 1:
                found = _action_for(actions, "card", num=options[1][0])
                if found is not None:
                    return found
            end = _action_for(actions, "end")
            return end if end is not None else actions[0]
        plans: list[tuple[float, int, int, Stacks]] = []
        for card_id, held in options:
            for a in takes:
                tokens = s.central[a.num - 1]
                if self.beam:
                    v, _, board = plan_placements(p.stacks, p.cubes, held, tokens, value, self.beam)
                else:
                    v, board = one_ply_take(p.stacks, p.cubes, held, tokens, value), p.stacks
                if card_id:
                    v -= self.w.card_min * 0.5  # a slot is not free
                plans.append((v, card_id, a.num, board))
        plans.sort(key=lambda item: (-item[0], item[1], item[2]))
        if self.lookahead and len(plans) > 1:
            plans = self._look_ahead(s, plans, value, rng)
        _, card_id, space, _ = plans[0]
        if card_id and not s.card_done:
            found = _action_for(actions, "card", num=card_id)
            if found is not None:
                return found
        found = _action_for(actions, "take", num=space)
        return found if found is not None else takes[0]

    def _look_ahead(
        self,
        s: HarmoniesState,
        plans: list[tuple[float, int, int, Stacks]],
        value: BoardValue,
        rng: Rng,
    ) -> list[tuple[float, int, int, Stacks]]:
        """Re-rank close plans by what the next turn may offer (determinised chance).

        For each of the top three plans, sample ``lookahead`` futures with generators derived
        from ``rng``: the taken space refills from the bag (solo: every space refills) and each
        opponent takes one space at random, which then refills too. A plan's value becomes its
        own value plus half the mean best next-turn gain (greedy placement) over the spaces
        left. Plans more than 4 points apart are not re-ranked.
        """
        top = plans[:3]
        if len(top) < 2 or top[0][0] - top[1][0] > 4.0:
            return plans
        p = s.player
        scored = []
        for v, card_id, space, board in top:
            held = p.cards if not card_id else (*p.cards, (card_id, 0))
            base = value(board, p.cubes, held)
            total = 0.0
            sub = derive(rng, f"la:{card_id}:{space}")
            for _ in range(self.lookahead):
                central = list(s.central)
                bag = list(s.bag)
                refill = range(len(central)) if s.seats == 1 else (space - 1,)
                for slot in refill:
                    central[slot] = _draw(bag, sub)
                for _ in range(s.seats - 1):
                    live = [i for i, slot in enumerate(central) if slot]
                    if len(live) <= 1:
                        break
                    gone = live[sub.below(len(live))]
                    central[gone] = _draw(bag, sub)
                best_next = 0.0
                for tokens in central:
                    if tokens:
                        nv, _, _ = plan_placements(board, p.cubes, held, tokens, value, 1)
                        best_next = max(best_next, nv - base)
                total += best_next
            scored.append((v + 0.5 * total / self.lookahead, card_id, space, board))
        scored.sort(key=lambda item: (-item[0], item[1], item[2]))
        return scored + plans[3:]


def _draw(bag: list[int], rng: Rng) -> tuple[str, ...]:
    """Up to one space's worth of tokens drawn from ``bag`` (counts per colour, updated)."""
    drawn: list[str] = []
    while len(drawn) < PER_SLOT and sum(bag) > 0:
        k = rng.weighted_index(bag)
        bag[k] -= 1
        drawn.append(COLOURS[k])
    return tuple(drawn)


class EasyBot:
    """Random legal actions with mild preferences (see the module docstring)."""

    name = "harmonies-easy"

    def choose(self, engine: Any, state: HarmoniesState, rng: Rng) -> Action:
        actions: list[Action] = [a for a in engine.legal_actions(state) if a.kind != "undo"]
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        if "keep" in by_kind:
            return rng.choice(by_kind["keep"])
        if "cube" in by_kind and rng.below(10) < 8:
            return rng.choice(by_kind["cube"])
        if "card" in by_kind and rng.below(10) < 2:
            return rng.choice(by_kind["card"])
        if "take" in by_kind:
            return rng.choice(by_kind["take"])
        if "place" in by_kind:
            places = by_kind["place"]
            index = CELL_INDEX[state.side]
            stacks = state.player.stacks
            stacking = [a for a in places if a.cell is not None and stacks[index[a.cell]]]
            if stacking and rng.below(2):
                return rng.choice(stacking)
            return rng.choice(places)
        if "end" in by_kind:
            return by_kind["end"][0]
        return rng.choice(actions)


def make_bot(level: str) -> Any:
    """The Harmonies bot for ``level`` (easy, medium or hard)."""
    if level == "easy":
        return EasyBot()
    if level == "medium":
        return PlannerBot(
            "harmonies-medium", MEDIUM_WEIGHTS, landscape=False, beam=0, joint_cards=0, lookahead=0
        )
    if level == "hard":
        return PlannerBot(
            "harmonies-hard", HARD_WEIGHTS, landscape=True, beam=4, joint_cards=2, lookahead=2
        )
    raise KeyError(f"unknown bot level {level!r}")
