"""One list of games: every registered game has every part the layers find by convention."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import missing_parts, required_keys
from engines.registry import game_names, part_module

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_sees_four_games() -> None:
    assert game_names() == ("cantstop", "kokeshi", "harmonies", "nim")


@pytest.mark.parametrize("game", game_names())
def test_every_registered_game_has_every_part(game: str) -> None:
    assert missing_parts(game) == []


def test_parts_are_found_in_the_home_package_built_in_or_not() -> None:
    assert part_module("kokeshi", "render") == "games.kokeshi.render"
    assert part_module("kokeshi", "present") == "games.kokeshi.present"
    assert part_module("nim", "render") == "tests.games.nim.render"
    assert part_module("nim", "bots") == "tests.games.nim.bots"
    assert "nim.option.misere.help" in required_keys("nim")


def test_a_game_without_its_parts_stops_the_cli_with_what_it_lacks() -> None:
    env = {**os.environ, "BOARDROOM_GAMES": "tests.games.broken", "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "broken"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    for lacking in (
        "no module tests.games.broken.render",
        "no module tests.games.broken.present",
        "catalogue key 'broken.title' is missing",
    ):
        assert lacking in done.stderr, done.stderr
