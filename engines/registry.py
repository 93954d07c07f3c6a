"""The one list of games: the only place a game is named.

A game is one package (its *home*) that registers its engine with ``register(engine,
home=__name__)`` when imported; every other part is found beside it by convention:
``<home>.render``, ``<home>.present``, ``<home>.bots`` (optional) and the catalogue folder
``<home>/locales/``. The built-in games (``games.BUILTIN``) are registered exactly so, and so is a
game kept outside the project, named in ``BOARDROOM_GAMES`` (``docs/adding-a-game.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engines.base import Engine


@dataclass(frozen=True, slots=True)
class GameEntry:
    engine: Engine[Any, Any]
    home: str  # the package that holds the game's parts


_GAMES: dict[str, GameEntry] = {}
_generation = 0  # bumped on every registration, so layers can cache what they derive from it


def register(engine: Engine[Any, Any], *, home: str) -> None:
    """Add a game under ``engine.info.name``, its parts in the package ``home`` (registering the
    same engine again is harmless)."""
    name = engine.info.name
    known = _GAMES.get(name)
    if known is not None and type(known.engine) is not type(engine):
        raise ValueError(f"a different game is already registered as {name!r}")
    _GAMES[name] = GameEntry(engine, home)
    global _generation
    _generation += 1


def generation() -> int:
    """Changes whenever a game is registered (a cache key for derived lookups)."""
    return _generation


def load_game_modules(modules: Iterable[str]) -> None:
    """Import modules that register more games (``BOARDROOM_GAMES``): importing one registers."""
    for module in modules:
        importlib.import_module(module)


def get_engine(name: str) -> Engine[Any, Any]:
    """The engine registered under ``name``; ``KeyError`` if there is none."""
    return _GAMES[name].engine


def game_names() -> tuple[str, ...]:
    return tuple(_GAMES)


def encoding_fingerprint() -> str:
    """A digest of every registered engine's code and rules version: when it is unchanged, no
    stored state can have become unreadable (``OldEncoding``) since it was last checked."""
    import hashlib
    import inspect
    from pathlib import Path

    digest = hashlib.sha256()
    for name in game_names():
        engine = get_engine(name)
        digest.update(f"{name}:{engine.info.rules_version}:".encode())
        source = inspect.getsourcefile(type(engine))
        if source is None:
            continue
        for path in sorted(Path(source).parent.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def part_module(game: str, part: str) -> str:
    """The module holding ``game``'s ``part`` (``render``, ``present`` or ``bots``);
    ``KeyError`` for a game that is not registered."""
    return f"{_GAMES[game].home}.{part}"


def home_of(game: str) -> str:
    """The package that holds ``game``'s parts; ``KeyError`` for a game that is not registered."""
    return _GAMES[game].home


def catalogue_homes() -> tuple[str, ...]:
    """The packages of the registered games, each with its ``locales/`` catalogue folder."""
    return tuple(entry.home for entry in _GAMES.values())


#: the packages whose import registers a built-in game (``games/<name>/``), in /play's order;
#: named as text, since the engine layer imports no game
BUILTIN_GAMES = ("games.cantstop", "games.kokeshi", "games.harmonies")

load_game_modules(BUILTIN_GAMES)
