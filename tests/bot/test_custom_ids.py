"""The one custom_id parser, against hostile values: nothing out of shape or bounds gets through."""

from __future__ import annotations

import random

import pytest

from bot.adapter import custom_ids as ids
from bot.adapter.custom_ids import ActionId, LobbyId, SelectId, parse
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from tests.per_game import games, per_game

BIG = 2**63 - 1


def test_our_own_ids_read_back() -> None:
    assert parse(ids.action_id(7, 3, "move:2+4")) == ActionId(7, 3, "move:2+4")
    assert parse(ids.select_id(7, 0, 4)) == SelectId(7, 0, 4)
    assert parse(ids.lobby_id(7, "bot-hard")) == LobbyId(7, "bot-hard")
    assert parse(f"br:{BIG}:{BIG}:roll") == ActionId(BIG, BIG, "roll")
    for op in ids.LOBBY_OPS:
        assert parse(ids.lobby_id(1, op)) == LobbyId(1, op)


@pytest.mark.parametrize(
    "custom_id",
    [
        "br:9223372036854775808:1:roll",  # one above SQLite's integer range
        "br:1:9223372036854775808:roll",
        "brl:" + "9" * 30 + ":join",
        "brs:" + "1" * 20 + ":1:0",
        "br:99999999999999999999:1:roll",
        "brl:1:bot-xyz",  # no such level
        "brl:1:Join",
        "brl:1:",
        "brl::join",
        "br:-1:1:roll",
        "br:+1:1:roll",
        "br:01:1:roll",  # not the canonical form
        "br:1:1:",
        "br:1:1:ROLL",
        "br:1:1:roll ",
        "br:1:1:roll\n",
        "br:1:1:ro ll",
        "br:1:1:" + "a" * 81,
        "br:1:1:rôll",
        "br:\u0661:1:roll",  # an Arabic-Indic digit one, which int() would read
        "br:\uff11:1:roll",  # a fullwidth one
        "br:1.0:1:roll",
        "br:1e3:1:roll",
        "br:0x10:1:roll",
        "br: 1:1:roll",
        "brs:1:1:25",  # at most 25 selects
        "brs:1:1:-1",
        "brs:1:1:1:2",
        "brs:1:1",
        "br:1:roll",
        "br:",
        "br",
        "",
        "brx:1:1:roll",
        "xyz:1",
        "br:1:1:" + "a" * 80 + "b" * 20,  # over Discord's 100 characters
        "br:1:1:\ud800",
    ],
)
def test_hostile_custom_ids_are_refused(custom_id: str) -> None:
    assert parse(custom_id) is None


@pytest.mark.parametrize("value", [None, 5, 5.0, b"br:1:1:roll", ["br:1:1:roll"], {"a": 1}])
def test_values_that_are_not_text_are_refused(value: object) -> None:
    assert parse(value) is None
    assert ids.action_code(value) is None
    assert ids.typed_action(value) is None


def test_select_values_and_typed_moves() -> None:
    assert ids.selected_action(["take:2"]) == "take:2"
    for values in ([], ["take:2", "take:3"], [5], ["TAKE"], "take:2", None, [["take:2"]]):
        assert ids.selected_action(values) is None
    assert ids.typed_action("  roll ") == "roll"
    assert ids.typed_action("jump:9") == "jump:9"  # text the service then explains
    for typed in ("", "   ", "a" * 101, "roll\x00", "line\nbreak"):
        assert ids.typed_action(typed) is None


def test_prefix_claims() -> None:
    assert ids.has_our_prefix("br:anything") and ids.has_our_prefix("brl:")
    assert not ids.has_our_prefix("bx:1") and not ids.has_our_prefix(None)


@per_game
@pytest.mark.parametrize("game", games())
def test_every_action_code_a_game_offers_fits_a_custom_id(game: str) -> None:
    engine = get_engine(game)
    for seed in range(3):
        rnd = random.Random(seed)
        state = engine.initial_state(engine.info.max_seats, {})
        for step in range(2000):
            mover = engine.to_move(state)
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                state = engine.apply(state, engine.sample_chance(state, Rng.for_step(seed, step)))
                continue
            codes = [engine.encode_action(a) for a in engine.legal_actions(state)]
            for code in codes:
                assert ids.action_code(code) == code
                assert parse(ids.action_id(BIG, BIG, code)) == ActionId(BIG, BIG, code)
            state = engine.apply(state, engine.decode_action(rnd.choice(codes)))
