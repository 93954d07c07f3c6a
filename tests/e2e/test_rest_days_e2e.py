"""A table that rests at weekends, through the real bot process and the fake Discord, told in
scaled game time (``BOARDROOM_TEST_HOUR_SECONDS``) with the calendar placed on a Friday
(``BOARDROOM_TEST_CALENDAR_ANCHOR``): a turn whose clock would run out during the weekend gets
its deadline after it, the turn message says the table rests, no reminder and no vote comes
during the rest, the board asked for then says until when it rests, a restart during the rest
keeps the deadline, and the vote comes after it. The server's defaults and the host's bad input are answered privately in the language
asked in, and change nothing."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from i18n import t, weekdays_text
from tests.e2e.helpers import open_and_start, seat_users, sent_at
from tests.e2e.test_settings_play_e2e import MANAGE_GUILD, Slash
from tests.e2e.test_turn_clock_e2e import rows, timestamp, votes_on
from tests.fakediscord import FakeDiscordDriver
from tests.fakediscord import payloads as p

HOUR = 0.4  # seconds per hour of game time: a day lasts 9.6 s, a weekend 19.2 s
#: seconds from the bot's start to Friday 00:00 of the game calendar (the bot starts up first)
STARTUP = 10.0
TOKYO = "Asia/Tokyo"
WEEKEND = {5, 6}
#: the game calendar's Friday 00:00 in Tokyo
FRIDAY = datetime(2026, 3, 6, tzinfo=ZoneInfo(TOKYO))


def rest_line(locale: str, zone: str = TOKYO) -> str:
    return t(locale, "clock.rest_days", days=weekdays_text(locale, WEEKEND), timezone=zone)


async def test_a_clock_that_would_run_out_in_the_weekend_runs_out_after_it(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    # Friday begins a while from now (Thursday before that): time for the bot to start up
    friday = time.time() + STARTUP
    saturday, monday = friday + 24 * HOUR, friday + 72 * HOUR  # the rest, in wall time
    bot = await bot_process(
        BOARDROOM_TEST_HOUR_SECONDS=str(HOUR),
        BOARDROOM_TEST_CALENDAR_ANCHOR=f"{friday}={FRIDAY.isoformat()}",
    )
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    await asyncio.sleep(max(0.0, friday - time.time()))
    # a 24-hour clock started on Friday: it would run out on Saturday
    opened = time.time()
    turn = await open_and_start(
        table, "cantstop", clock="24h", rest_days="Sat, Sun", timezone=TOKYO
    )
    shown = time.time()  # the turn began after ``opened``, before its board was shown
    assert shown < saturday - 2.0, "the bot took too long to start for this story"
    ((deadline, days, zone),) = rows(bot, "SELECT deadline, rest_days, rest_timezone FROM games")
    assert (days, zone) == ("5,6", TOKYO)
    # 24 hours of running clock plus the whole weekend (48 hours) that stands still
    # (without the rest it would end 48 hours, 19.2 s, earlier; a clock is whole seconds)
    began = deadline - round(24 * HOUR) - 48 * HOUR
    assert opened - 0.01 <= began <= shown + 0.01, (opened, began, shown)
    assert rest_line("en") in turn.content
    assert timestamp(turn.content) == int(deadline)  # "runs out <t:…:R>": after the weekend

    # during the rest: the board says until when the table rests
    await asyncio.sleep(max(0.0, saturday + 2.0 - time.time()))
    look = await fake_discord.slash(bob, table.channel, "game", {}, subcommand="board")
    await look.wait_response()
    (board,) = await look.wait_followups(1)
    before, after = t("en", "clock.resting", until="\0").split("\0")
    shown = re.search(re.escape(before) + r"<t:(\d+):F>" + re.escape(after), board.content)
    assert shown is not None, board.content
    assert abs(int(shown.group(1)) - monday) <= 1  # Monday 00:00 in Tokyo

    # a restart during the rest changes nothing: the deadline stays after the weekend
    await bot.restart()
    assert rows(bot, "SELECT deadline FROM games") == [(deadline,)]
    # the vote comes once the clock ran out, after the weekend
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=72 * HOUR + 15
    )
    assert sent_at(vote) >= deadline - 0.01
    said = [m for m in fake_discord.channel_messages(table.channel) if m.id != board.id]
    during = [m.content[:60] for m in said if saturday + 0.05 < sent_at(m) < monday - 0.05]
    assert during == []  # no reminder, no vote, nothing while the table rests
    reminders = [m for m in said if m.content.startswith(f"<@{alice.id}>, it is your turn")]
    assert len(reminders) == 2 and all(rest_line("en") in m.content for m in reminders)
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_rest_days_are_checked_and_the_server_sets_defaults(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Admin")
    alice, admin = table.users
    await fake_discord.add_member(
        bot.guild, admin, permissions=p.DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD
    )
    slash = Slash(fake_discord, table.channel)
    # a host's bad input: a clear private answer in their language, no lobby
    said = await slash(alice, "play", "cantstop", locale="de", rest_days="irgendwann")
    assert said == t("de", "error.bad_rest_days", value="irgendwann")
    said = await slash(alice, "play", "cantstop", rest_days="sat", timezone="Mars/Olympus")
    assert said == t("en", "error.bad_timezone", value="Mars/Olympus")
    every_day = "mon tue wed thu fri sat sun"
    assert await slash(alice, "play", "cantstop", rest_days=every_day) == t(
        "en", "error.bad_rest_days", value=every_day
    )
    assert rows(bot, "SELECT COUNT(*) FROM games") == [(0,)]

    # the server's defaults: bad ones refused and nothing changes, good ones kept
    refused = await slash(admin, "settings", "server", rest_days="Sat", timezone="Nowhere")
    assert refused == t("en", "error.bad_timezone", value="Nowhere")
    assert rows(bot, "SELECT rest_days, rest_timezone FROM server_settings") == []
    done = await slash(
        admin, "settings", "server", locale="fr", rest_days="samedi, dimanche", timezone="europe/paris"
    )
    assert done.splitlines()[-1] == t(
        "fr", "settings.server.rest", days="samedi et dimanche", timezone="Europe/Paris"
    )
    assert rows(bot, "SELECT rest_days, rest_timezone FROM server_settings") == [
        ("5,6", "Europe/Paris")
    ]
    # a new lobby rests as the server says, in the host's own time zone when they chose one
    await slash(alice, "settings", "quiet", hours="23:00-07:00", timezone="Asia/Tokyo")
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    assert rec.original is not None
    lobby_line = t("en", "lobby.rest", days="Saturday and Sunday", timezone="Asia/Tokyo")
    assert lobby_line in rec.original.content
    assert rows(bot, "SELECT rest_days, rest_timezone FROM games") == [("5,6", "Asia/Tokyo")]
    # "none" clears the default
    await slash(admin, "settings", "server", rest_days="none")
    assert rows(bot, "SELECT rest_days FROM server_settings") == [(None,)]
    bot.assert_no_traceback()
