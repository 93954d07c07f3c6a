"""Harmonies states as JSON: what the service stores, read back exactly.

Encoding 2 added the turn counter ``turn`` (encoding 1 kept the turn's action codes under that
key, now ``steps``); a state of encoding 1 raises ``OldEncoding`` and is rebuilt from its log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.errors import OldEncoding
from games.harmonies.engine.state import ENCODING, HarmoniesState, Options, Phase, Player, TurnStart


def _player_dict(p: Player) -> dict[str, Any]:
    return {
        "stacks": [list(st) for st in p.stacks],
        "cubes": list(p.cubes),
        "cards": [list(c) for c in p.cards],
        "offer": list(p.offer),
    }


def _player(d: Mapping[str, Any]) -> Player:
    return Player(
        stacks=tuple(tuple(st) for st in d["stacks"]),
        cubes=tuple(d["cubes"]),
        cards=tuple((int(c), int(n)) for c, n in d["cards"]),
        offer=tuple(d["offer"]),
    )


def encode_state(s: HarmoniesState) -> dict[str, Any]:
    start = None
    if s.start is not None:
        start = {
            "central": [list(slot) for slot in s.start.central],
            "display": list(s.start.display),
            "discard": list(s.start.discard),
            "player": _player_dict(s.start.player),
        }
    return {
        "seats": s.seats,
        "options": {
            "side": s.options.side,
            "spirits": s.options.spirits,
            "river_loops_diameter": s.options.river_loops_diameter,
        },
        "bag": list(s.bag),
        "central": [list(slot) for slot in s.central],
        "display": list(s.display),
        "deck": list(s.deck),
        "players": [_player_dict(p) for p in s.players],
        "discard": list(s.discard),
        "spirit_deck": list(s.spirit_deck),
        "refill": list(s.refill),
        "phase": s.phase.value,
        "first": s.first,
        "active": s.active,
        "hand": list(s.hand),
        "taken": s.taken,
        "card_done": s.card_done,
        "steps": list(s.steps),
        "turn": s.turn,
        "start": start,
        "turns": list(s.turns),
        "triggered": s.triggered,
        "token_discard": s.token_discard,
        "v": s.v,
    }


def decode_state(d: Mapping[str, Any]) -> HarmoniesState:
    """Raises ``OldEncoding`` for a state of encoding 1 (its ``turn`` held the turn's codes)."""
    if d.get("v", 1) < ENCODING or "turn" not in d:
        raise OldEncoding(f"Harmonies state of encoding {d.get('v', 1)}, not {ENCODING}")
    raw_start = d.get("start")
    start = None
    if raw_start is not None:
        start = TurnStart(
            central=tuple(tuple(slot) for slot in raw_start["central"]),
            display=tuple(raw_start["display"]),
            discard=tuple(raw_start["discard"]),
            player=_player(raw_start["player"]),
        )
    return HarmoniesState(
        seats=d["seats"],
        options=Options(**d["options"]),
        bag=tuple(d["bag"]),
        central=tuple(tuple(slot) for slot in d["central"]),
        display=tuple(d["display"]),
        deck=tuple(d["deck"]),
        players=tuple(_player(p) for p in d["players"]),
        discard=tuple(d["discard"]),
        spirit_deck=tuple(d["spirit_deck"]),
        refill=tuple(d["refill"]),
        phase=Phase(d["phase"]),
        first=d["first"],
        active=d["active"],
        hand=tuple(d["hand"]),
        taken=d["taken"],
        card_done=d["card_done"],
        steps=tuple(d["steps"]),
        turn=d["turn"],
        start=start,
        turns=tuple(d["turns"]),
        triggered=d["triggered"],
        token_discard=d["token_discard"],
        v=d["v"],
    )
