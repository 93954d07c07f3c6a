"""``/settings language``: the language of this server's public messages, chosen by a member
with Manage Server (stored per server; without a choice the server's Discord locale is used).
Private answers always follow the reader's own Discord language."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapter.handlers import guarded, reply_private
from bot.adapter.runtime import runtime_of
from bot.adapter.words import channel_locale, text, user_locale
from bot.service.errors import UserFacingError
from i18n import available_locales, language_of, t
from i18n.cldr import language_name

#: the choice that forgets the server's choice
SERVER_DEFAULT = "default"


class NotAllowedToChangeSettings(UserFacingError):
    key = "error.not_allowed_settings"


def _choices() -> list[app_commands.Choice[str]]:
    languages = [
        app_commands.Choice(name=language_name(lang), value=lang) for lang in available_locales()
    ]
    default = app_commands.Choice(
        name=text("command.settings.language.default"), value=SERVER_DEFAULT
    )
    return [*languages, default]


def build_settings_group() -> app_commands.Group:
    group = app_commands.Group(
        name=text("command.settings.name"),
        description=text("command.settings.description"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @group.command(
        name=text("command.settings.language.name"),
        description=text("command.settings.language.description"),
    )
    @app_commands.rename(language=text("command.settings.language.language.name"))
    @app_commands.describe(language=text("command.settings.language.language"))
    @app_commands.choices(language=_choices())
    async def language(
        interaction: discord.Interaction, language: app_commands.Choice[str] | None = None
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            if language is not None:
                perms = interaction.permissions
                if not (perms and perms.manage_guild) or interaction.guild_id is None:
                    raise NotAllowedToChangeSettings()
                chosen = None if language.value == SERVER_DEFAULT else language.value
                await runtime_of(interaction).servers.set_locale(interaction.guild_id, chosen)
            now = language_name(language_of(await channel_locale(interaction)))
            key = "settings.language.current" if language is None else "settings.language.set"
            await reply_private(interaction, t(reader, key, language=now))

        await guarded(interaction, work())

    return group
