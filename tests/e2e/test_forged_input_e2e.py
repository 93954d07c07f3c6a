"""Forged controls and options, and moves sent from the wrong place, through the real bot: each
gets the ordinary private refusal within Discord's deadline, changes nothing and logs no
traceback (issue points 4 and 5)."""

from __future__ import annotations

from tests.e2e.helpers import (
    action_ids,
    board_after_click,
    lobby_id,
    open_and_start,
    seat_users,
)
from tests.e2e.reliability import assert_refused, board_messages, stored_state

UNKNOWN = "not one this bot understands"


async def test_forged_custom_ids_and_options_are_refused(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    lobby_rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await lobby_rec.wait_response()
    lobby = lobby_rec.original
    gid = lobby_id(lobby)
    before = stored_state(bot)
    for custom_id in (
        f"brl:{gid}:bot-xyz",  # a level that does not exist (was a KeyError in the catalogue)
        "brl:" + "9" * 30 + ":join",  # was an OverflowError in SQLite
        f"brl:{gid}:join:extra",
        f"brl:0{gid}:join",
    ):
        rec = await fake_discord.forge_component(bob, lobby, custom_id)
        await assert_refused(fake_discord, bot, rec, before, UNKNOWN)

    joined = await fake_discord.click(bob, lobby, f"brl:{gid}:join")
    await joined.wait_response()
    start = await fake_discord.click(alice, fake_discord.message(lobby.id), f"brl:{gid}:start")
    (board,) = await start.wait_followups(1, timeout=10)
    roll = action_ids(board)["roll"]
    version = roll.split(":")[2]
    before = stored_state(bot)

    forged = [
        ("br:9223372036854775808:1:roll", 2, None),
        (f"br:{gid}:9223372036854775808:roll", 2, None),
        (f"br:{gid}:{version}:ROLL", 2, None),
        (f"br:{gid}:{version}:roll\n", 2, None),
        (f"br:\u0661:{version}:roll", 2, None),
        (roll, 3, ["roll"]),  # a button's id on a select
        (f"brs:{gid}:{version}:0", 2, None),  # a select's id on a button
        (f"brs:{gid}:{version}:99", 3, ["roll"]),
        (f"brs:{gid}:{version}:0", 3, [5]),  # a chosen value that is no text
        (f"brs:{gid}:{version}:0", 3, ["roll", "stop"]),
        (f"brs:{gid}:{version}:0", 3, ["x" * 200]),
        (f"brs:{gid}:{version}:0", 3, []),
        ("br:" + "1" * 98, 2, None),
    ]
    for custom_id, kind, values in forged:
        rec = await fake_discord.forge_component(
            alice, board, custom_id, component_type=kind, values=values
        )
        await assert_refused(fake_discord, bot, rec, before, UNKNOWN)

    # options of the slash commands, as a modified client could send them
    for options, words in (
        ({"action": 5}, "not a move this game understands"),  # was an AttributeError
        ({"action": True}, "not a move this game understands"),
        ({"action": "x" * 300}, "not a move this game understands"),
        ({"action": "\x00roll"}, "not a move this game understands"),
    ):
        rec = await fake_discord.slash(alice, table.channel, "game", options, subcommand="move")
        await assert_refused(fake_discord, bot, rec, before, words)
    rec = await fake_discord.slash(alice, table.channel, "rules", {"game": "chess"})
    await assert_refused(fake_discord, bot, rec, before, "isn't one this command accepts")
    other = await fake_discord.add_channel(bot.guild, "elsewhere")
    for options, words in (
        ({"players": "four"}, "isn't valid"),
        ({"players": 99}, "isn't valid"),
        ({"players": True}, "isn't valid"),
    ):
        rec = await fake_discord.slash(alice, other, "play", options, subcommand="cantstop")
        await assert_refused(fake_discord, bot, rec, before, words)
    rec = await fake_discord.slash(alice, other, "play", {"side": "Z"}, subcommand="harmonies")
    await assert_refused(fake_discord, bot, rec, before, "isn't one this command accepts")

    # after all that, the real button still works
    rec = await fake_discord.click(alice, board, roll)
    rolled = await board_after_click(fake_discord, rec, board)
    assert not rec.ephemeral and "**Alice**: rolled" in rolled.content
    bot.assert_no_traceback()
    assert not fake_discord.late_answers()


async def test_a_move_counts_only_from_the_games_channel(fake_discord, bot_process) -> None:
    """The player to move sends the current button from another channel, another guild and a
    DM: refused privately with a pointer to the game's channel, nothing applied, nothing posted
    there. From a thread of the game's channel the move counts."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, _ = table.users
    board = await open_and_start(table)
    roll = action_ids(board)["roll"]
    before = stored_state(bot)
    other_channel = await fake_discord.add_channel(bot.guild, "elsewhere")
    other_guild = await fake_discord.add_guild("Another server")
    await fake_discord.add_member(other_guild, alice)
    foreign = await fake_discord.add_channel(other_guild, "games")
    direct = await fake_discord.dm_channel(alice)
    mark = fake_discord.marker()
    for place in (other_channel, foreign, direct):
        rec = await fake_discord.forge_component(alice, board, roll, channel=place)
        await assert_refused(
            fake_discord, bot, rec, before, f"This game is played in <#{table.channel.id}>"
        )
        assert not rec.followups and not board_messages(fake_discord, place, mark)
    slash = await fake_discord.slash(
        alice, other_channel, "game", {"action": "roll"}, subcommand="move"
    )
    await assert_refused(fake_discord, bot, slash, before, "no game or lobby in this channel")

    thread = await fake_discord.add_thread(table.channel, "chat about it")
    rec = await fake_discord.forge_component(alice, board, roll, channel=thread)
    await rec.wait_response()
    assert not rec.ephemeral and rec.updated_in_place  # the roll is shown on the board clicked
    rolled = await rec.wait_original_edit(timeout=10)
    assert "**Alice**: rolled" in rolled.content
    _games, _seats, moves = stored_state(bot)
    assert len(moves) == len(before[2]) + 2  # the roll and its dice
    bot.assert_no_traceback()
