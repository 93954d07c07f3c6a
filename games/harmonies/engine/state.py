"""Harmonies state: frozen, hashable, JSON-codable.

Token stacks are tuples of colour names, bottom first, one per cell of the side's board (cell
order of ``cards.BOARD_CELLS``). ``cubes`` holds, per cell, the id of the card whose cube sits
there (0: none). ``cards`` lists the cards a player took, in order, as ``(id, cubes placed)``;
a kept spirit card is one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from games.harmonies.engine.cards import CARDS, MAX_IN_PROGRESS


class Phase(StrEnum):
    """Where the game is; the values are the phase strings of the stored encoding."""

    CHANCE = "chance"  # setup or end-of-turn refills: chance steps until nothing is pending
    TURN = "turn"  # the active player acts
    OVER = "over"


class TurnStep(StrEnum):
    """What the active player does next in a turn (``turn.turn_step`` reads it from the state).

    Taking an animal card (solo: or discarding one) and placing cubes fit in at any step after
    ``KEEP``; only ``FINISH`` may end the turn.
    """

    KEEP = "keep"  # keep one of the two spirit cards dealt
    TAKE = "take"  # take the tokens of one central space
    PLACE = "place"  # put the taken tokens on the board
    FINISH = "finish"  # every token placed: cubes, a card, or End turn


class ChanceStep(StrEnum):
    """The chance step a chance phase needs next; the values are the chance action kinds."""

    FIRST = "first"  # who starts
    SPIRIT = "spirit"  # deal the next spirit card
    DRAW = "draw"  # one bag token into the first space still to refill
    DEAL = "deal"  # one animal card into an empty display slot


NO_SEAT = -1
#: the version of the JSON encoding (``codec``); 2 added the turn counter
ENCODING = 2


@dataclass(frozen=True, slots=True)
class Options:
    side: str = "A"
    spirits: bool = False
    #: D1 alternative reading: a looping river scores its shortest-path diameter only
    river_loops_diameter: bool = False


@dataclass(frozen=True, slots=True)
class Player:
    stacks: tuple[tuple[str, ...], ...]
    cubes: tuple[int, ...]
    cards: tuple[tuple[int, int], ...] = ()
    #: the two spirit cards dealt, until the player keeps one
    offer: tuple[int, ...] = ()

    def in_progress(self) -> tuple[int, ...]:
        """Ids of held cards that still carry a cube."""
        return tuple(cid for cid, n in self.cards if n < len(CARDS[cid].track))

    def can_take_card(self) -> bool:
        return len(self.in_progress()) < MAX_IN_PROGRESS

    def empty_cells(self) -> int:
        return sum(1 for stack in self.stacks if not stack)

    def placed(self, card_id: int) -> int:
        for cid, n in self.cards:
            if cid == card_id:
                return n
        return 0

    def spirit(self) -> int:
        """The kept spirit card's id, 0 without one."""
        for cid, _ in self.cards:
            if CARDS[cid].spirit:
                return cid
        return 0


@dataclass(frozen=True, slots=True)
class TurnStart:
    """What the active player's turn may change, as it was when the turn began (for undo)."""

    central: tuple[tuple[str, ...], ...]
    display: tuple[int, ...]
    discard: tuple[int, ...]
    player: Player


@dataclass(frozen=True, slots=True)
class HarmoniesState:
    """One moment of a game.

    ``bag`` counts tokens per colour (``cards.COLOURS`` order). ``central`` holds each central
    space's tokens, ``display`` the face-up animal cards (0: an empty slot), ``deck`` the sorted
    draw pile, ``discard`` animal cards discarded in solo, ``spirit_deck`` the undealt spirits.
    ``refill`` lists central spaces (0-based) still to be filled during a chance phase.
    ``hand`` holds taken tokens not yet placed; ``taken`` the space taken this turn (-1: none);
    with the player's ``offer`` they encode the step of the turn that ``turn.turn_step`` names.
    ``card_done`` says whether the turn's card action (take, or solo discard) is used;
    ``steps`` holds the action codes played this turn and ``start`` the turn-start snapshot,
    both for undo. ``turn`` counts the turns ended so far (all seats), ``turns[p]`` those of
    seat ``p``; ``triggered`` says whether the game end is triggered and ``token_discard`` how
    many tokens solo play put out of the game.
    """

    seats: int
    options: Options
    bag: tuple[int, ...]
    central: tuple[tuple[str, ...], ...]
    display: tuple[int, ...]
    deck: tuple[int, ...]
    players: tuple[Player, ...]
    discard: tuple[int, ...] = ()
    spirit_deck: tuple[int, ...] = ()
    refill: tuple[int, ...] = ()
    phase: Phase = Phase.CHANCE
    first: int = NO_SEAT
    active: int = 0
    hand: tuple[str, ...] = ()
    taken: int = -1
    card_done: bool = False
    steps: tuple[str, ...] = ()
    start: TurnStart | None = None
    turn: int = 0
    turns: tuple[int, ...] = ()
    triggered: bool = False
    token_discard: int = 0
    v: int = ENCODING

    @property
    def side(self) -> str:
        return self.options.side

    @property
    def player(self) -> Player:
        return self.players[self.active]

    def tokens_in_play(self) -> int:
        """Every token accounted for (always 120): bag, central, boards, hand, solo discards."""
        return (
            sum(self.bag)
            + sum(len(slot) for slot in self.central)
            + sum(len(stack) for p in self.players for stack in p.stacks)
            + len(self.hand)
            + self.token_discard
        )
