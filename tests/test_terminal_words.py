"""The terminal (``boardroom play``) prints the games' prompts and events as Discord does; it lists
every legal move and takes a number or a code, so those words never name a Discord command
(``/game move`` is said only by the Discord message, when its menus leave moves out)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.present import get_presenter
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from tests.per_game import PLUGINS, games, per_game, seat_counts
from tests.test_cli import boardroom

LANGUAGES = ("en", "de", "fr", "ja")
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def said_a_command(text: str) -> bool:
    """A command as the catalogue's renderer writes it outside Discord (`` `/game move` ``)."""
    return "`/" in text or "</" in text


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
def test_prompts_name_no_discord_command(game: str, seats: int) -> None:
    engine, presenter = get_engine(game), get_presenter(game)
    state, rnd, step = engine.initial_state(seats, {}), random.Random(seats), 0
    names = NAMES[:seats]
    while engine.to_move(state) != TERMINAL and step < 400:
        mover = engine.to_move(state)
        if mover == CHANCE:
            action = engine.sample_chance(state, Rng.for_step(seats, step))
        else:
            action = rnd.choice(engine.legal_actions(state))
        after = engine.apply(state, action)
        if engine.to_move(after) != CHANCE:  # a prompt is shown to a player to move
            for lang in LANGUAGES:
                assert not said_a_command(presenter.prompt(after, names, lang)), (game, lang)
        state, step = after, step + 1


@per_game
@pytest.mark.parametrize("game", games())
def test_a_terminal_game_names_no_discord_command(game: str, tmp_path: Path) -> None:
    info = get_engine(game).info
    people = min(max(2, info.min_seats), info.max_seats)
    played = boardroom(
        "play",
        game,
        "--players",
        str(people),
        stdin="1\n" * 30 + "quit\n",
        cwd=tmp_path,
        env={"BOARDROOM_GAMES": ",".join(["tests.games.nim", *PLUGINS])},
    )
    assert played.returncode == 0, played.stderr
    assert played.stdout.count("Choose an action") >= 5, played.stdout
    assert not said_a_command(played.stdout), played.stdout
