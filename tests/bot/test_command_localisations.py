"""The slash commands as synced: names, descriptions and choices in Japanese, German and French
from the catalogues, each within Discord's rules for localised names and texts."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.adapter import commands
from bot.adapter.words import CatalogueTranslator
from tests.fakediscord.command_rules import valid_chat_input_name, validate_commands
from tests.fakediscord.contract import Contract

LANGUAGES = ("ja", "de", "fr")


async def synced_payload() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    commands.register(tree)
    translator = CatalogueTranslator()
    return [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]


def walk(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """A command and every option, subcommand and choice inside it."""
    found = [obj]
    for child in [*(obj.get("options") or []), *(obj.get("choices") or [])]:
        found += walk(child)
    return found


async def test_every_command_option_and_choice_carries_the_three_languages() -> None:
    payload = await synced_payload()
    assert validate_commands(payload) == []
    assert Contract.shipped().body_problems("PUT", "/applications/1/guilds/2/commands", payload) == []
    by_name = {c["name"]: c for c in payload}
    assert set(by_name) == {"play", "game", "rules", "settings", "away", "mygames", "stats", "leaderboard"}
    for item in [x for c in payload for x in walk(c)]:
        if "description" in item:  # a command, subcommand or option
            assert set(item.get("description_localizations") or {}) >= set(LANGUAGES), item
        words = re.search(r"[A-Za-z]{2,}", item["name"])  # not "A", "B" or "3-4-5"
        autonym = item["name"] in ("English", "日本語", "Deutsch", "Français")
        if "value" in item and words and not autonym:
            assert set(item.get("name_localizations") or {}) >= set(LANGUAGES), item
    for name, command in by_name.items():
        names = command["name_localizations"]
        assert set(names) == set(LANGUAGES), name
        assert all(valid_chat_input_name(v) for v in names.values())
    assert by_name["rules"]["name_localizations"] == {"ja": "ルール", "de": "regeln", "fr": "règles"}
    game = {o["name"]: o for o in by_name["game"]["options"]}
    assert game["move"]["name_localizations"]["de"] == "zug"
    assert game["board"]["options"][0]["name_localizations"]["ja"] == "プレイヤー"
    cantstop = next(o for o in by_name["play"]["options"] if o["name"] == "cantstop")
    both = next(o for o in cantstop["options"] if o["name"] == "must_use_both_sums")
    assert both["name_localizations"] == {"ja": "両方の合計", "de": "beide-summen", "fr": "deux-sommes"}
    for option in cantstop["options"]:  # every option of a built-in game has its names
        assert set(option["name_localizations"]) == set(LANGUAGES), option["name"]
    harmonies = next(o for o in by_name["play"]["options"] if o["name"] == "harmonies")
    for lang in LANGUAGES:
        assert harmonies["description_localizations"][lang] != harmonies["description"]


async def test_a_language_without_a_word_leaves_discords_default() -> None:
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    english_only = app_commands.locale_str("play", key="command.play.name")
    assert await translator.translate(english_only, discord.Locale.american_english, context) is None
    assert await translator.translate(english_only, discord.Locale.spain_spanish, context) is None
    assert await translator.translate(english_only, discord.Locale.japanese, context) == "遊ぶ"
    no_key = app_commands.locale_str("play")
    assert await translator.translate(no_key, discord.Locale.german, context) is None
