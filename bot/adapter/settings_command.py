"""``/settings``: every member's own choices for asynchronous play, and the server's.

- ``/settings reminders how:`` (channel, direct message, off), ``/settings quiet hours:
  timezone:`` (``hours: off`` clears them) and ``/settings digest how: at: instead: timezone:``
  (a direct message once or twice a day listing the member's games on every server where it is
  their move, ``bot.service.digest``): any member, for themselves.
- ``/settings language`` (the language of this server's public messages) and ``/settings
  server`` (default turn clock, what happens when nobody decides about a silent player, when an
  unstarted lobby closes, whether reminders may be direct messages, each player's yearly away
  budget for ``/away``, the level of a bot standing in for a silent player): anyone may look, a
  member with Manage Server may change them, checked here (the group itself is open to every
  member).

Every answer is private, in the reader's own Discord language, and says what is now set.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapter.handlers import guarded, reply_private
from bot.adapter.runtime import runtime_of
from bot.adapter.words import (
    channel_locale,
    clock_choice_hours,
    clock_choice_name,
    text,
    user_locale,
)
from bot.present.levels import level_name
from bot.service.away_budget import AWAY_DAYS_RANGE
from bot.service.clocks import CLOCK_CHOICES
from bot.service.digest import DIGEST_WAYS, times_of_day
from bot.service.digest import OFF as DIGEST_OFF
from bot.service.errors import UserFacingError
from bot.service.preferences import (
    ACTIONS,
    DM,
    LOBBY_EXPIRY_RANGE,
    REMINDER_WAYS,
    Preferences,
    ServerPlay,
)
from bot.service.quiet import timezones_like
from bot.service.rest_time import DEFAULT_TIMEZONE
from bot.storage.base import PlayerSettingsRow
from engines.bots import LEVELS
from i18n import available_locales, clock_length, clock_name, language_of, t, weekdays_text
from i18n.cldr import language_name

#: the choice that forgets the server's choice
SERVER_DEFAULT = "default"
#: what clears quiet hours (besides the reader's own word for it)
OFF_WORDS = frozenset({"off", "none", "-", "0"})


class NotAllowedToChangeSettings(UserFacingError):
    key = "error.not_allowed_settings"


def _language_choices() -> list[app_commands.Choice[str]]:
    languages = [
        app_commands.Choice(name=language_name(lang), value=lang) for lang in available_locales()
    ]
    default = app_commands.Choice(
        name=text("command.settings.language.default"), value=SERVER_DEFAULT
    )
    return [*languages, default]


def _check_manager(interaction: discord.Interaction) -> int:
    """The server's id, if the member may change its settings (Manage Server)."""
    perms = interaction.permissions
    if not (perms and perms.manage_guild) or interaction.guild_id is None:
        raise NotAllowedToChangeSettings()
    return interaction.guild_id


def preferences_of(interaction: discord.Interaction) -> Preferences:
    service = runtime_of(interaction).service
    return Preferences(service.store, turn_clock=service.turn_clock)


def is_off(locale: str, value: str) -> bool:
    """Does what was typed mean "none" (in English or the reader's language)?"""
    typed = value.strip().lower()
    return typed in OFF_WORDS or typed == t(locale, "settings.off_word").lower()


# ------------------------------------------------------------------ what is set, in words


def quiet_text(locale: str, row: PlayerSettingsRow) -> str:
    if row.quiet_start is None or row.quiet_end is None:
        return t(locale, "settings.quiet.none")
    return t(
        locale,
        "settings.quiet.period",
        start=row.quiet_start,
        end=row.quiet_end,
        timezone=row.timezone or "UTC",
    )


def digest_text(locale: str, row: PlayerSettingsRow) -> str:
    """The player's digest across servers, in words: off, or when it comes and whether
    per-game reminders come beside it."""
    times = times_of_day(row)
    alongside = "settings.digest.instead" if row.digest_only else "settings.digest.beside"
    if not times:
        return t(locale, "settings.digest.line.off")
    return t(
        locale,
        f"settings.digest.line.{row.digest}",
        at=times[0].strftime("%H:%M"),
        at2=times[-1].strftime("%H:%M"),
        timezone=row.timezone or "UTC",
        reminders=t(locale, alongside),
    )


def player_text(
    locale: str, row: PlayerSettingsRow, server: ServerPlay, *, with_digest: bool = False
) -> str:
    """The player's own choices (the digest's line when asked for, or when it is on)."""
    lines = [
        t(
            locale,
            "settings.player.summary",
            reminders=t(locale, f"settings.reminders.{row.reminders}"),
            quiet=quiet_text(locale, row),
        )
    ]
    if row.reminders == DM and not server.allow_dm:
        lines.append(t(locale, "settings.reminders.dm_not_allowed"))
    if with_digest or row.digest != DIGEST_OFF:
        lines.append(digest_text(locale, row))
        if row.digest != DIGEST_OFF and not server.allow_dm:
            lines.append(t(locale, "settings.digest.not_here"))
    return "\n".join(lines)


def server_text(locale: str, play: ServerPlay) -> str:
    summary = t(
        locale,
        "settings.server.summary",
        clock=clock_name(locale, *clock_choice_hours(play.clock)),
        action=t(locale, f"settings.action.{play.action}"),
        lobby=clock_length(locale, play.lobby_hours),
        dms=t(locale, "settings.dms.allowed" if play.allow_dm else "settings.dms.not_allowed"),
        away=t(locale, "clock.days", count=play.away_days),
    )
    stand_in = t(locale, "settings.server.stand_in", level=level_name(locale, play.stand_in_level))
    if not play.rest_days:
        return f"{summary}\n{stand_in}\n{t(locale, 'settings.server.no_rest')}"
    days = weekdays_text(locale, play.rest_days)
    zone = play.rest_timezone or DEFAULT_TIMEZONE
    rest = t(locale, "settings.server.rest", days=days, timezone=zone)
    return f"{summary}\n{stand_in}\n{rest}"


# ------------------------------------------------------------------ the commands


def build_settings_group() -> app_commands.Group:
    group = app_commands.Group(
        name=text("command.settings.name"),
        description=text("command.settings.description"),
        guild_only=True,
    )

    @group.command(
        name=text("command.settings.language.name"),
        description=text("command.settings.language.description"),
    )
    @app_commands.rename(language=text("command.settings.language.language.name"))
    @app_commands.describe(language=text("command.settings.language.language"))
    @app_commands.choices(language=_language_choices())
    async def language(
        interaction: discord.Interaction, language: app_commands.Choice[str] | None = None
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            if language is not None:
                guild_id = _check_manager(interaction)
                chosen = None if language.value == SERVER_DEFAULT else language.value
                await runtime_of(interaction).servers.set_locale(guild_id, chosen)
            now = language_name(language_of(await channel_locale(interaction)))
            key = "settings.language.current" if language is None else "settings.language.set"
            await reply_private(interaction, t(reader, key, language=now))

        await guarded(interaction, work())

    @group.command(
        name=text("command.settings.reminders.name"),
        description=text("command.settings.reminders.description"),
    )
    @app_commands.rename(how=text("command.settings.reminders.how.name"))
    @app_commands.describe(how=text("command.settings.reminders.how"))
    @app_commands.choices(
        how=[
            app_commands.Choice(name=text(f"settings.reminders.{way}"), value=way)
            for way in REMINDER_WAYS
        ]
    )
    async def reminders(
        interaction: discord.Interaction, how: app_commands.Choice[str] | None = None
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            prefs = preferences_of(interaction)
            if how is None:
                row = await prefs.player(interaction.user.id)
            else:
                row = await prefs.set_reminders(interaction.user.id, how.value)
            server = await prefs.server(interaction.guild_id)
            await _answer_player(interaction, reader, row, server, changed=how is not None)

        await guarded(interaction, work())

    @group.command(
        name=text("command.settings.quiet.name"),
        description=text("command.settings.quiet.description"),
    )
    @app_commands.rename(
        hours=text("command.settings.quiet.hours.name"),
        timezone=text("command.settings.quiet.timezone.name"),
    )
    @app_commands.describe(
        hours=text("command.settings.quiet.hours"),
        timezone=text("command.settings.quiet.timezone"),
    )
    async def quiet(
        interaction: discord.Interaction,
        hours: app_commands.Range[str, 1, 40] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            prefs = preferences_of(interaction)
            user = interaction.user.id
            if hours is not None and is_off(reader, str(hours)):
                row = await prefs.clear_quiet(user)
            elif hours is not None or timezone is not None:
                given = None if hours is None else str(hours)
                zone = None if timezone is None else str(timezone)
                row = await prefs.set_quiet(user, given, zone)
            else:
                row = await prefs.player(user)
            server = await prefs.server(interaction.guild_id)
            changed = hours is not None or timezone is not None
            await _answer_player(interaction, reader, row, server, changed=changed)

        await guarded(interaction, work())

    async def timezone_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if not isinstance(current, str):
            return []
        return [app_commands.Choice(name=z, value=z) for z in timezones_like(current[:60])]

    quiet.autocomplete("timezone")(timezone_autocomplete)

    @group.command(
        name=text("command.settings.digest.name"),
        description=text("command.settings.digest.description"),
    )
    @app_commands.rename(
        how=text("command.settings.digest.how.name"),
        at=text("command.settings.digest.at.name"),
        instead=text("command.settings.digest.instead.name"),
        timezone=text("command.settings.quiet.timezone.name"),
    )
    @app_commands.describe(
        how=text("command.settings.digest.how"),
        at=text("command.settings.digest.at"),
        instead=text("command.settings.digest.instead"),
        timezone=text("command.settings.quiet.timezone"),
    )
    @app_commands.choices(
        how=[
            app_commands.Choice(name=text(f"settings.digest.{way}"), value=way)
            for way in DIGEST_WAYS
        ]
    )
    async def digest(
        interaction: discord.Interaction,
        how: app_commands.Choice[str] | None = None,
        at: app_commands.Range[str, 1, 10] | None = None,
        instead: bool | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            prefs = preferences_of(interaction)
            changed = any(value is not None for value in (how, at, instead, timezone))
            if changed:
                row = await prefs.set_digest(
                    interaction.user.id,
                    None if how is None else how.value,
                    at=None if at is None else str(at),
                    instead=instead,
                    timezone=None if timezone is None else str(timezone),
                    locale=reader,
                )
            else:
                row = await prefs.player(interaction.user.id)
            server = await prefs.server(interaction.guild_id)
            said = player_text(reader, row, server, with_digest=True)
            if changed:
                said = f"{t(reader, 'settings.saved')}\n{said}"
            await reply_private(interaction, said)

        await guarded(interaction, work())

    digest.autocomplete("timezone")(timezone_autocomplete)

    @group.command(
        name=text("command.settings.server.name"),
        description=text("command.settings.server.description"),
    )
    @app_commands.rename(
        clock=text("command.settings.server.clock.name"),
        action=text("command.settings.server.action.name"),
        lobby_hours=text("command.settings.server.lobby_hours.name"),
        dms=text("command.settings.server.dms.name"),
        away_days=text("command.settings.server.away_days.name"),
        rest_days=text("command.settings.server.rest_days.name"),
        timezone=text("command.settings.server.timezone.name"),
        stand_in=text("command.settings.server.stand_in.name"),
    )
    @app_commands.describe(
        clock=text("command.settings.server.clock"),
        action=text("command.settings.server.action"),
        lobby_hours=text("command.settings.server.lobby_hours"),
        dms=text("command.settings.server.dms"),
        away_days=text("command.settings.server.away_days"),
        rest_days=text("command.settings.server.rest_days"),
        timezone=text("command.settings.server.timezone"),
        stand_in=text("command.settings.server.stand_in"),
    )
    @app_commands.choices(
        clock=[
            app_commands.Choice(name=clock_choice_name(choice), value=choice)
            for choice in CLOCK_CHOICES
        ],
        action=[
            app_commands.Choice(name=text(f"settings.action.{choice}"), value=choice)
            for choice in ACTIONS
        ],
        stand_in=[
            app_commands.Choice(name=text(f"bot.level.{level}"), value=level) for level in LEVELS
        ],
    )
    async def server(
        interaction: discord.Interaction,
        clock: app_commands.Choice[str] | None = None,
        action: app_commands.Choice[str] | None = None,
        lobby_hours: app_commands.Range[int, LOBBY_EXPIRY_RANGE[0], LOBBY_EXPIRY_RANGE[1]]
        | None = None,
        dms: bool | None = None,
        away_days: app_commands.Range[int, AWAY_DAYS_RANGE[0], AWAY_DAYS_RANGE[1]] | None = None,
        rest_days: app_commands.Range[str, 1, 60] | None = None,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        stand_in: app_commands.Choice[str] | None = None,
    ) -> None:
        async def work() -> None:
            reader = user_locale(interaction)
            prefs = preferences_of(interaction)
            changes = (clock, action, lobby_hours, dms, away_days, rest_days, timezone, stand_in)
            if all(change is None for change in changes):
                play = await prefs.server(interaction.guild_id)
                said = server_text(reader, play)
                hint = t(reader, "settings.server.hint")
                await reply_private(interaction, f"{said}\n{hint}")
                return
            guild_id = _check_manager(interaction)
            play = await prefs.set_server(
                guild_id,
                clock=None if clock is None else clock.value,
                action=None if action is None else action.value,
                lobby_hours=lobby_hours,
                allow_dm=dms,
                away_days=away_days,
                rest_days=None if rest_days is None else str(rest_days),
                rest_timezone=None if timezone is None else str(timezone),
                lang=language_of(reader),
                stand_in_level=None if stand_in is None else stand_in.value,
            )
            said = server_text(reader, play)
            await reply_private(interaction, f"{t(reader, 'settings.saved')}\n{said}")

        await guarded(interaction, work())

    server.autocomplete("timezone")(timezone_autocomplete)
    return group


async def _answer_player(
    interaction: discord.Interaction,
    reader: str,
    row: PlayerSettingsRow,
    server: ServerPlay,
    *,
    changed: bool,
) -> None:
    said = player_text(reader, row, server)
    if changed:
        said = f"{t(reader, 'settings.saved')}\n{said}"
    await reply_private(interaction, said)
