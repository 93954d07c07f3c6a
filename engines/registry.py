"""The one list of games: the only place a game is named.

Every other part of a game is found by convention from its registry id, one package per game in
each layer: ``render.<game>``, ``bot.present.<game>``, ``engines.bots.<game>`` (optional) and the
catalogue folder ``i18n/catalogues/<game>/``. A game that lives outside this project (a plugin,
or the test suite's own game) registers with ``home=`` naming its package instead; its parts are
then ``<home>.render``, ``<home>.present``, ``<home>.bots`` and ``<home>/locales/``.
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
    home: str | None = None  # None: the built-in layout, one package per layer


_GAMES: dict[str, GameEntry] = {}
_generation = 0  # bumped on every registration, so layers can cache what they derive from it


def register(engine: Engine[Any, Any], *, home: str | None = None) -> None:
    """Add a game under ``engine.info.name`` (registering the same engine again is harmless)."""
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


def part_module(game: str, layer: str) -> str:
    """The module holding ``game``'s part in ``layer`` (a package path such as ``render`` or
    ``bot.present``); ``KeyError`` for a game that is not registered."""
    home = _GAMES[game].home
    if home is None:
        return f"{layer}.{game}"
    return f"{home}.{layer.rsplit('.', 1)[-1]}"


def catalogue_homes() -> tuple[str, ...]:
    """Packages of registered games that carry their own ``locales/`` catalogue folder."""
    return tuple(entry.home for entry in _GAMES.values() if entry.home is not None)


def _register_builtin() -> None:
    from engines.cantstop.rules import CantStopEngine
    from engines.harmonies.rules import HarmoniesEngine
    from engines.kokeshi.rules import KokeshiEngine

    for engine in (CantStopEngine(), KokeshiEngine(), HarmoniesEngine()):
        register(engine)


_register_builtin()
