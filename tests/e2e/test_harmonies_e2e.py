"""Harmonies through the real bot process and the fake Discord: whole games, lobby to the end.

Every action is chosen from the buttons and select menus the bot actually sent. A turn's first
step takes the public board's buttons off and answers with one private message to the acting
player (a preview board and the next controls); each later step edits that message (only the
pictures that changed are uploaded again); ``End turn`` publishes the new board for everyone
and pings the next player.
"""

from __future__ import annotations

import asyncio
import copy
import io
import random
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from PIL import Image

from games.harmonies import render as harmonies
from tests.e2e.conftest import BotProcess
from tests.e2e.helpers import (
    Table,
    assert_every_image_described,
    board_after_click,
    lobby_id,
    seat_users,
)
from tests.fakediscord import FakeDiscordDriver, FakeUser, StoredMessage
from tests.fakediscord.models import StoredAttachment, iter_components

BUTTON_ID = re.compile(r"br:\d+:\d+:(.+)")
SELECT_ID = re.compile(r"brs:\d+:\d+:\d+")
MENTION = re.compile(r"<@(\d+)>")
MAX_ACTIONS = 600
HINT = "</game board"  # "Lost your buttons …? /game board brings them back"


def controls_of(message: StoredMessage) -> dict[str, tuple[str, str]]:
    """action code -> ("button" | "select", custom_id) for every game control on a message."""
    found: dict[str, tuple[str, str]] = {}
    for comp in iter_components(message.components):
        custom_id = comp.get("custom_id", "")
        if m := BUTTON_ID.fullmatch(custom_id):
            assert m.group(1) not in found, custom_id
            found[m.group(1)] = ("button", custom_id)
        elif SELECT_ID.fullmatch(custom_id):
            assert 1 <= len(comp["options"]) <= 25
            for option in comp["options"]:
                assert option["value"] not in found, option
                found[option["value"]] = ("select", custom_id)
    return found


def assert_unchanged_pictures_kept(shown: list[StoredAttachment], edited: StoredMessage) -> None:
    """An edit uploads only the pictures that changed: one with the bytes of a picture already
    on the message is that picture, kept by its id."""
    before = {picture.data: picture.id for picture in shown}
    for picture in edited.attachments:
        assert before.get(picture.data, picture.id) == picture.id, picture.filename


def mover_of(message: StoredMessage, users: list[FakeUser]) -> FakeUser:
    """The user the prompt (the last line mentioning someone) addresses."""
    for line in reversed(message.content.splitlines()):
        if ids := MENTION.findall(line):
            return next(u for u in users if u.id == int(ids[0]))
    raise AssertionError(f"nobody is addressed: {message.content!r}")


def check_png(message: StoredMessage, out: Path, name: str) -> None:
    """Real pictures, each with its alt text and as narrow as the phone rule's areas (the player's
    area, the shared area, the other boards); kept next to the test's files for a human look."""
    assert message.attachments
    out.mkdir(parents=True, exist_ok=True)
    for n, picture in enumerate(message.attachments, start=1):
        assert picture.data.startswith(b"\x89PNG") and picture.description
        with Image.open(io.BytesIO(picture.data)) as img:
            assert img.width in (harmonies.OTHERS_W, harmonies.SHARED_W), img.size
        (out / f"{name}-{n}.png").write_bytes(picture.data)


class Player:
    """A seeded player: cubes first, sometimes a card, tokens anywhere legal, then End turn."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.undone = False
        self.last = ""

    def choose(self, controls: dict[str, tuple[str, str]]) -> str:
        self.last = self._choose(controls)
        return self.last

    def _choose(self, controls: dict[str, tuple[str, str]]) -> str:
        codes = sorted(controls)
        by_kind: dict[str, list[str]] = {}
        for code in codes:
            by_kind.setdefault(code.split(":")[0], []).append(code)
        if "keep" in by_kind:
            return self.rnd.choice(by_kind["keep"])
        if "undo" in by_kind and not self.undone and self.last.startswith("place:"):
            self.undone = True  # once per game: take back a token placement
            return "undo"
        for kind, chance in (("cube", 1.0), ("card", 0.5), ("discard", 0.3)):
            if kind in by_kind and self.rnd.random() < chance:
                return self.rnd.choice(by_kind[kind])
        for kind in ("place", "take"):
            if kind in by_kind:
                return self.rnd.choice(by_kind[kind])
        assert "end" in by_kind, codes
        return "end"


async def press(
    driver: FakeDiscordDriver,
    user: FakeUser,
    message: StoredMessage,
    control: tuple[str, str],
    code: str,
):
    kind, custom_id = control
    if kind == "button":
        return await driver.click(user, message, custom_id)
    return await driver.select(user, message, custom_id, [code])


async def refused(driver: FakeDiscordDriver, user: FakeUser, message: StoredMessage) -> None:
    """Someone else's click on the turn message is answered privately and changes nothing."""
    controls = controls_of(message)
    code = sorted(controls)[0]
    rec = await press(driver, user, message, controls[code], code)
    await rec.wait_response()
    assert rec.ephemeral and "not your turn" in (rec.content or ""), rec.content
    assert controls_of(driver.message(message.id)) == controls


async def bot_ready(bot: BotProcess, timeout: float = 15.0) -> None:
    """Wait until discord.py dispatched ``on_ready`` (about two seconds after READY)."""
    deadline = time.monotonic() + timeout
    while bot.log_text().count("connected as") < bot.starts:
        assert time.monotonic() < deadline, bot.log_tail()
        await asyncio.sleep(0.05)


async def open_harmonies(table: Table, **options: object) -> StoredMessage:
    """Host opens /play harmonies, the others join, the host starts: the first turn message."""
    driver, host = table.driver, table.users[0]
    rec = await driver.slash(host, table.channel, "play", options, subcommand="harmonies")
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None and not rec.ephemeral
    gid = lobby_id(lobby)
    for user in table.users[1:]:
        joined = await driver.click(user, lobby, f"brl:{gid}:join")
        await joined.wait_response()
        assert joined.response_type == 7, joined.data
        lobby = driver.message(lobby.id)
    start = await driver.click(host, lobby, f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    return turn


async def play_to_the_end(
    driver: FakeDiscordDriver,
    table: Table,
    first: StoredMessage,
    out: Path,
    seed: int,
    midgame: Callable[[], Awaitable[None]] | None = None,
) -> tuple[StoredMessage, dict[str, int]]:
    """Click through a whole game; returns the final public message and counts of what was done."""
    users = table.users
    outsider = users[-1] if len(users) > 1 else None
    player = Player(seed)
    turn, public = first, True
    counts: dict[str, int] = {"public": 1, "private": 0}
    hinted = {mover_of(first, users).id: 1} if HINT in first.content else {}
    for _ in range(MAX_ACTIONS):
        controls = controls_of(turn)
        if not controls:
            break
        mover = mover_of(turn, users)
        if public:
            assert not turn.ephemeral
            check_png(turn, out, f"public-{counts['public']:02d}")
            other = next((u for u in users if u is not mover), outsider)
            if other is not None and counts["public"] <= 3:
                await refused(driver, other, turn)
            if midgame is not None and counts["public"] == 5:
                await midgame()
        else:
            assert turn.ephemeral and turn.interaction_user is not None
            assert turn.interaction_user.id == mover.id  # only the acting player sees it
            if counts["private"] % 10 == 0:
                check_png(turn, out, f"private-{counts['private']:03d}")
        code = player.choose(controls)
        counts[code.split(":")[0]] = counts.get(code.split(":")[0], 0) + 1
        shown = list(turn.attachments)
        rec = await press(driver, mover, turn, controls[code], code)
        nxt = await board_after_click(driver, rec, turn)
        if public or code == "end":  # a new message; the clicked one lost its controls
            assert rec.response_type == 7, (code, rec.data, rec.content)
            assert not controls_of(driver.message(turn.id))
            assert nxt.id != turn.id
        else:  # a step inside the turn: the private message it was clicked on, edited
            assert rec.updated_in_place and nxt.id == turn.id, rec.data
            assert_unchanged_pictures_kept(shown, nxt)
        public = not nxt.ephemeral
        if code == "end":  # every turn's end is public, solo games included
            assert public, nxt.content
            counts["public"] += 1
        else:
            assert not public, (code, nxt.content)
            counts["private"] += 1
            if turn.id != nxt.id:
                counts["private messages"] = counts.get("private messages", 0) + 1
        if public and HINT in nxt.content:
            hinted[mover_of(nxt, users).id] = hinted.get(mover_of(nxt, users).id, 0) + 1
        turn = nxt
    else:
        raise AssertionError(f"no end after {MAX_ACTIONS} actions")
    # one private message a turn, each turn's steps in it; the hint once to each player
    assert counts.get("private messages", 0) == counts["public"] - 1 == counts["end"]
    assert hinted == {u.id: 1 for u in users}, hinted
    return turn, counts


async def test_a_whole_two_player_game(fake_discord, bot_process, tmp_path: Path) -> None:
    bot = await bot_process()
    await bot_ready(bot)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    first = await open_harmonies(table, players=2)
    assert "take the tokens of one space" in first.content
    controls = controls_of(first)
    assert {c for c in controls if c.startswith("take:")} == {f"take:{n}" for n in range(1, 6)}

    async def look_around() -> None:
        """Mid-game: the log, each player's board for Alice (private, no controls), the rules."""
        log = await fake_discord.slash(alice, table.channel, "game", {}, subcommand="log")
        await log.wait_response()
        assert log.ephemeral and "\n1. " in (log.content or ""), log.content
        assert "took space" in (log.content or "") and "placed" in (log.content or "")
        assert "token into space" not in (log.content or "")
        pictures = []
        for user in (alice, bob):
            look = await fake_discord.slash(
                alice, table.channel, "game", {"player": user.id}, subcommand="board"
            )
            await look.wait_response()
            (board,) = await look.wait_followups(1, timeout=10)
            assert board.ephemeral and not controls_of(board)
            check_png(board, tmp_path / "two", f"board-of-{user.name}")
            # the whole table, a picture per area: the player's, the shared one, the other board
            player, shared, others = board.attachments
            assert user.name in player.description and user.name not in others.description
            assert "Scores:" in shared.description and "Central board" in shared.description
            pictures.append(player.data)
        assert pictures[0] != pictures[1]  # each shows that player's board large
        rules = await fake_discord.slash(bob, table.channel, "rules", {"game": "harmonies"})
        await rules.wait_response()
        assert rules.ephemeral and "**Scoring**" in rules.embeds[0]["description"]

    final, counts = await play_to_the_end(
        fake_discord, table, first, tmp_path / "two", seed=7, midgame=look_around
    )

    assert not final.ephemeral and not controls_of(final)
    check_png(final, tmp_path / "two", "final")
    # the last mover's board, the shared area with the final scores, and the other final board
    assert len(final.attachments) == 3
    assert "Game over. Points per category:" in final.content
    winners = {u.name for u in table.users if f"<@{u.id}>" in final.content}
    assert winners, final.content  # the result line pings the winner(s)
    assert "Alice:" in final.content and "Bob:" in final.content and "trees" in final.content
    assert counts["take"] == counts["end"] == counts["public"] - 1
    assert counts.get("undo") == 1 and counts["place"] == 3 * counts["take"] + 1
    assert counts.get("card", 0) >= 1  # the card select was used too
    # every public turn message is in the channel; no step of a turn ever was
    channel = fake_discord.channel_messages(table.channel)
    boards = [m for m in channel if any(a.filename.startswith("board-1-") for a in m.attachments)]
    assert len(boards) == counts["public"]
    assert assert_every_image_described(fake_discord) >= counts["public"]
    for message in boards[1:-1]:
        assert "ended the turn" in message.content
        assert f"<@{alice.id}>" in message.content or f"<@{bob.id}>" in message.content
    fake_discord.assert_no_unknown_routes()
    assert not any(rec.late for rec in fake_discord.interactions)  # none refused as too late


async def test_a_whole_solo_game(fake_discord, bot_process, tmp_path: Path) -> None:
    bot = await bot_process()
    await bot_ready(bot)
    table = await seat_users(fake_discord, bot.guild, "Sol")
    first = await open_harmonies(table, players=1, side="B")
    final, counts = await play_to_the_end(fake_discord, table, first, tmp_path / "solo", seed=3)
    assert not final.ephemeral and not controls_of(final)
    assert "Solo result:" in final.content and "suns" in final.content
    assert_every_image_described(fake_discord)
    assert counts["take"] == counts["end"]
    check_png(final, tmp_path / "solo", "final")
    fake_discord.assert_no_unknown_routes()


async def step_recorded(bot, timeout: float = 5.0) -> None:
    """Wait until the bot has noted, after sending it, that the latest version was shown."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
        try:
            (version,) = conn.execute("SELECT MAX(version) FROM games").fetchone()
            (shown,) = conn.execute(
                "SELECT MAX(version) FROM (SELECT version FROM posts"
                " UNION ALL SELECT version FROM private_steps)"
            ).fetchone()
        finally:
            conn.close()
        if shown == version:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the private step was never recorded")


async def test_a_restart_mid_turn_posts_nothing_publicly(fake_discord, bot_process) -> None:
    bot = await bot_process()
    await bot_ready(bot)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    first = await open_harmonies(table, players=2)
    mover = mover_of(first, table.users)
    controls = controls_of(first)
    rec = await press(fake_discord, mover, first, controls["take:1"], "take:1")
    await rec.wait_response()
    (step,) = await rec.wait_followups(1, timeout=10)
    assert step.ephemeral
    await step_recorded(bot)  # a kill before this point may rightly re-post the board
    mark = fake_discord.marker()
    await bot.restart()
    await bot_ready(bot)
    try:
        posted = await fake_discord.wait_for_channel_message(table.channel, after=mark, timeout=5)
    except TimeoutError:
        return  # the turn is still private to its player
    raise AssertionError(f"posted publicly after the restart: {posted.content!r}")


async def test_lost_controls_come_back_privately_mid_turn(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    first = await open_harmonies(table, players=2)
    assert "/game board" in first.content.splitlines()[-1]  # the turn message says how
    mover = mover_of(first, table.users)
    other = next(u for u in table.users if u is not mover)
    controls = controls_of(first)
    rec = await press(fake_discord, mover, first, controls["take:1"], "take:1")
    await rec.wait_response()
    (step,) = await rec.wait_followups(1, timeout=10)
    assert step.ephemeral
    public = len(fake_discord.channel_messages(table.channel))
    again = await fake_discord.slash(mover, table.channel, "game", {}, subcommand="board")
    await again.wait_response()
    (back,) = await again.wait_followups(1, timeout=10)
    assert back.ephemeral and set(controls_of(back)) == set(controls_of(step))
    look = await fake_discord.slash(other, table.channel, "game", {}, subcommand="board")
    await look.wait_response()
    (seen,) = await look.wait_followups(1, timeout=10)
    assert seen.ephemeral and not controls_of(seen)
    assert len(fake_discord.channel_messages(table.channel)) == public  # nothing public, no ping
    code = sorted(c for c in controls_of(back) if c.startswith("place:"))[0]
    placed = await press(fake_discord, mover, back, controls_of(back)[code], code)
    next_step = await board_after_click(fake_discord, placed, back)
    assert placed.updated_in_place and not placed.followups
    assert next_step.id == back.id  # the turn goes on in the copy, edited
    assert next_step.ephemeral and controls_of(next_step)


async def test_a_solo_end_of_turn_is_posted_publicly(fake_discord, bot_process) -> None:
    bot = await bot_process()
    await bot_ready(bot)
    table = await seat_users(fake_discord, bot.guild, "Sol")
    (sol,) = table.users
    turn = await open_harmonies(table, players=1)
    player = Player(5)
    while True:
        controls = controls_of(turn)
        code = "end" if "end" in controls else player.choose(controls)
        rec = await press(fake_discord, sol, turn, controls[code], code)
        turn = await board_after_click(fake_discord, rec, turn)
        if code == "end":
            break
    assert not turn.ephemeral, turn.content


async def test_a_person_against_a_computer_opponent(fake_discord, bot_process) -> None:
    """After the person's End turn, the bot plays its whole turn and posts it as one message."""
    bot = await bot_process(BOARDROOM_BOT_PAUSE="0")
    table = await seat_users(fake_discord, bot.guild, "Ana")
    (ana,) = table.users
    rec = await fake_discord.slash(ana, table.channel, "play", {}, subcommand="harmonies")
    await rec.wait_response()
    gid = lobby_id(rec.original)
    added = await fake_discord.click(ana, rec.original, f"brl:{gid}:bot-medium")
    await added.wait_response()
    start = await fake_discord.click(ana, fake_discord.message(rec.original.id), f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    player = Player(seed=4)
    bot_turns = 0
    hints = [turn.content.splitlines()[-1]] if f"<@{ana.id}>" in turn.content else []
    for _ in range(200):
        if bot_turns == 2:
            break
        if f"<@{ana.id}>" not in turn.content:
            # The bot moves first or next: its turn arrives as one channel message. The public
            # prompt says the bot is thinking; it never addresses the bot.
            assert "Bot 2 (medium) is thinking" in turn.content.splitlines()[-1]
            assert "Bot 2 (medium), " not in turn.content
            turn = await fake_discord.wait_for_channel_message(
                table.channel, lambda m: f"<@{ana.id}>" in m.content, after=turn.id, timeout=20
            )
            assert "Bot 2 (medium)" in turn.content
            hints.append(turn.content.splitlines()[-1])
            check_png(turn, Path(bot.workdir) / "vs-bot", f"bot-{bot_turns}")
            bot_turns += 1
            continue
        controls = controls_of(turn)
        code = player.choose(controls)
        step = await press(fake_discord, ana, turn, controls[code], code)
        turn = await board_after_click(fake_discord, step, turn)
    assert bot_turns == 2
    # how to get lost controls back: on Ana's first turn message, not again
    assert ["/game board" in line for line in hints] == [True] + [False] * (len(hints) - 1)
    assert_every_image_described(fake_discord)


async def test_a_turn_played_from_the_private_copy_has_one_live_board(
    fake_discord, bot_process
) -> None:
    """``/game board``'s copy at a turn's start: its first step takes the public board's buttons
    off (a stale or double click gets the clear private answer and changes nothing), every step
    edits the copy (one private message for the turn, unchanged pictures kept, not uploaded
    again), and End turn posts one public message: the turn's end, the next player's board."""
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    first = await open_harmonies(table, players=2)
    mover = mover_of(first, table.users)
    stale_public = copy.deepcopy(first)  # as a client that has not refreshed still shows it
    asked = await fake_discord.slash(mover, table.channel, "game", {}, subcommand="board")
    await asked.wait_response()
    (private,) = await asked.wait_followups(1, timeout=10)
    assert private.ephemeral and set(controls_of(private)) == set(controls_of(first))
    assert controls_of(fake_discord.message(first.id))  # asking changes nothing public
    channel_before = len(fake_discord.channel_messages(table.channel))
    messages_before = len(fake_discord.fake.messages)
    player, turn = Player(11), private
    for step in range(20):
        controls = controls_of(turn)
        code = player.choose(controls)
        shown = list(turn.attachments)
        stale_private = copy.deepcopy(turn)
        rec = await press(fake_discord, mover, turn, controls[code], code)
        nxt = await board_after_click(fake_discord, rec, turn)
        if code == "end":
            break
        assert rec.updated_in_place and not rec.followups, rec.data
        assert nxt.id == private.id and controls_of(nxt)  # the copy, edited
        assert_unchanged_pictures_kept(shown, nxt)
        if step == 0:  # the turn moved to private controls: the public board is not live now
            await fake_discord.fake.wait_until(
                lambda: not controls_of(fake_discord.message(first.id)), 5
            )
            for user, stale in ((mover, stale_public), (mover, stale_private)):
                state = bot_state(bot)
                code = sorted(controls_of(stale))[0]
                again = await press(fake_discord, user, stale, controls_of(stale)[code], code)
                await again.wait_response()
                assert again.ephemeral and "from an earlier turn" in (again.content or "")
                assert bot_state(bot) == state  # nothing changed
        turn = nxt
    else:
        raise AssertionError("the turn did not end")
    # End turn: the copy loses its controls, and one public message tells the turn
    assert rec.response_type == 7 and not controls_of(fake_discord.message(private.id))
    assert not nxt.ephemeral and "ended the turn" in nxt.content
    channel = fake_discord.channel_messages(table.channel)
    assert [m.id for m in channel[channel_before:]] == [nxt.id]
    new = [m for m in fake_discord.fake.messages.values() if m.id > private.id]
    assert [m.id for m in new if m.ephemeral and m.attachments] == []  # no second private one
    assert len(fake_discord.fake.messages) - messages_before == 1 + 2  # and the 2 stale answers
    fake_discord.assert_no_unknown_routes()
    fake_discord.assert_no_violations()


def bot_state(bot: BotProcess) -> tuple[int, str]:
    conn = sqlite3.connect(f"file:{bot.db_path}?mode=ro", uri=True)
    try:
        version, state = conn.execute(
            "SELECT version, state_json FROM games ORDER BY id DESC"
        ).fetchone()
    finally:
        conn.close()
    return version, state
