"""The fake's copy of Discord's API description, and the contract made from it."""

from __future__ import annotations

import json

import pytest

from tests.fakediscord.contract import Contract
from tests.fakediscord.spec_copy import COPY, WHOLE, extract, render, served_routes


@pytest.mark.skipif(not WHOLE.exists(), reason=f"Discord's whole description is not at {WHOLE}")
def test_the_copy_is_the_extraction_of_discords_whole_description() -> None:
    """Regenerate with ``python -m tests.fakediscord.spec_copy`` when this fails."""
    whole = json.loads(WHOLE.read_text(encoding="utf-8"))
    assert COPY.read_text(encoding="utf-8") == render(extract(whole, served_routes()))


def test_the_copy_keeps_discords_licence_and_every_route() -> None:
    licence = (COPY.parent / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright 2023 Discord" in licence
    spec = json.loads(COPY.read_text(encoding="utf-8"))
    assert spec["openapi"].startswith("3.1") and len(spec["paths"]) >= 150
    assert COPY.stat().st_size < 250_000


@pytest.mark.parametrize(("method", "template"), served_routes())
def test_every_route_the_fake_serves_is_one_discord_describes(method: str, template: str) -> None:
    """A route of the fake's is one of Discord's with its parameters and body in the copy."""
    sample = "/".join("1" if s.startswith("{") else s for s in template.split("/"))
    found = Contract.shipped().route(sample)
    assert found is not None, template
    described, operations, _ = found
    assert method.upper() in operations, f"{method.upper()} {described}"


def test_a_route_discord_describes_takes_a_literal_before_a_parameter() -> None:
    contract = Contract.shipped()
    original = contract.route("/webhooks/1/abc/messages/@original")
    by_id = contract.route("/webhooks/1/abc/messages/2")
    assert original is not None and by_id is not None
    assert original[0] == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert by_id[0] == "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    assert by_id[2] == {"webhook_id": "1", "webhook_token": "abc", "message_id": "2"}
    assert contract.route("/nowhere") is None


def test_a_snowflake_may_be_a_number_as_discord_reads_it() -> None:
    """discord.py numbers its uploads (``"id": 0``); the description writes snowflakes as
    strings, Discord takes both."""
    contract = Contract.shipped()
    path = "/channels/1/messages"
    assert contract.body_problems("POST", path, {"content": "x", "message_reference": {"message_id": 5}}) == []
    assert [str(p) for p in contract.body_problems("POST", path, {"sticker_ids": ["x1"]})] == [
        'sticker_ids.0: Value "x1" is not snowflake.'
    ]


def test_an_interaction_answer_is_checked_against_its_own_type() -> None:
    """The callback body is a union told apart by ``type``: the reasons are the chosen form's."""
    contract = Contract.shipped()
    path = "/interactions/1/token/callback"
    long = {"type": 4, "data": {"content": "x" * 2001}}
    assert [str(p) for p in contract.body_problems("POST", path, long)] == [
        "data.content: Must be 2000 or fewer in length."
    ]
    modal = {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": []}}
    assert sorted(str(p) for p in contract.body_problems("POST", path, modal)) == [
        "data.components: Must be 1 or more in length.",
        "data.title: Must be 45 or fewer in length.",
    ]
    assert [p.code for p in contract.body_problems("POST", path, {"type": 3})] == ["UNION_TYPE_CHOICES"]


def test_a_value_outside_discords_list_is_told_the_list() -> None:
    button = {"type": 2, "style": 9, "custom_id": "a"}
    problems = Contract.shipped().body_problems(
        "POST", "/channels/1/messages", {"components": [{"type": 1, "components": [button]}]}
    )
    assert [(p.where, p.code, p.message) for p in problems] == [
        (
            ("components", 0, "components", 0, "style"),
            "BASE_TYPE_CHOICES",
            "Value must be one of [1, 2, 3, 4, 5, 6].",
        )
    ]
