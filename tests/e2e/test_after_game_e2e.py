"""After the last move, through the real bot process and the fake Discord, for every game:
the seed kept out of every message, attachment and log line while the game runs and revealed
by the final message; Rematch (same seats rotated, wrong clicks private); /game history, the
paged /game log (the record) and /game board of the finished game; /game export checked by boardroom verify."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.service import fairness
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from i18n import game_title, t
from tests.e2e.helpers import (
    action_ids,
    assert_board,
    board_after_click,
    lobby_id,
    open_and_start,
    seat_users,
)
from tests.e2e.test_languages_e2e import choose, offered, press, stored
from tests.e2e.test_turn_clock_e2e import rows
from tests.fakediscord import FakeDiscordDriver, StoredMessage
from tests.test_cli import boardroom

MAX_ACTIONS = 1500
PNG = b"\x89PNG"


def everything_sent(driver: FakeDiscordDriver) -> list[tuple[str, str]]:
    """(where, text) for every text the bot gave the fake: message contents, embeds, buttons,
    alt texts, text attachments (every message, public or private, as last edited) and the
    bodies of every interaction response."""
    found = []
    for message in driver.fake.messages.values():
        where = f"message {message.id}"
        found.append((where, message.content))
        found.append((where, json.dumps(message.embeds) + json.dumps(message.components)))
        for attachment in message.attachments:
            found.append((where, attachment.description or ""))
            if not attachment.data.startswith(PNG):
                found.append((where, attachment.data.decode("utf-8", "replace")))
    for rec in driver.interactions:
        found.append((f"interaction {rec.id}", json.dumps(rec.data or {})))
    return found


def assert_secret(driver: FakeDiscordDriver, bot: Any, seeds: list[int]) -> None:
    """No seed of a running game in anything sent, nor in the bot's log."""
    texts = everything_sent(driver)
    for seed in seeds:
        assert not [w for w, text in texts if str(seed) in text], seed
        assert str(seed) not in bot.log_text()


def running_seeds(db_path: Path) -> list[int]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT seed FROM games WHERE status = 'active'")]
    finally:
        conn.close()


def seat_order(db_path: Path, game_id: int) -> list[tuple[int | None, str, str | None]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT user_id, display_name, bot_level FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
    finally:
        conn.close()


def posted(db_path: Path, game_id: int) -> bool:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT 1 FROM posts WHERE game_id = ?", (game_id,)).fetchone()
        return row is not None
    finally:
        conn.close()


async def play_to_the_end(
    driver: FakeDiscordDriver, bot: Any, game: str, users: list[Any], message: StoredMessage
) -> StoredMessage:
    """Click through the controls the bot sent until the game ends, checking every few
    actions that the seed is nowhere; returns the final public message."""
    engine = get_engine(game)
    rnd = random.Random(11)
    for step in range(MAX_ACTIONS):
        state, seats = stored(bot.db_path, game)
        mover_seat = engine.to_move(state)
        if mover_seat == TERMINAL:
            assert not message.ephemeral
            return message
        assert mover_seat != CHANCE
        if step % 10 == 0:
            assert_secret(driver, bot, running_seeds(bot.db_path))
        mover = next(u for u in users if u.id == seats[mover_seat])
        rec = await press(driver, mover, message, choose(game, list(offered(message)), rnd), "en")
        message = await board_after_click(driver, rec, message, timeout=15)  # in place, or new
        assert not rec.rejections, rec.rejections
    raise AssertionError("the game did not end")


def custom_ids_of(message: StoredMessage, prefix: str) -> list[str]:
    return [c for c in message.custom_ids if c.startswith(prefix)]


@pytest.mark.parametrize("game", ["cantstop", "harmonies", "kokeshi"])
async def test_after_the_last_move(fake_discord, bot_process, tmp_path: Path, game: str) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob", "Eve")
    alice, bob, eve = table.users
    table.users = [alice, bob]
    first = await open_and_start(table, game)
    (seed,) = running_seeds(bot.db_path)
    game_id = int(re.search(r"br[s]?:(\d+):", " ".join(first.custom_ids))[1])  # type: ignore[index]
    # the first message commits to the seed: all 64 hex digits of its SHA-256
    assert fairness.commitment(game, game_id, seed) in first.content

    final = await play_to_the_end(fake_discord, bot, game, [alice, bob], first)
    assert "Congratulations" in final.content
    assert_board(final)
    # the seed, kept out of everything while the game ran, is in the final message only
    holders = [w for w, text in everything_sent(fake_discord) if str(seed) in text]
    assert set(holders) == {f"message {final.id}"}, holders
    assert f"`{seed}`" in final.content
    assert str(seed) not in bot.log_text()
    (rematch,) = custom_ids_of(final, "brr:")

    # Rematch: someone who did not play is told privately; nothing opens
    watcher = await fake_discord.click(eve, final, rematch)
    await watcher.wait_response()
    assert watcher.ephemeral and "Only the players of this game" in (watcher.content or "")
    assert fake_discord.latest_message(table.channel).id == final.id  # nothing opened
    opened = await fake_discord.click(bob, final, rematch)
    await opened.wait_response()
    lobby = opened.original
    assert lobby is not None and not opened.ephemeral, opened.data
    new_id = lobby_id(lobby)
    assert f"<@{bob.id}> asks for a rematch" in lobby.content
    # every other human who played is mentioned and asked; only the one who asked is seated
    assert f"<@{alice.id}>: press Join to play again." in lobby.content
    assert seat_order(bot.db_path, new_id) == [(bob.id, "Bob", None)]
    # a second press once the lobby's message is known (a press before it gets no link)
    for _ in range(200):
        if posted(bot.db_path, new_id):
            break
        await asyncio.sleep(0.05)
    twice = await fake_discord.click(alice, final, rematch)
    await twice.wait_response()
    link = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{lobby.id}"
    assert twice.ephemeral and "already been opened" in (twice.content or "")
    assert link in (twice.content or "")

    # /game history: the finished game, its date, scores, winner and a jump link
    listed = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="history")
    await listed.wait_response()
    said = listed.content or ""
    jump = f"https://discord.com/channels/{bot.guild.id}/{table.channel.id}/{final.id}"
    assert listed.ephemeral and f"`#{game_id}`" in said and "<t:" in said and jump in said
    assert "Won by" in said
    mine = await fake_discord.slash(
        eve, table.channel, "game", {"user": str(eve.id)}, subcommand="history"
    )
    await mine.wait_response()
    assert mine.ephemeral and "has not finished a game" in (mine.content or "")

    # /game log of the finished game, by its id: the record from turn 1, Last jumps to the end
    log = await fake_discord.slash(
        eve, table.channel, "game", {"game_id": game_id}, subcommand="log"
    )
    await log.wait_response()
    page = log.original
    assert log.ephemeral and page is not None
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    moves = conn.execute(
        "SELECT seq, seat, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    conn.close()
    assert page.content.startswith(f"**{game_title('en', game)} #{game_id} — game record**")
    assert "\n1. Alice: " in page.content or "\n1. Bob: " in page.content, page.content
    shown = re.search(r"Turns 1 to (\d+) of (\d+)", page.content)
    assert shown and int(shown[2]) < len(moves), page.content  # a line a turn, not a move
    last = next(c for c in page.custom_ids if c.endswith(":last"))
    ahead = await fake_discord.click(eve, page, last)
    await ahead.wait_response()
    assert ahead.response_type == 7, ahead.data
    turned = fake_discord.message(page.id)
    assert f"\n{shown[2]}. " in turned.content and "🏆 Final scores: " in turned.content
    # old or forged page buttons: privately refused
    for forged, expected in ((f"brp:{game_id}:9999", "not there any more"),
                             ("brp:987654:0", "no such game in this server")):
        rec = await fake_discord.forge_component(eve, turned, forged)
        await rec.wait_response()
        assert rec.ephemeral and expected in (rec.content or ""), rec.content

    # /game board of the finished game, and of an id that is not this server's
    board = await fake_discord.slash(
        eve, table.channel, "game", {"game_id": game_id}, subcommand="board"
    )
    await board.wait_response()
    (look,) = await board.wait_followups(1)
    assert look.ephemeral and "This game has ended" in look.content
    assert_board(look)
    for bad in (987654, new_id):  # unknown; a lobby that never started
        rec = await fake_discord.slash(
            eve, table.channel, "game", {"game_id": bad}, subcommand="board"
        )
        await rec.wait_response()
        assert rec.ephemeral and "no such game in this server" in (rec.content or "")

    # /game export (the channel's newest game that ended) and boardroom verify
    export = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="export")
    await export.wait_response()
    assert export.ephemeral
    (attachment,) = export.original.attachments if export.original else export.attachments
    data = json.loads(attachment.data)
    assert data["seed"] == seed and data["game_id"] == game_id
    assert [s["name"] for s in data["seats"]] == ["Alice", "Bob"]
    assert [tuple(m[k] for k in ("seq", "seat", "action")) for m in data["moves"]] == moves
    path = tmp_path / "export.json"
    path.write_bytes(attachment.data)
    checked = boardroom("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 0 and checked.stdout.startswith("Verified:"), checked
    chance = next(i for i, m in enumerate(data["moves"]) if m["seat"] is None and i > 2)
    other = next(
        m["action"]
        for m in data["moves"]
        if m["seat"] is None and m["action"] != data["moves"][chance]["action"]
    )
    for name, change in (
        ("move", lambda d: d["moves"][chance].__setitem__("action", other)),
        ("seed", lambda d: d.__setitem__("seed", d["seed"] + 1)),
    ):
        tampered = copy.deepcopy(data)
        change(tampered)
        bad_path = tmp_path / f"tampered-{name}.json"
        bad_path.write_text(json.dumps(tampered))
        refused = boardroom("verify", str(bad_path), cwd=tmp_path)
        assert refused.returncode == 1 and refused.stderr.startswith("NOT verified"), refused
    if game == "cantstop":
        out = tmp_path / "boards"
        drawn = boardroom("replay", str(path), "--out", str(out), cwd=tmp_path)
        assert drawn.returncode == 0 and len(list(out.glob("*.png"))) > 5, drawn

    # the rematch is played once Alice said yes: she sits where the rotation puts her (last),
    # the lobby no longer waits for her, and its host starts it; the running game cannot be
    # exported
    lobby = fake_discord.message(lobby.id)
    if get_engine(game).info.min_seats > 1:  # Bob alone may not start it (Harmonies: solo)
        alone = await fake_discord.click(bob, lobby, f"brl:{new_id}:start")
        await alone.wait_response()
        assert alone.ephemeral and "needs at least 2 players" in (alone.content or "")
    joined = await fake_discord.click(alice, lobby, f"brl:{new_id}:join")
    await joined.wait_response()
    assert seat_order(bot.db_path, new_id) == [(bob.id, "Bob", None), (alice.id, "Alice", None)]
    lobby = fake_discord.message(lobby.id)
    assert "press Join to play again" not in lobby.content
    start = await fake_discord.click(bob, lobby, f"brl:{new_id}:start")
    await start.wait_response()
    (rematch_first,) = await start.wait_followups(1, timeout=10)
    if game == "cantstop":  # the seat order decides who begins (the others draw for it)
        assert rematch_first.content.splitlines()[-1].startswith(f"<@{bob.id}>")
    early = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="export")
    await early.wait_response()
    assert early.ephemeral and "has not ended yet" in (early.content or "")
    by_id = await fake_discord.slash(
        alice, table.channel, "game", {"game_id": new_id}, subcommand="export"
    )
    await by_id.wait_response()
    assert by_id.ephemeral and "has not ended yet" in (by_id.content or "")
    assert_secret(fake_discord, bot, running_seeds(bot.db_path))
    assert t("en", "game.rematch.button") in json.dumps(final.components)
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


def position_of(db_path: Path, game_id: int) -> tuple[str, int, Any]:
    """The game's status, version and state, read in one statement: a computer commits each
    action of its turn on its own, so two reads could pair a version with a later state."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        status, version, state_json = conn.execute(
            "SELECT status, version, state_json FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    finally:
        conn.close()
    return status, version, get_engine("cantstop").decode_state(json.loads(state_json))


async def board_of(driver: FakeDiscordDriver, game_id: int, version: int) -> StoredMessage:
    """The message whose controls act on ``version`` of the game (waits for it)."""
    prefixes = (f"br:{game_id}:{version}:", f"brs:{game_id}:{version}:")
    for _ in range(400):
        for message in list(driver.fake.messages.values()):
            if not message.deleted and any(c.startswith(prefixes) for c in message.custom_ids):
                return message
        await asyncio.sleep(0.05)
    raise AssertionError(f"no board for version {version}")


async def test_a_rematch_keeps_the_computer_opponent_and_an_abandoned_game_reveals_its_seed(
    fake_discord, bot_process, tmp_path: Path
) -> None:
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0")
    table = await seat_users(fake_discord, bot.guild, "Alice")
    (alice,) = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="cantstop")
    await rec.wait_response()
    gid = lobby_id(rec.original)
    added = await fake_discord.click(alice, rec.original, f"brl:{gid}:bot-hard")
    await added.wait_response()
    lobby = fake_discord.message(rec.original.id)
    start = await fake_discord.click(alice, lobby, f"brl:{gid}:start")
    await start.wait_response()
    await start.wait_followups(1, timeout=10)
    rnd = random.Random(3)
    for _ in range(MAX_ACTIONS):
        status, version, state = position_of(bot.db_path, gid)
        if status == "finished":
            break
        _, seats = stored(bot.db_path, "cantstop")
        mover = get_engine("cantstop").to_move(state)
        if mover in (CHANCE, TERMINAL) or seats[mover] != alice.id:
            await asyncio.sleep(0.05)  # the computer opponent plays
            continue
        message = await board_of(fake_discord, gid, version)
        code = choose("cantstop", list(offered(message)), rnd)
        step = await press(fake_discord, alice, message, code, "en")
        await step.wait_response()
        assert not step.rejections and not step.ephemeral, step.content
    else:
        raise AssertionError("the game did not end")
    final = await fake_discord.wait_for_channel_message(
        table.channel, lambda m: "brr:" in " ".join(m.custom_ids), after=0, timeout=20
    )
    old_seats = seat_order(bot.db_path, gid)
    assert old_seats[0] == (alice.id, "Alice", None) and old_seats[1][2] == "hard"
    opened = await fake_discord.click(alice, final, f"brr:{gid}")
    await opened.wait_response()
    assert opened.original is not None and not opened.ephemeral, opened.data
    new_id = lobby_id(opened.original)
    assert seat_order(bot.db_path, new_id) == [old_seats[1], old_seats[0]]  # the bot starts
    assert old_seats[1][1] in opened.original.content

    # the rematch starts, the bot moves first; Alice abandons it: the seed is revealed, no
    # Rematch button (abandoning is a decision to stop), and the game can be exported
    begin = await fake_discord.click(alice, opened.original, f"brl:{new_id}:start")
    await begin.wait_response()
    await begin.wait_followups(1, timeout=10)
    (seed,) = running_seeds(bot.db_path)
    assert_secret(fake_discord, bot, [seed])
    quit_ = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="abandon")
    await quit_.wait_response()
    said = quit_.content or ""
    assert "abandoned by" in said and f"`{seed}`" in said and not quit_.components
    assert fairness.committed_text("cantstop", new_id, seed) in said
    export = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="export")
    await export.wait_response()
    (attachment,) = export.original.attachments if export.original else export.attachments
    data = json.loads(attachment.data)
    assert data["status"] == "abandoned" and data["game_id"] == new_id
    assert [s["bot_level"] for s in data["seats"]] == ["hard", None]
    path = tmp_path / "abandoned.json"
    path.write_bytes(attachment.data)
    checked = boardroom("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 0, checked
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


async def play_nim_out(driver: FakeDiscordDriver, users: list[Any], turn: StoredMessage) -> StoredMessage:
    """Take sticks (whoever may move) until the game of Nim ends; returns the final message."""
    for _ in range(40):
        if any(c.startswith("brr:") for c in turn.custom_ids):
            return turn
        take = sorted(action_ids(turn).values())[0]
        for user in users:
            rec = await driver.click(user, turn, take)
            await rec.wait_response()
            if not rec.ephemeral:  # the mover's click: the next board follows
                (turn,) = await rec.wait_followups(1, timeout=10)
                break
        else:
            raise AssertionError(f"nobody could move: {turn.content}")
    raise AssertionError("the game did not end")


async def test_a_rematch_keeps_the_clock_and_closes_when_nobody_answers(
    fake_discord, bot_process
) -> None:
    """The rematch lobby says the same turn clock as the first lobby, its host cannot start it
    alone with the old seats, and like any lobby it closes by itself, freeing the channel."""
    bot = await bot_process(BOARDROOM_TEST_HOUR_SECONDS="0.5", BOARDROOM_GAMES="tests.games.nim")
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    rec = await fake_discord.slash(alice, table.channel, "play", {"clock": "3d"}, subcommand="nim")
    await rec.wait_response()
    gid = lobby_id(rec.original)
    (clock_line,) = [x for x in rec.original.content.splitlines() if x.startswith("Turn clock")]
    joined = await fake_discord.click(bob, rec.original, f"brl:{gid}:join")
    await joined.wait_response()
    start = await fake_discord.click(alice, fake_discord.message(rec.original.id), f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    final = await play_nim_out(fake_discord, [alice, bob], turn)

    opened = await fake_discord.click(bob, final, f"brr:{gid}")
    await opened.wait_response()
    lobby = opened.original
    assert lobby is not None and not opened.ephemeral, opened.data
    new_id = lobby_id(lobby)
    assert clock_line in lobby.content.splitlines(), lobby.content  # the same clock
    assert f"<@{alice.id}>: press Join to play again." in lobby.content
    assert seat_order(bot.db_path, new_id) == [(bob.id, "Bob", None)]
    alone = await fake_discord.click(bob, lobby, f"brl:{new_id}:start")
    await alone.wait_response()
    assert alone.ephemeral and "needs at least 2 players" in (alone.content or "")
    timers = rows(bot, "SELECT kind FROM timers WHERE game_id = ?", new_id)
    assert ("lobby_expiry",) in timers, timers

    # nobody answers: after the server's lobby expiry (24 hours: 12 s here) it closes
    async def closed() -> None:
        while "closed" not in fake_discord.message(lobby.id).content:
            await asyncio.sleep(0.2)

    await asyncio.wait_for(closed(), 40)
    assert not fake_discord.message(lobby.id).custom_ids  # its buttons are gone
    assert rows(bot, "SELECT status FROM games WHERE id = ?", new_id) == [("cancelled",)]
    again = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await again.wait_response()
    assert not again.ephemeral and again.original is not None  # the channel is free
    assert lobby_id(again.original) != new_id
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()
