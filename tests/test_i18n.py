"""The translation layer: catalogues load, keys used in code exist, placeholders match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "bot" / "i18n" / "locales"
KEY_IN_CODE = re.compile(r"""\bt\(\s*[\w.]+,\s*["']([a-z_]+\.[a-z0-9_.]+)["']""")


def test_every_catalogue_is_flat_text() -> None:
    for path in LOCALES.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path


def test_no_key_defined_twice_across_files() -> None:
    seen: dict[str, Path] = {}
    for path in sorted((LOCALES / "en").glob("*.json")):
        for key in json.loads(path.read_text(encoding="utf-8")):
            assert key not in seen, f"{key} in {path.name} and {seen[key].name}"
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


def test_unknown_key_is_a_bug() -> None:
    with pytest.raises(KeyError):
        i18n.t("en", "no.such.key")
