"""The translation layer: catalogues load, keys used in code exist, placeholders match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import i18n
from engines.registry import game_names

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "i18n" / "catalogues"
KEY_IN_CODE = re.compile(r"""\b(?:t\(\s*[\w.]+,|tr\()\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")


def test_every_catalogue_is_flat_text() -> None:
    for path in CATALOGUES.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path


def test_one_folder_per_game_and_each_game_keeps_to_its_namespace() -> None:
    folders = {p.name for p in CATALOGUES.iterdir() if p.is_dir()}
    assert folders == {"core", *game_names()} - {"nim"}
    for game in folders - {"core"}:
        keys = json.loads((CATALOGUES / game / "en.json").read_text(encoding="utf-8"))
        assert keys and all(k.startswith(f"{game}.") for k in keys), game
    core = json.loads((CATALOGUES / "core" / "en.json").read_text(encoding="utf-8"))
    assert not [k for k in core if k.split(".")[0] in game_names()]


def test_no_key_defined_twice_across_folders() -> None:
    seen: dict[str, Path] = {}
    for path in sorted(CATALOGUES.glob("*/en.json")):
        for key in json.loads(path.read_text(encoding="utf-8")):
            assert key not in seen, f"{key} in {path} and {seen[key]}"
            seen[key] = path


def test_literal_keys_used_in_code_exist() -> None:
    missing = []
    for package in ("bot", "render"):
        for path in (ROOT / package).rglob("*.py"):
            for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8")):
                if not i18n.has(key):
                    missing.append((path.name, key))
    assert not missing


def test_locale_fallback_and_formatting() -> None:
    assert i18n.language_of("en-US") == "en"
    assert i18n.language_of("ja") == "en"  # until a Japanese catalogue lands
    assert i18n.t("de", "error.lobby_full", capacity=3) == i18n.t("en", "error.lobby_full", capacity=3)
    assert i18n.join_list("en", ["a", "b", "c"]) == "a, b and c"


def test_translator_is_a_small_value_that_pickles() -> None:
    import pickle

    tr = i18n.translator("en-GB")
    assert pickle.loads(pickle.dumps(tr)) == tr
    assert tr("error.lobby_full", capacity=3) == i18n.t("en", "error.lobby_full", capacity=3)
    assert tr.join(["a", "b"]) == "a and b"


def test_unknown_key_is_a_bug() -> None:
    with pytest.raises(KeyError):
        i18n.t("en", "no.such.key")
