"""A member's own settings (``/settings reminders``, ``/settings quiet``), the server's
(``/settings server``, Manage Server to change), and ``/away``, through the real bot process and
the fake Discord: every answer private, in the reader's language, saying what is now set; wrong
input refused privately with nothing changed; everything kept across a restart."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.service.clocks import CLOCK_HOURS
from i18n import clock_length, t
from tests.e2e.helpers import seat_users
from tests.fakediscord import FakeDiscordDriver, FakeUser
from tests.fakediscord import payloads as p

MANAGE_GUILD = 1 << 5
UNTIL = re.compile(r"<t:(\d+):f> \(<t:\1:R>\)")


def rows(db_path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


def player_summary(locale: str, reminders: str, quiet: str | None) -> str:
    return t(
        locale,
        "settings.player.summary",
        reminders=t(locale, f"settings.reminders.{reminders}"),
        quiet=quiet or t(locale, "settings.quiet.none"),
    )


def quiet(locale: str, start: str, end: str, zone: str) -> str:
    return t(locale, "settings.quiet.period", start=start, end=end, timezone=zone)


class Slash:
    """``await slash(user, "settings", subcommand, locale, **options)``: the private answer."""

    def __init__(self, driver: FakeDiscordDriver, channel: Any) -> None:
        self.driver, self.channel = driver, channel

    async def __call__(
        self,
        user: FakeUser,
        name: str,
        subcommand: str | None = None,
        locale: str = "en-US",
        **options: Any,
    ) -> str:
        rec = await self.driver.slash(
            user, self.channel, name, options, subcommand=subcommand, locale=locale
        )
        await rec.wait_response()
        assert rec.ephemeral, rec.content
        assert not rec.rejections, rec.rejections
        return rec.content or ""


async def test_a_members_reminders_and_quiet_hours(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Dieter")
    alice, dieter = table.users
    slash = Slash(fake_discord, table.channel)
    settings = next(c for c in fake_discord.commands(bot.guild) if c["name"] == "settings")
    assert settings.get("default_member_permissions") is None  # every member may use it

    assert await slash(alice, "settings", "reminders") == player_summary("en", "channel", None)
    saved = await slash(alice, "settings", "reminders", how="dm")
    assert saved == t("en", "settings.saved") + "\n" + player_summary("en", "dm", None)

    # quiet hours: a time zone is needed, the hours and the zone are checked
    assert await slash(alice, "settings", "quiet", hours="23:00-08:00") == t(
        "en", "error.quiet_needs_timezone"
    )
    assert await slash(alice, "settings", "quiet", hours="night", timezone="UTC") == t(
        "en", "error.bad_quiet_hours", value="night"
    )
    assert await slash(alice, "settings", "quiet", hours="23-8", timezone="Europe/Atlantis") == t(
        "en", "error.bad_timezone", value="Europe/Atlantis"
    )
    assert rows(bot.db_path, "SELECT quiet_start FROM player_settings") == [(None,)]
    saved = await slash(alice, "settings", "quiet", hours="23-8", timezone="europe/berlin")
    berlin = quiet("en", "23:00", "08:00", "Europe/Berlin")
    assert saved == t("en", "settings.saved") + "\n" + player_summary("en", "dm", berlin)
    # the time zone is suggested while it is typed
    typing = await fake_discord.autocomplete(
        alice,
        table.channel,
        "settings",
        {"hours": "23-8", "timezone": "berl"},
        focused="timezone",
        subcommand="quiet",
    )
    await typing.wait_response()
    assert typing.response_type == 8
    assert [c["value"] for c in (typing.data or {})["choices"]] == ["Europe/Berlin"]

    # another member, in German: their own settings, untouched, in their language
    assert await slash(dieter, "settings", "quiet", locale="de") == player_summary(
        "de", "channel", None
    )
    saved = await slash(dieter, "settings", "quiet", locale="de", hours="22:30-7:00")
    assert saved == t("de", "error.quiet_needs_timezone")
    saved = await slash(dieter, "settings", "reminders", locale="de", how="off")
    assert saved == t("de", "settings.saved") + "\n" + player_summary("de", "off", None)

    # a value no menu offers (a modified client): refused, nothing changes
    assert await slash(alice, "settings", "reminders", how="sms") == t("en", "error.bad_input")
    assert rows(
        bot.db_path,
        "SELECT user_id, reminders, quiet_start, quiet_end, timezone FROM player_settings"
        " ORDER BY user_id",
    ) == sorted(
        [
            (alice.id, "dm", "23:00", "08:00", "Europe/Berlin"),
            (dieter.id, "off", None, None, None),
        ]
    )
    await bot.restart()
    assert await slash(alice, "settings", "reminders") == player_summary("en", "dm", berlin)
    # only the zone changes; then the hours go, and the zone stays for next time
    tokyo = quiet("en", "23:00", "08:00", "Asia/Tokyo")
    assert await slash(alice, "settings", "quiet", timezone="Asia/Tokyo") == (
        t("en", "settings.saved") + "\n" + player_summary("en", "dm", tokyo)
    )
    assert await slash(alice, "settings", "quiet", hours="off") == (
        t("en", "settings.saved") + "\n" + player_summary("en", "dm", None)
    )
    assert rows(
        bot.db_path, "SELECT quiet_start, timezone FROM player_settings WHERE user_id = ?", alice.id
    ) == [(None, "Asia/Tokyo")]
    assert await slash(dieter, "settings", "quiet", locale="de", hours="23-7") == (
        t("de", "error.quiet_needs_timezone")
    )
    assert await slash(dieter, "settings", "quiet", locale="de", hours="aus") == (
        t("de", "settings.saved") + "\n" + player_summary("de", "off", None)
    )
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_server_settings_need_manage_server_to_change(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Admin")
    alice, admin = table.users
    await fake_discord.add_member(
        bot.guild, admin, permissions=p.DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD
    )
    slash = Slash(fake_discord, table.channel)

    def summary(
        locale: str,
        clock: str,
        action: str,
        hours: int,
        dms: bool,
        away: int = 21,
        stand_in: str = "medium",
    ) -> str:
        said = t(
            locale,
            "settings.server.summary",
            clock=clock_length(locale, CLOCK_HOURS[clock]),
            action=t(locale, f"settings.action.{action}"),
            lobby=clock_length(locale, hours),
            dms=t(locale, "settings.dms.allowed" if dms else "settings.dms.not_allowed"),
            away=t(locale, "clock.days", count=away),
        )
        level = t(locale, f"bot.level.{stand_in}")
        said += "\n" + t(locale, "settings.server.stand_in", level=level)
        return said + "\n" + t(locale, "settings.server.no_rest")  # (rest days: test_rest_days_e2e)

    defaults = summary("en", "24h", "bot_turn", 24, True)
    # anyone may look; changing needs Manage Server, refused privately and nothing changes
    assert await slash(alice, "settings", "server") == defaults + "\n" + t(
        "en", "settings.server.hint"
    )
    refused = t("en", "error.not_allowed_settings")
    assert await slash(alice, "settings", "server", clock="3d") == refused
    assert await slash(alice, "settings", "server", dms=False) == refused
    assert await slash(alice, "settings", "language", language="fr") == refused
    assert rows(bot.db_path, "SELECT * FROM server_settings") == []

    done = await slash(
        admin, "settings", "server", clock="3d", action="end", lobby_hours=48, dms=False
    )
    assert done == t("en", "settings.saved") + "\n" + summary("en", "3d", "end", 48, False)
    stored = "SELECT default_clock, default_action, lobby_expiry, allow_dm FROM server_settings"
    assert rows(bot.db_path, stored) == [(72, "end", 48, 0)]
    # out of range (a client that ignores the bounds): refused, nothing changes
    assert await slash(admin, "settings", "server", lobby_hours=500) == t(
        "en", "error.lobby_expiry_range", low=1, high=168
    )
    # one choice at a time; the others stay; a member reads them in their own language
    done = await slash(admin, "settings", "server", locale="ja", clock="none", action="wait")
    assert done == t("ja", "settings.saved") + "\n" + summary("ja", "none", "wait", 48, False)
    assert rows(bot.db_path, stored) == [(0, "wait", 48, 0)]
    assert await slash(alice, "settings", "server", locale="fr") == summary(
        "fr", "none", "wait", 48, False
    ) + "\n" + t("fr", "settings.server.hint")

    # a player who chose direct messages is told that this server sends them to the channel
    said = await slash(alice, "settings", "reminders", how="dm")
    assert said.splitlines()[-1] == t("en", "settings.reminders.dm_not_allowed")
    await bot.restart()
    assert await slash(admin, "settings", "server", dms=True) == (
        t("en", "settings.saved") + "\n" + summary("en", "none", "wait", 48, True)
    )
    assert t("en", "settings.reminders.dm_not_allowed") not in await slash(
        alice, "settings", "reminders"
    )
    # each player's yearly away budget (/away)
    assert await slash(admin, "settings", "server", away_days=400) == t(
        "en", "error.away_days_range", low=0, high=365
    )
    assert await slash(admin, "settings", "server", away_days=1) == (
        t("en", "settings.saved") + "\n" + summary("en", "none", "wait", 48, True, away=1)
    )
    assert rows(bot.db_path, "SELECT away_days FROM server_settings") == [(1,)]
    # the level of a bot standing in for a silent player (medium until chosen)
    assert await slash(alice, "settings", "server", stand_in_level="hard") == refused
    assert await slash(admin, "settings", "server", locale="de", stand_in_level="hard") == (
        t("de", "settings.saved")
        + "\n"
        + summary("de", "none", "wait", 48, True, away=1, stand_in="hard")
    )
    assert rows(bot.db_path, "SELECT stand_in_level FROM server_settings") == [("hard",)]
    await bot.restart()
    assert await slash(alice, "settings", "server") == summary(
        "en", "none", "wait", 48, True, away=1, stand_in="hard"
    ) + "\n" + t("en", "settings.server.hint")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_away_and_back(fake_discord: FakeDiscordDriver, bot_process: Any) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Dieter")
    alice, dieter = table.users
    slash = Slash(fake_discord, table.channel)

    def budget(locale: str, left: str, total: str = "21 days") -> str:
        return t(locale, "away.budget", left=left, total=total)

    assert await slash(alice, "away") == t("en", "away.not_away") + "\n" + budget("en", "21 days")
    assert await slash(alice, "away", duration="off") == t("en", "error.not_away")
    assert await slash(alice, "away", duration="22d") == t(
        "en", "error.away_over_budget", left="21 days", total="21 days"
    )
    assert await slash(alice, "away", duration="soon") == t(
        "en", "error.bad_duration", value="soon"
    )
    assert rows(bot.db_path, "SELECT * FROM away") == []

    before = time.time()
    said = await slash(alice, "away", duration="1d12h")
    lines = said.splitlines()
    found = UNTIL.search(lines[0])
    assert found is not None, said
    until = int(found.group(1))
    assert before + 36 * 3600 - 2 <= until <= time.time() + 36 * 3600 + 2
    assert lines == [
        t("en", "away.set", until=f"<t:{until}:f> (<t:{until}:R>)"),
        t("en", "away.stopped", count=0),  # no game of hers runs a clock
    ]
    ((stored,),) = rows(bot.db_path, "SELECT until FROM away WHERE user_id = ?", alice.id)
    assert round(stored) == until
    status = [
        t("en", "away.status", until=f"<t:{until}:f> (<t:{until}:R>)"),
        budget("en", t("en", "away.span", days="19 days", hours="12 hours")),
    ]
    assert (await slash(alice, "away")).splitlines() == status
    await bot.restart()
    assert (await slash(alice, "away")).splitlines() == status
    assert await slash(alice, "away", duration="off") == t("en", "away.ended")
    assert rows(bot.db_path, "SELECT * FROM away") == []
    # ended early: the unused time (all of it but a moment) is back
    assert await slash(alice, "away") == t("en", "away.not_away") + "\n" + budget(
        "en", t("en", "away.span", days="20 days", hours="23 hours")
    )

    # in German, and ended with the German word
    said = await slash(dieter, "away", locale="de", duration="3t")
    assert said.splitlines()[1] == t("de", "away.stopped", count=0)
    assert await slash(dieter, "away", locale="de", duration="aus") == t("de", "away.ended")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
