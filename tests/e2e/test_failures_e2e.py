"""Discord failing, the bot stalling: a committed move always reaches the channel (issue points
1, 2, 6 and 8). Each test reproduces one failure through the fake Discord against the real bot
process and checks that the board is shown exactly once, nothing is applied twice and the bot
logs no traceback."""

from __future__ import annotations

import copy

from tests.e2e.helpers import (
    action_ids,
    assert_board,
    board_after_click,
    lobby_id,
    open_and_start,
    seat_users,
)
from tests.e2e.quick_retries_bot import WAITS_ENV
from tests.e2e.reliability import board_messages, posted_versions, shown, stored_state, until
from tests.e2e.test_harmonies_e2e import controls_of, mover_of, open_harmonies, press

BAD_GATEWAY = {"status": 502, "code": 0}


def moves_of(bot) -> list[str]:
    return [m[3].split(":")[0] for m in stored_state(bot)[2]]


async def loses_buttons(driver, message, timeout: float = 5.0) -> None:
    """Wait until a channel message has no game controls any more (edited through the channel,
    after the new board went out)."""
    await driver.fake.wait_until(lambda: not controls_of(driver.message(message.id)), timeout)


async def new_board(driver, channel, mark, timeout: float = 15.0):
    """The next channel message with game controls after ``mark``."""
    return await driver.wait_for_channel_message(
        channel, lambda m: bool(controls_of(m)), after=mark, timeout=timeout
    )


async def test_a_stalled_bot_posts_the_move_in_the_channel(fake_discord, bot_process) -> None:
    """The bot is stopped (SIGSTOP) for 3.5 s while a Roll click and someone else's click reach
    it: past Discord's 3 s, it does not even try to answer. The roll is applied once and its
    board is posted as a channel message, the clicked board loses its buttons through the
    channel, and the other click is dropped unapplied."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    first = await open_and_start(table)
    roll = action_ids(first)["roll"]
    mark = fake_discord.marker()
    async with bot.stalled(3.5):
        click = await fake_discord.click(alice, first, roll)
        other = await fake_discord.click(bob, copy.deepcopy(first), roll)
    board = await new_board(fake_discord, table.channel, mark)
    assert_board(board)
    assert "**Alice**: rolled" in board.content and f"<@{alice.id}>" in board.content
    assert moves_of(bot) == ["roll", "dice"]
    assert not click.responded and not click.rejections  # no doomed answer was tried
    assert not other.responded and not other.rejections
    gid = int(roll.split(":")[1])
    await shown(bot, gid)
    await loses_buttons(fake_discord, first)
    assert len(board_messages(fake_discord, table.channel, mark)) == 1
    assert "too long to answer" in bot.log_text()
    assert "(synchronous=FULL)" in bot.log_text()  # commits survive a power cut by default

    buttons = action_ids(board)  # the posted board works like any other
    rec = await fake_discord.click(alice, board, buttons[sorted(buttons)[0]])
    after = await board_after_click(fake_discord, rec, board)
    assert not rec.ephemeral and after.id == board.id  # a step: shown on it, in place
    bot.assert_no_traceback()
    assert not fake_discord.late_answers()


async def test_a_typed_move_in_a_stall_reaches_the_channel(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    gid = int(action_ids(first)["roll"].split(":")[1])
    mark = fake_discord.marker()
    async with bot.stalled(3.5):
        typed = await fake_discord.slash(
            alice, table.channel, "game", {"action": "roll"}, subcommand="move"
        )
    # a step: the first board shows it, edited through the channel (no answer is needed)
    await fake_discord.fake.wait_until(
        lambda: "**Alice**: rolled" in fake_discord.message(first.id).content, 15
    )
    assert not typed.responded and moves_of(bot) == ["roll", "dice"]
    await shown(bot, gid)
    assert not board_messages(fake_discord, table.channel, mark)
    bot.assert_no_traceback()


async def test_a_first_response_refused_twice_still_shows_the_board(
    fake_discord, bot_process
) -> None:
    """The interaction callback returns 502 twice: discord.py's retry would come after the
    deadline, so the bot stops waiting at the deadline and posts the board in the channel."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    outage = fake_discord.fail_next("POST", "/callback", count=2, **BAD_GATEWAY)
    mark = fake_discord.marker()
    click = await fake_discord.click(alice, first, action_ids(first)["roll"])
    board = await new_board(fake_discord, table.channel, mark)
    assert outage.failed == 2 and not click.responded
    assert "**Alice**: rolled" in board.content and moves_of(bot) == ["roll", "dice"]
    await shown(bot, int(action_ids(first)["roll"].split(":")[1]))
    await loses_buttons(fake_discord, first)
    assert not fake_discord.late_answers()  # no try after the deadline
    bot.assert_no_traceback()


async def test_a_step_whose_board_is_refused_as_the_answer_is_shown_by_an_edit(
    fake_discord, bot_process
) -> None:
    """A roll's board normally is the click's answer itself (the clicked message replaced).
    When Discord refuses that answer, the bot defers the update instead and edits the clicked
    message: the same board, in place, once."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    mark = fake_discord.marker()
    click = await fake_discord.click(alice, first, action_ids(first)["roll"])
    board = await board_after_click(fake_discord, click, first)
    assert click.response_type == 7 and "**Alice**: rolled" in board.content  # the answer
    outage = fake_discord.fail_next("POST", "/callback", status=400, code=50035, count=1)
    buttons = action_ids(board)
    move = sorted(c for c in buttons if c.startswith("move:"))[0]
    click = await fake_discord.click(alice, board, buttons[move])
    after = await board_after_click(fake_discord, click, board)
    assert outage.failed == 1 and click.response_type == 6  # refused, then deferred
    assert after.id == first.id and set(action_ids(after)) == {"roll", "stop"}
    assert moves_of(bot) == ["roll", "dice", "move"]
    assert not board_messages(fake_discord, table.channel, mark)  # nothing posted instead
    assert "board refused as the answer" in bot.log_text()
    bot.assert_no_traceback()


async def test_a_step_whose_board_is_late_for_the_answer_defers_and_edits(
    fake_discord, bot_process
) -> None:
    """A click that reaches the bot 2.1 s after it was made leaves no time to make the board
    before Discord's deadline for the answer: the answer defers the update, and the board
    follows as an edit of the clicked message."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    async with bot.stalled(2.1):
        click = await fake_discord.click(alice, first, action_ids(first)["roll"])
    board = await board_after_click(fake_discord, click, first)
    assert click.response_type == 6 and board.id == first.id
    assert "**Alice**: rolled" in board.content and moves_of(bot) == ["roll", "dice"]
    assert not fake_discord.late_answers()
    bot.assert_no_traceback()


async def test_a_response_taken_but_answered_502_continues_as_usual(
    fake_discord, bot_process
) -> None:
    """The callback took effect but its answer was a 502: the retry gets 40060 (already
    acknowledged), which the bot reads as taken, and the board follows as usual, once. The same
    for a typed move, whose deferred answer is then completed."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    outage = fake_discord.fail_next("POST", "/callback", count=1, after_effect=True, **BAD_GATEWAY)
    mark = fake_discord.marker()
    click = await fake_discord.click(alice, first, action_ids(first)["roll"])
    board = await board_after_click(fake_discord, click, first)  # the roll, in place
    await click.wait_rejection(timeout=10)  # the answer carried the board: its retry comes later
    assert outage.failed == 1 and [r.code for r in click.rejections] == [40060]
    assert not board.ephemeral and "**Alice**: rolled" in board.content
    assert moves_of(bot) == ["roll", "dice"]

    fake_discord.fail_next("POST", "/callback", count=1, after_effect=True, **BAD_GATEWAY)
    buttons = action_ids(board)
    move = sorted(c for c in buttons if c.startswith("move:"))[0]
    typed = await fake_discord.slash(
        alice, table.channel, "game", {"action": move}, subcommand="move"
    )
    note = await typed.wait_original_edit(timeout=10)  # the deferred answer became the note
    assert typed.ephemeral and note.ephemeral and f"/{first.id}" in note.content
    assert moves_of(bot) == ["roll", "dice", "move"]
    assert [r.code for r in typed.rejections] == [40060]
    assert set(action_ids(fake_discord.message(first.id))) == {"roll", "stop"}
    # the roll and the typed move both updated the first board: no new message
    assert not board_messages(fake_discord, table.channel, mark)
    bot.assert_no_traceback()


async def test_a_typed_step_whose_board_cannot_be_edited_is_posted(
    fake_discord, bot_process
) -> None:
    """`/game move` inside a turn edits the newest board through the channel; when Discord
    refuses that edit, the step's board is posted as a new channel message, the old board loses
    its buttons, and the player's private answer links to the new board."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    mark = fake_discord.marker()
    outage = fake_discord.fail_next(
        "PATCH", f"/channels/{table.channel.id}/messages/{first.id}", count=1
    )
    typed = await fake_discord.slash(
        alice, table.channel, "game", {"action": "roll"}, subcommand="move"
    )
    board = await new_board(fake_discord, table.channel, mark)
    assert outage.failed == 1 and moves_of(bot) == ["roll", "dice"]
    assert "**Alice**: rolled" in board.content and f"<@{alice.id}>" in board.content
    assert_board(board)
    note = await typed.wait_original_edit(timeout=10)
    assert typed.ephemeral and note.ephemeral
    link = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{board.id}"
    assert link in note.content and "new board" in note.content, note.content
    await loses_buttons(fake_discord, first)
    await shown(bot, int(next(iter(action_ids(board).values())).split(":")[1]))
    assert board_messages(fake_discord, table.channel, mark) == [board]
    # the posted board is the newest: the next typed step updates it in place
    move = sorted(c for c in action_ids(board) if c.startswith("move:"))[0]
    again = await fake_discord.slash(
        alice, table.channel, "game", {"action": move}, subcommand="move"
    )
    note = await again.wait_original_edit(timeout=10)
    assert note.ephemeral and f"/{board.id}" in note.content
    assert set(action_ids(fake_discord.message(board.id))) == {"roll", "stop"}
    assert board_messages(fake_discord, table.channel, mark) == [board]
    bot.assert_no_traceback()


async def test_a_typed_step_never_turns_the_lobby_into_a_board(fake_discord, bot_process) -> None:
    """While the first board has not reached the channel, the game's newest post is its lobby: a
    step typed then is shown the usual way (its own new board), and the lobby stays a lobby."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    opened = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await opened.wait_response()
    lobby = opened.original
    gid = lobby_id(lobby)
    joined = await fake_discord.click(bob, lobby, f"brl:{gid}:join")
    await joined.wait_response()
    fake_discord.fail_next("POST", "/webhooks/", count=1)  # the start's follow-up board
    outage = fake_discord.fail_next(
        "POST", f"/channels/{table.channel.id}/messages", count=10**6
    )  # and the delivery's retries of it
    start = await fake_discord.click(alice, fake_discord.message(lobby.id), f"brl:{gid}:start")
    await start.wait_response()
    await until(lambda: outage.failed >= 1)
    mark = fake_discord.marker()
    typed = await fake_discord.slash(
        alice, table.channel, "game", {"action": "roll"}, subcommand="move"
    )
    board = await new_board(fake_discord, table.channel, mark)
    assert "**Alice**: rolled" in board.content and not typed.ephemeral
    after = fake_discord.message(lobby.id)
    assert "rolled" not in (after.content or "") and not after.attachments
    outage.remaining = 0
    bot.assert_no_traceback()


async def test_a_private_step_whose_answer_fails_goes_to_the_channel(
    fake_discord, bot_process
) -> None:
    """Harmonies: a step inside a turn is normally answered privately. When that answer cannot
    be given, the step's board is posted in the channel with the mover's controls, and the turn
    goes on from there."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Ann", "Ben")
    turn = await open_harmonies(table)
    mover = mover_of(turn, table.users)
    controls = controls_of(turn)
    code = sorted(c for c in controls if c.startswith("take:"))[0]
    fake_discord.fail_next("POST", "/callback", count=2, **BAD_GATEWAY)
    mark = fake_discord.marker()
    rec = await press(fake_discord, mover, turn, controls[code], code)
    step = await new_board(fake_discord, table.channel, mark)
    assert not rec.responded and not step.ephemeral
    assert mover_of(step, table.users) is mover
    steps = controls_of(step)
    nxt = sorted(steps)[0]
    rec = await press(fake_discord, mover, step, steps[nxt], nxt)
    await rec.wait_response()
    assert rec.response_type == 7
    await rec.wait_followups(1, timeout=10)
    bot.assert_no_traceback()


async def test_a_bot_turn_whose_post_fails_five_times_is_posted(
    fake_discord, bot_process
) -> None:
    """Five 500s on the channel post of a computer opponent's turn (discord.py's own retries
    all fail): the bot's moves are saved, the board is posted by a later try, and the game
    goes on; nothing is logged as a failed bot turn. (discord.py's waits between its tries run
    at a fifth of their length here.)"""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0", **{WAITS_ENV: "0.2"})
    table = await seat_users(fake_discord, bot.guild, "Solo")
    (solo,) = table.users
    rec = await fake_discord.slash(solo, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    gid = lobby_id(rec.original)
    add = await fake_discord.click(solo, rec.original, f"brl:{gid}:bot-easy")
    await add.wait_response()
    start = await fake_discord.click(solo, fake_discord.message(rec.original.id), f"brl:{gid}:start")
    (turn,) = await start.wait_followups(1, timeout=10)
    while "stop" not in action_ids(turn):
        clicked = await fake_discord.click(solo, turn, action_ids(turn)["roll"])
        board = await board_after_click(fake_discord, clicked, turn)
        if board.id != turn.id:  # a bust: the bot has its turn; then roll again
            turn = await new_board(fake_discord, table.channel, board.id, timeout=20)
            continue
        moves = action_ids(turn)
        move = sorted(c for c in moves if c.startswith("move:"))[0]
        clicked = await fake_discord.click(solo, turn, moves[move])
        turn = await board_after_click(fake_discord, clicked, turn)
    outage = fake_discord.fail_next(
        "POST", f"/channels/{table.channel.id}/messages", status=500, code=0, count=5
    )
    mark = fake_discord.marker()
    clicked = await fake_discord.click(solo, turn, action_ids(turn)["stop"])
    await clicked.wait_followups(1, timeout=10)
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: m.id > mark and "Bot 2 (easy)" in m.content, timeout=60
    )
    assert outage.failed == 5
    assert_board(board)
    await shown(bot, gid, timeout=10)
    assert "bot turn failed" not in bot.log_text()
    assert "board not posted yet" in bot.log_text()
    bot.assert_no_traceback()


async def test_lobby_answers_that_fail(fake_discord, bot_process) -> None:
    """The lobby is opened without fetching its message (a failing fetch cannot turn into
    "Something went wrong"); a Join whose answer is lost still shows the seat on the lobby
    message, and Join again shows the lobby as it is; a Start whose answer is lost still ends
    the lobby message and posts the first board."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Host", "Ann")
    host, ann = table.users
    fake_discord.fail_next("GET", "/messages/@original", status=500, code=0, count=10)
    rec = await fake_discord.slash(host, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    lobby = rec.original
    assert not rec.ephemeral and not rec.followups
    assert not fake_discord.requests_to("GET", "@original")
    gid = lobby_id(lobby)
    await until(lambda: posted_versions(bot, gid), what="the lobby message to be recorded")
    busy = await fake_discord.slash(ann, table.channel, "play", {}, subcommand="kokeshi")
    await busy.wait_response()  # the lobby's message was recorded: the answer links to it
    assert f"/{table.channel.id}/{lobby.id}" in busy.content

    fake_discord.fail_next("POST", "/callback", count=2, **BAD_GATEWAY)
    joined = await fake_discord.click(ann, lobby, f"brl:{gid}:join")
    await fake_discord.fake.wait_until(
        lambda: f"<@{ann.id}>" in fake_discord.message(lobby.id).content, timeout=10
    )
    assert not joined.responded
    again = await fake_discord.click(ann, fake_discord.message(lobby.id), f"brl:{gid}:join")
    await again.wait_response()
    assert again.response_type == 7 and f"<@{ann.id}>" in fake_discord.message(lobby.id).content
    (note,) = await again.wait_followups(1)
    assert note.ephemeral and "already seated" in note.content

    mark = fake_discord.marker()
    async with bot.stalled(3.5):
        start = await fake_discord.click(host, fake_discord.message(lobby.id), f"brl:{gid}:start")
    board = await new_board(fake_discord, table.channel, mark)
    assert_board(board)
    assert f"<@{host.id}>" in board.content
    await fake_discord.fake.wait_until(
        lambda: "started" in fake_discord.message(lobby.id).content, timeout=10
    )
    assert not start.responded and not fake_discord.message(lobby.id).custom_ids
    bot.assert_no_traceback()
