"""The import rules of the layers (engines pure; render without Discord; service without Discord/PIL)."""

from __future__ import annotations

import ast
import re
import sys
from importlib import resources
from pathlib import Path

import pytest

from engines.registry import game_names, home_of
from tests.per_game import games, per_game

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)


def imports_of(package: str | Path) -> list[tuple[Path, str]]:
    """(file, module) for every absolute import under ``package`` (a folder, or a path in the
    project)."""
    found = []
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [(path, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.module))
    return found


def top(name: str) -> str:
    return name.split(".")[0]


def test_engines_import_only_the_stdlib_and_themselves() -> None:
    bad = [(p, m) for p, m in imports_of("engines") if top(m) not in STDLIB and top(m) != "engines"]
    assert not bad


def test_render_has_no_discord_or_storage() -> None:
    allowed = {"engines", "render", "PIL", "fontTools"}
    bad = [
        (p, m) for p, m in imports_of("render")
        if top(m) not in STDLIB and top(m) not in allowed and not m.startswith("i18n")
    ]
    assert not bad


@pytest.mark.parametrize("package", ["bot/service", "bot/storage", "bot/present", "i18n"])
def test_discord_free_layers(package: str) -> None:
    bad = [(p, m) for p, m in imports_of(package) if top(m) in {"discord", "PIL", "aiohttp"}]
    assert not bad


def test_storage_knows_no_engines() -> None:
    assert not [(p, m) for p, m in imports_of("bot/storage") if top(m) == "engines"]


def test_shared_layers_name_no_game() -> None:
    """The shared machinery finds a game's parts through the registry, never by importing them."""
    packages = ("engines", "render", "i18n", "bot")
    bad = [(p, m) for pkg in packages for p, m in imports_of(pkg) if top(m) == "games"]
    assert not bad


# What each part of a game folder may import besides the standard library and the game's own
# parts of lower roles: the rules know nothing of drawing, words or Discord; the bots only the
# rules; the words only the translation layer; drawing nothing of the bot.
GAME_ROLES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    # role: (its game's own roles it may import, shared packages or modules it may import)
    "engine": (frozenset({"engine"}), ("engines",)),
    "bots": (frozenset({"engine", "bots"}), ("engines",)),
    "words": (frozenset({"engine", "words"}), ("i18n",)),
    "render": (
        frozenset({"engine", "words", "render"}),
        ("engines", "i18n", "render", "PIL", "fontTools"),
    ),
    "present": (
        frozenset({"engine", "words", "present"}),
        ("engines", "i18n", "bot.present", "bot.service.models"),
    ),
    "__init__": (frozenset({"engine"}), ("engines.registry",)),
}


def game_folder(game: str) -> Path:
    """The folder of a registered game's home package, built-in or a plugin."""
    return Path(str(resources.files(home_of(game))))


def role_of(home: Path, path: Path) -> str:
    """``engine``, ``bots``, ``words``, ``render``, ``present`` or ``__init__``: the first part of
    the path inside the game folder, a module or a package."""
    first = path.relative_to(home).parts[0]
    return first.removesuffix(".py")


def game_part(package: str, module: str) -> str | None:
    """The role a module of the game package ``package`` plays, or None for a module outside it."""
    if module != package and not module.startswith(package + "."):
        return None
    rest = module.removeprefix(package).lstrip(".")
    return rest.split(".")[0] if rest else "__init__"


def test_every_game_folder_is_a_registered_game() -> None:
    """The built-in folders are all registered, so the check below sees each of them."""
    built_in = {p for p in (ROOT / "games").iterdir() if (p / "__init__.py").is_file()}
    assert built_in <= {game_folder(game) for game in game_names()}


@per_game
@pytest.mark.parametrize("game", games())
def test_each_part_of_a_game_imports_only_what_its_role_allows(game: str) -> None:
    home, package = game_folder(game), home_of(game)
    assert {role_of(home, p) for p in home.rglob("*.py")} <= set(GAME_ROLES), "unknown role"
    bad = []
    for path, module in imports_of(home):
        own_roles, shared = GAME_ROLES[role_of(home, path)]
        own = game_part(package, module)
        if own is not None:
            allowed = own in own_roles
        else:
            allowed = top(module) in STDLIB or any(
                module == s or module.startswith(s + ".") for s in shared
            )
        if not allowed:
            bad.append((str(path), module))
    assert not bad


def test_the_role_rule_refuses_what_it_should() -> None:
    """The rule above is not vacuous: a drawing import in the rules and a bot import in the
    drawing are refused."""
    assert game_part("games.cantstop", "games.cantstop.render.board") == "render"
    assert "render" not in GAME_ROLES["engine"][0]
    assert game_part("games.cantstop", "games.kokeshi.engine") is None  # not a part
    assert not any(s.startswith("bot") and s != "bot.present" and s != "bot.service.models"
                   for s in GAME_ROLES["render"][1])


def _adapter_graph() -> dict[str, set[str]]:
    """Which bot.adapter modules each bot.adapter module imports (at module level or inside)."""
    graph: dict[str, set[str]] = {}
    for path, module in imports_of("bot/adapter"):
        graph.setdefault(path.stem, set())
        if module.startswith("bot.adapter."):
            graph[path.stem].add(module.removeprefix("bot.adapter."))
    return graph


def test_adapter_modules_import_each_other_without_a_circle() -> None:
    graph = _adapter_graph()
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"import circle: {' -> '.join((*path, node))}"
        if node in done:
            return
        for nxt in graph.get(node, ()):
            visit(nxt, (*path, node))
        done.add(node)

    for node in graph:
        visit(node, ())


def test_messages_are_built_without_discord() -> None:
    path = ROOT / "bot" / "adapter" / "messages.py"
    bad = [m for p, m in imports_of("bot/adapter") if p == path and top(m) == "discord"]
    assert not bad


def test_nothing_relies_on_discord_private_attributes() -> None:
    private = re.compile(r"\.__discord_\w+|\._(?:state|connection|http|cs_\w+)\b")
    found = [
        (path.name, match.group())
        for package in ("bot",)
        for path in (ROOT / package).rglob("*.py")
        for match in private.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found
