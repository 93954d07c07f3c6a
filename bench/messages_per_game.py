"""Public messages per game: whole games through the fake Discord and the real bot process.

``python -m bench.messages_per_game [--games cantstop,kokeshi,harmonies] [--games-each 2]
[--seed 1] [--bots 0,2]``

For each game and each number of computer opponents (``--bots``: 0 = three people, 2 = one
person and two medium bots), ``--games-each`` whole three-player games are played in a fresh
fake Discord (``tests.fakediscord``, 127.0.0.1 only) against a fresh ``python -m bot run``. The
people are scripted: they press a random legal control (Can't Stop: stop with probability 0.6
once they may; Harmonies: fill the board, never take a step back), on whichever message carries
their controls (the public board, or a private step). Counted per game, from what the fake
stored: the turns played (the engine's turn counter at the end), the public messages of the
channel that carry a board picture, how many of them mention someone, the edits of public
boards made in place, and the private step messages. The target for Can't Stop (issue 13): at
most one public board message per turn plus one per game (the first board; the last one is the
game's end). For the turns the people played (those a click of theirs ended), what reached
their phones privately (issue 23): the private messages (each new private message, however
often it was edited) and the private pictures uploaded (an unchanged picture kept by an edit is
not uploaded again), per turn; the target is at most one private message per turn.

The script only drives the fake; it works against any version of the bot, so the same file run
in a checkout of an older commit gives the "before" figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import statistics
import tempfile
from pathlib import Path
from typing import Any

from engines.registry import get_engine
from tests.e2e.conftest import BotProcess
from tests.e2e.test_languages_e2e import choose, offered  # the same quick players
from tests.fakediscord import FakeDiscordDriver, FakeUser, InteractionRecord, StoredMessage

MENTION = re.compile(r"<@!?\d+>")
MAX_CLICKS = 4000
WAIT = 30.0


def game_row(db: Path) -> tuple[str, Any, dict[int, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        gid, game, status, state_json = conn.execute(
            "SELECT id, game, status, state_json FROM games ORDER BY id DESC"
        ).fetchone()
        seats = dict(conn.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (gid,)))
    finally:
        conn.close()
    state = get_engine(game).decode_state(json.loads(state_json)) if state_json else None
    return status, state, seats


async def result_of(
    driver: FakeDiscordDriver, rec: InteractionRecord, clicked: StoredMessage
) -> StoredMessage:
    """The message that shows a click's result: the clicked one edited in place (by the
    answer, or after a deferred update; on a public board or a private message), or the
    answer's follow-up."""
    pressed = str((rec.payload.get("data") or {}).get("custom_id", ""))
    await rec.wait_response(timeout=WAIT)
    if rec.updated_in_place and pressed:  # the edit's controls name the next version
        await driver.fake.wait_until(
            lambda: pressed not in driver.message(clicked.id).custom_ids, WAIT
        )
        return driver.message(clicked.id)
    (message,) = await rec.wait_followups(1, timeout=WAIT)
    return message


async def play_one(
    game: str, bots: int, seed: int, workdir: Path
) -> dict[str, Any]:
    driver = FakeDiscordDriver()
    await driver.start()
    bot: BotProcess | None = None
    try:
        guild = await driver.add_guild("Bench")
        people: list[FakeUser] = []
        for name in ("alice", "bob", "carol")[: 3 - bots]:
            user = driver.add_user(name)
            await driver.add_member(guild, user)
            people.append(user)
        channel = await driver.add_channel(guild, "games")
        bot = BotProcess(
            driver=driver,
            guild=guild,
            workdir=workdir,
            db_path=workdir / "boardroom.db",
            log_path=workdir / "bot.log",
            extra_env={"LOG_LEVEL": "WARNING", "BOARDROOM_BOT_PAUSE": "0"},
        )
        await bot.start(timeout=60.0)
        host = people[0]
        rec = await driver.slash(host, channel, "play", {"players": 3}, subcommand=game)
        await rec.wait_response(timeout=WAIT)
        lobby = rec.original
        assert lobby is not None
        gid = next(c.split(":")[1] for c in lobby.custom_ids if c.startswith("brl:"))
        for user in people[1:]:
            joined = await driver.click(user, driver.message(lobby.id), f"brl:{gid}:join")
            await joined.wait_response(timeout=WAIT)
        for _ in range(bots):
            added = await driver.click(host, driver.message(lobby.id), f"brl:{gid}:bot-medium")
            await added.wait_response(timeout=WAIT)
        start = await driver.click(host, driver.message(lobby.id), f"brl:{gid}:start")
        await start.wait_response(timeout=WAIT)
        (board,) = await start.wait_followups(1, timeout=WAIT)
        rnd = random.Random(seed)
        by_id = {u.id: u for u in people}
        private = clicks = person_turns = 0
        private_messages: set[int] = set()
        private_images: set[int] = set()  # each uploaded picture has an id of its own
        this_turn: set[int] = set()  # the private messages of the turn being played
        most_in_a_turn = 0
        while clicks < MAX_CLICKS:
            status, state, seats = game_row(bot.db_path)
            if status != "active":
                break
            mover_seat = get_engine(game).to_move(state)
            mover = by_id.get(seats.get(mover_seat, -1))
            if mover is None or not offered(board):  # a bot plays: wait for the next board
                mark = board.id
                await driver.fake.wait_until(
                    lambda mark=mark: any(
                        m.id > mark and (offered(m) or "🏆" in m.content or "Final" in m.content)
                        for m in driver.channel_messages(channel)
                    )
                    or game_row(bot.db_path)[0] != "active",
                    WAIT,
                )
                later = [m for m in driver.channel_messages(channel) if m.id > mark]
                board = next((m for m in reversed(later) if offered(m)), later[-1] if later else board)
                continue
            code = choose(game, sorted(offered(board)), rnd)
            custom_id, menu = offered(board)[code]
            if menu:
                rec = await driver.select(mover, board, custom_id, [code])
            else:
                rec = await driver.click(mover, board, custom_id)
            clicked = board
            board = await result_of(driver, rec, board)
            private += board.ephemeral
            clicks += 1
            if board.ephemeral:
                private_messages.add(board.id)
                private_images.update(a.id for a in board.attachments)
                this_turn.add(board.id)
            elif board.id != clicked.id:  # a new public message: the person's turn ended
                person_turns += 1
                most_in_a_turn = max(most_in_a_turn, len(this_turn))
                this_turn = set()
        status, state, _ = game_row(bot.db_path)
        await asyncio.sleep(0.5)  # the last board's record
        public = [
            m
            for m in driver.channel_messages(channel)
            if not m.ephemeral and any(a.filename.startswith("board") for a in m.attachments)
        ]
        edits = sum(
            1
            for r in driver.fake.requests
            if r.method == "PATCH" and "/webhooks/" in r.path and r.status == 200
        )
        return {
            "game": game,
            "bots": bots,
            "status": status,
            "turns": get_engine(game).turn(state),
            "public_boards": len(public),
            "with_mention": sum(bool(MENTION.search(m.content)) for m in public),
            "edits_in_place": edits,
            "private_steps": private,
            "person_turns": person_turns,
            "private_messages": len(private_messages),
            "private_images": len(private_images),
            "max_private_per_turn": most_in_a_turn,
            "clicks": clicks,
            "max_chars": max(len(m.content) for m in public),
        }
    finally:
        if bot is not None:
            await bot.kill()
        await driver.stop()


async def run(games: list[str], bots: list[int], each: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    for game in games:
        for count in bots:
            for n in range(each):
                with tempfile.TemporaryDirectory(prefix="bench-messages-") as tmp:
                    row = await play_one(game, count, seed + n, Path(tmp))
                print(json.dumps(row), flush=True)
                rows.append(row)
    return rows


def summary(rows: list[dict[str, Any]]) -> str:
    lines = [
        "game       bots  games  turns  public boards  per turn  with mention  edits  target",
    ]
    tail = [
        "",
        "game       bots  person turns  private msgs  per turn  max/turn  private images"
        "  per turn  target",
    ]
    keys = sorted({(r["game"], r["bots"]) for r in rows})
    for game, bots in keys:
        mine = [r for r in rows if r["game"] == game and r["bots"] == bots]
        turns = statistics.mean(r["turns"] for r in mine)
        public = statistics.mean(r["public_boards"] for r in mine)
        mention = statistics.mean(r["with_mention"] for r in mine)
        edits = statistics.mean(r["edits_in_place"] for r in mine)
        ok = all(r["public_boards"] <= r["turns"] + 1 for r in mine)
        lines.append(
            f"{game:<10} {bots:>4} {len(mine):>6} {turns:>6.1f} {public:>14.1f}"
            f" {public / max(turns, 1):>9.2f} {mention:>13.1f} {edits:>6.1f}"
            f"  {'≤ turns+1' if ok else 'MISSED'}"
        )
        person = sum(r.get("person_turns", 0) for r in mine)
        messages = sum(r.get("private_messages", 0) for r in mine)
        images = sum(r.get("private_images", 0) for r in mine)
        most = max(r.get("max_private_per_turn", 0) for r in mine)
        tail.append(
            f"{game:<10} {bots:>4} {person:>13} {messages:>13} {messages / max(person, 1):>9.2f}"
            f" {most:>9} {images:>15} {images / max(person, 1):>9.2f}"
            f"  {'≤ 1 a turn' if most <= 1 else 'MISSED'}"
        )
    return "\n".join(lines + tail)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="cantstop,kokeshi,harmonies")
    parser.add_argument("--bots", default="0,2")
    parser.add_argument("--games-each", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = asyncio.run(
        run(
            args.games.split(","),
            [int(b) for b in args.bots.split(",")],
            args.games_each,
            args.seed,
        )
    )
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
