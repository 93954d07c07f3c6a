"""Can't Stop through the real bot process and the fake Discord: lobby to win, bad input, restart."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path

import pytest

from bot.present.levels import strength_list
from tests.e2e.helpers import (
    action_ids,
    assert_board,
    assert_every_image_described,
    board_after_click,
    open_and_start,
    public_boards,
    seat_users,
)


@pytest.mark.parametrize("render_processes", ["0", "1"])
async def test_a_whole_game_clicked_through_the_buttons(
    fake_discord, bot_process, render_processes: str
) -> None:
    """Boards drawn in worker threads (the default) or in a worker process."""
    bot = await bot_process(BOARDROOM_RENDER_PROCESSES=render_processes)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    turn = await open_and_start(table)
    first_button = next(iter(action_ids(turn).values()))
    steps = turns = edits = 0
    while True:
        assert_board(turn)
        buttons = action_ids(turn)
        if not buttons:
            assert "wins" in turn.content
            break
        mover = alice if f"<@{alice.id}>" in turn.content.splitlines()[-1] else bob
        assert f"<@{mover.id}>" in turn.content
        # a careful player: stop after two moves in a turn, otherwise take the first option
        action = "stop" if "stop" in buttons and steps % 3 == 2 else sorted(buttons)[0]
        rec = await fake_discord.click(mover, turn, buttons[action])
        board = await board_after_click(fake_discord, rec, turn)
        assert not rec.ephemeral, rec.content
        if board.id == turn.id:  # a step inside the turn: the same board, updated in place
            edits += 1
            assert action != "stop" and rec.updated_in_place and not rec.followups
            assert f"<@{mover.id}>" in board.content  # still the mover's turn
            assert ("rolled" in board.content) or ("busts" in board.content)
        else:  # the turn passed: a new message, telling the whole turn
            turns += 1
            name = "Alice" if mover is alice else "Bob"
            assert f"**{name}**:" in board.content, board.content
            assert "stopped" in board.content or "bust" in board.content, board.content
        turn = board
        steps += 1
        assert steps < 3000
    # one public message per turn, plus the first board (and the last one ends the game)
    assert len(public_boards(fake_discord, table.channel)) == turns + 1
    assert edits > turns // 2
    fake_discord.assert_no_unknown_routes()
    assert assert_every_image_described(fake_discord) >= turns
    # a button from the first turn, as a client that kept the old message would send it
    old = await fake_discord.forge_component(alice, turn, first_button)
    await old.wait_response()
    winner = alice if f"<@{alice.id}>" in turn.content.splitlines()[-1] else bob
    assert old.ephemeral and f"This game has ended: <@{winner.id}> won." in old.content
    assert not any(rec.late for rec in fake_discord.interactions)  # none refused as too late
    assert ("worker processes" in bot.log_text()) == (render_processes == "1")
    # the whole game was played on the GUILDS intent alone (1 << 0): the bot is not sent every
    # message and reaction of the servers it is in
    assert [session.intents for session in fake_discord.fake.ready_sessions()] == [1]


async def stored_state(bot) -> list[tuple]:
    """Every games/moves row in the bot's database file (read-only, outside the bot)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        games = conn.execute(
            "SELECT id, status, version, move_count, state_json FROM games"
        ).fetchall()
        moves = conn.execute("SELECT * FROM moves ORDER BY game_id, seq").fetchall()
        return [games, moves]
    finally:
        conn.close()


async def test_bad_input_is_private_and_changes_nothing(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob", "Eve")
    alice, bob, eve = table.users
    table.users = [alice, bob]
    first = await open_and_start(table)
    roll = action_ids(first)["roll"]
    before = await stored_state(bot)

    async def rejected(user, message, custom_id, words: str) -> None:
        rec = await fake_discord.click(user, message, custom_id)
        await rec.wait_response()
        assert rec.ephemeral, rec.data
        assert words in rec.content, rec.content
        assert await stored_state(bot) == before

    await rejected(bob, first, roll, "not your turn")
    await rejected(eve, first, roll, "not playing in this game")

    # Alice rolls: a copy of the first message still showing its buttons (a client that has not
    # refreshed yet) now carries buttons from an earlier turn.
    as_seen_before = copy.deepcopy(first)
    rec = await fake_discord.click(alice, first, roll)
    second = await board_after_click(fake_discord, rec, first)
    # the roll is shown on the same board, in place: its buttons are the new version's
    assert second.id == first.id and action_ids(second) != action_ids(as_seen_before)
    before = await stored_state(bot)
    await rejected(alice, as_seen_before, roll, "earlier turn")

    # A busy channel: /play again answers privately with a link to the game.
    busy = await fake_discord.slash(bob, table.channel, "play", {}, subcommand="cantstop")
    await busy.wait_response()
    assert busy.ephemeral and "already has" in busy.content
    link = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{second.id}"
    assert link in busy.content  # a jump link to the newest board
    # Typed by hand: a move that is not legal now, and text that is no move at all.
    for typed, words in (("stop", "not a legal move"), ("jump:9", "not a move this game")):
        rec = await fake_discord.slash(
            alice, table.channel, "game", {"action": typed}, subcommand="move"
        )
        await rec.wait_response()
        assert rec.ephemeral and words in rec.content, rec.content
    assert await stored_state(bot) == before
    # A button naming a game that does not exist (e.g. the database was reset).
    ghost = copy.deepcopy(second)
    ghost.components[0]["components"][0]["custom_id"] = "br:4242:1:roll"
    await rejected(alice, ghost, "br:4242:1:roll", "no longer exists")
    # A control this bot never made.
    ghost.components[0]["components"][0]["custom_id"] = "xyz:1"
    await rejected(alice, ghost, "xyz:1", "not one this bot understands")


async def test_double_click_applies_exactly_once(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    roll = action_ids(first)["roll"]
    one, two = await asyncio.gather(
        fake_discord.click(alice, first, roll), fake_discord.click(alice, first, roll)
    )
    await asyncio.gather(one.wait_response(), two.wait_response())
    assert sorted([one.ephemeral, two.ephemeral]) == [False, True]
    _games, moves = await stored_state(bot)
    assert [m[3].split(":")[0] for m in moves] == ["roll", "dice"]


async def test_lobby_rules(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Host", "Ann", "Ben")
    host, ann, ben = table.users
    rec = await fake_discord.slash(
        host, table.channel, "play", {"players": 2}, subcommand="cantstop"
    )
    await rec.wait_response()
    lobby = rec.original
    gid = lobby.custom_ids[0].split(":")[1]
    # above the "Add bot" buttons: how strong each level is, from games/cantstop/levels.json
    assert strength_list("en", "cantstop", "lobby.levels") in lobby.content

    async def press(user, op: str):
        r = await fake_discord.click(user, fake_discord.message(lobby.id), f"brl:{gid}:{op}")
        await r.wait_response()
        return r

    r = await press(host, "start")
    assert r.ephemeral and "needs at least 2" in r.content
    assert (await press(ann, "join")).response_type == 7
    assert f"<@{ann.id}>" in fake_discord.message(lobby.id).content
    r = await press(ben, "join")
    assert r.ephemeral and "full" in r.content
    r = await press(ann, "start")
    assert r.ephemeral and "Only the host" in r.content
    r = await press(ann, "join")  # shows the lobby as it is, and says why nothing changed
    assert r.response_type == 7 and f"<@{ann.id}>" in fake_discord.message(lobby.id).content
    (note,) = await r.wait_followups(1)
    assert note.ephemeral and "already seated" in note.content
    r = await press(host, "cancel")
    assert r.response_type == 7 and "cancelled" in fake_discord.message(lobby.id).content
    rec = await fake_discord.slash(ann, table.channel, "game", {}, subcommand="board")
    await rec.wait_response()
    assert rec.ephemeral and "no game" in rec.content


async def test_look_commands_and_abandon(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob", "Watcher")
    alice, bob, watcher = table.users
    table.users = [alice, bob]
    first = await open_and_start(table)
    rec = await fake_discord.click(alice, first, action_ids(first)["roll"])
    after_roll = await board_after_click(fake_discord, rec, first)
    public_before = len(fake_discord.channel_messages(table.channel))

    # asking for the board again answers privately: controls for the mover, none for the others
    again = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="board")
    await again.wait_response()
    (controls,) = await again.wait_followups(1, timeout=10)
    assert controls.ephemeral and action_ids(controls) == action_ids(after_roll)
    other = await fake_discord.slash(bob, table.channel, "game", {}, subcommand="board")
    await other.wait_response()
    (bobs,) = await other.wait_followups(1, timeout=10)
    assert bobs.ephemeral and not action_ids(bobs) and f"<@{alice.id}>" in bobs.content
    assert len(fake_discord.channel_messages(table.channel)) == public_before  # nobody pinged

    look = await fake_discord.slash(watcher, table.channel, "game", {}, subcommand="board")
    await look.wait_response()
    (private_board,) = await look.wait_followups(1, timeout=10)
    assert private_board.ephemeral and not action_ids(private_board)
    assert_board(private_board)

    # the record lists turns that ended: Alice's first is still being played
    log = await fake_discord.slash(watcher, table.channel, "game", {}, subcommand="log")
    await log.wait_response()
    assert log.ephemeral and "No turn has ended yet." in log.content, log.content

    rules = await fake_discord.slash(watcher, table.channel, "rules", {"game": "cantstop"})
    await rules.wait_response()
    assert rules.ephemeral and "3 columns" in rules.embeds[0]["description"]
    # and how strong each bot level is, from games/cantstop/levels.json
    assert strength_list("en", "cantstop", "rules.levels.title") in rules.embeds[0]["description"]

    suggest = await fake_discord.autocomplete(
        alice, table.channel, "game", {"action": "move"}, focused="action", subcommand="move"
    )
    await suggest.wait_response()
    choices = suggest.data["choices"]
    assert choices and all(c["value"].startswith("move:") for c in choices)

    denied = await fake_discord.slash(watcher, table.channel, "game", {}, subcommand="abandon")
    await denied.wait_response()
    assert denied.ephemeral and "Manage Channels" in denied.content
    done = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="abandon")
    await done.wait_response()
    assert not done.ephemeral and "abandoned" in done.content
    games, _ = await stored_state(bot)
    assert games[0][1] == "abandoned"

    # no dead ends: the last board loses its buttons, and an old button says how the game ended
    for _ in range(100):
        if not fake_discord.message(after_roll.id).custom_ids:
            break
        await asyncio.sleep(0.05)
    assert not fake_discord.message(after_roll.id).custom_ids
    old = await fake_discord.click(alice, controls, next(iter(action_ids(controls).values())))
    await old.wait_response()
    assert old.ephemeral and "ended" in old.content and f"<@{alice.id}> abandoned" in old.content
    assert "earlier turn" not in old.content
    # with no game running, /game board and /game log show the last one, privately
    last = await fake_discord.slash(watcher, table.channel, "game", {}, subcommand="board")
    await last.wait_response()
    (last_board,) = await last.wait_followups(1, timeout=10)
    assert last_board.ephemeral and "abandoned" in last_board.content
    assert_board(last_board)
    log = await fake_discord.slash(bob, table.channel, "game", {}, subcommand="log")
    await log.wait_response()
    assert log.ephemeral and "abandoned" in log.content and "\n1. Alice: rolled" in log.content


async def test_restart_keeps_the_game_and_old_buttons_work(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    rec = await fake_discord.click(alice, first, action_ids(first)["roll"])
    after_roll = copy.deepcopy(await board_after_click(fake_discord, rec, first))
    await until_recorded(bot)  # the board edited in place is recorded as showing the roll
    before = await stored_state(bot)
    channel_before = len(fake_discord.channel_messages(table.channel))
    await bot.kill()  # SIGKILL in the middle of a turn
    await bot.start()
    assert await stored_state(bot) == before
    await asyncio.sleep(1.0)  # the start-up catch-up has looked for unshown boards by now
    assert "board posted in the channel" not in bot.log_text()
    assert len(fake_discord.channel_messages(table.channel)) == channel_before  # not re-posted
    buttons = action_ids(after_roll)
    move = sorted(c for c in buttons if c.startswith("move:"))[0]
    rec = await fake_discord.click(alice, fake_discord.message(after_roll.id), buttons[move])
    next_step = await board_after_click(fake_discord, rec, after_roll)
    assert not rec.ephemeral
    assert next_step.id == after_roll.id  # still Alice's turn: the same board, updated
    assert set(action_ids(next_step)) >= {"roll", "stop"}
    _games, moves = await stored_state(bot)
    assert len(moves) == len(before[1]) + 1


async def until_recorded(bot) -> None:
    """Wait until the posts table says the channel has seen the game's newest version."""
    import sqlite3

    for _ in range(200):
        conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
        try:
            (version,) = conn.execute("SELECT MAX(version) FROM games").fetchone()
            (posted,) = conn.execute("SELECT MAX(version) FROM posts").fetchone()
        finally:
            conn.close()
        if posted is not None and posted >= version:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the edited board was never recorded")


async def test_one_person_against_a_bot(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0")
    table = await seat_users(fake_discord, bot.guild, "Solo")
    (solo,) = table.users
    rec = await fake_discord.slash(solo, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    lobby = rec.original
    gid = lobby.custom_ids[0].split(":")[1]
    add = await fake_discord.click(solo, lobby, f"brl:{gid}:bot-medium")
    await add.wait_response()
    assert "Bot 2 (medium)" in fake_discord.message(lobby.id).content
    start = await fake_discord.click(solo, fake_discord.message(lobby.id), f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    # Solo plays one cautious move per turn; the bot answers with one channel message per turn.
    for _ in range(200):
        buttons = action_ids(turn)
        if not buttons:
            break
        action = "stop" if "stop" in buttons else sorted(buttons)[0]
        mark = fake_discord.marker()
        rec = await fake_discord.click(solo, turn, buttons[action])
        board = await board_after_click(fake_discord, rec, turn)
        passed, turn = board.id != turn.id, board  # a new message: Solo's turn is over
        if passed:
            assert "**Solo**:" in turn.content
            if "wins" in turn.content:  # Solo won: the final message congratulates, pinging
                break
            assert f"<@{solo.id}>" not in turn.content  # the bot is to move: Solo is not pinged
            turn = await fake_discord.wait_for_channel_message(
                table.channel,
                lambda m: (m.author.bot and f"<@{solo.id}>" in m.content) or "wins" in m.content,
                after=mark,
                timeout=20,
            )
            assert "Bot 2 (medium)" in turn.content
            assert_board(turn)
    assert "wins" in turn.content
    assert_every_image_described(fake_discord)
    # while the bot thinks, the channel shows Discord's typing indicator
    typing = [
        r
        for r in fake_discord.fake.requests
        if r.method == "POST" and r.path.endswith(f"/channels/{table.channel.id}/typing")
    ]
    assert typing and all(r.status == 204 for r in typing)


async def test_a_refused_board_post_loses_nothing(fake_discord, bot_process) -> None:
    """Discord refuses the new board both as an answer and as a channel message: the move stays
    saved, the player is told, and the running bot posts the board once Discord takes it; its
    buttons work. If the bot stops before that, its next start posts it."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    first = await open_and_start(table)
    # the roll shown in place: as the answer, then (after a deferred update) as its edit
    fake_discord.fail_next("POST", "/callback", status=400, code=50035, count=1)
    fake_discord.fail_next("PATCH", "/webhooks/", count=1)
    fake_discord.fail_next("POST", f"/channels/{table.channel.id}/messages", count=1)
    mark = fake_discord.marker()
    rec = await fake_discord.click(alice, first, action_ids(first)["roll"])
    await rec.wait_response()
    (notice,) = await rec.wait_followups(1, timeout=10)
    assert notice.ephemeral and "was saved" in notice.content
    _games, moves = await stored_state(bot)
    assert [m[3].split(":")[0] for m in moves] == ["roll", "dice"]
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(action_ids(m)), after=mark, timeout=15
    )
    assert_board(board)
    assert "**Alice**: rolled" in board.content and f"<@{alice.id}>" in board.content
    for _ in range(100):  # the board the roll could not update loses its buttons
        if not action_ids(fake_discord.message(first.id)):
            break
        await asyncio.sleep(0.05)
    assert not action_ids(fake_discord.message(first.id))
    buttons = action_ids(board)
    fake_discord.fail_next("POST", "/callback", status=400, code=50035, count=1)
    fake_discord.fail_next("PATCH", "/webhooks/", count=1)
    fake_discord.fail_next("POST", f"/channels/{table.channel.id}/messages", count=10**6)
    rec = await fake_discord.click(alice, board, buttons[sorted(buttons)[0]])
    await rec.wait_response()
    await rec.wait_followups(1, timeout=10)  # the notice

    mark = fake_discord.marker()
    await bot.kill()
    fake_discord.fake.outages.clear()
    await bot.start()
    board = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(action_ids(m)), after=mark, timeout=15
    )
    assert_board(board)
    buttons = action_ids(board)
    rec = await fake_discord.click(alice, board, buttons[sorted(buttons)[0]])
    await rec.wait_response()
    assert not rec.ephemeral
    bot.assert_no_traceback()


async def posts_count(bot) -> int:
    import sqlite3

    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT COUNT(*) FROM posts").fetchone()[0]
    finally:
        conn.close()


async def until_posted(bot, count: int) -> None:
    """Wait until the bot has finished its work for a step (it records the message last)."""
    for _ in range(200):
        if await posts_count(bot) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the bot never finished the step")


async def test_an_overloaded_bot_drops_clicks_without_applying_them(
    fake_discord, bot_process
) -> None:
    """With room for one interaction at a time, a click that arrives while another is being
    handled is dropped: no answer (Discord would show "interaction failed") and nothing applied."""
    bot = await bot_process(BOARDROOM_MAX_IN_FLIGHT="1")
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    await until_posted(bot, 1)
    gid = rec.original.custom_ids[0].split(":")[1]
    joined = await fake_discord.click(bob, rec.original, f"brl:{gid}:join")
    await joined.wait_response()
    for _ in range(20):  # the Join may still be in flight (its answer is out): then press again
        start = await fake_discord.click(
            alice, fake_discord.message(rec.original.id), f"brl:{gid}:start"
        )
        try:
            await start.wait_response(timeout=1.0)
            break
        except TimeoutError:
            continue
    (first,) = await start.wait_followups(1, timeout=10)
    await until_posted(bot, 2)
    before = await stored_state(bot)
    fake_discord.response_deadline = 1.0
    roll = action_ids(first)["roll"]
    one, two = await asyncio.gather(
        fake_discord.click(alice, copy.deepcopy(first), roll),
        fake_discord.click(bob, copy.deepcopy(first), roll),
    )
    answered = []
    for click in (one, two):
        try:
            await click.wait_response(timeout=2.0)
            answered.append(click)
        except TimeoutError:
            pass
    _games, moves = await stored_state(bot)
    applied = len(moves) - len(before[1])
    if len(answered) == 2:  # handled one after the other: Alice rolled, Bob was refused
        assert applied == 2 and two.ephemeral
    else:  # the second arrival was dropped unanswered and unapplied
        assert len(answered) == 1 and "one dropped" in bot.log_text()
        assert applied == (2 if answered[0] is one else 0)


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


async def test_drawing_processes_end_with_a_killed_bot(fake_discord, bot_process) -> None:
    bot = await bot_process(BOARDROOM_RENDER_PROCESSES="1")
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    await open_and_start(table)  # a board was drawn: the worker is up
    workers = descendants(bot.pid)
    assert workers, "no drawing process was started"
    await bot.kill()
    for _ in range(100):
        alive = {pid for pid in workers if Path(f"/proc/{pid}").exists()}
        if not alive:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"drawing processes outlived the bot: {sorted(alive)}")


async def test_global_commands_sync_only_when_they_change(fake_discord, bot_process) -> None:
    """Without DEV_GUILD_ID the commands go global once; a restart does not sync them again."""
    bot = await bot_process(DEV_GUILD_ID="")
    assert fake_discord.sync_events[-1].guild_id is None
    names = {c["name"] for c in fake_discord.commands()}
    assert names == {"play", "game", "rules", "settings", "away", "mygames", "stats", "leaderboard"}
    syncs = len(fake_discord.sync_events)
    await bot.restart(wait_sync=False)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    await open_and_start(table)  # the restarted bot answers with the commands it synced before
    assert len(fake_discord.sync_events) == syncs


async def test_health_check_follows_the_running_bot(fake_discord, bot_process) -> None:
    """`boardroom health` (the container's HEALTHCHECK) is healthy once the bot is connected."""
    import os
    import sys

    bot = await bot_process()
    env = {**os.environ, "BOARDROOM_DB": str(bot.db_path), "PYTHONPATH": os.getcwd()}
    env.pop("DISCORD_TOKEN", None)

    async def health() -> int:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "health", env=env, cwd=bot.workdir
        )
        return await proc.wait()

    for _ in range(100):  # on_ready comes about two seconds after READY
        if await health() == 0:
            break
        await asyncio.sleep(0.1)
    assert await health() == 0
    heartbeat = bot.db_path.with_name(bot.db_path.name + ".heartbeat")
    heartbeat.write_text("0")  # a beat from long ago: the bot has hung
    assert await health() == 1


async def test_typed_moves_board_reposts_and_leaving(fake_discord, bot_process) -> None:
    """The paths besides buttons: Leave in the lobby, `/game move` with a legal code, and a
    player's `/game board`, which re-posts the board with live controls for the mover."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob", "Carol")
    alice, bob, carol = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    gid = rec.original.custom_ids[0].split(":")[1]
    for user, op in ((bob, "join"), (carol, "join"), (carol, "leave")):
        pressed = await fake_discord.click(
            user, fake_discord.message(rec.original.id), f"brl:{gid}:{op}"
        )
        await pressed.wait_response()
        assert pressed.response_type == 7
    assert f"<@{carol.id}>" not in fake_discord.message(rec.original.id).content
    start = await fake_discord.click(
        alice, fake_discord.message(rec.original.id), f"brl:{gid}:start"
    )
    await start.wait_response()
    (first,) = await start.wait_followups(1, timeout=10)
    assert "Carol" not in first.content

    typed = await fake_discord.slash(
        alice, table.channel, "game", {"action": "roll"}, subcommand="move"
    )
    note = await typed.wait_original_edit(timeout=10)
    assert typed.ephemeral and note.ephemeral  # a step: the first board shows it, in place
    after_roll = fake_discord.message(first.id)
    assert not after_roll.ephemeral and "**Alice**: rolled" in after_roll.content
    assert_board(after_roll)

    look = await fake_discord.slash(bob, table.channel, "game", {}, subcommand="board")
    await look.wait_response()
    (private_look,) = await look.wait_followups(1, timeout=10)
    assert private_look.ephemeral and not action_ids(private_look)
    again = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="board")
    await again.wait_response()
    (reposted,) = await again.wait_followups(1, timeout=10)
    assert reposted.ephemeral and f"<@{alice.id}>" in reposted.content
    assert action_ids(reposted).keys() == action_ids(after_roll).keys()
    move = sorted(c for c in action_ids(reposted) if c.startswith("move:"))[0]
    public_before = len(fake_discord.channel_messages(table.channel))
    clicked = await fake_discord.click(alice, reposted, action_ids(reposted)[move])
    after_move = await board_after_click(fake_discord, clicked, reposted)
    # the turn goes on in the private copy, edited; the public board is not live any more
    assert after_move.id == reposted.id and after_move.ephemeral and not clicked.followups
    assert set(action_ids(after_move)) == {"roll", "stop"}
    await fake_discord.fake.wait_until(lambda: not action_ids(fake_discord.message(first.id)))
    stop = await fake_discord.click(alice, after_move, action_ids(after_move)["stop"])
    passed = await board_after_click(fake_discord, stop, after_move)
    assert not passed.ephemeral and "stopped" in passed.content and f"<@{bob.id}>" in passed.content
    assert not action_ids(fake_discord.message(reposted.id))  # the copy lost its controls
    channel = fake_discord.channel_messages(table.channel)
    assert [m.id for m in channel[public_before:]] == [passed.id]  # one public message a turn


async def test_typed_steps_update_the_board_in_place(fake_discord, bot_process) -> None:
    """`/game move` inside a turn (a roll, then a pairing typed by hand) edits the game's newest
    board, as a click would: no new public message, the command answered privately with a link
    to the board. Typing `stop` ends the turn: one new public message."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    first = await open_and_start(table)
    count = len(public_boards(fake_discord, table.channel))
    link = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{first.id}"

    async def typed(code: str) -> None:
        seen = copy.deepcopy(fake_discord.message(first.id))
        rec = await fake_discord.slash(
            alice, table.channel, "game", {"action": code}, subcommand="move"
        )
        note = await rec.wait_original_edit(timeout=10)
        assert rec.ephemeral and note.ephemeral, rec.data
        assert link in note.content and "now shows your move" in note.content, note.content
        board = fake_discord.message(first.id)  # edited before the note was sent
        assert action_ids(board) and action_ids(board) != action_ids(seen)  # the new version's
        assert [a.id for a in board.attachments] != [a.id for a in seen.attachments]
        assert_board(board)
        assert f"<@{alice.id}>" in board.content  # still Alice's turn
        assert len(public_boards(fake_discord, table.channel)) == count

    await typed("roll")
    rolled = fake_discord.message(first.id)
    assert "**Alice**: rolled" in rolled.content, rolled.content
    pairing = sorted(c for c in action_ids(rolled) if c.startswith("move:"))[0]
    await typed(pairing)
    assert set(action_ids(fake_discord.message(first.id))) == {"roll", "stop"}

    stop = await fake_discord.slash(
        alice, table.channel, "game", {"action": "stop"}, subcommand="move"
    )
    passed = await stop.wait_original_edit(timeout=10)
    assert not stop.ephemeral and not passed.ephemeral and passed.id != first.id
    assert "**Alice**:" in passed.content and "stopped" in passed.content, passed.content
    assert f"<@{bob.id}>" in passed.content
    assert_board(passed)
    assert len(public_boards(fake_discord, table.channel)) == count + 1
    await until_recorded(bot)
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
