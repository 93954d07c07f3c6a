"""The translation layer: catalogues load, keys used in code exist, placeholders match."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

import i18n
from engines.registry import game_names, home_of
from tests.per_game import per_game

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "i18n" / "catalogues"
KEY_IN_CODE = re.compile(r"""\b(?:t\(\s*[\w.]+,|tr\()\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")


def game_catalogues() -> dict[str, Path]:
    """Every registered game's catalogue folder (``<home>/locales/``), by game."""
    return {
        game: Path(str(resources.files(home_of(game)).joinpath("locales")))
        for game in game_names()
    }


def all_folders() -> list[Path]:
    return [*(CATALOGUES / shared for shared in sorted(SHARED)), *game_catalogues().values()]


@per_game
def test_every_catalogue_is_flat_text() -> None:
    for folder in all_folders():
        for path in folder.glob("*.json"):
            data = json.loads(path.read_text(encoding="utf-8"))
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path


#: folders of words every game shares: the core, and asynchronous play (clocks, votes, away)
SHARED = {"core", "play"}


@per_game
def test_shared_folders_only_here_and_each_game_keeps_to_its_namespace() -> None:
    assert {p.name for p in CATALOGUES.iterdir() if p.is_dir()} == SHARED
    for game, folder in game_catalogues().items():
        keys = json.loads((folder / "en.json").read_text(encoding="utf-8"))
        assert keys and all(k.startswith(f"{game}.") for k in keys), game
    for shared in SHARED:
        words = json.loads((CATALOGUES / shared / "en.json").read_text(encoding="utf-8"))
        assert not [k for k in words if k.split(".")[0] in game_names()]


def test_no_key_defined_twice_across_folders() -> None:
    seen: dict[str, Path] = {}
    for folder in all_folders():
        path = folder / "en.json"
        for key in json.loads(path.read_text(encoding="utf-8")):
            assert key not in seen, f"{key} in {path} and {seen[key]}"
            seen[key] = path


def test_literal_keys_used_in_code_exist() -> None:
    missing = []
    for package in ("bot", "render", "games"):
        for path in (ROOT / package).rglob("*.py"):
            for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8")):
                if not i18n.has(key):
                    missing.append((path.name, key))
    assert not missing


def test_locale_fallback_and_formatting() -> None:
    assert i18n.language_of("en-US") == "en"
    assert i18n.language_of("en-GB") == "en"
    for unknown in ("es-ES", "zh-TW", "pt-BR", "", None):
        assert i18n.language_of(unknown) == "en"
    assert i18n.t("es-ES", "error.no_active_game") == i18n.t("en", "error.no_active_game")


def test_translator_is_a_small_value_that_pickles() -> None:
    import pickle

    tr = i18n.translator("en-GB")
    assert pickle.loads(pickle.dumps(tr)) == tr
    assert tr("game.log.range", count=3, first=1, last=3) == i18n.t(
        "en", "game.log.range", count=3, first=1, last=3
    )
    assert tr.join(["a", "b"]) == "a and b"


@pytest.fixture
def apples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalogue folder of test words beside the real ones: apples in four languages."""
    words = {
        "en": {"test.apples.one": "{count} apple", "test.apples.other": "{count} apples"},
        "fr": {
            "test.apples.one": "{count} pomme",
            "test.apples.many": "{count} de pommes",
            "test.apples.other": "{count} pommes",
        },
        "de": {"test.apples.one": "{count} Apfel", "test.apples.other": "{count} Äpfel"},
        "ja": {"test.apples.other": "りんご{count}個"},
    }
    folder = tmp_path / "test"
    folder.mkdir()
    for lang, entries in words.items():
        (folder / f"{lang}.json").write_text(json.dumps(entries), encoding="utf-8")
    real = i18n.catalogue_folders()
    monkeypatch.setattr(i18n, "catalogue_folders", lambda: (*real, folder))


def test_english_says_one_and_other(apples: None) -> None:
    assert [i18n.t("en", "test.apples", count=n) for n in (0, 1, 2)] == [
        "0 apples",
        "1 apple",
        "2 apples",
    ]
    assert i18n.is_plural("test.apples") and i18n.has("test.apples")
    assert i18n.fields("test.apples") == {"count"}


def test_french_zero_and_one_are_one_and_millions_are_many(apples: None) -> None:
    assert i18n.t("fr", "test.apples", count=0) == "0 pomme"
    assert i18n.t("fr", "test.apples", count=1) == "1 pomme"
    assert i18n.t("fr", "test.apples", count=2) == "2 pommes"
    assert i18n.t("fr", "test.apples", count=1_000_000) == "1\u202f000\u202f000 de pommes"


def test_japanese_has_one_form_and_german_two(apples: None) -> None:
    assert {i18n.t("ja", "test.apples", count=n) for n in (1, 2)} == {"りんご1個", "りんご2個"}
    assert i18n.cldr.plural_categories("ja") == {"other"}
    assert i18n.t("de", "test.apples", count=1) == "1 Apfel"
    assert i18n.t("de", "test.apples", count=0) == "0 Äpfel"


def test_numbers_and_lists_follow_the_language(apples: None) -> None:
    assert i18n.t("de", "test.apples", count=12345) == "12.345 Äpfel"
    assert i18n.t("en", "test.apples", count=12345) == "12,345 apples"
    assert i18n.join_list("en", ["a", "b", "c"]) == "a, b and c"  # the catalogue's en_GB
    assert i18n.join_list("en-US", ["a", "b", "c"]) == "a, b, and c"
    assert i18n.join_list("fr", ["a", "b", "c"]) == "a, b et c"
    assert i18n.join_list("de", ["a", "b", "c"]) == "a, b und c"
    assert i18n.join_list("ja", ["a", "b", "c"]) == "a、b、c"
    assert i18n.join_list("ja", []) == "" and i18n.join_list("ja", ["a"]) == "a"


def test_a_plural_key_needs_its_count() -> None:
    with pytest.raises(KeyError):
        i18n.t("en", "game.log.range")
    with pytest.raises(TypeError):
        i18n.t("en", "game.log.range", count="3")


def test_no_code_chooses_words_by_comparing_a_count_with_one() -> None:
    """Plural forms come from the catalogue (CLDR categories), not from ``if n == 1``."""
    pattern = re.compile(r"(len\([^)]*\)|count|n)\s*[=!]=\s*1\b.*\b(key|tr\(|t\()")
    found = []
    for package in ("bot", "render", "i18n"):
        for path in (ROOT / package).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found
    english = i18n.catalogue("en")
    pairs = [k for k in english if k.endswith(("_one", "_many")) and k.rsplit("_", 1)[0] in english]
    assert not pairs, "a sentence and its *_one/*_many twin: make it a plural key"


def test_unknown_key_is_a_bug() -> None:
    with pytest.raises(KeyError):
        i18n.t("en", "no.such.key")


def test_identifiers_are_not_formatted_as_numbers() -> None:
    text = i18n.t("fr", "error.wrong_channel", channel_id=1577292896988561422)
    assert "<#1577292896988561422>" in text


def test_a_kept_sentence_follows_how_commands_are_shown() -> None:
    """Sentences are composed once and kept; installing command mentions (as the bot does once
    its commands are synced) changes every later one."""
    from i18n import commands

    key = next(k for k in i18n.catalogue("en") if "</" in i18n.catalogue("en")[k])
    typed = i18n.t("en", key)
    assert "`/" in typed and i18n.t("en", key) == typed
    commands.set_renderer(lambda name: f"<{name}:1>")
    try:
        assert "`/" not in i18n.t("en", key) and ":1>" in i18n.t("en", key)
    finally:
        commands.set_renderer(None)
    assert i18n.t("en", key) == typed


def test_kept_sentences_tell_equal_values_of_other_types_apart() -> None:
    """1, 1.0 and True are one dictionary key to Python but need not be the same words: each
    kept sentence is the one composed for its own value."""
    values = (1, True, 1.0)
    kept = [i18n.t("fr", "game.log.range", count=3, first=v, last=1) for v in values]
    assert kept == [
        i18n._compose("fr", "game.log.range", {"count": 3, "first": v, "last": 1})
        for v in values
    ]
    assert kept[0] != kept[1], kept  # a number is written the language's way, a flag is not


def test_a_sentence_about_an_object_reads_it_again() -> None:
    """An object equal to another by id (a Discord member) may have changed its name: such a
    sentence is composed each time, never kept."""

    class Member:
        def __init__(self, name: str) -> None:
            self.name = name

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Member)

        def __hash__(self) -> int:
            return 1

        def __str__(self) -> str:
            return self.name

    member = Member("Ada")
    first = i18n.t("en", "game.log.range", count=3, first=member, last=3)
    member.name = "Grace"
    assert "Ada" in first and "Grace" in i18n.t("en", "game.log.range", count=3, first=member, last=3)
