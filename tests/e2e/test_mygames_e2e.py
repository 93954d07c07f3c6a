"""``/mygames`` through the real bot process and the fake Discord: games in several channels,
those where it is the reader's turn first, each with its game, channel, whose turn it is, the
time left and a link to its newest board; private, in the reader's language. With running
clocks, ``/away`` stops the reader's and ``/mygames`` shows it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from bot.adapter.away_notes import away_note
from bot.adapter.mygames_command import fit_lines
from engines.registry import get_engine
from i18n import game_title, t
from tests.e2e.helpers import board_after_click, lobby_id
from tests.e2e.test_reminders_e2e import Live
from tests.e2e.test_reminders_e2e import live as live  # the fixture
from tests.fakediscord import FakeChannel, FakeDiscordDriver, FakeUser, StoredMessage


async def start_game(
    driver: FakeDiscordDriver,
    channel: FakeChannel,
    host: FakeUser,
    *others: FakeUser,
    game: str = "cantstop",
) -> StoredMessage:
    """``host`` opens a lobby in ``channel``, the others join, the host starts: the first
    board."""
    rec = await driver.slash(
        host, channel, "play", {"players": 1 + len(others), "clock": "none"}, subcommand=game
    )
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    gid = lobby_id(lobby)
    for user in others:
        joined = await driver.click(user, lobby, f"brl:{gid}:join")
        await joined.wait_response()
        lobby = driver.message(lobby.id)
    start = await driver.click(host, lobby, f"brl:{gid}:start")
    await start.wait_response()
    (board,) = await start.wait_followups(1, timeout=10)
    return board


def mover_in(db_path: Path, channel_id: int, users: list[FakeUser]) -> FakeUser:
    """Who is to move in the channel's running game, read from the bot's database."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        game_id, game, state_json = conn.execute(
            "SELECT id, game, state_json FROM games WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        ).fetchone()
        seats = dict(conn.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,)))
    finally:
        conn.close()
    engine = get_engine(game)
    seat = engine.to_move(engine.decode_state(json.loads(state_json)))
    return next(u for u in users if u.id == seats[seat])


async def recorded(db_path: Path, board: StoredMessage, timeout: float = 5.0) -> None:
    """Wait until the bot has recorded ``board`` as posted (it does so just after Discord took
    the message, so a test that saw the message may be a moment ahead of the record)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + timeout
    while True:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            found = conn.execute("SELECT 1 FROM posts WHERE message_id = ?", (board.id,)).fetchone()
        finally:
            conn.close()
        if found:
            return
        assert loop.time() < ends, f"board {board.id} was never recorded"
        await asyncio.sleep(0.05)


def link(guild_id: int, board: StoredMessage) -> str:
    return f"https://discord.com/channels/{guild_id}/{board.channel_id}/{board.id}"


async def mygames(driver: FakeDiscordDriver, user: FakeUser, channel: Any, locale: str) -> str:
    rec = await driver.slash(user, channel, "mygames", locale=locale)
    await rec.wait_response()
    assert rec.ephemeral and not rec.rejections
    return rec.content or ""


async def test_mygames_across_three_channels(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    guild = bot.guild
    users = []
    for name in ("Alice", "Bob", "Carol", "Dave"):
        user = fake_discord.add_user(name)
        await fake_discord.add_member(guild, user)
        users.append(user)
    alice, bob, carol, dave = users
    one, two, three, four, five = [
        await fake_discord.add_channel(guild, name)
        for name in ("tavern", "library", "garden", "cellar", "hall")
    ]
    # Can't Stop: the host moves first; Kokeshi: a seat chosen by the game's seed
    tavern = await start_game(fake_discord, one, alice, bob)
    library = await start_game(fake_discord, two, bob, alice, carol, game="kokeshi")
    garden = await start_game(fake_discord, three, alice, carol)
    cellar = await start_game(fake_discord, four, bob, carol)  # not Alice's
    lobby = await fake_discord.slash(carol, five, "play", {}, subcommand="cantstop")
    await lobby.wait_response()
    assert lobby.original is not None
    joined = await fake_discord.click(alice, lobby.original, f"brl:{lobby_id(lobby.original)}:join")
    await joined.wait_response()  # a lobby is not a running game
    for board in (tavern, library, garden, cellar):
        await recorded(bot.db_path, board)
    games = [  # board, game, seated, who is to move: oldest game first
        (tavern, "cantstop", [alice, bob], alice),
        (library, "kokeshi", [bob, alice, carol], mover_in(bot.db_path, two.id, users)),
        (garden, "cantstop", [alice, carol], alice),
        (cellar, "cantstop", [bob, carol], bob),
    ]

    def expected(reader: FakeUser, locale: str) -> list[str]:
        def line(board: StoredMessage, game: str, mover: FakeUser) -> str:
            turn = (
                t(locale, "mygames.turn.yours")
                if mover is reader
                else t(locale, "mygames.turn.of", player=mover.name)
            )
            return t(
                locale,
                "mygames.line",
                game=game_title(locale, game),
                channel_id=board.channel_id,
                turn=turn,
                left=t(locale, "mygames.left.no_clock"),
                link=link(guild.id, board),
            )

        mine = [line(b, g, m) for b, g, seated, m in games if reader in seated and m is reader]
        others = [
            line(b, g, m) for b, g, seated, m in games if reader in seated and m is not reader
        ]
        lines = [f"**{t(locale, 'mygames.title')}**"]
        if mine:
            lines += [t(locale, "mygames.heading.yours", count=len(mine)), *mine]
        if others:
            lines += [t(locale, "mygames.heading.others", count=len(others)), *others]
        return lines

    said = await mygames(fake_discord, alice, five, "en-US")  # asked from anywhere on the server
    assert said.splitlines() == expected(alice, "en")
    assert said.splitlines()[2] == t(
        "en",
        "mygames.line",
        game="Can't Stop",
        channel_id=one.id,
        turn="your turn",
        left="no clock",
        link=f"https://discord.com/channels/{guild.id}/{one.id}/{tavern.id}",
    )
    assert await mygames(fake_discord, carol, one, "ja") == "\n".join(expected(carol, "ja"))
    assert await mygames(fake_discord, bob, one, "fr") == "\n".join(expected(bob, "fr"))
    # Alice rolls in #tavern: the link goes to the board that shows it (the same message, edited
    # in place while her turn goes on; a new one once it passed)
    stop = await fake_discord.click(
        alice, tavern, next(c for c in tavern.custom_ids if c.endswith(":roll"))
    )
    rolled = await board_after_click(fake_discord, stop, tavern)
    await recorded(bot.db_path, rolled)
    said = await mygames(fake_discord, alice, one, "en-US")
    assert link(guild.id, rolled) in said
    assert await mygames(fake_discord, dave, one, "de") == t("de", "mygames.none")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


def test_a_long_list_is_cut_to_one_message_and_says_how_many_are_left() -> None:
    lines = [("heading", False)] + [(f"game {n} " + "x" * 90, True) for n in range(60)]
    said = fit_lines("en", ["**title**"], lines)
    assert len(said) <= 2000
    shown = [line for line in said.splitlines() if line.startswith("game ")]
    assert 10 < len(shown) < 60
    assert said.splitlines()[-1] == t("en", "mygames.more", count=60 - len(shown))
    assert fit_lines("en", ["**title**"], lines[:5]) == "\n".join(
        ["**title**", *(x for x, _ in lines[:5])]
    )


async def test_mygames_and_away_with_running_clocks(live: Live) -> None:
    """On a real bot client in this process (``live``, time under the test's control): the time
    left in /mygames, /away stopping the clock of the game where it is the player's turn (and
    only that one), the away line of its turn message, and /away off starting it again."""
    driver, alice, bob = live.driver, live.alice, live.bob
    mine, _, mine_board = await live.game(clock=100)
    channel = await driver.add_channel(live.guild, "second")
    lobby = await live.service.open_lobby(
        guild_id=live.guild.id,
        channel_id=channel.id,
        host_id=bob.id,
        host_name="Bob",
        game="cantstop",
        clock_seconds=300,
    )
    await live.service.join(lobby.id, alice.id, "Alice")
    theirs = (await live.service.start(lobby.id, bob.id)).after
    assert theirs.deadline is not None and mine.deadline is not None

    def line(snap: Any, turn: str, left: str, board_link: str) -> str:
        return t(
            "en",
            "mygames.line",
            game=game_title("en", "cantstop"),
            channel_id=snap.channel_id,
            turn=turn,
            left=left,
            link=board_link,
        )

    runs_out = lambda snap: t("en", "mygames.left.runs_out", when=f"<t:{round(snap.deadline)}:R>")  # noqa: E731
    said = await mygames(driver, alice, channel, "en-US")
    no_board = f"https://discord.com/channels/{live.guild.id}/{channel.id}"  # nothing posted yet
    assert said.splitlines()[2:] == [
        line(mine, t("en", "mygames.turn.yours"), runs_out(mine), live.link(mine_board)),
        t("en", "mygames.heading.others", count=1),
        line(theirs, t("en", "mygames.turn.of", player="Bob"), runs_out(theirs), no_board),
    ]

    rec = await driver.slash(alice, channel, "away", {"duration": "2d"})
    await rec.wait_response()
    until = round(live.now.t + 2 * 86400)
    assert (rec.content or "").splitlines() == [
        t("en", "away.set", until=f"<t:{until}:f> (<t:{until}:R>)"),
        t("en", "away.stopped", count=1),
    ]
    stopped = await live.service.game(mine.id)
    assert stopped.deadline is None and stopped.clock_left == 100
    assert (await live.service.game(theirs.id)).deadline == theirs.deadline  # Bob's clock runs
    said = await mygames(driver, alice, channel, "en-US")
    assert t("en", "mygames.left.away") in said.splitlines()[2]
    note = await away_note(live.client.runtime, stopped)
    assert note == t(
        "en", "away.note.turn", player=f"<@{alice.id}>", until=f"<t:{until}:f> (<t:{until}:R>)"
    )
    assert await away_note(live.client.runtime, theirs) is None  # Bob is to move there
    assert await away_note(live.client.runtime, stopped, "de") == t(
        "de", "away.note.turn", player=f"<@{alice.id}>", until=f"<t:{until}:f> (<t:{until}:R>)"
    )

    live.now.t += 600  # ten minutes later she is back: the clock runs on from where it stopped
    rec = await driver.slash(alice, channel, "away", {"duration": "off"})
    await rec.wait_response()
    assert rec.content == t("en", "away.ended")
    resumed = await live.service.game(mine.id)
    assert resumed.deadline == live.now.t + 100 and resumed.clock_left is None
    assert await away_note(live.client.runtime, resumed) is None
