"""Every language says everything English says, with the same placeholders, in its own words;
and every word of the catalogues is used by some code. The catalogues are those of every
registered game, plugins included: these are per-game checks (``tests/per_game.py``)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from string import Formatter

import pytest

import i18n
from engines.registry import catalogue_homes, game_names, get_engine
from i18n import cldr
from tests.per_game import per_game

pytestmark = per_game

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("ja", "de", "fr")
FORMS = set(cldr.PLURAL_CATEGORIES)


def game_folders() -> list[Path]:
    """The folder of every registered game (its home package), built-in or a plugin."""
    return [Path(str(resources.files(home))) for home in catalogue_homes()]


#: the code that may use a catalogue key: the shared layers and every game's folder
CODE = [ROOT / "bot", ROOT / "render", ROOT / "i18n", *game_folders()]

#: texts that are the same in English and the language on purpose: names, letters on the
#: board, and words the two languages share (besides every game's title, which may be the
#: publisher's own in every language)
SAME_AS_ENGLISH = {
    "de": {
        "kokeshi.kokeshi.batchan",  # the dolls' names
        "kokeshi.kokeshi.samurai",
        "kokeshi.kokeshi.sumotori",
        "kokeshi.letter.princess",  # letters on the board (Prinzessin, Fischer ...)
        "kokeshi.letter.batchan",
        "kokeshi.letter.fisherman",
        "kokeshi.letter.samurai",
        "kokeshi.letter.sumotori",
        "kokeshi.animal.panda",
        "kokeshi.animal_letter.panda",
        "kokeshi.animal_letter.fox",  # Fuchs
        "kokeshi.ui.colour.sumotori",  # orange
        "lobby.host",  # "Host" is German too
        "nim.option.misere",  # Misère, the game's own word
    },
    "fr": {
        "clock.minutes.one",  # "minute(s)" is French too
        "clock.minutes.other",
        "kokeshi.kokeshi.batchan",
        "kokeshi.kokeshi.sumotori",
        "kokeshi.letter.princess",  # Princesse
        "kokeshi.letter.batchan",
        "kokeshi.letter.samurai",
        "kokeshi.animal.panda",
        "kokeshi.animal_letter.panda",
        "kokeshi.animal_letter.cat",  # chat
        "kokeshi.ui.colour.sumotori",  # orange
        "harmonies.board.scores",  # score
        "harmonies.ui.animal.crocodile",
        "harmonies.ui.animal.koala",
        "harmonies.ui.animal.macaque",
        "harmonies.ui.points.one",  # point / points
        "harmonies.ui.points.other",
        "kokeshi.small_score.one",  # pt / pts
        "kokeshi.small_score.other",
        "command.game.move.action.name",  # action
        "nim.option.misere",
    },
    "ja": set(),
}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def base_of(key: str, words: dict[str, str]) -> str:
    """The key a form belongs to (``x.one`` -> ``x``), or the key itself."""
    head, _, form = key.rpartition(".")
    return head if form in FORMS and i18n.is_plural(head) else key


def test_every_language_is_installed() -> None:
    assert set(LANGUAGES) <= set(i18n.available_locales())
    for lang in LANGUAGES:
        assert i18n.language_of(lang) == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_english_key_exists_with_the_same_placeholders(lang: str) -> None:
    english, words = i18n.catalogue("en"), i18n.catalogue(lang)
    problems = []
    for key in sorted({base_of(k, english) for k in english}):
        if not i18n.is_plural(key):
            if key not in words:
                problems.append(f"{key}: missing")
            elif placeholders(words[key]) != placeholders(english[key]):
                problems.append(f"{key}: {placeholders(words[key])} != {placeholders(english[key])}")
            continue
        # a plural key: exactly the language's CLDR categories, and English's placeholders
        wanted = cldr.plural_categories(cldr.babel_locale("", lang))
        have = {f for f in FORMS if f"{key}.{f}" in words}
        if have != wanted:
            problems.append(f"{key}: forms {sorted(have)}, {lang} needs {sorted(wanted)}")
        fields = i18n.fields(key)
        found = set().union(*(placeholders(words[f"{key}.{f}"]) for f in have)) if have else set()
        if found != fields or any(
            not placeholders(words[f"{key}.{f}"]) <= fields for f in have
        ):
            problems.append(f"{key}: {found} != {fields}")
    assert not problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_language_has_keys_english_lacks(lang: str) -> None:
    english = i18n.catalogue("en")
    extra = [
        k
        for k in i18n.catalogue(lang)
        if k not in english and not (base_of(k, english) != k and i18n.is_plural(base_of(k, english)))
    ]
    assert not extra


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_sentence_is_left_untranslated(lang: str) -> None:
    """A text equal to the English one is a sentence nobody translated, unless it holds no
    words (numbers, symbols, placeholders) or it is on the language's list above."""
    english, words = i18n.catalogue("en"), i18n.catalogue(lang)
    untranslated = [
        key
        for key, text in words.items()
        if english.get(key) == text
        and re.search(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", text))
        and key not in SAME_AS_ENGLISH[lang]
        and key not in {f"{game}.title" for game in game_names()}
    ]
    assert not untranslated
    stale = [k for k in SAME_AS_ENGLISH[lang] if words.get(k) != english.get(k)]
    assert not stale, "translated now: take these off the list"


def test_catalogue_files_are_flat_text_in_every_language() -> None:
    paths = [
        *ROOT.glob("i18n/catalogues/*/*.json"),
        *(path for folder in game_folders() for path in folder.glob("locales/*")),
    ]
    assert len(paths) >= 4 * (1 + len(game_names()))
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data and all(isinstance(v, str) and v.strip() for v in data.values()), path


# -- every key is used ---------------------------------------------------------------------------

LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']""")
PREFIX = re.compile(r"""f["']([a-z][a-z0-9_]*\.[a-z0-9_.]*)\{""")


def used_in_code() -> tuple[set[str], set[str]]:
    """Keys written whole in the code, and the prefixes of keys the code builds (f-strings)."""
    literals: set[str] = set()
    prefixes: set[str] = set()
    for folder in CODE:
        for path in folder.rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            literals |= set(LITERAL.findall(source))
            prefixes |= set(PREFIX.findall(source))
    return literals, prefixes


def built_by_convention(key: str) -> bool:
    """Keys every game has (or may have) by the registry's convention (``bot/games.required_keys``,
    a game's own ``result.score_item`` read by ``messages.result_line``, the /play
    choices and option values of ``bot/adapter/play_command`` and ``messages.option_text``)."""
    game, _, rest = key.partition(".")
    if game not in game_names():
        return False
    if rest in ("title", "command.description", "result.score_item"):
        return True
    options = {spec.name: spec for spec in get_engine(game).info.options}
    parts = rest.split(".")
    if parts[0] != "option" or len(parts) < 2 or parts[1] not in options:
        return False
    return len(parts) == 2 or parts[2] in ("help", "param", *map(str, options[parts[1]].choices))


def test_every_catalogue_key_is_used_by_some_code() -> None:
    literals, prefixes = used_in_code()
    english = i18n.catalogue("en")
    unused = [
        key
        for key in english
        if (base := base_of(key, english)) not in literals
        and not any(base.startswith(p) for p in prefixes)
        and not built_by_convention(base)
    ]
    assert not unused
