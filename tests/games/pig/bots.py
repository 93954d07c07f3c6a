"""Pig's computer opponents: easy rolls or holds at random, medium holds at 20 (or when the
goal is in reach), hard as medium but rolls on to 30 while another seat is about to win."""

from __future__ import annotations

from engines.rng import Rng
from tests.games.pig.engine import HOLD, ROLL, PigEngine, PigState

HOLD_AT = 20
RACE_AT = 30


class PigBot:
    def __init__(self, level: str) -> None:
        self.name = f"pig-{level}"
        self.level = level

    def choose(self, engine: PigEngine, state: PigState, rng: Rng) -> str:
        legal = list(engine.legal_actions(state))
        if self.level == "easy":
            return rng.choice(legal)
        if HOLD not in legal:
            return ROLL
        need = state.goal - state.scores[state.mover]
        others = max(v for seat, v in enumerate(state.scores) if seat != state.mover)
        racing = self.level == "hard" and others >= state.goal - HOLD_AT
        return HOLD if state.total >= min(RACE_AT if racing else HOLD_AT, need) else ROLL


def make_bot(level: str) -> PigBot:
    return PigBot(level)
