"""The games this bot hosts: the built-in ones plus any named in ``BOARDROOM_GAMES``, each checked
for every part the layers find by convention, so a game missing a piece fails at start-up with
its name instead of on the first click."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

from bot.present import PART as PRESENT_PART
from engines.bots import LEVELS, bot_games
from engines.bots import PART as BOTS_PART
from engines.registry import game_names, get_engine, load_game_modules, part_module
from i18n import has
from render import PART as RENDER_PART

PRESENTER_METHODS = (
    "controls",
    "events",
    "prompt",
    "describe_move",
    "rules_summary",
    "turn_account",
    "recap",
)


class GameSetupError(Exception):
    """A game module cannot be loaded, or a registered game lacks a part."""


def load_games(modules: Iterable[str]) -> None:
    """Import the configured game modules (each registers its game) and check every game."""
    try:
        load_game_modules(modules)
    except ImportError as exc:
        raise GameSetupError(f"BOARDROOM_GAMES: cannot import {exc.name or exc}") from exc
    problems = [problem for game in game_names() for problem in missing_parts(game)]
    if problems:
        raise GameSetupError("; ".join(problems))


def required_keys(game: str) -> list[str]:
    """Catalogue keys every game needs: its title, its /play description, its options' words."""
    keys = [f"{game}.title", f"{game}.command.description"]
    for spec in get_engine(game).info.options:
        keys += [f"{game}.option.{spec.name}", f"{game}.option.{spec.name}.help"]
    return keys


def missing_parts(game: str) -> list[str]:
    """What ``game`` lacks, one sentence each (empty: nothing)."""
    problems: list[str] = []
    renderer = _module(game, RENDER_PART, problems)
    if renderer is not None:
        problems += [
            f"{game}: renderer {renderer.__name__} has no {name}()"
            for name in ("draw", "describe")
            if not callable(getattr(renderer, name, None))
        ]
    presenter_module = _module(game, PRESENT_PART, problems)
    if presenter_module is not None:
        presenter = getattr(presenter_module, "PRESENTER", None)
        if presenter is None:
            problems.append(f"{game}: {presenter_module.__name__} has no PRESENTER")
        else:
            problems += [
                f"{game}: its presenter has no {name}()"
                for name in PRESENTER_METHODS
                if not callable(getattr(presenter, name, None))
            ]
    if game in bot_games():
        bots = _module(game, BOTS_PART, problems)
        if bots is not None and not callable(getattr(bots, "make_bot", None)):
            problems.append(f"{game}: {bots.__name__} has no make_bot(level) for {LEVELS}")
    problems += [
        f"{game}: catalogue key {key!r} is missing" for key in required_keys(game) if not has(key)
    ]
    return problems


def _module(game: str, layer: str, problems: list[str]) -> ModuleType | None:
    path = part_module(game, layer)
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and path.startswith(exc.name):
            problems.append(f"{game}: no module {path}")
            return None
        raise
