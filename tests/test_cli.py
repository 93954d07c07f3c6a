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
    boards = sorted(out.glob("cantstop-1/*.png"))
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
    assert len(list((tmp_path / "b" / "play-cantstop-1").glob("*.png"))) >= 4
    assert db.exists()


def test_run_without_a_token_says_what_is_missing(tmp_path: Path) -> None:
    result = boardroom("run", cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "discord.com/developers" in result.stderr
    assert "boardroom demo cantstop" in result.stderr  # the offline way in


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


CONTAINER = {"DISCORD_TOKEN": "not-a-real-token", "BOARDROOM_IN_CONTAINER": "1"}
CLOSED_PORT = "http://127.0.0.1:9"  # discard: nothing listens there


def one_sentence(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if " INFO " not in line and "WARNING" not in line]
    assert "Traceback" not in stderr and 1 <= len(lines) <= 2, stderr
    return lines[-1]


def test_the_container_refuses_a_database_off_the_volume(tmp_path: Path) -> None:
    db = tmp_path / "boardroom.db"
    result = boardroom("run", cwd=tmp_path, env={**CONTAINER, "BOARDROOM_DB": str(db)})
    assert result.returncode == 2
    line = one_sentence(result.stderr)
    assert str(db) in line and "/data" in line and "BOARDROOM_ALLOW_DB_OUTSIDE_DATA=1" in line
    assert not db.exists()
    # the .env.example line people copy, resolved from the container's working directory
    relative = boardroom("run", cwd=tmp_path, env={**CONTAINER, "BOARDROOM_DB": "./data/x.db"})
    assert relative.returncode == 2 and str(tmp_path / "data" / "x.db") in relative.stderr


def test_the_override_lets_it_start_and_unreachable_discord_is_one_sentence(
    tmp_path: Path,
) -> None:
    env = {
        **CONTAINER,
        "BOARDROOM_DB": str(tmp_path / "boardroom.db"),
        "BOARDROOM_ALLOW_DB_OUTSIDE_DATA": "1",
        "DISCORD_API_BASE": CLOSED_PORT,
        "BOARDROOM_RENDER_PROCESSES": "0",
    }
    result = boardroom("run", cwd=tmp_path, env=env)
    assert result.returncode == 1
    line = one_sentence(result.stderr)
    assert "Discord could not be reached at http://127.0.0.1:9" in line
    assert "/data volume" not in result.stderr


def test_an_unwritable_database_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    db = tmp_path / "a-file" / "boardroom.db"
    env = {"DISCORD_TOKEN": "not-a-real-token", "BOARDROOM_DB": str(db)}
    for args in (("run",), ("migrate",)):
        result = boardroom(*args, cwd=tmp_path, env=env)
        assert result.returncode == 2, result.stderr
        assert "cannot be opened for writing" in one_sentence(result.stderr)
    played = boardroom("play", "cantstop", "--db", str(db), cwd=tmp_path)
    assert played.returncode == 2
    assert "cannot be opened for writing" in one_sentence(played.stderr)


def test_the_image_keeps_its_data_on_the_volume() -> None:
    from bot.settings import read_env_file

    assert "BOARDROOM_DB" not in read_env_file(ROOT / ".env.example")
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "ARG BASE_IMAGE=python:3.11-slim" in dockerfile
    froms = [line for line in dockerfile.splitlines() if line.startswith("FROM ")]
    assert len(froms) == 2 and all(line.startswith("FROM ${BASE_IMAGE}") for line in froms)
    assert "BOARDROOM_IN_CONTAINER=1" in dockerfile and "heartbeat" in dockerfile
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", "boards", "data", ".git", ".env"} <= set(ignored)


def play(tmp_path: Path, *args: str, stdin: str = ""):
    return boardroom("play", *args, "--out", str(tmp_path / "boards"), stdin=stdin, cwd=tmp_path)


def test_play_resumes_the_game_in_its_database(tmp_path: Path) -> None:
    db = str(tmp_path / "game.db")
    first = play(tmp_path, "cantstop", "--db", db, "--seed", "1", stdin="1\n1\nquit\n")
    assert first.returncode == 0, first.stderr
    assert "The game is saved in" in first.stdout and "Traceback" not in first.stderr
    again = play(tmp_path, "cantstop", "--db", db, stdin="2\n")  # stop, then Ctrl-D
    assert again.returncode == 0, again.stderr
    assert "Resuming the game saved in" in again.stdout and "after 3 moves" in again.stdout
    assert "Player A stops and saves their progress." in again.stdout
    other = play(tmp_path, "kokeshi", "--db", db)
    assert other.returncode == 2 and "Traceback" not in other.stderr
    assert f"boardroom play cantstop --db {db}" in one_sentence(other.stderr)
    folders = sorted(p.name for p in (tmp_path / "boards").iterdir())
    assert folders == ["game-cantstop-1"]  # the resumed game kept its folder


def test_play_lists_the_button_words_and_seats_bots(tmp_path: Path) -> None:
    result = play(tmp_path, "kokeshi", "--bots", "medium", "--seed", "2", stdin="1\n")
    assert result.returncode == 0, result.stderr  # Ctrl-D after one choice
    assert "   1. 🌸 Princess column" in result.stdout
    assert "start:" not in result.stdout and "**" not in result.stdout
    assert "Bot 2 (medium)'s starting tiles" in result.stdout
    assert "Bot 2 (medium): place" not in result.stdout  # no prompt for the computer's turn
    assert "Stopped. This game was not saved" in result.stdout


def test_play_help_quit_and_end_of_input(tmp_path: Path) -> None:
    helped = play(tmp_path, "cantstop", stdin="help\nquit\n")
    assert helped.returncode == 0
    assert helped.stdout.count("help shows this again, quit stops") == 2
    assert play(tmp_path, "cantstop").returncode == 0  # Ctrl-D at once
    bad = play(tmp_path, "cantstop", "--bots", "genius")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr


def test_each_game_has_its_own_boards_folder(tmp_path: Path) -> None:
    out = str(tmp_path / "boards")
    assert boardroom("demo", "cantstop", "--out", out, cwd=tmp_path).returncode == 0
    assert play(tmp_path, "cantstop", stdin="1\n").returncode == 0
    assert boardroom("demo", "cantstop", "--out", out, cwd=tmp_path).returncode == 0
    folders = sorted(p.name for p in (tmp_path / "boards").iterdir())
    assert folders == ["cantstop-1", "cantstop-2", "cantstop-3"]
    assert "/boards/" in (ROOT / ".gitignore").read_text().split()


def test_the_module_docstring_names_every_subcommand_and_counts_them() -> None:
    import re

    from bot import cli

    listed = re.search(r"\{([a-z,-]+)\}", cli.build_parser().format_usage())
    assert listed
    names = set(listed[1].split(","))
    assert len(names) == 10 and "ten subcommands" in (cli.__doc__ or "")
    assert all(f"``{name}``" in (cli.__doc__ or "") for name in names)
