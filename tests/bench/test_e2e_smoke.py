"""A few seconds of the load benchmark (``bench.e2e``) on both backends, every game at once:
it measures the bot as players see it, so a change in how a move's board reaches the channel
that the benchmark does not follow fails here instead of leaving it counting nothing. Only
what must hold is checked (every move shows its board, nothing is lost); its figures are
benchmark figures, not asserted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.e2e import GAMES, Options, Setup, run_one
from tests.pg.server import PgServer

OPTIONS = Options(
    seconds=3.0,
    moves_per_channel=2000,
    think_ms=0.0,
    timeout=15.0,
    setup_seconds=60.0,
    setup_concurrency=3,
    keep=None,
)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_short_load_run_shows_every_moves_board(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    pg: PgServer | None = request.getfixturevalue("pg_server") if backend == "postgres" else None
    # its own event loop: the PostgreSQL fixture sets its server up with asyncio.run
    row = asyncio.run(run_one(Setup(len(GAMES), backend, games=GAMES), OPTIONS, tmp_path, pg))
    assert row["channels_playing"] == len(GAMES), row["setup_failures"]
    assert row["errors"] == {}, row["errors"]  # no move without its board, no failed new game
    assert row["channel_failures"] == {}
    assert row["failed_move_pct"] == 0
    # Can't Stop's steps edit the clicked board, Kokeshi's and Harmonies' are answered
    # privately (the turn's first step a private message, its later ones edit it), and every
    # game's turn end is a new public board
    wanted = {"edited", "private", "private edit", "public"}
    assert set(row["shown_via"]) >= wanted, row["shown_via"]
    assert row["moves"] == sum(row["shown_via"].values()) > 3 * len(GAMES)
    assert row["stored"]["not_replaying"] == 0
    assert row["stored"]["player_moves"] >= row["moves"]
    assert row["bot_log_errors"] == 0
    assert row["monitor_ok"]
