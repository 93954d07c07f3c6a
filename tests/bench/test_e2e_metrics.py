"""``bench.e2e --metrics off,on``: the same rows with the bot's metrics port off and on, in one
run. A short run with it on scrapes the running bot's ``/metrics`` and finds the moves the
players made counted there; the summary compares on against off."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bench.e2e
from bench.e2e import Options, Setup, comparisons, parse_args, run_one

OPTIONS = Options(
    seconds=3.0,
    moves_per_channel=2000,
    think_ms=0.0,
    timeout=15.0,
    setup_seconds=60.0,
    setup_concurrency=1,
    keep=None,
)


def test_the_switch_gives_each_row_off_and_on() -> None:
    setups, _, _ = parse_args(["--channels", "1,5", "--metrics", "off,on"])
    assert [(s.n, s.metrics) for s in setups] == [(1, False), (1, True), (5, False), (5, True)]
    assert [s.metrics for s in parse_args(["--channels", "1"])[0]] == [False]
    with pytest.raises(SystemExit):
        parse_args(["--metrics", "maybe"])


def test_a_run_with_metrics_on_scrapes_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench.e2e, "SCRAPE_SECONDS", 1.0)
    row = asyncio.run(run_one(Setup(1, metrics=True), OPTIONS, tmp_path))
    assert row["errors"] == {} and row["moves"] > 0, row["errors"]
    assert row["scrape_failures"] == {}
    assert row["scrapes"] >= 2  # during the window, and once after it
    # every move is an interaction (the lobby's are counted too)
    assert row["interactions_counted"] >= row["moves"]

    off = dict(row, metrics=False)
    (line,) = [text for text in comparisons([off, row]) if "metrics on/off" in text]
    assert "move p50 1.00x" in line
