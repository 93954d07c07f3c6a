"""A small run of the asynchronous-play benchmark (``bench.async_play``): the real bot process on
a database of stored games with clocks per move and time banks, resting tables and players away,
against the fake Discord. What it checks must hold at any size (every deadline due opens one
vote, an away player's clock runs on without one, no vote ends during a rest); its figures
(start-up, memory, idle CPU, time to handle the deadlines) are benchmark figures, not asserted."""

from __future__ import annotations

import asyncio

from bench.async_play import arguments, ok, run


def test_a_small_run_handles_every_deadline_rest_and_away_period_once() -> None:
    args = arguments(
        [
            *("--games", "600", "--running", "200", "--due", "24", "--away", "8"),
            *("--idle", "1", "--startup-budget", "20", "--timeout", "60"),
        ]
    )
    result = asyncio.run(run(args))
    assert ok(result), result
    # the mix is there: time banks, resting tables, away players, all handled
    assert result["bank_votes_opened"] > 0 and result["votes_opened"] > result["bank_votes_opened"]
    assert result["resting_votes"] > 0
    assert result["away_games"] == result["away_clocks_running_on"] == 8
    assert result["rate_limited_responses"] == 0 and result["unknown_routes"] == 0
