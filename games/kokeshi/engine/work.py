"""A mutable working copy of a state, used inside one ``apply`` and frozen again at the end."""

from __future__ import annotations

from games.kokeshi.engine.data import Data, ach_colour, is_ach
from games.kokeshi.engine.state import KokeshiState


class Work:
    """Lists instead of tuples; ``freeze`` gives the new immutable state."""

    def __init__(self, s: KokeshiState, data: Data) -> None:
        self.d = data
        self.seats = s.seats
        self.side = s.side
        self.boards = [[list(col) for col in board] for board in s.boards]
        self.pos = [list(p) for p in s.pos]
        self.happiness = list(s.happiness)
        self.animals = [list(track) for track in s.animals]
        self.bonus = list(s.bonus)
        self.bag = list(s.bag)
        self.display = list(s.display)
        self.ach_supply = list(s.ach_supply)
        self.removed = list(s.removed)
        self.phase = s.phase
        self.first = s.first
        self.active = s.active
        self.in_setup = s.in_setup
        self.setup_done = s.setup_done
        self.hand = list(s.hand)
        self.queue = list(s.queue)
        self.todo = list(s.todo)
        self.pending = list(s.pending)
        self.free = list(s.free)
        self.turns = s.turns
        self.turn = s.turn
        self.end_after = s.end_after
        self.events = list(s.events)
        self.v = s.v

    def freeze(self) -> KokeshiState:
        return KokeshiState(
            seats=self.seats,
            side=self.side,
            boards=tuple(tuple(tuple(col) for col in board) for board in self.boards),
            pos=tuple(tuple(p) for p in self.pos),
            happiness=tuple(self.happiness),
            animals=tuple(tuple(track) for track in self.animals),
            bonus=tuple(self.bonus),
            bag=tuple(sorted(self.bag)),
            display=tuple(self.display),
            ach_supply=tuple(sorted(self.ach_supply)),
            removed=tuple(sorted(self.removed)),
            phase=self.phase,
            first=self.first,
            active=self.active,
            in_setup=self.in_setup,
            setup_done=self.setup_done,
            hand=tuple(sorted(self.hand)),
            queue=tuple(self.queue),
            todo=tuple(self.todo),
            pending=tuple(self.pending),
            free=tuple(self.free),
            turns=self.turns,
            turn=self.turn,
            end_after=self.end_after,
            events=tuple(self.events),
            v=self.v,
        )

    # -- queries used by the rules -------------------------------------------------------------

    def height(self, column: int) -> int:
        return len(self.boards[self.active][column])

    def pending_count(self, column: int) -> int:
        return sum(1 for col, _ in self.pending if col == column)

    def has_room(self, column: int) -> bool:
        """§7.1: height plus column-bound pending tiles below the track length."""
        return self.height(column) + self.pending_count(column) < self.d.spaces

    def animal_pos(self, animal: int, seat: int) -> int:
        for who, where in self.animals[animal]:
            if who == seat:
                return where
        raise KeyError(seat)

    def owns_ach(self, seat: int, colour: int) -> bool:
        """Owns an achievement tile of ``colour``, placed or (for the active seat) pending."""
        if any(is_ach(t) and ach_colour(t) == colour for t in self.boards[seat][colour]):
            return True
        return seat == self.active and any(
            is_ach(t) and ach_colour(t) == colour for _, t in self.pending
        )

    def achievements(self, seat: int) -> int:
        """Achievement tiles taken (placed or pending) plus animal midlines passed (§8, C1)."""
        tiles = sum(1 for col in self.boards[seat] for t in col if is_ach(t))
        if seat == self.active:
            tiles += sum(1 for _, t in self.pending if is_ach(t))
        line = self.d.midline
        midlines = sum(1 for a in range(len(self.animals)) if self.animal_pos(a, seat) >= line)
        return tiles + midlines
