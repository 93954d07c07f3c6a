"""The digest across servers at scale: 10,000 players whose daily digest falls due in the same
second (the worst case: all chose the same time), the real bot process against the fake Discord
with Discord's global limit of 50 requests a second.

Each player is to move in a game on one server, every second player in one on another server
too, so a digest lists one or two games from two servers; every hundredth player has closed DMs
and gets the fallback (a mention in each game's channel). Measured in one run: how long the run
takes from the moment the digests fall due until the last one is delivered, the most requests
the fake took in any one second (all of them, and DM channel creations alone), how many were
refused with 429, and that every player got exactly one digest (or one fallback per game).

    python -m bench.digest [--players 10000] [--rate-limit 50] [--timeout 1800] [--next-day]

``--next-day`` then restarts the bot and runs the next day's digests, whose DM channels are
known by then (one request a player instead of two).

The database is built directly with sqlite3 from one real game made through the service (as
``bench.async_play`` does), so building it takes seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.async_play import template
from bot.service.digest import DIGEST
from bot.service.games import STATES_CHECKED
from bot.storage.sqlite import SqliteStore
from engines.registry import encoding_fingerprint
from tests.e2e.conftest import BotProcess
from tests.fakediscord import FakeDiscordDriver

#: every this-many-th player has closed DMs (and gets the fallback in each game's channel)
CLOSED_EVERY = 100


def build(
    path: Path,
    rows: dict[str, Any],
    players: list[int],
    rival: int,
    places: list[tuple[int, int]],
    due_at: float,
) -> dict[int, list[tuple[int, int]]]:
    """A game for each of ``places`` ((guild, channel), in the order of the players' games) and
    each player's digest due at ``due_at``; returns each player's games' places."""
    g = rows["game"]
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    columns = [c for c in g if c != "id"]
    game_rows, seat_rows, move_rows, post_rows, settings_rows, timer_rows = [], [], [], [], [], []
    games_of: dict[int, list[tuple[int, int]]] = {}
    place = iter(places)
    game_id = 0
    for number, player in enumerate(players):
        count = 2 if number % 2 == 0 else 1
        for _ in range(count):
            game_id += 1
            guild_id, channel_id = next(place)
            games_of.setdefault(player, []).append((guild_id, channel_id))
            values = dict(g)
            values.update(
                guild_id=guild_id,
                channel_id=channel_id,
                seed=1000 + game_id,
                deadline=due_at + 12 * 3600,
            )
            game_rows.append([game_id, *(values[c] for c in columns)])
            for seat, _user, name in rows["seats"]:
                seat_rows.append((game_id, seat, player if seat == 0 else rival, name))
            for seq, seat, action, created in rows["moves"]:
                move_rows.append((game_id, seq, seat, action, created))
            post_rows.append((game_id, g["version"], channel_id, 5_000_000_000 + game_id))
        settings_rows.append((player, "UTC", "daily", "08:00", "en", "t0"))
        timer_rows.append((due_at, DIGEST, player, json.dumps({"moment": due_at})))
    marks = ", ".join("?" for _ in range(len(columns) + 1))
    conn.executemany(f"INSERT INTO games (id, {', '.join(columns)}) VALUES ({marks})", game_rows)  # noqa: S608
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)", seat_rows
    )
    conn.executemany(
        "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
        move_rows,
    )
    conn.executemany(
        "INSERT INTO posts (game_id, version, channel_id, message_id) VALUES (?, ?, ?, ?)",
        post_rows,
    )
    conn.executemany(
        "INSERT INTO player_settings (user_id, timezone, digest, digest_at, digest_locale,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        settings_rows,
    )
    conn.executemany(
        "INSERT INTO timers (due, kind, user_id, data) VALUES (?, ?, ?, ?)", timer_rows
    )
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (STATES_CHECKED, encoding_fingerprint()),
    )
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return games_of


def dms_by_user(driver: FakeDiscordDriver) -> dict[int, list[Any]]:
    """Every player's direct messages, in one pass over the fake's channels (asking the driver
    player by player would walk every channel for each: too slow for the fake's own loop)."""
    return {
        chan.recipient.id: driver.fake.channel_messages(chan.id)
        for chan in driver.fake.channels.values()
        if chan.is_dm and chan.recipient is not None
    }


def busiest_second(stamps: list[float]) -> int:
    """The most of ``stamps`` (seconds) within any one second."""
    stamps = sorted(stamps)
    most, first = 0, 0
    for last, stamp in enumerate(stamps):
        while stamp - stamps[first] >= 1.0:
            first += 1
        most = max(most, last - first + 1)
    return most


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-digest-"))
    driver = FakeDiscordDriver(global_rate_limit=args.rate_limit)
    await driver.start()
    try:
        north, south = await driver.add_guild("North"), await driver.add_guild("South")
        rival = driver.add_user("Rival")
        users = [driver.add_user(f"p{i}") for i in range(args.players)]
        closed = {u.id for i, u in enumerate(users) if i % CLOSED_EVERY == CLOSED_EVERY - 1}
        for user_id in closed:
            driver.close_dms(driver.fake.users[user_id])
        # the players with closed DMs play in real channels (their fallback goes there); the
        # others' channels are only named in links
        places: list[tuple[int, int]] = []
        for number, user in enumerate(users):
            for k in range(2 if number % 2 == 0 else 1):
                guild = north if k == 0 else south
                if user.id in closed:
                    channel = await driver.add_channel(guild, f"c{number}-{k}")
                    places.append((guild.id, channel.id))
                else:
                    places.append((guild.id, 7_000_000_000 + 2 * number + k))
        db = workdir / "boardroom.db"
        rows = await template(workdir / "template.db")
        async with SqliteStore(db):
            pass  # the schema, migrated
        due_at = time.time() + args.startup_budget
        started = time.perf_counter()
        games_of = build(db, rows, [u.id for u in users], rival.id, places, due_at)
        built = time.perf_counter() - started
        bot = BotProcess(
            driver=driver,
            guild=north,
            workdir=workdir,
            db_path=db,
            log_path=workdir / "bot.log",
            extra_env={"LOG_LEVEL": "WARNING"},
        )
        t0 = time.perf_counter()
        await bot.start(timeout=120.0)
        ready = time.perf_counter() - t0
        open_players = [u for u in users if u.id not in closed]
        fallback_channels = [c for u in users if u.id in closed for _, c in games_of[u.id]]

        def delivered() -> tuple[int, int]:
            received = dms_by_user(driver)
            dms = sum(1 for u in open_players if received.get(u.id))
            posts = sum(1 for c in fallback_channels if driver.channel_messages(c))
            return dms, posts

        await asyncio.sleep(max(0.0, due_at - time.time()))
        fired_wall, fired = time.time(), time.monotonic()
        while time.time() - fired_wall < args.timeout:
            if delivered() == (len(open_players), len(fallback_channels)):
                break
            await asyncio.sleep(0.5)
        took = time.monotonic() - fired
        await asyncio.sleep(2.0)  # anything doubled would show now
        received = dms_by_user(driver)
        dm_counts = Counter(len(received.get(u.id, [])) for u in open_players)
        post_counts = Counter(len(driver.channel_messages(c)) for c in fallback_channels)
        lists = Counter(
            sum(1 for line in received[u.id][0].content.splitlines() if "](https://" in line)
            for u in open_players
            if received.get(u.id)
        )
        first_day = traffic(driver, fired)
        await bot.terminate()
        result = {
            "players": args.players,
            "closed_dms": len(closed),
            "games": sum(len(v) for v in games_of.values()),
            "build_s": round(built, 1),
            "startup_s": round(ready, 2),
            "run_s": round(took, 1),
            **first_day,
            "players_with_one_digest": dm_counts.get(1, 0),
            "players_with_more": sum(n for k, n in dm_counts.items() if k > 1),
            "players_with_none": dm_counts.get(0, 0),
            "digests_listing": dict(sorted(lists.items())),
            "fallback_channels": len(fallback_channels),
            "fallback_channels_with_one": post_counts.get(1, 0),
            "fallback_channels_with_more": sum(n for k, n in post_counts.items() if k > 1),
            "contract_violations": len(driver.fake.violations),
            "unknown_routes": len(driver.unknown_routes),
        }
        if args.next_day:
            # the next day's digests (the bot restarted in between): the DM channels are known
            again = time.time() + args.startup_budget
            conn = sqlite3.connect(db)
            conn.execute(
                "UPDATE timers SET due = ?, data = ? WHERE kind = ?",
                (again, json.dumps({"moment": again}), DIGEST),
            )
            conn.commit()
            conn.close()
            await bot.start(timeout=120.0)
            await asyncio.sleep(max(0.0, again - time.time()))
            fired_wall, fired = time.time(), time.monotonic()
            while time.time() - fired_wall < args.timeout:
                received = dms_by_user(driver)
                if all(len(received.get(u.id, [])) >= 2 for u in open_players):
                    break
                await asyncio.sleep(0.5)
            took = time.monotonic() - fired
            await asyncio.sleep(2.0)
            received = dms_by_user(driver)
            counts = Counter(len(received.get(u.id, [])) for u in open_players)
            result["next_day"] = {
                "run_s": round(took, 1),
                **traffic(driver, fired),
                "players_with_two_digests": counts.get(2, 0),
                "players_with_more": sum(n for k, n in counts.items() if k > 2),
                # within a day of the first: a channel hears of a game once a day at most
                "fallback_channels_with_one": sum(
                    1 for c in fallback_channels if len(driver.channel_messages(c)) == 1
                ),
            }
            await bot.terminate()
        return result
    finally:
        await driver.stop()


def traffic(driver: FakeDiscordDriver, since: float) -> dict[str, Any]:
    """The requests the fake took from ``since`` (monotonic) on: how many, the most in any one
    second, the median a second, the DM channels opened, the 429s."""
    requests = [r for r in driver.requests if r.started >= since - 1.0]
    stamps = [r.started for r in requests]
    openings = [r.started for r in requests if r.path.endswith("/users/@me/channels")]
    span = max(stamps) - min(stamps) if stamps else 0.0
    by_second = Counter(int(s - min(stamps)) for s in stamps)
    per_second = [by_second.get(second, 0) for second in range(int(span) + 1)]
    return {
        "requests": len(requests),
        "requests_per_s_max": busiest_second(stamps),
        "requests_per_s_median": statistics.median(per_second) if per_second else 0,
        "dm_channels_created": len(openings),
        "dm_channels_per_s_max": busiest_second(openings),
        "rate_limited_responses": sum(1 for r in requests if r.status == 429),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--startup-budget", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument(
        "--next-day", action="store_true", help="then the next day's digests, channels known"
    )
    parser.add_argument(
        "--rate-limit", type=int, default=50, help="the fake's global limit, requests per second"
    )
    args = parser.parse_args(argv)
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    return 0 if ok(result) else 1


def ok(result: dict[str, Any]) -> bool:
    """Every player got one digest (or one fallback per game), none twice, within the limit."""
    open_players = result["players"] - result["closed_dms"]
    day = result.get("next_day")
    if day is not None and not (
        day["players_with_two_digests"] == open_players
        and day["players_with_more"] == 0
        and day["rate_limited_responses"] == 0
        and day["fallback_channels_with_one"] == result["fallback_channels"]
    ):
        return False
    return (
        result["players_with_one_digest"] == open_players
        and result["players_with_more"] == 0
        and result["fallback_channels_with_one"] == result["fallback_channels"]
        and result["rate_limited_responses"] == 0
        and result["contract_violations"] == 0
        and result["unknown_routes"] == 0
    )


if __name__ == "__main__":
    raise SystemExit(main())
