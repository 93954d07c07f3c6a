"""The ``boardroom`` command as a newcomer runs it: demo, hot-seat play, and run without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def boardroom(*args: str, stdin: str = "", cwd: Path, env: dict[str, str] | None = None):
    full_env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOARDROOM_DB")}
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=120,
        check=False,
    )


def test_demo_plays_a_whole_game_and_writes_boards(tmp_path: Path) -> None:
    out = tmp_path / "boards"
    result = boardroom("demo", "cantstop", "--seed", "3", "--out", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wins with columns" in result.stdout and "Result:" in result.stdout
    boards = sorted(out.glob("*.png"))
    assert len(boards) > 10
    assert Image.open(boards[-1]).format == "PNG"
    again = boardroom("demo", "cantstop", "--seed", "3", cwd=tmp_path)
    assert again.stdout.splitlines()[-1] == result.stdout.splitlines()[-1]  # seeded: same game


def test_demo_with_bots(tmp_path: Path) -> None:
    result = boardroom("demo", "cantstop", "--bots", "hard,easy", "--seed", "2", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "(hard)" in result.stdout and "Result:" in result.stdout


def test_hot_seat_play_takes_numbers_and_codes(tmp_path: Path) -> None:
    db = tmp_path / "play.db"
    # roll, take the first move, stop; then the other player rolls; then end of input.
    typed = "1\n1\nstop\nnonsense\n1\n"
    result = boardroom(
        "play",
        "cantstop",
        "--players",
        "2",
        "--db",
        str(db),
        "--out",
        str(tmp_path / "b"),
        "--seed",
        "1",
        stdin=typed,
        cwd=tmp_path,
    )
    assert "Player A stops and saves their progress." in result.stdout
    assert "Not a legal action here: nonsense" in result.stdout
    assert "Player B rolled" in result.stdout
    assert len(list((tmp_path / "b").glob("*.png"))) >= 4
    assert db.exists()


def test_run_without_a_token_says_what_is_missing(tmp_path: Path) -> None:
    result = boardroom("run", cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "discord.com/developers" in result.stderr


def test_run_with_a_malformed_setting_names_it(tmp_path: Path) -> None:
    result = boardroom(
        "run", cwd=tmp_path, env={"DISCORD_TOKEN": "x", "BOARDROOM_MAX_IN_FLIGHT": "lots"}
    )
    assert result.returncode == 2
    assert "BOARDROOM_MAX_IN_FLIGHT must be a whole number" in result.stderr
    assert "Traceback" not in result.stderr


def test_bad_table_sizes_and_options_are_answered_in_sentences(tmp_path: Path) -> None:
    for args, words in (
        (("--players", "5"), "players: 2-4"),
        (("--players", "1"), "players: 2-4"),
        (("--option", "foo=bar"), "foo"),
        (("--option", "must_use_both_sums=maybe"), "must_use_both_sums"),
    ):
        result = boardroom("play", "cantstop", *args, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr and words in result.stderr, result.stderr


def test_an_unknown_log_level_is_named(tmp_path: Path) -> None:
    result = boardroom("run", cwd=tmp_path, env={"DISCORD_TOKEN": "x", "LOG_LEVEL": "verbose"})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "LOG_LEVEL" in result.stderr and "verbose" in result.stderr
