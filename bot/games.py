"""The games this bot hosts: the built-in ones plus any named in ``BOARDROOM_GAMES``, each checked
for every part the layers find by convention, so a game missing a piece fails at start-up with
its name instead of on the first click.

Each part is checked whole against its contract, read from the contract's ``Protocol`` itself
(the one place it is written): every member is present; an attribute holds a value of its
annotated kind (``Literal`` values included); a method is callable and takes the parameters the
callers pass (``inspect.signature``). ``docs/adding-a-game.md`` describes every part.
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol, Union, get_args, get_origin, get_type_hints

from bot.present import PART as PRESENT_PART
from bot.present.base import Presenter, PresenterExtras
from engines.base import Engine
from engines.bots import LEVELS, Bot, BotMaker, bot_games
from engines.bots import PART as BOTS_PART
from engines.bots.strength import FILE_NAME, BadLevelsFile, measured_levels
from engines.registry import game_names, get_engine, load_game_modules, part_module
from i18n import has
from render import PART as RENDER_PART
from render.contract import Renderer, RendererExtras

_ABSENT = object()


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
    engine = get_engine(game)
    problems = contract_problems(engine, Engine, f"{game}: its engine")
    problems += _info_problems(game)
    renderer = _module(game, RENDER_PART, problems)
    if renderer is not None:
        what = f"{game}: renderer {renderer.__name__}"
        problems += contract_problems(renderer, Renderer, what)
        problems += contract_problems(renderer, RendererExtras, what, optional=True)
    presenter_module = _module(game, PRESENT_PART, problems)
    if presenter_module is not None:
        presenter = getattr(presenter_module, "PRESENTER", None)
        if presenter is None:
            problems.append(f"{game}: {presenter_module.__name__} has no PRESENTER")
        else:
            what = f"{game}: its presenter"
            problems += contract_problems(presenter, Presenter, what)
            problems += contract_problems(presenter, PresenterExtras, what, optional=True)
    if game in bot_games():
        bots = _module(game, BOTS_PART, problems)
        if bots is not None:
            problems += _bot_problems(game, bots)
        try:
            measured_levels(game)
        except BadLevelsFile as exc:
            problems.append(f"{game}: its {FILE_NAME} is not what bench.levels writes: {exc}")
    problems += [
        f"{game}: catalogue key {key!r} is missing" for key in required_keys(game) if not has(key)
    ]
    return problems


# -- checking a part against its Protocol ---------------------------------------------------------


def protocol_members(protocol: type) -> tuple[dict[str, Any], dict[str, Callable[..., Any]]]:
    """A Protocol's attributes (name: annotated kind) and methods (name: the Protocol's function),
    its bases' included."""
    attributes = get_type_hints(protocol)
    methods = {
        name: value
        for cls in reversed(protocol.__mro__)
        if getattr(cls, "_is_protocol", False) and cls is not Protocol
        for name, value in vars(cls).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }
    return attributes, methods


def call_shape(method: Callable[..., Any]) -> tuple[list[str], list[str]]:
    """The parameters a caller passes to a Protocol method: (by position, by keyword), the
    ones with defaults and ``self`` left out."""
    params = list(inspect.signature(method).parameters.values())[1:]
    required = [p for p in params if p.default is p.empty]
    positional = [
        p.name for p in required if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    keywords = [p.name for p in required if p.kind is p.KEYWORD_ONLY]
    return positional, keywords


def contract_problems(
    part: object, protocol: type, what: str, *, optional: bool = False
) -> list[str]:
    """How ``part`` falls short of ``protocol``, one sentence each (``optional``: members may be
    absent, but one that is present must fit)."""
    problems: list[str] = []
    attributes, methods = protocol_members(protocol)
    for name, kind in attributes.items():
        value = getattr(part, name, _ABSENT)
        if value is _ABSENT:
            if not optional:
                problems.append(f"{what} has no {name}")
        elif not _fits(value, kind):
            problems.append(f"{what} has {name} = {value!r}, not {_kind_text(kind)}")
    for name, method in methods.items():
        positional, keywords = call_shape(method)
        shape = ", ".join([*positional, *(f"{k}=" for k in keywords)])
        value = getattr(part, name, _ABSENT)
        if value is _ABSENT:
            if not optional:
                problems.append(f"{what} has no {name}({shape})")
        elif not callable(value):
            problems.append(f"{what} has {name}, but it is not callable")
        elif not _accepts(value, positional, keywords):
            problems.append(f"{what} has {name}{_signature(value)}, not taking ({shape})")
    return problems


def _accepts(func: Callable[..., Any], positional: list[str], keywords: list[str]) -> bool:
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):  # a builtin without a signature: nothing to check
        return True
    try:
        signature.bind(*positional, **{k: k for k in keywords})
    except TypeError:
        return False
    return True


def _signature(func: Callable[..., Any]) -> str:
    try:
        return str(inspect.signature(func))
    except (TypeError, ValueError):
        return "(...)"


def _fits(value: object, kind: Any) -> bool:
    origin = get_origin(kind)
    if origin is Literal:
        return value in get_args(kind)
    if origin in (Union, types.UnionType):
        return any(_fits(value, k) for k in get_args(kind))
    if origin is not None:
        kind = origin
    return isinstance(value, kind) if isinstance(kind, type) else True


def _kind_text(kind: Any) -> str:
    if get_origin(kind) is Literal:
        return "one of " + ", ".join(repr(v) for v in get_args(kind))
    return getattr(kind, "__name__", str(kind))


# -- the parts -----------------------------------------------------------------------------------


def _info_problems(game: str) -> list[str]:
    info = get_engine(game).info
    problems = []
    if not 1 <= info.min_seats <= info.max_seats:
        problems.append(f"{game}: seats {info.min_seats} to {info.max_seats} is no range")
    if info.max_moves < 1:
        problems.append(f"{game}: max_moves {info.max_moves} bounds no game")
    return problems


def _bot_problems(game: str, bots: types.ModuleType) -> list[str]:
    what = f"{game}: {bots.__name__}"
    problems = contract_problems(bots, BotMaker, what)
    if problems:
        return problems
    for level in LEVELS:
        try:
            bot = bots.make_bot(level)
        except Exception as exc:  # any failure is the game's, and is named
            problems.append(f"{what}: make_bot({level!r}) raised {exc!r}")
            continue
        problems += contract_problems(bot, Bot, f"{what}: its {level} bot")
    return problems


def _module(game: str, layer: str, problems: list[str]) -> types.ModuleType | None:
    path = part_module(game, layer)
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and path.startswith(exc.name):
            problems.append(f"{game}: no module {path}")
            return None
        raise
