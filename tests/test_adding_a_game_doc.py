"""``docs/adding-a-game.md`` cannot drift from the code either way: every member of the game
contracts (the Protocols the start-up check reads), every ``GameInfo`` field and every required
catalogue key is named in its tables, and every name its tables list exists in the code."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import bot.present
import engines.bots
import render
from bot.games import protocol_members, required_keys
from bot.present.base import Presenter, PresenterExtras
from engines.base import Engine, GameInfo
from engines.bots import Bot, BotMaker
from engines.registry import get_engine
from render.contract import Renderer, RendererExtras
from tests.test_layering import GAME_ROLES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "adding-a-game.md"
SHARED_CODE = ("bot", "render", "i18n")
NAME = re.compile(r"`([^`]+)`")


def tables() -> dict[str, list[list[str]]]:
    """Each table of the document by the title of its first column: its rows' cells."""
    found: dict[str, list[list[str]]] = {}
    block: list[list[str]] = []
    for line in [*DOC.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if block:
            title, rows = block[0][0], [r for r in block[2:]]
            assert title not in found, f"two tables titled {title!r}"
            found[title] = rows
            block = []
    return found


def names(title: str) -> list[str]:
    """The names a table lists: the first code span of each row's first cell."""
    rows = tables()[title]
    listed = []
    for row in rows:
        match = NAME.search(row[0])
        assert match, f"{title}: a row names nothing: {row}"
        listed.append(match[1])
    return listed


def members(*protocols: type) -> set[str]:
    found: set[str] = set()
    for protocol in protocols:
        attributes, methods = protocol_members(protocol)
        found |= set(attributes) | set(methods)
    return found


def key_patterns(game: str) -> set[str]:
    """``required_keys`` of a game with options, written as patterns (``<game>.option.<name>``)."""
    patterns = set()
    for key in required_keys(game):
        key = "<game>." + key.removeprefix(f"{game}.")
        for spec in get_engine(game).info.options:
            key = key.replace(f".option.{spec.name}", ".option.<name>")
        patterns.add(key)
    return patterns


CONTRACTS = {
    "engine member": members(Engine),
    "presenter member": members(Presenter, PresenterExtras),
    "renderer member": members(Renderer, RendererExtras),
    "bots member": members(BotMaker),
    "bot member": members(Bot),
    "GameInfo field": {f.name for f in dataclasses.fields(GameInfo)},
    "required key": key_patterns("nim"),
}


def test_every_table_is_one_the_check_knows() -> None:
    assert set(tables()) == {*CONTRACTS, "part", "optional key"}


@pytest.mark.parametrize("title", sorted(CONTRACTS))
def test_each_table_lists_exactly_what_the_code_has(title: str) -> None:
    listed = names(title)
    assert len(listed) == len(set(listed)), f"{title}: a name listed twice"
    assert set(listed) == CONTRACTS[title], (
        f"{title}: missing from the document {sorted(CONTRACTS[title] - set(listed))}, "
        f"not in the code {sorted(set(listed) - CONTRACTS[title])}"
    )


@pytest.mark.parametrize(
    ("title", "protocol"), [("renderer member", Renderer), ("presenter member", Presenter)]
)
def test_the_tables_say_which_members_are_required(title: str, protocol: type) -> None:
    required = {
        NAME.search(row[0])[1]: row[1] == "yes"  # type: ignore[index]
        for row in tables()[title]
    }
    assert {name for name, must in required.items() if must} == members(protocol)


def test_the_parts_found_by_convention_are_listed_and_exist() -> None:
    listed = set(names("part"))
    assert {render.PART, bot.present.PART, engines.bots.PART} <= listed
    assert listed <= set(GAME_ROLES) | {"locales"}


def test_every_optional_key_is_looked_up_by_the_shared_code() -> None:
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for package in SHARED_CODE
        for path in (ROOT / package).rglob("*.py")
    )
    for pattern in names("optional key"):
        assert pattern not in CONTRACTS["required key"]
        looked_up = re.escape(pattern)
        for placeholder in re.findall(r"<\w+>", pattern):
            looked_up = looked_up.replace(re.escape(placeholder), r"\{[^}]+\}")
        # the whole pattern in one f-string, or its head in one and the rest added to it
        whole = re.search(rf"f\"{looked_up}\"", source)
        head, _, tail = looked_up.rpartition(r"\.")
        split = re.search(rf"f\"{head}\"", source) and re.search(rf"f\"\{{\w+\}}\.{tail}\"", source)
        assert whole or split, f"{pattern}: no code looks it up"


def test_the_check_catches_a_name_the_code_lacks() -> None:
    """Not vacuous: a member the contracts lack would be reported."""
    assert "shuffle" not in CONTRACTS["engine member"]
    assert "max_moves" in CONTRACTS["GameInfo field"]
    assert "<game>.option.<name>.help" in CONTRACTS["required key"]
