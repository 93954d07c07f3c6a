"""Locale helpers for interactions, translation of slash-command descriptions, and the
command mentions sentences show."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import discord
from discord import app_commands

from bot.adapter.runtime import runtime_of
from bot.service.clocks import BANK_PRESETS, CLOCK_HOURS
from bot.service.errors import UserFacingError
from i18n import (
    DEFAULT_LOCALE,
    available_locales,
    catalogue,
    clock_name,
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


def clock_choice_hours(choice: str) -> tuple[int | None, tuple[int, int] | None]:
    """A clock choice (``CLOCK_CHOICES`` key) in hours of game time: per move (or None: no
    clock), and for a time bank its (increment, cap)."""
    bank = BANK_PRESETS.get(choice)
    if bank is not None:
        return bank.start, (bank.increment, bank.cap)
    return CLOCK_HOURS[choice], None


def clock_choice_name(choice: str) -> app_commands.locale_str:
    """A menu entry for a clock (``CLOCK_CHOICES`` key), in the words of ``clock_name``:
    English for Discord's default, every other language through ``CatalogueTranslator``."""
    hours, bank = clock_choice_hours(choice)
    return app_commands.locale_str(
        clock_name(DEFAULT_LOCALE, hours, bank), clock_hours=hours, clock_bank=bank
    )


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
        if "clock_hours" in string.extras:  # a clock: the one formatter's words
            return clock_name(lang, string.extras["clock_hours"], string.extras.get("clock_bank"))
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
