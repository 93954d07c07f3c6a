"""The one translation layer: every user-facing sentence is a key looked up here.

Catalogues are data: ``locales/<lang>/<domain>.json`` files holding flat ``key -> text`` maps with
``str.format`` fields. All files of a language are merged; a key missing in a language falls back
to English. Adding Japanese, German or French is adding a folder, not code. This package uses only
the standard library so the renderer (board captions, alt text) and the CLI can use it too.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from string import Formatter

DEFAULT_LOCALE = "en"


@cache
def _catalogue(lang: str) -> dict[str, str]:
    folder = resources.files(__package__).joinpath("locales", lang)
    merged: dict[str, str] = {}
    if not folder.is_dir():
        return merged
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".json"):
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


@cache
def available_locales() -> tuple[str, ...]:
    root = resources.files(__package__).joinpath("locales")
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir()))


@cache
def language_of(locale: str | None) -> str:
    """Map a Discord locale such as ``en-US``, ``ja`` or ``de`` to a catalogue we have."""
    if not locale:
        return DEFAULT_LOCALE
    lang = str(locale).split("-")[0].lower()
    return lang if lang in available_locales() else DEFAULT_LOCALE


def has(key: str) -> bool:
    return key in _catalogue(DEFAULT_LOCALE)


def t(locale: str | None, key: str, /, **params: object) -> str:
    """The text for ``key`` in ``locale`` (English fallback), formatted with ``params``.

    A missing key is a programming error and raises ``KeyError`` so tests catch it.
    """
    lang = language_of(locale)
    text = _catalogue(lang).get(key)
    if text is None:
        text = _catalogue(DEFAULT_LOCALE)[key]
    return text.format(**params) if params else text


def fields(key: str) -> set[str]:
    """The ``{name}`` fields the English text of ``key`` expects (used by catalogue tests)."""
    return {name for _, name, _, _ in Formatter().parse(_catalogue(DEFAULT_LOCALE)[key]) if name}


def join_list(locale: str | None, items: list[str]) -> str:
    """``a, b and c`` in the locale's own words."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t(locale, "list.and", head=t(locale, "list.sep").join(items[:-1]), last=items[-1])
