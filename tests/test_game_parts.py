"""One list of games: every registered game has every part the layers find by convention, each
part checked whole against its contract."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games import contract_problems, missing_parts, required_keys
from bot.present.base import STEPS_PRIVATE, Presenter
from engines.bots import BotMaker
from engines.registry import BUILTIN_GAMES, game_names, home_of, part_module
from render.contract import Renderer, RendererExtras
from tests.games.nim.present import NimPresenter
from tests.per_game import PLUGINS, games, per_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_suite_sees_the_built_in_games_then_nim_then_the_configured_ones() -> None:
    names = game_names()
    assert [home_of(game) for game in names[:3]] == list(BUILTIN_GAMES)
    assert names[3] == "nim"
    if not PLUGINS:
        assert len(names) == 4


@per_game
@pytest.mark.parametrize("game", games())
def test_every_registered_game_has_every_part(game: str) -> None:
    assert missing_parts(game) == []


def test_a_presenter_without_steps_or_with_an_unknown_kind_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(NimPresenter, "steps")
    assert "nim: its presenter has no steps" in missing_parts("nim")
    monkeypatch.setattr(NimPresenter, "steps", "public", raising=False)
    assert (
        "nim: its presenter has steps = 'public', not one of 'in_place', 'private'"
        in missing_parts("nim")
    )
    monkeypatch.setattr(NimPresenter, "steps", STEPS_PRIVATE)
    assert missing_parts("nim") == []


def test_every_presenter_member_is_checked_with_the_parameters_the_adapter_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(NimPresenter, "recap")
    monkeypatch.setattr(NimPresenter, "rules_summary", "Nim rules")
    monkeypatch.setattr(NimPresenter, "prompt", lambda self, state, locale: "")
    problems = missing_parts("nim")
    assert "nim: its presenter has no recap(turns, names, locale)" in problems
    assert "nim: its presenter has rules_summary, but it is not callable" in problems
    assert (
        "nim: its presenter has prompt(state, locale), not taking (state, names, locale)"
        in problems
    )
    assert len(problems) == 3


def test_the_contract_is_read_from_the_protocol_alone() -> None:
    """Each member of ``Presenter`` is required: a part lacking any one of them is refused."""
    whole = {name: getattr(NimPresenter(), name) for name in dir(Presenter) if not name.startswith("_")}
    whole["steps"] = NimPresenter.steps
    assert contract_problems(SimpleNamespace(**whole), Presenter, "p") == []
    for name in whole:
        lacking = SimpleNamespace(**{k: v for k, v in whole.items() if k != name})
        (problem,) = contract_problems(lacking, Presenter, "p")
        assert problem.startswith(f"p has no {name}")


def test_a_renderer_needs_draw_and_describe_and_may_add_pictures_that_fit() -> None:
    def draw(state: Any, tr: Any, names: Any = None) -> None: ...

    def views(state: Any, since: Any) -> list[dict[str, Any]]:
        return []

    module = SimpleNamespace(draw=draw, views=views)
    assert contract_problems(module, Renderer, "r") == ["r has no describe(state, tr)"]
    assert contract_problems(module, RendererExtras, "r", optional=True) == [
        "r has views(state: 'Any', since: 'Any') -> 'list[dict[str, Any]]', "
        "not taking (state, since, mover)"
    ]
    assert contract_problems(SimpleNamespace(), RendererExtras, "r", optional=True) == []


def test_bots_need_make_bot_for_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    assert contract_problems(SimpleNamespace(), BotMaker, "b") == ["b has no make_bot(level)"]
    bots = __import__(part_module("nim", "bots"), fromlist=["make_bot"])

    def make_bot(level: str) -> Any:
        if level == "hard":
            raise KeyError(level)
        return SimpleNamespace(name=f"nim-{level}")

    monkeypatch.setattr(bots, "make_bot", make_bot)
    problems = missing_parts("nim")
    assert "nim: tests.games.nim.bots: its easy bot has no choose(engine, state, rng)" in problems
    assert "nim: tests.games.nim.bots: make_bot('hard') raised KeyError('hard')" in problems


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
