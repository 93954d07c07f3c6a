"""``boardroom verify``: replay an exported game and check its fairness proof.

Checked, in order: the file's shape; the commitment (``bot.service.fairness``) against the seed;
then every move from the start: a chance outcome must be exactly what ``Rng.for_step(seed, seq)``
draws at that step (as ``GameService._resolve_chance`` drew it), a player's move must be that
seat's turn and legal; and a finished game must end where the log ends, with the exported scores.
The result is a translation key and its values (the CLI prints the sentence).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.service import fairness
from engines import errors as rule_errors
from engines.base import CHANCE, TERMINAL, Engine
from engines.registry import game_names, get_engine
from engines.rng import RNG_VERSION, Rng


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    key: str
    params: dict[str, object] = field(default_factory=dict)


class Refused(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, params)
        self.key, self.params = key, params


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise Refused("cli.verify.bad_file", field=name)
    return value


def positions(data: object) -> Iterator[tuple[Any, Any]]:
    """Check the export and yield ``(engine, state)``: the state after setup, then after every
    logged move, each chance outcome checked against the seed. Raises ``Refused``."""
    if not isinstance(data, dict):
        raise Refused("cli.verify.bad_file", field="(top level)")
    game = _field(data, "game", str)
    if game not in game_names():
        raise Refused("cli.verify.unknown_game", game=game)
    engine: Engine[Any, Any] = get_engine(game)
    rules = _field(data, "rules_version", int)
    if rules != engine.info.rules_version:
        raise Refused("cli.verify.rules_version", file=rules, here=engine.info.rules_version)
    if data.get("rng_version", RNG_VERSION) != RNG_VERSION:
        raise Refused("cli.verify.rng_version", file=data.get("rng_version"), here=RNG_VERSION)
    game_id = _field(data, "game_id", int)
    seed = _field(data, "seed", int)
    if not fairness.matches(game, game_id, seed, data.get("commitment")):
        raise Refused("cli.verify.commitment", game_id=str(game_id))
    seats = _field(data, "seats", list)
    options = _field(data, "options", dict)
    moves = _field(data, "moves", list)
    try:
        state = engine.initial_state(len(seats), options)
    except (rule_errors.GameError, ValueError, TypeError) as exc:
        raise Refused("cli.verify.bad_file", field="options") from exc
    yield engine, state
    for number, move in enumerate(moves):
        if not isinstance(move, dict) or move.get("seq") != number:
            raise Refused("cli.verify.bad_move", seq=number + 1)
        action, seat = move.get("action"), move.get("seat")
        if not isinstance(action, str):
            raise Refused("cli.verify.bad_move", seq=number + 1)
        mover = engine.to_move(state)
        if mover == TERMINAL:
            raise Refused("cli.verify.after_end", seq=number + 1)
        if mover == CHANCE:
            drawn = engine.sample_chance(state, Rng.for_step(seed, number))
            expected = engine.encode_action(drawn)
            if seat is not None or action != expected:
                raise Refused("cli.verify.chance", seq=number + 1, logged=action, drawn=expected)
            state = engine.apply(state, drawn)
        else:
            if seat != mover:
                raise Refused("cli.verify.wrong_seat", seq=number + 1, action=action)
            try:
                state = engine.apply(state, engine.decode_action(action))
            except rule_errors.GameError:
                raise Refused("cli.verify.illegal", seq=number + 1, action=action) from None
        yield engine, state
    if data.get("status") == "finished":
        if engine.to_move(state) != TERMINAL:
            raise Refused("cli.verify.not_ended")
        if data.get("scores") is not None and list(engine.scores(state)) != data.get("scores"):
            raise Refused("cli.verify.scores")


def verify(data: object) -> Verdict:
    """The verdict on an exported game (see the module's docstring)."""
    try:
        for _position in positions(data):
            pass
    except Refused as refused:
        return Verdict(False, refused.key, refused.params)
    assert isinstance(data, dict)
    moves = data["moves"]
    drawn = sum(1 for m in moves if m.get("seat") is None)
    return Verdict(
        True,
        "cli.verify.ok",
        # the id and the seed as written (no thousands separators): they are to be compared
        {
            "game_id": str(data["game_id"]),
            "count": len(moves),
            "chance": drawn,
            "seed": str(data["seed"]),
        },
    )
