"""A time bank game through the real bot process and the fake Discord, told in game time
(``BOARDROOM_TEST_HOUR_SECONDS``): a lobby chooses "1 day + 12 hours a move, at most 3 days";
every turn message says when the bank of the player to move runs out, what it held when the
turn began and what the others' banks hold; quick moves add the increment up to the cap; then
a player's bank runs out: the two reminders, the table's vote, and (nobody deciding) a bot
plays the turn, after which that player's bank holds the increment only."""

from __future__ import annotations

import time
from typing import Any

from i18n import bank_length, t, time_left
from tests.e2e.helpers import action_ids, board_after_click, lobby_id, seat_users, sent_at
from tests.e2e.test_settings_play_e2e import MANAGE_GUILD, Slash
from tests.e2e.test_turn_clock_e2e import rows, timestamp, votes_on
from tests.fakediscord import FakeDiscordDriver
from tests.fakediscord import payloads as p

HOUR = 0.25  # seconds per hour of game time: the bank starts at 6 s, +3 s a move, at most 18 s
START, INCREMENT, CAP = 24, 12, 72  # the preset's hours
LOBBY = t(
    "en",
    "lobby.bank",
    start=t("en", "clock.days", count=1),
    increment=t("en", "clock.hours", count=12),
    cap=t("en", "clock.days", count=3),
)


def banks(bot: Any) -> dict[int, float | None]:
    return dict(rows(bot, "SELECT user_id, bank_left FROM seats"))


def others_line(name: str, hours: float) -> str:
    left = t("en", "clock.bank_of", player=name, left=time_left("en", hours))
    return t("en", "clock.banks", banks=left)


def mover_line(name: str, deadline: float, held_hours: float) -> str:
    when = f"<t:{int(deadline)}:R>"
    return t("en", "clock.bank_runs_out", player=name, when=when, held=time_left("en", held_hours))


async def play_turn(driver: FakeDiscordDriver, user: Any, turn: Any) -> Any:
    """``user`` plays a cautious turn (stop as soon as they may); returns the next turn's
    message."""
    for _ in range(20):
        buttons = action_ids(turn)
        action = "stop" if "stop" in buttons else sorted(buttons)[0]
        rec = await driver.click(user, turn, buttons[action])
        board = await board_after_click(driver, rec, turn)
        assert not rec.ephemeral, rec.content
        if board.id != turn.id:
            return board
        turn = board
    raise AssertionError("the turn never passed")


async def test_a_bank_fills_to_its_cap_then_runs_out_into_the_tables_vote(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS=str(HOUR))
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    opened = await fake_discord.slash(
        alice, table.channel, "play", {"clock": "bank-1d"}, subcommand="cantstop"
    )
    await opened.wait_response()
    assert opened.original is not None and LOBBY in opened.original.content
    lobby = opened.original
    gid = lobby_id(lobby)
    joined = await fake_discord.click(bob, lobby, f"brl:{gid}:join")
    await joined.wait_response()
    begin = await fake_discord.click(alice, fake_discord.message(lobby.id), f"brl:{gid}:start")
    await begin.wait_response()
    (turn,) = await begin.wait_followups(1, timeout=10)
    assert rows(bot, "SELECT clock_seconds, bank_increment, bank_cap FROM games") == [(6, 3, 18)]
    ((deadline,),) = rows(bot, "SELECT deadline FROM games")
    assert mover_line("Alice", deadline, START) in turn.content  # Alice (the host) moves first
    assert others_line("Bob", START) in turn.content
    # quick turns: each adds the increment less the little it took, never above the cap
    people = {alice.id: (alice, "Alice"), bob.id: (bob, "Bob")}
    mover, other = alice.id, bob.id
    rounds = 0
    while set(banks(bot).values()) != {CAP * HOUR}:
        rounds += 1
        assert rounds <= 40, banks(bot)  # a turn takes far less than the increment
        ((runs_out,),) = rows(bot, "SELECT deadline FROM games")
        began = time.time()
        turn = await play_turn(fake_discord, people[mover][0], turn)
        ended = time.time()
        after = banks(bot)
        # what was left when the turn ended (somewhere between the first click and the next
        # board), plus the increment, never above the cap
        most, least = (min(CAP * HOUR, runs_out - at + INCREMENT * HOUR) for at in (began, ended))
        assert least - 0.01 <= after[mover] <= most + 0.01, (least, after[mover], most)
        # the next turn message: the next mover's bank runs out at its deadline, and the one
        # who just moved has what their bank holds now
        mover, other = other, mover
        ((deadline,),) = rows(bot, "SELECT deadline FROM games")
        held_now = after[mover] if after[mover] is not None else START * HOUR
        assert mover_line(people[mover][1], deadline, held_now / HOUR) in turn.content
        assert others_line(people[other][1], after[other] / HOUR) in turn.content
    assert f"{t('en', 'clock.bank_of', player=people[other][1], left='3 days')}" in turn.content
    if mover != alice.id:  # Alice is to run out: Bob plays one more (quick) turn
        turn = await play_turn(fake_discord, bob, turn)
    assert f"(it held {time_left('en', CAP)} when this turn began)" in turn.content
    ((deadline,),) = rows(bot, "SELECT deadline FROM games")
    started = deadline - CAP * HOUR
    # Alice does not move: reminded at 50 % and 90 % of what her bank held, then the table
    reminded = f"<@{alice.id}>, it is your turn"
    first = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: m.content.startswith(reminded), after=turn.id, timeout=30
    )
    assert "your time bank runs out" in first.content and timestamp(first.content) == round(deadline)
    second = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: m.content.startswith(reminded), after=first.id, timeout=30
    )
    ms = 0.001  # a snowflake's grain
    assert sent_at(first) >= started + 0.5 * CAP * HOUR - ms
    assert sent_at(second) >= started + 0.9 * CAP * HOUR - ms
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), after=second.id, timeout=30
    )
    assert vote.content.startswith(t("en", "vote.expiry.title_bank", player=f"<@{alice.id}>"))
    assert sent_at(vote) >= deadline - ms
    assert set(votes_on(vote)) == {"wait", "bot_turn", "bot_seat", "end"}
    # nobody decides within one period (what a move adds): the server's default, a bot's turn
    said = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "Nobody decided in time" in m.content, after=vote.id, timeout=15
    )
    assert "A bot plays this turn for Alice" in said.content
    assert sent_at(said) >= deadline + INCREMENT * HOUR - ms
    board = await fake_discord.wait_for_channel_message(
        table.channel,
        lambda m: f"<@{bob.id}>" in m.content and bool(action_ids(m)),
        after=said.id,
        timeout=15,
    )
    assert "A bot (medium) played this turn for Alice" in board.content
    assert banks(bot)[alice.id] == INCREMENT * HOUR  # ran out: the increment only
    assert others_line("Alice", INCREMENT) in board.content
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_a_servers_default_bank_is_what_a_lobby_gets_unless_its_host_chooses(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Admin")
    alice, admin = table.users
    await fake_discord.add_member(
        bot.guild, admin, permissions=p.DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD
    )
    slash = Slash(fake_discord, table.channel)
    done = await slash(admin, "settings", "server", locale="de", clock="bank-3d")
    assert bank_length("de", 72, 24, 168) in done  # the answer says what is now set
    stored = "SELECT default_clock, default_bank_increment, default_bank_cap FROM server_settings"
    assert rows(bot, stored) == [(72, 24, 168)]
    assert bank_length("en", 72, 24, 168) in await slash(alice, "settings", "server")

    async def lobby(options: dict[str, Any]) -> str:
        opened = await fake_discord.slash(
            alice, table.channel, "play", options, subcommand="cantstop"
        )
        await opened.wait_response()
        assert opened.original is not None and not opened.ephemeral, opened.content
        content = opened.original.content
        cancel = await fake_discord.click(
            alice, opened.original, f"brl:{lobby_id(opened.original)}:cancel"
        )
        await cancel.wait_response()
        return content

    three_days = t(
        "en",
        "lobby.bank",
        start=t("en", "clock.days", count=3),
        increment=t("en", "clock.days", count=1),
        cap=t("en", "clock.days", count=7),
    )
    assert three_days in await lobby({})  # the server's default
    per_move = await lobby({"clock": "12h"})  # the host's choice wins
    assert t("en", "lobby.clock", clock="12 hours") in per_move and "Time bank" not in per_move
    assert rows(bot, "SELECT clock_seconds, bank_increment, bank_cap FROM games") == [
        (72 * 3600, 24 * 3600, 168 * 3600),
        (12 * 3600, None, None),
    ]
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
