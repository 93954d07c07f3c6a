"""The import rules of the layers (engines pure; render without Discord; service without Discord/PIL)."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names)


def imports_of(package: str) -> list[tuple[Path, str]]:
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
