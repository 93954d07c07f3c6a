"""After the last move, through the real bot and the fake Discord: a series of short games (Nim,
the suite's own game) between two people and one against a computer player, then /stats,
/leaderboard, /game replay, and ``boardroom ratings --rebuild`` giving the same numbers."""

from __future__ import annotations

import io
import sqlite3

from PIL import Image

from tests.e2e.helpers import open_and_start, seat_users
from tests.e2e.test_fourth_game_e2e import NIM, offered
from tests.test_cli import boardroom


async def play_nim(driver, table, turn) -> None:
    """Greedy players: each empties the largest heap it can until the game is over."""
    for _ in range(20):
        controls = offered(turn)
        if not controls:
            return
        prompt = turn.content.splitlines()[-1]
        mover = next(u for u in table.users if f"<@{u.id}>" in prompt)
        code = max(controls, key=lambda c: int(c.split(":")[2]))
        custom_id, from_menu = controls[code]
        rec = await (
            driver.select(mover, turn, custom_id, [code])
            if from_menu
            else driver.click(mover, turn, custom_id)
        )
        await rec.wait_response()
        (turn,) = await rec.wait_followups(1, timeout=10)
    raise AssertionError("the game did not end")


def rows(db, query: str, *params) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(query, params).fetchall()
    finally:
        conn.close()


def decoded_frames(data: bytes) -> tuple[str, int, list[int]]:
    image = Image.open(io.BytesIO(data))
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        image.load()
        durations.append(image.info["duration"])
    return image.format, image.n_frames, durations


async def test_stats_leaderboard_replay_and_a_rebuild_that_agrees(
    fake_discord, bot_process, tmp_path
) -> None:
    bot = await bot_process(**NIM)
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob", "Carol")
    alice, bob, carol = table.users
    pair = type(table)(table.driver, table.guild, table.channel, [alice, bob])

    async def ask(user, name, options=None, subcommand=None):
        rec = await fake_discord.slash(
            user, table.channel, name, options or {}, subcommand=subcommand
        )
        await rec.wait_response()
        return rec

    for played in range(5):
        await play_nim(fake_discord, pair, await open_and_start(pair, "nim"))
        if played == 0:  # one rated game: the card calls the rating provisional
            first = await ask(alice, "stats")
            (early_card,) = await first.wait_followups(1, timeout=10)
            (early_png,) = early_card.attachments
            assert "Rating provisional: 4 more rated games to go" in early_png.description
        if played == 3:  # four rated games each: not on the leaderboard yet
            early = await ask(carol, "leaderboard", {"game": "nim"})
            assert early.ephemeral and "Nobody has played 5 rated games of Nim" in early.content
    # Alice against a computer player: counted in her games, not rated
    rec = await fake_discord.slash(alice, table.channel, "play", {}, subcommand="nim")
    await rec.wait_response()
    gid = next(c for c in rec.original.custom_ids if c.startswith("brl:")).split(":")[1]
    added = await fake_discord.click(alice, rec.original, f"brl:{gid}:bot-easy")
    await added.wait_response()
    start = await fake_discord.click(
        alice, fake_discord.message(rec.original.id), f"brl:{gid}:start"
    )
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    bot_game = int(gid)
    for _ in range(30):  # Alice empties heaps; the computer answers in the channel
        if not offered(turn):
            if (
                rows(bot.db_path, "SELECT status FROM games WHERE id = ?", bot_game)[0][0]
                == "finished"
            ):
                break
            await fake_discord.fake.wait_until(
                lambda last=turn.id: any(
                    m.id > last and m.attachments
                    for m in fake_discord.channel_messages(table.channel)
                ),
                10,
            )
            turn = [m for m in fake_discord.channel_messages(table.channel) if m.attachments][-1]
            continue
        code = max(offered(turn), key=lambda c: int(c.split(":")[2]))
        custom_id, from_menu = offered(turn)[code]
        move = await (
            fake_discord.select(alice, turn, custom_id, [code])
            if from_menu
            else fake_discord.click(alice, turn, custom_id)
        )
        await move.wait_response()
        (turn,) = await move.wait_followups(1, timeout=10)
    assert rows(bot.db_path, "SELECT status FROM games WHERE id = ?", bot_game) == [("finished",)]

    ratings = rows(
        bot.db_path, "SELECT user_id, games, wins, mu, sigma FROM ratings ORDER BY user_id"
    )
    assert [(r[0], r[1]) for r in ratings] == sorted([(alice.id, 5), (bob.id, 5)])
    assert sum(r[2] for r in ratings) == 5
    outcomes = rows(bot.db_path, "SELECT rated FROM game_outcomes ORDER BY game_id")
    assert outcomes == [(1,)] * 5 + [(0,)]

    # /stats: a private card with alt text; the bot game counts as a game, not as a rated one
    stats = await ask(alice, "stats")
    assert stats.ephemeral
    (card,) = await stats.wait_followups(1, timeout=10)
    (png,) = [a for a in card.attachments if a.filename == "stats.png"]
    assert Image.open(io.BytesIO(png.data)).format == "PNG"
    assert "6 games" in png.description and "5 rated games" in png.description
    assert "provisional" not in png.description
    nobody = await ask(bob, "stats", {"player": carol.id})
    assert nobody.ephemeral and "no finished game" in nobody.content and not nobody.followups

    board = await ask(carol, "leaderboard", {"game": "nim"})
    assert board.ephemeral
    lines = board.content.splitlines()
    assert lines[1].startswith("1. ") and lines[2].startswith("2. ")
    assert f"<@{alice.id}>" in board.content and f"<@{bob.id}>" in board.content
    assert "(5 games" in lines[1]

    # /game replay: the channel's last game, answered at once, the animation as the follow-up
    replay = await ask(bob, "game", {}, subcommand="replay")
    assert replay.response_type == 5 and not replay.ephemeral  # deferred: "thinking…"
    (posted,) = await replay.wait_followups(1, timeout=30)
    (animation,) = posted.attachments
    assert animation.filename in ("replay.gif", "replay.webp") and animation.description
    fmt, frames, durations = decoded_frames(animation.data)
    assert animation.filename == f"replay.{fmt.lower()}"
    takes = rows(
        bot.db_path,
        "SELECT count(*) FROM moves WHERE game_id = ? AND action LIKE 'take:%'",
        bot_game,
    )
    assert frames == takes[0][0] + 1  # the start, then one frame per ended turn
    assert durations[-1] > durations[0] and len(set(durations[:-1])) == 1
    assert len(animation.data) < 8 * 1024 * 1024
    first = rows(bot.db_path, "SELECT min(id) FROM games")[0][0]
    named = await ask(carol, "game", {"game_id": first}, subcommand="replay")
    (older,) = await named.wait_followups(1, timeout=30)
    assert f"game {first}" in older.content and older.attachments
    forged = await ask(carol, "game", {"game_id": 987654}, subcommand="replay")
    assert forged.ephemeral and "no game 987654" in forged.content and not forged.followups
    fake_discord.assert_no_unknown_routes()

    # the log is the source of truth: a rebuild, with the bot stopped, gives the same numbers
    await bot.kill()
    rebuilt = boardroom(
        "ratings", "--rebuild", cwd=tmp_path, env={"BOARDROOM_DB": str(bot.db_path), **NIM}
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "6 finished games" in rebuilt.stdout and "2 ratings" in rebuilt.stdout
    assert (
        rows(bot.db_path, "SELECT user_id, games, wins, mu, sigma FROM ratings ORDER BY user_id")
        == ratings
    )
    bot.assert_no_traceback()
    again = boardroom("ratings", cwd=tmp_path, env={"BOARDROOM_DB": str(bot.db_path), **NIM})
    assert again.returncode == 0 and "0 finished games recorded now; 2 ratings" in again.stdout
