"""``/game log`` as a game record, through the real bot process and the fake Discord: a Can't
Stop game with a bust and a Harmonies game played by clicks to the end, the record read in the
middle and after the end: one line per turn (no line for a die or a refill), numbered by turn,
opening at page 1, First/Previous/Next/Last across the pages, the same heading mid-game and
after the end, and the final scores below the last turn."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot.service.models import LoggedMove
from bot.service.turns import split_turns
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from tests.e2e.helpers import board_after_click, open_and_start, seat_users
from tests.e2e.test_languages_e2e import choose, offered, press, stored
from tests.fakediscord import FakeDiscordDriver, StoredMessage
from tests.fakediscord.models import iter_components

MAX_ACTIONS = 1500
TURN_LINE = re.compile(r"(\d+)\. (\w+): ")
RANGE = re.compile(r"Turns? (\d+)(?: to (\d+))? of (\d+)")


def game_id_of(message: StoredMessage) -> int:
    return int(re.search(r"brs?:(\d+):", " ".join(message.custom_ids))[1])  # type: ignore[index]


def record_turns(db_path: Path, game_id: int) -> tuple[int, int]:
    """(turns played with a player in them, moves stored) of a game, from its stored log."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        game, seats, options = conn.execute(
            "SELECT game, (SELECT COUNT(*) FROM seats WHERE game_id = games.id), options_json"
            " FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        rows = conn.execute(
            "SELECT seq, seat, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    finally:
        conn.close()
    moves = [LoggedMove(*row) for row in rows]
    turns = split_turns(game, seats, json.loads(options), moves)
    return sum(1 for t in turns if t.mover is not None and t.ended), len(moves)


def page_buttons(message: StoredMessage) -> dict[str, tuple[str, bool]]:
    """label -> (custom_id, disabled) of the record's page buttons."""
    return {
        c["label"]: (c["custom_id"], bool(c.get("disabled")))
        for c in iter_components(message.components)
        if str(c.get("custom_id", "")).startswith("brp:")
    }


async def open_record(driver: FakeDiscordDriver, user: Any, channel: Any) -> StoredMessage:
    rec = await driver.slash(user, channel, "game", {}, subcommand="log")
    await rec.wait_response()
    assert rec.ephemeral and rec.original is not None, rec.data
    return rec.original


async def turn_page(
    driver: FakeDiscordDriver, user: Any, page: StoredMessage, label: str
) -> StoredMessage:
    custom_id, disabled = page_buttons(page)[label]
    assert not disabled, (label, page.content)
    rec = await driver.click(user, page, custom_id)
    await rec.wait_response()
    assert rec.response_type == 7, rec.data  # the same private message, edited
    return driver.message(page.id)


def numbered(content: str) -> list[tuple[int, str]]:
    return [(int(m[1]), m[2]) for m in map(TURN_LINE.match, content.splitlines()) if m]


async def read_record(
    driver: FakeDiscordDriver, user: Any, channel: Any, names: set[str]
) -> tuple[list[str], list[str]]:
    """The record as a player reads it: (each page's content, from page 1 to the last by
    Next, and every turn line). Checks it opens at page 1 and that Last and First jump."""
    page = await open_record(driver, user, channel)
    contents = [page.content]
    shown = RANGE.search(page.content)
    assert shown and shown[1] == "1", page.content  # the first page first
    buttons = page_buttons(page)
    if buttons:
        assert list(buttons) == ["⏮ First", "◀ Previous", "Next ▶", "Last ⏭"]
        assert buttons["⏮ First"][1] and buttons["◀ Previous"][1]  # already at the start
        last = await turn_page(driver, user, page, "Last ⏭")
        end_range = RANGE.search(last.content)
        assert end_range and (end_range[2] or end_range[1]) == end_range[3], last.content
        assert page_buttons(last)["Next ▶"][1] and page_buttons(last)["Last ⏭"][1]
        last_page = last.content
        page = await turn_page(driver, user, last, "⏮ First")
        assert page.content == contents[0]
        while not page_buttons(page)["Next ▶"][1]:
            page = await turn_page(driver, user, page, "Next ▶")
            contents.append(page.content)
        assert contents[-1] == last_page
        if len(contents) > 2:
            back = await turn_page(driver, user, page, "◀ Previous")
            assert back.content == contents[-2]
    lines = [
        line for content in contents for line in content.splitlines() if TURN_LINE.match(line)
    ]
    numbers = [n for n, _ in numbered("\n".join(lines))]
    assert numbers == list(range(1, len(lines) + 1)), numbers  # numbered by turn, each once
    assert {who for _, who in numbered("\n".join(lines))} <= names
    return contents, lines


async def play(
    driver: FakeDiscordDriver,
    bot: Any,
    game: str,
    users: list[Any],
    message: StoredMessage,
    *,
    until_turn: int | None = None,
    policy: Any = None,
) -> StoredMessage:
    """Click the controls the bot sent until the game ends (or ``until_turn`` turns ended);
    ``policy(state, codes)`` picks an action (None: the quick player of the languages test)."""
    engine = get_engine(game)
    rnd = random.Random(23)
    for _ in range(MAX_ACTIONS):
        state, seats = stored(bot.db_path, game)
        mover_seat = engine.to_move(state)
        if mover_seat == TERMINAL or (until_turn is not None and engine.turn(state) >= until_turn):
            return message
        assert mover_seat != CHANCE
        mover = next(u for u in users if u.id == seats[mover_seat])
        codes = list(offered(message))
        code = (policy and policy(state, codes)) or choose(game, codes, rnd)
        rec = await press(driver, mover, message, code, "en")
        message = await board_after_click(driver, rec, message, timeout=15)
        assert not rec.rejections, rec.rejections
    raise AssertionError("the game did not end")


def rolls_on(state: Any, codes: list[str]) -> str | None:
    """Can't Stop's first turn: never stop, so it ends in a bust."""
    if get_engine("cantstop").turn(state) == 0:
        return "roll" if "roll" in codes else sorted(c for c in codes if c != "stop")[0]
    return None


async def check_the_record(
    driver: FakeDiscordDriver, bot: Any, game: str, policy: Any = None
) -> list[str]:
    """Play ``game`` for Alice and Bob by clicks, reading the record after four turns and after
    the end; returns every turn line of the finished game."""
    table = await seat_users(driver, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    first = await open_and_start(table, game)
    game_id = game_id_of(first)
    names = {"Alice", "Bob"}

    message = await play(driver, bot, game, table.users, first, until_turn=4, policy=policy)
    middle, middle_lines = await read_record(driver, bob, table.channel, names)
    heading = middle[0].splitlines()[0]
    assert heading == f"**{title(game)} #{game_id} — game record**"
    played, moves = record_turns(bot.db_path, game_id)
    assert len(middle_lines) == played >= 4
    assert "Final scores" not in "\n".join(middle)

    await play(driver, bot, game, table.users, message, policy=policy)
    pages, lines = await read_record(driver, alice, table.channel, names)
    played, moves = record_turns(bot.db_path, game_id)
    assert len(lines) == played < moves, (len(lines), played, moves)  # a line a turn
    assert len(pages) > 1  # long enough to page through
    assert lines[: len(middle_lines)] == middle_lines  # a turn's line never changes
    assert all(page.splitlines()[0] == heading for page in [*middle, *pages])
    for content in pages:  # every line is the heading, the range, a turn or the final scores
        body = content.splitlines()[1:]
        assert RANGE.fullmatch(body[0]), body[0]
        others = [line for line in body[1:] if not TURN_LINE.match(line)]
        assert others in ([], [body[-1]]), others
    final = pages[-1].splitlines()[-1]
    assert final.startswith("🏆 Final scores: ") and ("Alice" in final and "Bob" in final)
    assert lines[-1] in pages[-1] and "🏆" not in "\n".join(pages[:-1])
    return lines


def title(game: str) -> str:
    return {"cantstop": "Can't Stop", "harmonies": "Harmonies"}[game]


async def test_cantstop_record_has_a_line_per_turn_and_says_bust(fake_discord, bot_process) -> None:
    bot = await bot_process()
    lines = await check_the_record(fake_discord, bot, "cantstop", policy=rolls_on)
    assert lines[0].startswith("1. ") and lines[0].endswith("💥 bust"), lines[0]
    assert all(re.search(r"rolled \d-\d-\d-\d", line) for line in lines)
    assert not [line for line in lines if "chance" in line or line.endswith(": rolls")]


async def test_harmonies_record_folds_the_refills_into_the_turns(
    fake_discord, bot_process
) -> None:
    bot = await bot_process()
    lines = await check_the_record(fake_discord, bot, "harmonies")
    assert not [line for line in lines if "token into space" in line or "chance" in line]
    assert all("took space" in line and " in all" in line for line in lines)
