"""A short run of the digest benchmark (``bench.digest``): a few dozen players' digests falling
due together through the real bot process and the fake Discord with its global rate limit. Only
what must hold is checked (each player one digest or one fallback per game, none doubled, none
refused with 429, every request valid); its timings are benchmark figures, not asserted."""

from __future__ import annotations

import argparse
import asyncio

from bench.digest import ok, run


def test_a_short_digest_run_reaches_every_player_once() -> None:
    args = argparse.Namespace(
        players=120, startup_budget=10.0, timeout=120.0, rate_limit=50, next_day=True
    )
    result = asyncio.run(run(args))
    assert ok(result), result
    assert result["closed_dms"] == 1 and result["fallback_channels_with_one"] == 1
    assert result["digests_listing"] == {1: 59, 2: 60}  # one or two games, from two servers
    assert result["requests_per_s_max"] <= 50
    # the next day, the DM channels are known: none opened again
    assert result["next_day"]["dm_channels_created"] == 0
