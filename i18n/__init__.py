"""The one translation layer: every user-facing sentence is a key looked up here.

Catalogues are data: one folder per domain (``catalogues/core/`` for the shared words, one folder
per game), each holding ``<lang>.json`` files of flat ``key -> text`` maps with ``str.format``
fields. All domains of a language are merged; a key missing in a language falls back to English.
Adding a language is adding files, not code.

A sentence that depends on a number is a plural key: its forms are ``<key>.<category>`` for the
CLDR plural categories of the language (English ``one``/``other``, French ``one``/``many``/
``other``, Japanese ``other`` only), and ``t(locale, key, count=n)`` picks the form for ``n``.
Numbers given as parameters are written the language's way, lists are joined by its list pattern
(``i18n.cldr``, from Babel's CLDR data).

This package sits below ``render/`` and ``bot/`` (it imports the standard library, Babel and the
engine registry, to find the catalogue of a game that lives outside this package). The renderer
receives a :class:`Translator`, a small picklable value, so it works in drawing processes too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from string import Formatter
from typing import TypeVar

from engines.registry import catalogue_homes, generation
from i18n import cldr, commands
from i18n.commands import show_commands

DEFAULT_LOCALE = "en"
#: the parameter that chooses the form of a plural key
COUNT = "count"

T = TypeVar("T")


def _builtin_folders() -> list[Traversable]:
    root = resources.files(__package__).joinpath("catalogues")
    return sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.name)


def catalogue_folders() -> tuple[Traversable, ...]:
    """Every catalogue folder: the built-in domains, then those of games registered with a home
    package of their own (``<home>/locales/``)."""
    return _folders(generation())


@cache
def _folders(_generation: int) -> tuple[Traversable, ...]:
    extra = [resources.files(home).joinpath("locales") for home in catalogue_homes()]
    return (*_builtin_folders(), *(f for f in extra if f.is_dir()))


@cache
def _catalogue(lang: str, folders: tuple[Traversable, ...]) -> dict[str, str]:
    merged: dict[str, str] = {}
    for folder in folders:
        entry = folder.joinpath(f"{lang}.json")
        if entry.is_file():
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


def catalogue(lang: str) -> dict[str, str]:
    """All keys of one language (``{}`` for a language we have no words in)."""
    return _for_folders(_catalogue, lang)


#: (function, argument, id of the folders) -> (the folders, the answer); see ``_for_folders``
_ANSWERS: dict[tuple[object, str, int], tuple[tuple[Traversable, ...], object]] = {}
_MAX_ANSWERS = 256


def _for_folders(lookup: Callable[[str, tuple[Traversable, ...]], T], arg: str) -> T:
    """``lookup(arg, catalogue_folders())``, remembered for that very tuple of folders: every
    sentence asks for its words and language, and comparing the tuple by identity costs less
    than hashing it for ``lookup``'s own cache. A new tuple (a game registered since) is looked
    up afresh."""
    folders = catalogue_folders()
    key = (lookup, arg, id(folders))
    kept = _ANSWERS.get(key)
    if kept is not None and kept[0] is folders:
        return kept[1]  # type: ignore[return-value]
    answer = lookup(arg, folders)
    if len(_ANSWERS) >= _MAX_ANSWERS:
        _ANSWERS.clear()
    _ANSWERS[key] = (folders, answer)
    return answer


@cache
def _locales(folders: tuple[Traversable, ...]) -> tuple[str, ...]:
    found = {
        entry.name.removesuffix(".json")
        for folder in folders
        for entry in folder.iterdir()
        if entry.name.endswith(".json")
    }
    return tuple(sorted(found))


def available_locales() -> tuple[str, ...]:
    return _locales(catalogue_folders())


def language_of(locale: str | None) -> str:
    """Map a Discord locale such as ``en-US``, ``ja`` or ``de`` to a catalogue we have."""
    if not isinstance(locale, str | None):
        raise TypeError(f"a locale is a string, not {type(locale).__name__}")
    return _for_folders(_language, locale or "")


@cache
def _language(locale: str, folders: tuple[Traversable, ...]) -> str:
    if not locale:
        return DEFAULT_LOCALE
    lang = locale.split("-")[0].lower()
    return lang if lang in _locales(folders) else DEFAULT_LOCALE


_SENTENCE_ENDS = (".", "!", "?", "…", "。", "！", "？")


def end_sentence(text: str, locale: str | None = None) -> str:
    """``text`` closed with the language's full stop unless it already ends like a sentence
    ("wins!", "。")."""
    stripped = text.rstrip()
    if stripped.endswith(_SENTENCE_ENDS):
        return stripped
    return stripped + ("。" if (locale or "").startswith("ja") else ".")


def has(key: str) -> bool:
    """Is ``key`` a word of the catalogues (a plain key, or a plural key with its forms)?"""
    english = catalogue(DEFAULT_LOCALE)
    return key in english or f"{key}.other" in english


def is_plural(key: str) -> bool:
    """Does ``key`` have plural forms (``key.one``, ``key.other`` ...) instead of one text?"""
    return f"{key}.other" in catalogue(DEFAULT_LOCALE)


def number_locale(locale: str | None) -> str:
    """The Babel locale whose plural, list and number rules ``locale`` reads by."""
    return cldr.babel_locale(locale or "", language_of(locale))


def _text(lang: str, locale: str | None, key: str, params: dict[str, object]) -> str:
    if COUNT in params and is_plural(key):
        count = params[COUNT]
        if not isinstance(count, int | float) or isinstance(count, bool):
            raise TypeError(f"{key}: count must be a number, not {count!r}")
        form = cldr.plural_category(cldr.babel_locale(locale or "", lang), count)
        words = catalogue(lang)
        text = words.get(f"{key}.{form}") or words.get(f"{key}.other")
        if text is None:
            english = catalogue(DEFAULT_LOCALE)
            form = cldr.plural_category(cldr.babel_locale("", DEFAULT_LOCALE), count)
            text = english.get(f"{key}.{form}") or english[f"{key}.other"]
        return text
    text = catalogue(lang).get(key)
    return catalogue(DEFAULT_LOCALE)[key] if text is None else text


def _shown(identifier: str, name: str, value: object) -> object:
    """A parameter as the sentence shows it: numbers the language's way, the rest as given.
    Identifiers (``*_id``, e.g. a channel id inside ``<#…>``) are names, not quantities."""
    if name.endswith("_id"):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return cldr.number(identifier, value)
    return value


#: sentences already composed, by (locale, key, the parameters and their types); emptied when
#: the catalogues or the way commands are shown change, or when it is full
_SENTENCES: dict[tuple[object, ...], str] = {}
_SENTENCES_KEPT = 16384
_sentences_for: tuple[object, object] = ((), None)
#: parameter types whose equal values always read the same (a Discord object is equal to
#: another with the same id, whatever its name now is): only sentences made of these are kept
_KEPT_TYPES = frozenset({str, int, float, bool})


def t(locale: str | None, key: str, /, **params: object) -> str:
    """The text for ``key`` in ``locale`` (English fallback), formatted with ``params``.

    ``count`` chooses the form of a plural key (and is a field like the others). A command the
    text names (``</play>``) is shown as ``i18n.commands`` says. A missing key is a programming
    error and raises ``KeyError`` so tests catch it.

    A board's message asks for hundreds of sentences, most of them asked for at the last move
    too (a Harmonies hex's options, a roll's words): each is composed once and kept.
    """
    global _sentences_for
    values = params.values()
    if not _KEPT_TYPES.issuperset(map(type, values)):
        return _compose(locale, key, params)
    folders, renderer = catalogue_folders(), commands.renderer()
    if folders is not _sentences_for[0] or renderer is not _sentences_for[1]:
        _SENTENCES.clear()
        _sentences_for = (folders, renderer)
    found = (locale, key, *params.items(), *map(type, values))
    text = _SENTENCES.get(found)
    if text is None:
        text = _compose(locale, key, params)
        if len(_SENTENCES) >= _SENTENCES_KEPT:
            _SENTENCES.clear()
        _SENTENCES[found] = text
    return text


def _compose(locale: str | None, key: str, params: dict[str, object]) -> str:
    lang = language_of(locale)
    text = show_commands(_text(lang, locale, key, params))
    if not params:
        return text
    identifier = cldr.babel_locale(locale or "", lang)
    return text.format(**{name: _shown(identifier, name, v) for name, v in params.items()})


def forms(key: str, lang: str = DEFAULT_LOCALE) -> dict[str, str]:
    """The texts of ``key`` in ``lang``: ``{"": text}`` for a plain key, else one per form."""
    words = catalogue(lang)
    if not is_plural(key):
        return {"": words[key]} if key in words else {}
    prefix = f"{key}."
    return {
        k.removeprefix(prefix): v
        for k, v in words.items()
        if k.startswith(prefix) and k.removeprefix(prefix) in cldr.PLURAL_CATEGORIES
    }


def fields(key: str) -> set[str]:
    """The ``{name}`` fields the English text of ``key`` expects (used by catalogue tests)."""
    return {
        name
        for text in forms(key).values()
        for _, name, _, _ in Formatter().parse(text)
        if name
    }


def join_list(locale: str | None, items: Sequence[str]) -> str:
    """``a, b and c`` by the locale's own list pattern (CLDR, through Babel)."""
    return cldr.join_and(number_locale(locale), items)


def weekdays_text(locale: str | None, days: Iterable[int]) -> str:
    """Weekdays (Monday 0) in week order, named and listed the locale's way: "Saturday and
    Sunday", "samedi et dimanche", "土曜日、日曜日"."""
    identifier = number_locale(locale)
    return cldr.join_and(identifier, [cldr.day_name(identifier, d) for d in sorted(set(days))])


def clock_length(locale: str | None, hours: float | None) -> str:
    """How long a turn clock (or another span of game time in whole hours) lasts: "12 hours",
    "1 day", "3 days", or "No clock". The one wording of clock lengths: lobbies, ``/settings``
    and the menus of ``/play`` and ``/settings`` all use it."""
    if not hours:
        return t(locale, "clock.none")
    whole = max(1, round(hours))
    if whole % 24 == 0:
        return t(locale, "clock.days", count=whole // 24)
    return t(locale, "clock.hours", count=whole)


def bank_length(locale: str | None, start: float, increment: float, cap: float) -> str:
    """A time bank (hours of game time): "Time bank 1 day (+12 hours a move, at most 3 days)",
    in the words of ``clock_length``: the menus of ``/play`` and ``/settings`` and the server's
    settings all use it."""
    return t(
        locale,
        "clock.bank",
        start=clock_length(locale, start),
        increment=clock_length(locale, increment),
        cap=clock_length(locale, cap),
    )


def clock_name(locale: str | None, hours: float | None, bank: tuple[float, float] | None) -> str:
    """A clock as the menus name it: per move (``clock_length``), or a bank starting at
    ``hours`` with ``bank`` = (increment, cap) hours (``bank_length``)."""
    if bank is None or not hours:
        return clock_length(locale, hours)
    return bank_length(locale, hours, *bank)


def time_left(locale: str | None, hours: float) -> str:
    """How much is left on a clock, to the hour from a day on and to the minute below it:
    "2 days 4 hours", "5 hours 30 minutes", "20 minutes"."""
    minutes = max(0, round(hours * 60))
    if minutes >= 24 * 60:
        days, rest = divmod(round(minutes / 60), 24)
        day_words = t(locale, "clock.days", count=days)
        if not rest:
            return day_words
        hour_words = t(locale, "clock.hours", count=rest)
        return t(locale, "clock.days_hours", days=day_words, hours=hour_words)
    if minutes >= 60:
        whole, rest = divmod(minutes, 60)
        hour_words = t(locale, "clock.hours", count=whole)
        if not rest:
            return hour_words
        return t(
            locale,
            "clock.hours_minutes",
            hours=hour_words,
            minutes=t(locale, "clock.minutes", count=rest),
        )
    return t(locale, "clock.minutes", count=minutes)


def game_title(locale: str | None, game: str) -> str:
    """A game's name in the locale (its registry id when the catalogue has none)."""
    key = f"{game}.title"
    return t(locale, key) if has(key) else game


#: the letter each seat carries on every board (colour is always paired with it)
SEAT_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")


def player_name(locale: str | None, seat: int, names: Sequence[str] | None) -> str:
    """The display name given for ``seat`` (whitespace folded), else "Player A" style."""
    if names is not None and 0 <= seat < len(names) and str(names[seat]).strip():
        return " ".join(str(names[seat]).split())
    return t(locale, "player.default", letter=SEAT_LETTERS[seat])


@dataclass(frozen=True, slots=True)
class Translator:
    """The words of one locale, handed to code that must not know where words come from (the
    renderer, in this process or a drawing process: it pickles as its locale alone)."""

    locale: str = DEFAULT_LOCALE

    def __call__(self, key: str, /, **params: object) -> str:
        return t(self.locale, key, **params)

    def has(self, key: str) -> bool:
        return has(key)

    def join(self, items: Iterable[str]) -> str:
        return join_list(self.locale, list(items))

    def number(self, value: int | float) -> str:
        """``value`` written the locale's way (``12,345``, ``12.345``, ``12 345``)."""
        return cldr.number(number_locale(self.locale), value)

    def percent(self, value: float) -> str:
        """``value`` (a fraction of 1) as a percentage written the locale's way."""
        return cldr.percent(number_locale(self.locale), float(value))

    def player(self, seat: int, names: Sequence[str] | None) -> str:
        """The display name given for ``seat``, else "Player A" style."""
        return player_name(self.locale, seat, names)

    @property
    def sep(self) -> str:
        """The separator of a plain list (``, `` in English)."""
        return t(self.locale, "list.sep")


def translator(locale: str | None) -> Translator:
    return Translator(locale or DEFAULT_LOCALE)
