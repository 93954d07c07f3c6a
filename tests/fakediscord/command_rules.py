"""Discord's rules for application commands that its published description does not encode.

Discord's OpenAPI description (``contract``) is the judge of lengths and counts: names 1-32,
option and choice texts 1-100, localised texts, 25 options, 25 choices, option types. What stays
here is what its schemas cannot say or do not say:

- the chat input name rule (letters and numbers of any script, ``-``, ``_``, ``'``, lowercase
  where a letter has a lowercase form) on names and localised names: the description gives
  only their length;
- localisation keys are Discord's locales (the description allows any key);
- a chat input command's description is 1-100 characters (the description lets a command of
  any type leave it out, as user and message commands do);
- rules across fields: unique names, required options before optional ones, autocomplete and
  choices exclusive, 4,000 characters per locale across a command, at most 100 chat input
  commands (the description's 130 counts every type);
- a string choice's value is 100 characters (the description says 6,000).
"""

from __future__ import annotations

import unicodedata
from typing import Any

LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
#: Discord's chat input name rule: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase
#: wherever a letter has a lowercase form
NAME_PUNCTUATION = frozenset("-_'")
MAX_CHAT_INPUT_COMMANDS = 100
MAX_CHOICE_VALUE = 100
MAX_TOTAL_CHARS = 4000


def _name_char(c: str) -> bool:
    """A letter, a number, ``-``, ``_``, ``'`` or any Devanagari or Thai character."""
    return (
        c in NAME_PUNCTUATION
        or unicodedata.category(c)[0] in "LN"
        or "\u0900" <= c <= "\u097f"
        or "\u0e00" <= c <= "\u0e7f"
    )


def valid_chat_input_name(name: str) -> bool:
    """Whether Discord accepts ``name`` as a (localised) command, option or group name."""
    return 1 <= len(name) <= 32 and all(map(_name_char, name)) and name == name.lower()


def _check_name(name: Any, where: str, errors: list[str], *, chat_input: bool) -> None:
    if chat_input and isinstance(name, str) and not valid_chat_input_name(name):
        errors.append(f"{where}.name: invalid chat input name {name!r}")


def _check_text(obj: dict[str, Any], where: str, errors: list[str], *, chat_input: bool) -> None:
    _check_name(obj.get("name"), where, errors, chat_input=chat_input)
    for key in ("name_localizations", "description_localizations"):
        for locale, value in (obj.get(key) or {}).items():
            if locale not in LOCALES:
                errors.append(f"{where}.{key}.{locale}: invalid locale")
            elif key == "name_localizations":
                _check_name(value, f"{where}.{key}.{locale}", errors, chat_input=chat_input)


def _check_options(options: list[dict[str, Any]], where: str, errors: list[str]) -> None:
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(options):
        here = f"{where}.{i}"
        _check_text(opt, here, errors, chat_input=True)
        if opt.get("name") in names:
            errors.append(f"{here}.name: duplicate option name")
        names.add(str(opt.get("name")))
        if opt.get("type") in (1, 2):
            _check_options(list(opt.get("options") or []), f"{here}.options", errors)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.append(f"{here}: required options must come before optional ones")
        else:
            seen_optional = True
        choices = list(opt.get("choices") or [])
        if choices and opt.get("autocomplete"):
            errors.append(f"{here}: autocomplete and choices are exclusive")
        for j, choice in enumerate(choices):
            value = choice.get("value")
            if isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
                errors.append(f"{here}.choices.{j}.value: at most {MAX_CHOICE_VALUE} characters")
            for locale in choice.get("name_localizations") or {}:
                if locale not in LOCALES:
                    errors.append(f"{here}.choices.{j}.name_localizations.{locale}: invalid locale")
        names_by_locale: dict[str, set[str]] = {}
        for sibling in options:
            for locale, value in (sibling.get("name_localizations") or {}).items():
                if value in names_by_locale.setdefault(locale, set()) and sibling is opt:
                    errors.append(f"{here}.name_localizations.{locale}: duplicate option name")
                names_by_locale[locale].add(value)


def _localised(obj: dict[str, Any], field: str, locale: str | None) -> str:
    """``obj[field]`` as readers in ``locale`` see it (None: the default)."""
    local = (obj.get(f"{field}_localizations") or {}).get(locale) if locale else None
    return str(local if local is not None else obj.get(field) or "")


def _total_chars(obj: dict[str, Any], locale: str | None = None) -> int:
    """Characters of names, descriptions and choice values, as one locale sees them (Discord
    applies the 4,000 limit to every locale's text)."""
    total = len(_localised(obj, "name", locale)) + len(_localised(obj, "description", locale))
    for opt in obj.get("options") or []:
        total += _total_chars(opt, locale)
    for choice in obj.get("choices") or []:
        total += len(_localised(choice, "name", locale)) + len(str(choice.get("value") or ""))
    return total


def _locales_used(obj: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for field in ("name_localizations", "description_localizations"):
        found |= set(obj.get(field) or {})
    for child in [*(obj.get("options") or []), *(obj.get("choices") or [])]:
        found |= _locales_used(child)
    return found


def validate_commands(commands: list[dict[str, Any]]) -> list[str]:
    """Every reason of these rules Discord would refuse this bulk overwrite for (empty when
    none; the contract checks the rest)."""
    errors: list[str] = []
    if sum(int(c.get("type") or 1) == 1 for c in commands) > MAX_CHAT_INPUT_COMMANDS:
        errors.append(f"at most {MAX_CHAT_INPUT_COMMANDS} chat input commands")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = int(cmd.get("type") or 1)
        chat_input = ctype == 1
        _check_text(cmd, str(i), errors, chat_input=chat_input)
        key = (ctype, str(cmd.get("name")))
        if key in seen:
            errors.append(f"{i}.name: duplicate command name")
        seen.add(key)
        if chat_input:
            desc = cmd.get("description")
            if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
                errors.append(f"{i}.description: must be 1-100 characters")
            _check_options(list(cmd.get("options") or []), f"{i}.options", errors)
            for locale in [None, *sorted(_locales_used(cmd))]:
                if _total_chars(cmd, locale) > MAX_TOTAL_CHARS:
                    errors.append(
                        f"{i}: more than {MAX_TOTAL_CHARS} characters in total ({locale or 'default'})"
                    )
    return errors
