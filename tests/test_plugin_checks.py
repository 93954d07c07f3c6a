"""A game kept outside the project runs the suite's per-game checks (``tests/per_game.py``) and
passes them with nothing else failing: ``BOARDROOM_GAMES`` names the small dice game in
``tests/games/pig/`` (written as a plugin is, one folder), ``-m per_game --game pig`` selects the
checks, every one of them for that game, and no list of games in the suite gets in the way."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from engines.registry import game_names

ROOT = Path(__file__).resolve().parents[1]

#: per-game checks of every kind that must have run for the plugin (a sample, one per area)
EXPECTED = (
    "test_every_registered_game_has_every_part[pig]",
    "test_random_playouts[pig]",
    "test_each_part_of_a_game_imports_only_what_its_role_allows[pig]",
    "test_parameters_follow_the_game_info[pig]",
    "test_every_action_code_a_game_offers_fits_a_custom_id[pig]",
    "test_words_and_controls_fit_discord_in_every_language[pig-4]",
    "test_every_text_and_symbol_reads_at_phone_width[pig-2-options0]",
    "test_every_word_drawn_has_its_glyphs_in_the_bundled_font[pig-3]",
    "test_medium_beats_random[pig]",
    "test_a_turn_ends_exactly_when_the_counter_rises[sqlite-pig]",
    "test_every_english_key_exists_with_the_same_placeholders[ja]",
)


def test_a_plugin_game_passes_the_per_game_checks_with_nothing_else_failing() -> None:
    env = {**os.environ, "BOARDROOM_GAMES": "tests.games.pig", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA",
            "-m", "per_game", "--game", "pig",
            "-k", "not postgres",  # the storage backends are checked by the suite itself
            "tests",
        ],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    summary = done.stdout[-4000:]
    assert done.returncode == 0, summary
    passed = re.findall(r"^PASSED \S+::(\S+)", done.stdout, re.MULTILINE)
    for check in EXPECTED:
        assert check in passed, f"{check} did not run: {summary}"
    others = [g for g in game_names() if g != "pig"]
    ran = [t for t in passed if any(re.search(rf"[\[-]{g}[\]-]", t) for g in others)]
    assert not ran, f"checks for other games ran too: {ran[:5]}"
