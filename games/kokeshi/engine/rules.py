"""Kokeshi rules behind the engine contract (games/kokeshi/rules.md).

Every choice the rules give a player is its own action, offered even when only one option
exists; steps the rules fix (a named kokeshi or animal, a lone pending tile) run on their own.
Bag draws and the first player are chance steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import CHANCE, TERMINAL, GameInfo, OptionSpec
from engines.errors import BadOptions, IllegalAction, OldEncoding
from engines.rng import Rng
from games.kokeshi.engine import actions as ac
from games.kokeshi.engine import todo
from games.kokeshi.engine.actions import Action
from games.kokeshi.engine.cascade import advance, legal, perform
from games.kokeshi.engine.data import Data, ach_tile, load
from games.kokeshi.engine.scoring import best_seats, breakdown, totals
from games.kokeshi.engine.state import KokeshiState, Phase
from games.kokeshi.engine.work import Work

INFO = GameInfo(
    name="kokeshi",
    title="Kokeshi",
    min_seats=2,
    max_seats=4,
    max_moves=20_000,
    rules_version=1,
    options=(OptionSpec("animal_side", "choice", "basic", ("basic", "advanced")),),
)


class KokeshiEngine:
    """Pure Kokeshi rules. ``data`` defaults to the packaged ``data.json``."""

    info = INFO

    def __init__(self, data: Data | None = None) -> None:
        self.data = data or load()

    def _work(self, s: KokeshiState) -> Work:
        return Work(s, self.data)

    def initial_state(self, seats: int, options: Mapping[str, object]) -> KokeshiState:
        if not INFO.min_seats <= seats <= INFO.max_seats:
            raise BadOptions(f"Kokeshi takes {INFO.min_seats}-{INFO.max_seats} seats, not {seats}")
        try:
            opts = INFO.normalize_options(options)
        except ValueError as exc:
            raise BadOptions(str(exc)) from exc
        d = self.data
        ncol = len(d.columns)
        s = KokeshiState(
            seats=seats,
            side=str(opts["animal_side"]),
            boards=(((),) * ncol,) * seats,
            pos=((0,) * ncol,) * seats,
            happiness=(0,) * seats,
            animals=(tuple((seat, 0) for seat in range(seats)),) * len(d.animals),
            bonus=(),
            bag=tuple(range(len(d.tiles))),
            ach_supply=tuple(sorted(ach_tile(c, lv) for c in range(ncol) for lv in d.levels)),
        )
        w = self._work(s)
        advance(w)
        return w.freeze()

    def to_move(self, s: KokeshiState) -> int:
        if s.phase == Phase.OVER:
            return TERMINAL
        if s.phase.is_chance:
            return CHANCE
        return s.active

    def turn(self, s: KokeshiState) -> int:
        """Ended turns: each seat's setup placements count as one turn, then every played turn."""
        return s.turn

    def legal_actions(self, s: KokeshiState) -> tuple[Action, ...]:
        if s.phase == Phase.OVER:
            return ()
        return legal(self._work(s))

    def apply(self, s: KokeshiState, a: Action) -> KokeshiState:
        if a not in self.legal_actions(s):
            raise IllegalAction(ac.encode(a) if a.values else a.kind)
        w = self._work(s)
        perform(w, a)
        return w.freeze()

    def sample_chance(self, s: KokeshiState, rng: Rng) -> Action:
        if s.phase == Phase.FIRST:
            return ac.act(ac.FIRST, rng.below(s.seats))
        if s.phase == Phase.DRAW:
            return ac.act(ac.DRAW, s.bag[rng.below(len(s.bag))])  # bag is kept sorted
        raise IllegalAction("no chance step here")

    def scores(self, s: KokeshiState) -> tuple[int, ...]:
        """Totals as if the game were scored now (final totals once it is over)."""
        return totals(self.data, s)

    def breakdown(self, s: KokeshiState, seat: int) -> dict[str, int]:
        """Points per scoring step (see ``scoring.STEPS``)."""
        return breakdown(self.data, s, seat)

    def winners(self, s: KokeshiState) -> tuple[int, ...]:
        return best_seats(self.data, s) if s.phase == Phase.OVER else ()

    def encode_action(self, a: Action) -> str:
        return ac.encode(a)

    def decode_action(self, text: str) -> Action:
        return ac.decode(text)

    def encode_state(self, s: KokeshiState) -> dict[str, Any]:
        return {
            "v": s.v,
            "seats": s.seats,
            "side": s.side,
            "boards": [[list(col) for col in board] for board in s.boards],
            "pos": [list(p) for p in s.pos],
            "happiness": list(s.happiness),
            "animals": [[list(e) for e in track] for track in s.animals],
            "bonus": list(s.bonus),
            "bag": list(s.bag),
            "display": list(s.display),
            "ach_supply": list(s.ach_supply),
            "removed": list(s.removed),
            "phase": s.phase.value,
            "first": s.first,
            "active": s.active,
            "in_setup": s.in_setup,
            "setup_done": s.setup_done,
            "hand": list(s.hand),
            "queue": [list(q) for q in s.queue],
            "todo": [list(todo.encode(item)) for item in s.todo],
            "pending": [list(p) for p in s.pending],
            "free": list(s.free),
            "turns": s.turns,
            "turn": s.turn,
            "end_after": s.end_after,
            "events": [list(e) for e in s.events],
        }

    def decode_state(self, d: Mapping[str, Any]) -> KokeshiState:
        if "turn" not in d:
            raise OldEncoding("a Kokeshi state stored before turns were counted")
        return KokeshiState(
            seats=d["seats"],
            side=d["side"],
            boards=tuple(tuple(tuple(col) for col in board) for board in d["boards"]),
            pos=tuple(tuple(p) for p in d["pos"]),
            happiness=tuple(d["happiness"]),
            animals=tuple(tuple((e[0], e[1]) for e in track) for track in d["animals"]),
            bonus=tuple(d["bonus"]),
            bag=tuple(d["bag"]),
            display=tuple(d["display"]),
            ach_supply=tuple(d["ach_supply"]),
            removed=tuple(d["removed"]),
            phase=Phase(d["phase"]),
            first=d["first"],
            active=d["active"],
            in_setup=d["in_setup"],
            setup_done=d["setup_done"],
            hand=tuple(d["hand"]),
            queue=tuple((q[0], q[1]) for q in d["queue"]),
            todo=tuple(todo.decode(t) for t in d["todo"]),
            pending=tuple((p[0], p[1]) for p in d["pending"]),
            free=tuple(d["free"]),
            turns=d["turns"],
            turn=d["turn"],
            end_after=d["end_after"],
            events=tuple(tuple(e) for e in d["events"]),
            v=d.get("v", 1),
        )

    def view(self, s: KokeshiState, seat: int | None) -> KokeshiState:
        return s  # open information: the bag's contents follow from what is on the table
