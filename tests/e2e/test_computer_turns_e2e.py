"""A computer's turn never waits for ever behind a board Discord refused (issue 28), through the
real bot process and the fake Discord.

Each story refuses the channel post of a computer's board (500 five times: discord.py retries for
25 s and gives up; a 429; a refusal for longer than the backoff's cap), and the person looks at
the position privately (``/game board``) or plays on meanwhile; one kills the bot during the
retry. Afterwards the computer plays on, every board reaches the channel (or a newer one does),
each computer turn is played once, and the game is played to its end.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service.models import LoggedMove
from bot.service.turns import split_turns
from engines.registry import get_engine
from tests.e2e.conftest import BotProcess
from tests.e2e.helpers import Table, action_ids, board_after_click, lobby_id, seat_users
from tests.e2e.quick_retries_bot import WAITS_ENV
from tests.e2e.reliability import until
from tests.e2e.test_turn_clock_e2e import votes_on
from tests.fakediscord import FakeDiscordDriver, FakeUser, StoredMessage

SERVER_ERROR = {"status": 500, "code": 0}  # discord.py tries 5 times in 25 s, then gives up
#: discord.py's own waits between its five tries at 0.4 times their length: 10 s instead of
#: 25 s, still long enough for the person to play a whole turn while the board is retried
QUICK_RETRIES = {WAITS_ENV: "0.4"}
#: the runner's first post gives up after those retries; then the computer must play within seconds
STALL = 45.0


@dataclass(frozen=True)
class Stored:
    """The game as its database row says."""

    status: str
    version: int
    mover: int | None  # the seat to move (None: nobody)
    computers: frozenset[int]  # seats a computer plays now (bot seats and stand-ins)


def rows(bot: BotProcess, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def stored(bot: BotProcess, gid: int) -> Stored:
    ((game, status, version, state_json),) = rows(
        bot, "SELECT game, status, version, state_json FROM games WHERE id = ?", gid
    )
    seats = rows(bot, "SELECT seat, bot_level, stand_in FROM seats WHERE game_id = ?", gid)
    mover = None
    if status == "active":
        engine = get_engine(game)
        seat = engine.to_move(engine.decode_state(json.loads(state_json)))
        mover = seat if seat >= 0 else None
    computers = frozenset(seat for seat, level, stand_in in seats if level or stand_in)
    return Stored(status, version, mover, computers)


def public_versions(bot: BotProcess, gid: int) -> list[int]:
    """The versions the channel's messages show, oldest first."""
    found = rows(
        bot, "SELECT version FROM posts WHERE game_id = ? AND public = 1 ORDER BY version", gid
    )
    return [version for (version,) in found]


def newest_public(bot: BotProcess, gid: int) -> int:
    return (public_versions(bot, gid) or [-1])[-1]


async def in_the_channel(bot: BotProcess, gid: int, version: int, timeout: float) -> None:
    """Wait until a channel message shows ``version`` (or a newer one)."""
    await until(lambda: newest_public(bot, gid) >= version, timeout, f"v{version} in the channel")


def board_of(driver: FakeDiscordDriver, table: Table, gid: int, version: int) -> StoredMessage:
    """The channel message whose buttons are those of the game at ``version``."""
    prefix = f"br:{gid}:{version}:"
    for message in reversed(driver.channel_messages(table.channel)):
        if not message.ephemeral and any(c.startswith(prefix) for c in message.custom_ids):
            return message
    raise LookupError(version)


async def channel_board(
    driver: FakeDiscordDriver, table: Table, gid: int, version: int, timeout: float = 20.0
) -> StoredMessage:
    def there() -> bool:
        try:
            board_of(driver, table, gid, version)
        except LookupError:
            return False
        return True

    await until(there, timeout, f"the board of version {version} in the channel")
    return board_of(driver, table, gid, version)


async def moved(bot: BotProcess, gid: int, version: int, timeout: float, what: str) -> Stored:
    """Wait until the game is past ``version``."""
    await until(lambda: stored(bot, gid).version > version, timeout, what)
    return stored(bot, gid)


def choice(buttons: dict[str, str]) -> str:
    """A short, safe turn: stop as soon as it is offered, else the first choice."""
    return "stop" if "stop" in buttons else sorted(buttons)[0]


async def play_until(
    driver: FakeDiscordDriver,
    bot: BotProcess,
    table: Table,
    gid: int,
    people: dict[int, FakeUser],
    *,
    until_stop: bool = False,
) -> StoredMessage | None:
    """Play the people's turns through the channel's boards, the computers playing theirs, until
    the game ends (None) or, with ``until_stop``, until a person's board offers Stop (returned).
    Every board a person acts on is the one of the game's newest version, in the channel."""
    for _ in range(600):
        now = stored(bot, gid)
        if now.status != "active":
            await in_the_channel(bot, gid, now.version, 20)
            return None
        if now.mover in now.computers:
            await moved(bot, gid, now.version, STALL, f"the computer to play at v{now.version}")
            continue
        assert now.mover is not None
        board = await channel_board(driver, table, gid, now.version)
        buttons = action_ids(board)
        if until_stop and "stop" in buttons:
            return board
        rec = await driver.click(people[now.mover], board, buttons[choice(buttons)])
        await rec.wait_response()
        await moved(bot, gid, now.version, 15, "the click to be applied")
    raise AssertionError("the game did not end")


def assert_played_once_each(bot: BotProcess, gid: int) -> None:
    """The move log is one turn per seat in seat order (no turn lost or played twice), the
    channel's last message shows the final version, and no version was posted twice."""
    ((game, options, version),) = rows(
        bot, "SELECT game, options_json, version FROM games WHERE id = ?", gid
    )
    seats = len(rows(bot, "SELECT seat FROM seats WHERE game_id = ?", gid))
    moves = [
        LoggedMove(seq, seat, action)
        for seq, seat, action in rows(
            bot, "SELECT seq, seat, action FROM moves WHERE game_id = ? ORDER BY seq", gid
        )
    ]
    movers = [t.mover for t in split_turns(game, seats, json.loads(options), moves)]
    movers = [m for m in movers if m is not None]
    assert all(b == (a + 1) % seats for a, b in itertools.pairwise(movers)), movers
    versions = public_versions(bot, gid)
    assert versions[-1] == version
    doubled = [v for v in set(versions) if versions.count(v) > 1]
    assert not doubled, f"versions posted twice: {doubled}"


async def open_table(driver: FakeDiscordDriver, table: Table, *levels: str, **options: str) -> int:
    """A Can't Stop game of the table's people (the first hosts, the others join) and computer
    opponents (``levels``), started; returns its id."""
    host = table.users[0]
    rec = await driver.slash(host, table.channel, "play", options, subcommand="cantstop")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    gid = lobby_id(lobby)
    for user in table.users[1:]:
        joined = await driver.click(user, driver.message(lobby.id), f"brl:{gid}:join")
        await joined.wait_response()
    for level in levels:
        add = await driver.click(host, driver.message(lobby.id), f"brl:{gid}:bot-{level}")
        await add.wait_response()
    start = await driver.click(host, driver.message(lobby.id), f"brl:{gid}:start")
    await start.wait_followups(1, timeout=10)
    return gid


async def against_computers(
    driver: FakeDiscordDriver, bot: BotProcess, *levels: str
) -> tuple[Table, int, dict[int, FakeUser]]:
    """Solo against computer opponents, started."""
    table = await seat_users(driver, bot.guild, "Solo")
    gid = await open_table(driver, table, *levels)
    return table, gid, {0: table.users[0]}


def refuse_posts(driver: FakeDiscordDriver, table: Table, count: int, **failure: int) -> Any:
    return driver.fail_next(
        "POST", f"/channels/{table.channel.id}/messages", count=count, **failure
    )


async def hand_over(
    driver: FakeDiscordDriver, bot: BotProcess, table: Table, gid: int, person: FakeUser
) -> int:
    """The person plays until Stop is offered, then stops: the turn goes to a computer. Returns
    the version the computer is to move at."""
    board = await play_until(driver, bot, table, gid, {0: person}, until_stop=True)
    assert board is not None
    before = stored(bot, gid).version
    rec = await driver.click(person, board, action_ids(board)["stop"])
    await rec.wait_response()
    return before + 1


async def look(driver: FakeDiscordDriver, table: Table, person: FakeUser) -> StoredMessage:
    """``/game board``: the person to move gets a private copy with their controls."""
    rec = await driver.slash(person, table.channel, "game", {}, subcommand="board")
    await rec.wait_response()
    (copy,) = await rec.wait_followups(1, timeout=10)
    assert copy.ephemeral and action_ids(copy)
    return copy


async def play_a_turn_from(
    driver: FakeDiscordDriver,
    bot: BotProcess,
    table: Table,
    gid: int,
    person: FakeUser,
    private: StoredMessage,
) -> None:
    """A whole turn played on the private copy: Roll there, then moves and Stop on the same
    copy, edited step by step (or a bust ends it); the turn's end goes to the channel."""
    version = stored(bot, gid).version
    rec = await driver.click(person, private, action_ids(private)["roll"])
    now = await moved(bot, gid, version, 15, "the roll")
    while now.mover not in now.computers and now.status == "active":
        board = await board_after_click(driver, rec, private)
        assert board.id == private.id  # the copy, edited
        buttons = action_ids(board)
        rec = await driver.click(person, board, buttons[choice(buttons)])
        now = await moved(bot, gid, now.version, 15, "the step")
    await rec.wait_response()


async def type_a_turn(
    driver: FakeDiscordDriver, bot: BotProcess, table: Table, gid: int, person: FakeUser
) -> None:
    """A whole turn typed as ``/game move``: roll, one move, stop (or a bust ends it)."""
    now, action = stored(bot, gid), "roll"
    while True:
        rec = await driver.slash(
            person, table.channel, "game", {"action": action}, subcommand="move"
        )
        await rec.wait_response()
        now = await moved(bot, gid, now.version, 15, f"/game move {action}")
        if now.mover in now.computers or now.status != "active":
            return
        action = choice(action_ids(await channel_board(driver, table, gid, now.version)))


async def computer_board_refused(driver, bot, table, gid, failure: dict[str, int], count: int):
    """Solo stops; the computer plays its turn and its board's channel post is refused."""
    solo = table.users[0]
    computer_from = await hand_over(driver, bot, table, gid, solo)
    outage = refuse_posts(driver, table, count, **failure)
    await until(lambda: outage.failed >= 1, 20, "the computer's board to be refused")
    after = stored(bot, gid)
    assert after.version > computer_from and after.mover == 0  # its turn is committed
    return outage, after.version


@pytest.mark.parametrize("way", ["board", "move"])
async def test_the_computer_plays_on_after_its_refused_board_while_the_person_played(
    fake_discord, bot_process, way: str
) -> None:
    """Issue 28, first story: the computer's board is refused 5 times (discord.py's own
    retries, 25 s in production) while the person gets the position by ``/game board`` (or types ``/game move``)
    and plays a whole turn. The computer then plays its next turn, and the game goes on."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0", **QUICK_RETRIES)
    table, gid, people = await against_computers(fake_discord, bot, "easy")
    solo = people[0]
    outage, _ = await computer_board_refused(fake_discord, bot, table, gid, SERVER_ERROR, 5)
    if way == "board":
        copy = await look(fake_discord, table, solo)
        await play_a_turn_from(fake_discord, bot, table, gid, solo, copy)
    else:
        await type_a_turn(fake_discord, bot, table, gid, solo)
    handed = stored(bot, gid)
    assert handed.mover in handed.computers and outage.failed < 5  # still inside the retries
    await moved(bot, gid, handed.version, STALL, "the computer to play its next turn")
    await play_until(fake_discord, bot, table, gid, people)
    assert outage.failed == 5
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_a_refused_computer_board_reaches_the_channel_after_a_private_look(
    fake_discord, bot_process
) -> None:
    """Issue 28, second story: during the retries of the computer's board the person asks for
    ``/game board`` and then does nothing. The private copy does not count as the channel
    having seen it: the board reaches the channel."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0", **QUICK_RETRIES)
    table, gid, people = await against_computers(fake_discord, bot, "easy")
    outage, version = await computer_board_refused(fake_discord, bot, table, gid, SERVER_ERROR, 5)
    await look(fake_discord, table, people[0])
    await channel_board(fake_discord, table, gid, version, timeout=STALL)
    assert outage.failed == 5
    await play_until(fake_discord, bot, table, gid, people)
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_a_computer_board_refused_with_429s(fake_discord, bot_process) -> None:
    """A 429 that discord.py does not retry itself (no ``Via`` header: it takes it for a
    Cloudflare ban) reaches the bot's own backoff: the private look meanwhile changes nothing,
    the board reaches the channel."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0")
    table, gid, people = await against_computers(fake_discord, bot, "easy")
    limited = {"status": 429, "code": 0}
    outage, version = await computer_board_refused(fake_discord, bot, table, gid, limited, 2)
    await look(fake_discord, table, people[0])
    await channel_board(fake_discord, table, gid, version, timeout=20)
    assert outage.failed == 2
    await play_until(fake_discord, bot, table, gid, people)
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_a_refusal_longer_than_the_backoffs_cap_then_recovery(
    fake_discord, bot_process
) -> None:
    """The channel refuses every post (Missing Permissions) for longer than the backoff's cap
    (shortened to 3 s here): the retries go on at the cap, a private look meanwhile does not
    stop them, and once the channel takes posts again the board is in within one cap."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0", BOARDROOM_TEST_RETRY_SCALE="0.01")
    table, gid, people = await against_computers(fake_discord, bot, "easy")
    refused = {"status": 403, "code": 50013}
    outage, version = await computer_board_refused(fake_discord, bot, table, gid, refused, 10**6)
    await look(fake_discord, table, people[0])
    # nine delays up to the cap take 2.4 s (×1.2 at most), then one try every 3 s
    await until(lambda: outage.failed >= 12, 30, "the retries to go on past the cap")
    assert newest_public(bot, gid) < version
    outage.remaining = 0
    await channel_board(fake_discord, table, gid, version, timeout=10)
    await play_until(fake_discord, bot, table, gid, people)
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_a_stand_in_plays_on_after_its_refused_board(fake_discord, bot_process) -> None:
    """Alice lets her clock run out and the table votes "A bot plays this turn"; the stand-in's
    board is refused 5 times while Bob plays his turn from ``/game board``. Then the computer
    opponent after Bob plays, Alice has her seat back, and the game is played to its end."""
    bot = await bot_process(
        BOARDROOM_BOT_PAUSE="1", BOARDROOM_TEST_HOUR_SECONDS="8", **QUICK_RETRIES
    )
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    for user in (alice, bob):  # reminders would be channel posts too
        off = await fake_discord.slash(
            user, table.channel, "settings", {"how": "off"}, subcommand="reminders"
        )
        await off.wait_response()
    gid = await open_table(fake_discord, table, "easy", clock="1h")
    assert stored(bot, gid).mover == 0  # Alice's turn: she says nothing
    vote = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: bool(votes_on(m)), timeout=20
    )
    mark = fake_discord.marker()
    ballot = await fake_discord.click(bob, vote, votes_on(vote)["bot_turn"])
    await ballot.wait_response()
    await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "A bot plays this turn for Alice" in m.content, after=mark
    )
    outage = refuse_posts(fake_discord, table, 5, **SERVER_ERROR)  # the stand-in's board
    await until(lambda: outage.failed >= 1, 20, "the stand-in's board to be refused")
    assert stored(bot, gid).mover == 1
    copy = await look(fake_discord, table, bob)
    await play_a_turn_from(fake_discord, bot, table, gid, bob, copy)
    handed = stored(bot, gid)
    assert handed.mover == 2 and outage.failed < 5  # the computer opponent's turn
    await moved(bot, gid, handed.version, STALL, "the computer opponent to play")
    await play_until(fake_discord, bot, table, gid, {0: alice, 1: bob})
    assert rows(bot, "SELECT stand_in, stood_in FROM seats WHERE user_id = ?", alice.id) == [
        (None, 1)
    ]
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_two_computers_in_a_row_play_on_after_a_refused_board(
    fake_discord, bot_process
) -> None:
    """Two computer opponents: the second one's board is refused 5 times while the person plays
    a whole turn from ``/game board``; both computers then play their next turns."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="1", **QUICK_RETRIES)
    table, gid, people = await against_computers(fake_discord, bot, "easy", "easy")
    solo = people[0]
    await hand_over(fake_discord, bot, table, gid, solo)

    def second_to_move() -> bool:  # the first computer's board is in, the second one thinks
        now = stored(bot, gid)
        return now.mover == 2 and newest_public(bot, gid) == now.version

    await until(second_to_move, 20, "the second computer's turn")
    outage = refuse_posts(fake_discord, table, 5, **SERVER_ERROR)
    await until(lambda: outage.failed >= 1, 20, "the second computer's board to be refused")
    assert stored(bot, gid).mover == 0
    copy = await look(fake_discord, table, solo)
    await play_a_turn_from(fake_discord, bot, table, gid, solo, copy)
    handed = stored(bot, gid)
    assert handed.mover == 1 and outage.failed < 5
    after_first = await moved(bot, gid, handed.version, STALL, "the first computer to play")
    await moved(bot, gid, after_first.version, 20, "the second computer to play")
    await play_until(fake_discord, bot, table, gid, people)
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()


async def test_a_kill_during_the_retry_loses_no_board(fake_discord, bot_process) -> None:
    """SIGKILL while the computer's board is being retried, after the person looked at it
    privately: after the restart the board reaches the channel, and the game goes on."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0", **QUICK_RETRIES)
    table, gid, people = await against_computers(fake_discord, bot, "easy")
    outage, version = await computer_board_refused(
        fake_discord, bot, table, gid, SERVER_ERROR, 10**6
    )
    await look(fake_discord, table, people[0])
    # discord.py's next tries come 0.4 s and 1.6 s after the first: the copy is long recorded
    # (where private copies are recorded at all) when the process dies
    await until(lambda: outage.failed >= 3, 20, "the retries of the computer's board")
    await bot.kill()
    outage.remaining = 0
    await bot.start()
    await channel_board(fake_discord, table, gid, version, timeout=20)
    await play_until(fake_discord, bot, table, gid, people)
    assert_played_once_each(bot, gid)
    bot.assert_no_traceback()
