"""Pig for two to four: on your turn roll a die as often as you like, adding it to the turn's
total; hold to bank the total, but a 1 loses it and ends the turn. Whoever reaches the goal wins
at once; after ``ROUNDS`` rounds the highest score wins (a tie shares the win)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.base import CHANCE, TERMINAL, GameInfo, OptionSpec
from engines.errors import BadActionText, IllegalAction
from engines.rng import Rng

GOALS = ("50", "100")
ROUNDS = 20
ROLL, HOLD = "roll", "hold"
FACES = tuple(f"die:{n}" for n in range(1, 7))


@dataclass(frozen=True, slots=True)
class PigState:
    goal: int
    scores: tuple[int, ...]
    mover: int = 0
    total: int = 0  # the turn's total, not banked yet
    rolling: bool = False  # the die is in the air: chance is to move
    die: int | None = None  # the last face rolled
    turn: int = 0  # turns ended
    winners: tuple[int, ...] = ()

    @property
    def seats(self) -> int:
        return len(self.scores)


def _max_moves() -> int:
    """A turn is at most goal/2 rolls that are not a 1 (each a roll and its die) and a hold."""
    longest_turn = 2 * (max(int(g) for g in GOALS) // 2 + 1) + 1
    return 4 * ROUNDS * longest_turn


class PigEngine:
    info = GameInfo(
        name="pig",
        title="Pig",
        min_seats=2,
        max_seats=4,
        max_moves=_max_moves(),
        rules_version=1,
        options=(OptionSpec("goal", "choice", "100", GOALS),),
    )

    def initial_state(self, seats: int, options: Mapping[str, object]) -> PigState:
        goal = int(str(self.info.normalize_options(options)["goal"]))
        return PigState(goal, (0,) * seats)

    def to_move(self, s: PigState) -> int:
        if s.winners:
            return TERMINAL
        return CHANCE if s.rolling else s.mover

    def turn(self, s: PigState) -> int:
        return s.turn

    def legal_actions(self, s: PigState) -> Sequence[str]:
        mover = self.to_move(s)
        if mover == TERMINAL:
            return ()
        if mover == CHANCE:
            return FACES
        return (HOLD, ROLL) if s.total else (ROLL,)

    def apply(self, s: PigState, a: str) -> PigState:
        if a not in self.legal_actions(s):
            raise IllegalAction(a)
        if a == ROLL:
            return replace(s, rolling=True)
        if a == HOLD:
            return self._end_turn(s, s.total)
        face = int(a.split(":")[1])
        s = replace(s, rolling=False, die=face)
        if face == 1:
            return self._end_turn(s, 0)
        s = replace(s, total=s.total + face)
        if s.scores[s.mover] + s.total >= s.goal:
            return self._end_turn(s, s.total)
        return s

    def _end_turn(self, s: PigState, banked: int) -> PigState:
        scores = tuple(v + banked if i == s.mover else v for i, v in enumerate(s.scores))
        s = replace(s, scores=scores, total=0, turn=s.turn + 1, mover=(s.mover + 1) % s.seats)
        if max(scores) >= s.goal or s.turn >= ROUNDS * s.seats:
            best = max(scores)
            s = replace(s, winners=tuple(i for i, v in enumerate(scores) if v == best))
        return s

    def sample_chance(self, s: PigState, rng: Rng) -> str:
        return FACES[rng.below(6)]

    def scores(self, s: PigState) -> tuple[int, ...]:
        return s.scores

    def winners(self, s: PigState) -> tuple[int, ...]:
        return s.winners

    def encode_action(self, a: str) -> str:
        return a

    def decode_action(self, text: str) -> str:
        if text not in (ROLL, HOLD, *FACES):
            raise BadActionText(text)
        return text

    def encode_state(self, s: PigState) -> dict[str, Any]:
        return {
            "goal": s.goal,
            "scores": list(s.scores),
            "mover": s.mover,
            "total": s.total,
            "rolling": s.rolling,
            "die": s.die,
            "turn": s.turn,
            "winners": list(s.winners),
        }

    def decode_state(self, d: Mapping[str, Any]) -> PigState:
        return PigState(
            int(d["goal"]),
            tuple(int(v) for v in d["scores"]),
            int(d["mover"]),
            int(d["total"]),
            bool(d["rolling"]),
            None if d["die"] is None else int(d["die"]),
            int(d["turn"]),
            tuple(int(v) for v in d["winners"]),
        )

    def view(self, s: PigState, seat: int | None) -> PigState:
        return s  # nothing is hidden
