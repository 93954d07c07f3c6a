"""The engine contract shared by every game (OpenSpiel's State API as pure functions).

An engine is a stateless object; states are frozen dataclasses. Every decision a player makes and
every chance outcome (dice, bag draws) is one action with a short text code, so a game is fully
described by (seats, options, seed, action log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engines.rng import Rng

#: ``to_move`` returns a seat number (0-based), or one of these markers.
CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option a host can set when opening a lobby.

    ``kind`` is ``"bool"`` or ``"choice"``; ``choices`` lists the allowed values of a choice.
    """

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()

    def parse(self, value: object) -> object:
        """Validate one option value (also accepts the text forms a CLI or slash command gives)."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise ValueError(f"{self.name}: expected on/off, got {value!r}")
        if self.kind == "choice":
            text = str(value)
            if text not in self.choices:
                raise ValueError(f"{self.name}: expected one of {self.choices}, got {value!r}")
            return text
        raise ValueError(f"unknown option kind {self.kind}")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What the rest of the system needs to know about a game without playing it (each field's
    uses: ``docs/adding-a-game.md``)."""

    name: str  # registry id: the /play subcommand, the catalogue namespace, the stored game's
    title: str  # shown only when the catalogue has no ``<name>.title``
    min_seats: int  # smallest table a lobby may start
    max_seats: int  # largest table, and a lobby's size when the host names none
    #: upper bound on the log length of any game (chance included): every game ends; the
    #: per-game random playouts are held to it
    max_moves: int
    #: stored with each game and in its export; ``boardroom verify`` refuses an export of another
    #: version. Raise it when a rule change would replay an old log differently
    rules_version: int
    options: tuple[OptionSpec, ...] = field(default=())  # what a host may set (/play parameters)

    def normalize_options(self, given: Mapping[str, object] | None) -> dict[str, object]:
        """Fill defaults and validate; unknown names are an error."""
        given = dict(given or {})
        known = {spec.name: spec for spec in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        return {
            name: spec.parse(given[name]) if name in given else spec.default
            for name, spec in known.items()
        }


class Engine(Protocol[S, A]):
    """The contract every game implements. Pure: no I/O, no global randomness."""

    info: GameInfo

    def initial_state(self, seats: int, options: Mapping[str, object]) -> S: ...

    def to_move(self, s: S) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        ...

    def turn(self, s: S) -> int:
        """How many turns have ended: 0 during the first turn, one more each time a turn ends
        (the next seat takes over, or in solo play the same seat starts a new turn), as
        boardgame.io's ``ctx.turn``. An action (with the chance steps it opened) ended a turn
        exactly when ``turn(after) > turn(before)``; steps inside a turn leave it unchanged."""
        ...

    def legal_actions(self, s: S) -> Sequence[A]:
        """Sorted, stable order; empty only when the game is over."""
        ...

    def apply(self, s: S, a: A) -> S:
        """A new state; raises ``IllegalAction`` (``s`` untouched) when ``a`` is not legal."""
        ...

    def sample_chance(self, s: S, rng: Rng) -> A:
        """Only when ``to_move(s) == CHANCE``: draw the chance outcome with the given generator."""
        ...

    def scores(self, s: S) -> tuple[int, ...]: ...

    def winners(self, s: S) -> tuple[int, ...]:
        """Seats that won (several on a full tie); empty while the game runs."""
        ...

    def encode_action(self, a: A) -> str: ...

    def decode_action(self, text: str) -> A:
        """Raises ``BadActionText`` for text that is not an action of this game."""
        ...

    def encode_state(self, s: S) -> dict[str, Any]: ...

    def decode_state(self, d: Mapping[str, Any]) -> S:
        """Raises ``OldEncoding`` for a state stored before the encoding changed (the service then
        rebuilds it by replaying the move log), never a guess."""
        ...

    def view(self, s: S, seat: int | None) -> S:
        """The state as ``seat`` may see it (``None``: a spectator)."""
        ...
