"""A short run of the turn-message benchmark (``bench.turn_message``): every game is played to
its end twice from one seed, and the calls a public message makes are timed at an early and a
late window of positions. Only what must hold is checked (both windows of every game are
measured, the late one past the early one, as deep in the game as it goes); the timings are
benchmark figures, not asserted."""

from __future__ import annotations

import asyncio

from bench.turn_message import main, run


def test_every_game_is_timed_early_and_late() -> None:
    games = ["cantstop", "kokeshi", "harmonies"]
    rows = asyncio.run(run(games, seats=3, seed=1, window=2))
    assert [(r["game"], r["at"]) for r in rows] == [
        (g, at) for g in games for at in ("early", "late")
    ]
    for early, late in zip(rows[::2], rows[1::2], strict=True):
        first_early, last_early = map(int, early["moves"].split("-"))
        first_late, last_late = map(int, late["moves"].split("-"))
        assert 4 <= first_early <= last_early < first_late <= last_late
        assert last_late > 100  # a whole game, not a few moves
        for key in ("turns", "loop_cpu", "told", "first"):
            assert len(early[key]) == len(late[key]) > 0 and min(late[key]) > 0


def test_the_command_prints_the_comparison(capsys) -> None:
    assert main(["--games", "kokeshi", "--window", "1"]) == 0
    printed = capsys.readouterr().out
    assert "kokeshi: late / early median: turns x" in printed
    assert "(target: within x1.2)" in printed
