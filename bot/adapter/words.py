"""Locale helpers for interactions, translation of slash-command descriptions, and the
command mentions sentences show."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import discord
from discord import app_commands

from bot.adapter.runtime import runtime_of
from bot.service.clocks import CLOCK_HOURS
from bot.service.errors import UserFacingError
from i18n import (
    DEFAULT_LOCALE,
    available_locales,
    catalogue,
    clock_length,
    game_title,
    language_of,
    t,
)
from i18n.commands import set_renderer, typed


def user_locale(interaction: discord.Interaction) -> str:
    """The clicking user's language: for private answers."""
    return str(interaction.locale.value) if interaction.locale else DEFAULT_LOCALE


async def channel_locale(interaction: discord.Interaction) -> str:
    """The server's language, for messages everyone in the channel reads: the one its admins
    chose with ``/settings language``, else the server's Discord locale."""
    chosen = await runtime_of(interaction).servers.locale(interaction.guild_id)
    if chosen:
        return chosen
    locale = interaction.guild_locale or interaction.locale
    return str(locale.value) if locale else DEFAULT_LOCALE


#: errors whose sentence has plural forms, and the parameter that counts
COUNTED = {"error.lobby_full": "capacity", "error.too_few_players": "minimum"}


def error_text(locale: str, error: UserFacingError) -> str:
    """The sentence for a player-facing error, with a message link when the error carries one."""
    params = dict(error.params)
    if error.key in COUNTED:
        params["count"] = params[COUNTED[error.key]]
    if error.key == "error.channel_busy" and params.get("message_id"):
        guild = params.get("guild_id") or "@me"
        link = f"https://discord.com/channels/{guild}/{params['channel_id']}/{params['message_id']}"
        title = game_title(locale, str(params["game"]))
        return t(locale, "error.channel_busy_link", game=title, link=link)
    if "game" in params:
        params["game"] = game_title(locale, str(params["game"]))
    return t(locale, error.key, **params)


def clock_choice_name(choice: str) -> app_commands.locale_str:
    """A menu entry for a turn clock (``CLOCK_HOURS`` key), in the words of ``clock_length``:
    English for Discord's default, every other language through ``CatalogueTranslator``."""
    hours = CLOCK_HOURS[choice]
    return app_commands.locale_str(clock_length(DEFAULT_LOCALE, hours), clock_hours=hours)


def text(key: str) -> app_commands.locale_str:
    """A command's or option's name, description or choice: English (the key's text) for
    Discord's default, every other catalogue language through ``CatalogueTranslator``."""
    return app_commands.locale_str(t(DEFAULT_LOCALE, key), key=key)


#: where Discord wants a name: lowercase, without spaces
NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord the command names, descriptions and choices of every catalogue language
    (the language's own words only: where it has none, Discord shows the English default)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = language_of(locale.value)
        if lang == DEFAULT_LOCALE or lang not in available_locales():
            return None
        if "clock_hours" in string.extras:  # a clock length: the one formatter's words
            return clock_length(lang, string.extras["clock_hours"])
        if not key:
            return None
        words = catalogue(lang).get(key)
        if words is None:
            return None
        return words.lower() if context.location in NAME_LOCATIONS else words


def mention_renderer(ids: Mapping[str, int]) -> Callable[[str], str]:
    """Commands shown as Discord command mentions (``</game board:id>``): clickable, and in each
    reader's language; a command Discord gave no id is shown as typed."""

    def render(name: str) -> str:
        command_id = ids.get(name.split()[0])
        return f"</{name}:{command_id}>" if command_id else typed(name)

    return render


def use_command_mentions(synced: Iterable[app_commands.AppCommand]) -> None:
    """From now on, every sentence that names a command mentions it (``synced``: the commands as
    Discord has them, with their ids)."""
    set_renderer(mention_renderer({command.name: command.id for command in synced}))
