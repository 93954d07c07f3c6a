"""The Rematch and log page controls go through the one custom_id parser, bounds checked."""

from __future__ import annotations

import pytest

from bot.adapter import custom_ids as ids
from bot.adapter.components import is_ours
from bot.adapter.custom_ids import PageId, RematchId, has_our_prefix, parse

BIG = 2**63 - 1


def test_rematch_and_page_ids_read_back() -> None:
    assert parse(ids.rematch_id(7)) == RematchId(7)
    assert parse(ids.page_id(7, 15)) == PageId(7, 15)
    assert parse(f"brr:{BIG}") == RematchId(BIG)
    assert parse("brp:1:999999") == PageId(1, 999999)
    for made in (ids.rematch_id(3), ids.page_id(3, 0)):
        assert has_our_prefix(made) and is_ours(made)


@pytest.mark.parametrize(
    "custom_id",
    [
        "brr:9223372036854775808",  # above SQLite's integer range
        "brr:",
        "brr:01",
        "brr:1:2",
        "brr:-1",
        "brr:\u0661",
        "brp:1",
        "brp:1:",
        "brp:1:1000000",  # more moves than any page can end at
        "brp:1:-1",
        "brp:1:01",
        "brp:9223372036854775808:1",
        "brp:1:1:1",
        "brp:1:\uff11",
    ],
)
def test_out_of_shape_or_bounds_is_refused(custom_id: str) -> None:
    assert parse(custom_id) is None
    assert has_our_prefix(custom_id)  # so it gets the ordinary private refusal
