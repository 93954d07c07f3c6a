"""A command a message names is a command mention: the catalogues write ``</name sub>`` (never a
command typed out, nor a localised command name), each one a command the bot syncs, and the bot
turns it into ``</name sub:id>`` with the ids Discord gave; no message offers a terminal
command to Discord players."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.adapter.words import mention_renderer
from i18n import available_locales, catalogue, t
from i18n.commands import named_commands, set_renderer, show_commands
from tests.bot.test_command_localisations import synced_payload


def message_texts() -> Iterator[tuple[str, str, str]]:
    """What Discord users read: every key but the terminal's own words and the commands' names
    and descriptions (Discord shows those itself, in the command picker)."""
    for lang in available_locales():
        for key, text in catalogue(lang).items():
            if not key.startswith(("cli.", "command.")):
                yield lang, key, text


def command_paths(payload: list[dict[str, Any]]) -> set[str]:
    """"play", "play cantstop", "game board" ...: every command and subcommand path."""
    paths = set()
    for command in payload:
        paths.add(command["name"])
        for option in command.get("options") or []:
            if option["type"] in (1, 2):  # a subcommand or a group
                paths.add(f"{command['name']} {option['name']}")
    return paths


async def test_every_command_a_message_names_is_a_mention_of_a_synced_command() -> None:
    paths = command_paths(await synced_payload())
    named = 0
    for lang, key, text in message_texts():
        for name in named_commands(text):
            assert name in paths, (lang, key, name)
            named += 1
        unmarked = re.sub(r"</[^>]+>", "", text)
        # a command typed out ("`/play`", "/遊ぶ") instead of a mention
        assert not re.search(r"(^|[\s`(（「])/\w", unmarked), (lang, key, text)
        assert "boardroom " not in unmarked, (lang, key, text)  # a terminal command
    assert named >= 4 * 30  # the catalogues name commands in about 30 sentences


def test_the_bot_shows_a_command_as_a_mention_with_its_id() -> None:
    try:
        set_renderer(mention_renderer({"play": 111, "game": 222, "away": 333}))
        assert t("ja", "error.game_over").endswith("</play:111> で新しいゲームを始めましょう。")
        assert "</game board:222>" in t("de", "game.controls_back")
        assert "</away:333>" in t("fr", "away.status", until="x")
        # a command Discord gave no id (the list could not be fetched) is shown as typed
        assert "`/settings server`" in t("en", "settings.server.hint")
    finally:
        set_renderer(None)
    assert t("en", "error.game_over") == "This game is over. Start a new one with `/play`."


@pytest.mark.parametrize("text", ["</play>", "a </game board> b", "</settings language>."])
def test_markers_are_found_and_shown(text: str) -> None:
    assert named_commands(text) == [re.search(r"</([^>]+)>", text)[1]]  # type: ignore[index]
    assert "</" not in show_commands(text)
