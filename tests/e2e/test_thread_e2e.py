"""A game in its own thread: ``/play <game> thread: on`` says in the channel that the table opens
in a thread, opens a public thread named after the game from that message, and the lobby, every
turn and the result go there (the thread is the game's channel); the thread is archived when the
game ends (won, abandoned, or cancelled as a lobby), and the channel hosts another game
meanwhile."""

from __future__ import annotations

from tests.e2e.helpers import assert_board, lobby_id, seat_users
from tests.e2e.reliability import until
from tests.e2e.test_fourth_game_e2e import NIM, offered
from tests.fakediscord import FakeChannel, FakeDiscordDriver, FakeUser, StoredMessage


async def open_in_thread(
    driver: FakeDiscordDriver, channel: FakeChannel, host: FakeUser, game: str, **options
) -> tuple[FakeChannel, StoredMessage]:
    """/play in a thread: the channel's note, the thread started from it, its lobby message."""
    before = {t.id for t in driver.threads_of(channel)}
    rec = await driver.slash(host, channel, "play", {**options, "thread": True}, subcommand=game)
    await rec.wait_response()
    note = rec.original
    assert note is not None and not rec.ephemeral
    assert "the table is open in the thread below" in note.content and not note.custom_ids
    await until(lambda: len(driver.threads_of(channel)) > len(before), what="the thread")
    (thread,) = [t for t in driver.threads_of(channel) if t.id not in before]
    assert thread.id == note.id and thread.type == 11 and thread.parent_id == channel.id
    lobby = await driver.wait_for_channel_message(
        thread, lambda m: any(c.startswith("brl:") for c in m.custom_ids), after=0
    )
    return thread, lobby


async def start(
    driver: FakeDiscordDriver, lobby: StoredMessage, host: FakeUser, *others: FakeUser
) -> StoredMessage:
    gid = lobby_id(lobby)
    for user in others:
        joined = await driver.click(user, lobby, f"brl:{gid}:join")  # from inside the thread
        await joined.wait_response()
        assert joined.response_type == 7, joined.content
        lobby = driver.message(lobby.id)
    started = await driver.click(host, lobby, f"brl:{gid}:start")
    await started.wait_response()
    (turn,) = await started.wait_followups(1, timeout=10)
    return turn


async def test_a_game_played_in_its_own_thread_is_archived_when_it_ends(
    fake_discord, bot_process
) -> None:
    bot = await bot_process(**NIM)
    play = next(c for c in fake_discord.commands(bot.guild) if c["name"] == "play")
    nim = next(o for o in play["options"] if o["name"] == "nim")
    assert "thread" in {o["name"] for o in nim["options"]}
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    thread, lobby = await open_in_thread(fake_discord, table.channel, alice, "nim", heaps="1-3-5-7")
    assert thread.name.startswith("Nim") and "Alice" in thread.name

    # the channel itself still takes a game of its own meanwhile
    other = await fake_discord.slash(bob, table.channel, "play", {}, subcommand="cantstop")
    await other.wait_response()
    assert not other.ephemeral and other.original is not None and other.original.custom_ids

    turn = await start(fake_discord, lobby, alice, bob)
    moves = 0
    while controls := offered(turn):
        assert_board(turn)
        assert turn.channel_id == thread.id
        mover = alice if f"<@{alice.id}>" in turn.content.splitlines()[-1] else bob
        code = max(controls, key=lambda c: int(c.split(":")[2]))  # greedy: empty a heap
        custom_id, from_menu = controls[code]
        rec = await (
            fake_discord.select(mover, turn, custom_id, [code])
            if from_menu
            else fake_discord.click(mover, turn, custom_id)
        )
        await rec.wait_response()
        (turn,) = await rec.wait_followups(1, timeout=10)
        moves += 1
        assert moves < 20
    assert "Congratulations" in turn.content and turn.channel_id == thread.id
    await until(lambda: thread.archived, what="the thread archived")
    assert not table.channel.archived
    # nothing of the thread's game was said in the channel but the note the thread starts from
    parent = [m for m in fake_discord.channel_messages(table.channel) if m.id != thread.id]
    assert all("Nim" not in m.content for m in parent)
    assert all(m.channel_id == table.channel.id for m in parent)
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def test_an_abandoned_thread_game_is_archived_and_inputs_count_only_there(
    fake_discord, bot_process
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    thread, lobby = await open_in_thread(fake_discord, table.channel, alice, "cantstop")
    turn = await start(fake_discord, lobby, alice, bob)
    assert turn.channel_id == thread.id and "roll" in turn.content.lower()

    # the game is not the channel's: /game board there finds nothing, in the thread it answers
    outside = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="board")
    await outside.wait_response()
    assert outside.ephemeral and "no game or lobby in this channel" in outside.content
    inside = await fake_discord.slash(alice, thread, "game", {}, subcommand="board")
    await inside.wait_response()
    assert "no game" not in (inside.content or "")

    abandon = await fake_discord.slash(alice, thread, "game", {}, subcommand="abandon")
    await abandon.wait_response()
    assert not abandon.ephemeral and "abandon" in abandon.content.lower()
    await until(lambda: thread.archived, what="the thread archived")

    # a table cancelled before it starts leaves no open thread behind either
    second, lobby = await open_in_thread(fake_discord, table.channel, bob, "kokeshi")
    assert second.id != thread.id and not second.archived
    cancel = await fake_discord.click(bob, lobby, f"brl:{lobby_id(lobby)}:cancel")
    await cancel.wait_response()
    await until(lambda: second.archived, what="the cancelled table's thread archived")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
