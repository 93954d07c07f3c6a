"""After downtime, a turn whose deadline passed meanwhile gets a grace period, and the board in
its channel says so: through the real bot process and the fake Discord, in game time
(``BOARDROOM_TEST_HOUR_SECONDS``), the clock line of the posted turn message is rewritten in
place to the postponed deadline; a board Discord refuses to edit keeps its line and holds
nothing up. Likewise an open table vote whose end passed meanwhile: its message names the
postponed end."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.adapter.messages import when
from tests.e2e.helpers import open_and_start, seat_users
from tests.e2e.test_away_budget_e2e import runs_out_line, until_true
from tests.e2e.test_turn_clock_e2e import rows, votes_on
from tests.fakediscord import FakeDiscordDriver


async def test_a_restart_past_the_deadline_moves_the_boards_deadline(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="6")  # 1 h clock: 6 s, grace 0.6 s
    kept = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    refused = await seat_users(fake_discord, bot.guild, "Carol", "Dave")
    boards = {
        kept.channel.id: await open_and_start(kept, "cantstop", clock="1h"),
        refused.channel.id: await open_and_start(refused, "cantstop", clock="1h"),
    }
    shown = dict(rows(bot, "SELECT channel_id, deadline FROM games"))
    posted = {b.id: (b.content, list(b.attachments), b.custom_ids) for b in boards.values()}
    for channel_id, board in boards.items():
        assert runs_out_line(shown[channel_id]) in board.content
    await asyncio.sleep(0.3)  # the first boards are recorded as shown
    await bot.kill()
    await asyncio.sleep(max(0.0, max(shown.values()) + 0.5 - time.time()))
    # Discord refuses to edit one of the two boards (the bot lost the permission meanwhile)
    board = boards[refused.channel.id]
    outage = fake_discord.fail_next("PATCH", f"/channels/{board.channel_id}/messages/{board.id}")
    restarted = time.time()
    await bot.start()

    # the other board names the postponed deadline, the rest of the message as it was
    turn = boards[kept.channel.id]
    await until_true(lambda: fake_discord.message(turn.id).edits > 0)
    moved = dict(rows(bot, "SELECT channel_id, deadline FROM games"))
    assert all(moved[c] > restarted > shown[c] for c in boards)
    now_shown = fake_discord.message(turn.id)
    old, new = runs_out_line(shown[kept.channel.id]), runs_out_line(moved[kept.channel.id])
    assert new in now_shown.content and old not in now_shown.content
    assert now_shown.content.replace(new, old) == posted[turn.id][0]
    assert now_shown.attachments == posted[turn.id][1]
    assert now_shown.custom_ids == posted[turn.id][2]  # its buttons still play the turn

    # the refused edit held nothing up: that board keeps its line, and both tables are asked
    # once their grace period is over
    await until_true(lambda: outage.failed == 1)
    for table in (kept, refused):
        await fake_discord.wait_for_channel_message(
            table.channel, lambda m: bool(votes_on(m)), timeout=15
        )
    assert fake_discord.message(board.id).content == posted[board.id][0]
    assert "board's clock line not updated" in bot.log_text()
    fake_discord.assert_no_unknown_routes()
    fake_discord.assert_no_violations()  # every request, the edits included, is one Discord takes
    bot.assert_no_traceback()


async def test_a_restart_past_a_votes_end_moves_the_end_its_message_names(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="6")  # 1 h clock: 6 s, grace 0.6 s
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    await open_and_start(table, "cantstop", clock="1h")
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=15
    )
    ((ends,),) = rows(bot, "SELECT due FROM timers WHERE kind = 'vote_end'")
    assert when(ends) in vote.content
    # the message is recorded as the vote's (else a restart posts it again: a new message)
    await until_true(lambda: rows(bot, "SELECT message_id FROM votes") == [(vote.id,)])
    await bot.kill()
    await asyncio.sleep(max(0.0, ends + 0.5 - time.time()))
    restarted = time.time()
    await bot.start()

    # the vote's end got a grace period, and its message says when it now ends
    await until_true(lambda: fake_discord.message(vote.id).edits > 0)
    moved = rows(bot, "SELECT due FROM timers WHERE kind = 'vote_end'")
    shown = fake_discord.message(vote.id)
    if moved:  # (the vote may have ended already on a slow machine: its end was still moved)
        ((now_ends,),) = moved
        assert now_ends > restarted > ends
        assert when(now_ends) in shown.content
    assert when(ends) not in shown.content
    assert shown.custom_ids == vote.custom_ids  # its ballots still count
    # the table's default happens at the new end, once
    await fake_discord.wait_for_channel_message(
        table.channel, lambda m: m.id > vote.id and "🤖" in m.content, timeout=15
    )
    fake_discord.assert_no_unknown_routes()
    fake_discord.assert_no_violations()
    bot.assert_no_traceback()
