"""A language's own rules for plurals, lists and numbers, from the CLDR data Babel ships.

Every function takes a Babel locale identifier (``en_GB``, ``fr``, ``ja``) as ``babel_locale``
gives it for a Discord locale and the catalogue language chosen for it. Results are cached: the
same few locales and small numbers come back on every board.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import get_day_names
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

#: the Babel locale of a catalogue language when the Discord locale says no more (our English
#: catalogue is written in British English, so its lists and numbers follow en_GB)
CATALOGUE_LOCALES = {"en": "en_GB"}


@cache
def babel_locale(locale: str, lang: str) -> str:
    """The Babel locale for Discord's ``locale`` (``en-US``) read in catalogue language ``lang``:
    the Discord locale itself when it is a variant of ``lang`` that CLDR knows, else ``lang``'s."""
    wanted = locale.replace("-", "_")
    if wanted.split("_")[0].lower() == lang and "_" in wanted:
        try:
            return str(Locale.parse(wanted))
        except (UnknownLocaleError, ValueError):
            pass
    return CATALOGUE_LOCALES.get(lang, lang)


@cache
def _locale(identifier: str) -> Locale:
    return Locale.parse(identifier)


@lru_cache(maxsize=4096, typed=True)  # 1 and 1.0 may differ ("1.0" is not "one")
def plural_category(identifier: str, count: float) -> str:
    """CLDR's plural category of ``count``: ``one``, ``few``, ``many``, ``other`` ..."""
    return str(_locale(identifier).plural_form(count))


@cache
def plural_categories(identifier: str) -> frozenset[str]:
    """Every category the language tells apart (``other`` always among them)."""
    return frozenset(_locale(identifier).plural_form.tags) | {"other"}


@lru_cache(maxsize=4096)
def number(identifier: str, value: int | float) -> str:
    """``value`` with the language's digits grouping and decimal sign (``12 345`` in French)."""
    return str(format_decimal(value, locale=identifier))


@lru_cache(maxsize=4096)
def percent(identifier: str, value: float) -> str:
    """``value`` (0.28) as the language writes a percentage (``28%``, ``28 %``): whole percents,
    one decimal when rounding would show a chance that is not 0 as 0 (or not 1 as 100)."""
    pattern = None
    if 0 < value < 0.005 or 0.995 < value < 1:  # the locale's own pattern, one decimal more
        pattern = _locale(identifier).percent_formats[None].pattern.replace("0", "0.#", 1)
    return str(format_percent(value, format=pattern, locale=identifier))


def join_and(identifier: str, items: Sequence[str]) -> str:
    """``a, b and c`` by the language's list pattern (``a、b、c`` in Japanese)."""
    if not items:
        return ""
    return str(format_list(list(items), style="standard", locale=identifier))


@lru_cache(maxsize=64)
def day_name(identifier: str, weekday: int) -> str:
    """The weekday's name (Monday 0) as the language writes it on its own: ``Samstag``,
    ``samedi``, ``土曜日``."""
    return str(get_day_names("wide", context="stand-alone", locale=identifier)[weekday])


def language_name(lang: str) -> str:
    """The language's name in itself: ``日本語``, ``Deutsch``, ``Français``."""
    name = str(_locale(lang).get_display_name(lang))
    return name[:1].upper() + name[1:]


#: CLDR's plural categories, in its order
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
