"""Locale helpers for interactions, and translation of slash-command descriptions."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.service.errors import UserFacingError
from i18n import DEFAULT_LOCALE, available_locales, game_title, language_of, t


def user_locale(interaction: discord.Interaction) -> str:
    """The clicking user's language: for private answers."""
    return str(interaction.locale.value) if interaction.locale else DEFAULT_LOCALE


def channel_locale(interaction: discord.Interaction) -> str:
    """The server's language: for messages everyone in the channel reads."""
    locale = interaction.guild_locale or interaction.locale
    return str(locale.value) if locale else DEFAULT_LOCALE


#: errors whose sentence has plural forms, and the parameter that counts
COUNTED = {"error.lobby_full": "capacity"}


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


def text(key: str) -> app_commands.locale_str:
    """A command description: English now, other languages through ``CatalogueTranslator``."""
    return app_commands.locale_str(t(DEFAULT_LOCALE, key), key=key)


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord the command descriptions of every catalogue language we have."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = language_of(locale.value)
        if not key or lang == DEFAULT_LOCALE or lang not in available_locales():
            return None
        return t(lang, key)
