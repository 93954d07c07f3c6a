"""Asynchronous play at scale: a database of 100,000 stored games of which 10,000 are running
with turn clocks (a share of them time banks), the real bot process against the fake Discord.

Every ``--resting``-th running game rests on two weekdays (``bot.service.rest_time``) in one of
a few time zones: the two days after the one its deadline falls on, so its stored deadline and
reminders are where the turn clock puts them (running time), and the vote its deadline opens
ends only after the rest (checked: none ends during it).

Besides, ``--away`` more running games have their player to move away (``/away``, counted in
their vacation budget) until that same second: their clocks stand still (no deadline, the time
they had left kept), and when the away periods end they run on with what they had left (checked:
each such game has its deadline back, that far ahead, and no vote opens on it).

Measured in one run: start-up time to ready (gateway READY and command sync), RSS at ready and
after the idle window, CPU of the bot process while idle for 60 s (nothing due), and the time to
handle 1,000 deadlines that fall due in the same second: each opens a vote whose message must
reach its channel (posts spread within Discord's rate limits by discord.py; none lost, none
doubled).

    python -m bench.async_play [--games 100000] [--running 10000] [--due 1000] [--idle 60]
                               [--resting 4] [--banks 0.5] [--away 250]

``--banks``: the share of games (running and due alike) whose clock is a time bank (3 days + 1
day a move, at most 7 days), each seat's bank holding between one and seven days.

The database is built directly with sqlite3 from one real game made through the service (its
state, seats, moves and post, copied with new ids), so building it takes seconds, not hours.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bench.e2e import cpu_seconds, rss_kib
from bot.service.clocks import TimeUnits, TurnClock
from bot.service.games import STATES_CHECKED, GameService
from bot.service.rest_time import RestCalendar, to_stored
from bot.storage.sqlite import SqliteStore
from engines.registry import encoding_fingerprint
from tests.e2e.conftest import BotProcess
from tests.fakediscord import FakeDiscordDriver

CLOCK = 24 * 3600
#: the bank games' clock: 3 days + 1 day a move, at most 7 days (``bank-3d``)
BANK_START, BANK_INCREMENT, BANK_CAP = 3 * CLOCK, CLOCK, 7 * CLOCK


def is_bank(i: int, share: float) -> bool:
    """Is game ``i`` one of the bank games (spread evenly over the running and the due ones)?"""
    return int((i + 1) * share) > int(i * share)


def bank_held(i: int) -> float:
    """What the bank of game ``i``'s player to move held when the turn began (1 to 7 days)."""
    return float(CLOCK * (1 + i % 7))


#: what the clock of an away player's turn had left when they went away
AWAY_LEFT = 6 * 3600.0


#: the zones of the resting tables (one each, in turn)
REST_ZONES = ("Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC")


def rest_calendar(i: int, due_at: float) -> RestCalendar:
    """Game ``i``'s rest: the two weekdays after the one ``due_at`` falls on in its zone."""
    zone = REST_ZONES[i % len(REST_ZONES)]
    day = datetime.fromtimestamp(due_at, ZoneInfo(zone)).weekday()
    return RestCalendar({(day + 1) % 7, (day + 2) % 7}, zone)


async def template(path: Path) -> dict[str, Any]:
    """One real started Can't Stop game with a 24 h clock, as stored rows."""
    async with SqliteStore(path) as store:
        service = GameService(store, turn_clock=TurnClock(units=TimeUnits()))
        lobby = await service.open_lobby(
            guild_id=1,
            channel_id=1,
            host_id=11,
            host_name="Ann",
            game="cantstop",
            clock_seconds=CLOCK,
        )
        await service.join(lobby.id, 12, "Ben")
        started = (await service.start(lobby.id, 11)).after
        await service.record_post(started.id, started.version, 1, 99)
    conn = sqlite3.connect(path)
    try:
        game = conn.execute("SELECT * FROM games").fetchone()
        names = [d[0] for d in conn.execute("SELECT * FROM games").description]
        seats = conn.execute("SELECT seat, user_id, display_name FROM seats").fetchall()
        moves = conn.execute("SELECT seq, seat, action, created_at FROM moves").fetchall()
    finally:
        conn.close()
    return {"game": dict(zip(names, game, strict=True)), "seats": seats, "moves": moves}


def build(
    path: Path,
    rows: dict[str, Any],
    *,
    games: int,
    running: int,
    due_channels: list[int],
    guild_id: int,
    due_at: float,
    resting: int = 0,
    banks: float = 0.0,
    away_channels: tuple[int, ...] = (),
) -> None:
    """``games`` stored games, the first ``running`` of them running with clocks (a ``banks``
    share of them time banks); the games of ``due_channels`` have their deadline at ``due_at``
    (and their reminders already sent); every ``resting``-th running game rests (0: none does);
    the games after those, one for each of ``away_channels``, have their player to move away
    until ``due_at`` (their clocks stopped with ``AWAY_LEFT`` to run; they never rest)."""
    g = rows["game"]
    now = time.time()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("DELETE FROM games")
    columns = [c for c in g if c != "id"]
    game_rows, seat_rows, move_rows, post_rows, timer_rows = [], [], [], [], []
    away_rows: list[tuple[int, int, float, float]] = []
    due = set(range(len(due_channels)))
    gone_to = {len(due_channels) + k: channel for k, channel in enumerate(away_channels)}
    for i in range(games):
        game_id = i + 1
        active = i < running
        channel = due_channels[i] if i in due else gone_to.get(i, 10_000_000 + i)
        # the others: reminders and deadlines later than the run (13 h to 23 h from now)
        deadline = due_at if i in due else now + 13 * 3600 + (i * 7.3) % (10 * 3600)
        bank = is_bank(i, banks)
        held = bank_held(i) if bank else float(CLOCK)  # what the clock held when the turn began
        gone = i in gone_to
        rests = active and not gone and resting and i % resting == 0
        calendar = rest_calendar(i, due_at) if rests else None
        turn_began = deadline - held
        if calendar is not None:  # where the turn clock puts them: rest skipped
            turn_began = deadline if i in due else now - 11 * 3600 + (i * 7.3) % (10 * 3600)
            if i not in due:
                deadline = calendar.deadline_after(turn_began, held)
        values = dict(g)
        values.update(
            channel_id=channel,
            guild_id=guild_id,
            status="active" if active else "finished",
            deadline=deadline if active and not gone else None,
            clock_left=AWAY_LEFT if gone else None,
            seed=1000 + i,
            rest_days=to_stored(calendar.days) if calendar else None,
            rest_timezone=calendar.timezone if calendar else None,
        )
        if bank:
            values.update(
                clock_seconds=BANK_START, bank_increment=BANK_INCREMENT, bank_cap=BANK_CAP
            )
        game_rows.append([game_id, *(values[c] for c in columns)])
        for seat, user, name in rows["seats"]:
            left = (held if seat == 0 else BANK_CAP - seat * 3600.0) if bank else None
            seat_rows.append((game_id, seat, user + 100 * i, name, left))
        for seq, seat, action, created in rows["moves"]:
            move_rows.append((game_id, seq, seat, action, created))
        post_rows.append((game_id, g["version"], channel, 5_000_000_000 + i))
        if gone:  # the clock stopped when they went away; it runs again at ``due_at``
            away_rows.append((guild_id, 11 + 100 * i, now - 3600.0, due_at))
            timer_rows.append((due_at, "away_end", None, guild_id, 11 + 100 * i, 0, "{}"))
        elif active:
            timer_rows.append(
                (
                    deadline,
                    "deadline",
                    game_id,
                    guild_id,
                    11 + 100 * i,
                    g["version"],
                    json.dumps({"seat": 0}),
                )
            )
            if i not in due:
                for fraction in (0.5, 0.9):
                    reminder = deadline - (1 - fraction) * held
                    if calendar is not None:
                        reminder = calendar.deadline_after(turn_began, fraction * held)
                    if reminder <= now:
                        continue  # (a bank that held days: this one was sent already)
                    timer_rows.append(
                        (
                            reminder,
                            "reminder",
                            game_id,
                            guild_id,
                            11 + 100 * i,
                            g["version"],
                            json.dumps({"seat": 0, "percent": round(fraction * 100)}),
                        )
                    )
    marks = ", ".join("?" for _ in range(len(columns) + 1))
    conn.executemany(f"INSERT INTO games (id, {', '.join(columns)}) VALUES ({marks})", game_rows)  # noqa: S608
    conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name, bank_left)"
        " VALUES (?, ?, ?, ?, ?)",
        seat_rows,
    )
    conn.executemany(
        "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
        move_rows,
    )
    conn.executemany(
        "INSERT INTO posts (game_id, version, channel_id, message_id) VALUES (?, ?, ?, ?)",
        post_rows,
    )
    for table in ("away", "away_periods"):
        conn.executemany(
            f"INSERT INTO {table} (guild_id, user_id, since, until) VALUES (?, ?, ?, ?)",  # noqa: S608
            away_rows,
        )
    conn.executemany(
        "INSERT INTO timers (due, kind, game_id, guild_id, user_id, version, data)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        timer_rows,
    )
    # as a database this version has served before: its states checked against these engines,
    # the finished games' outcomes recorded (a first start after an upgrade does both once)
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        (STATES_CHECKED, encoding_fingerprint()),
    )
    conn.executemany(
        "INSERT INTO game_outcomes (game_id, guild_id, game, rated, finished_at)"
        " VALUES (?, ?, ?, 0, ?)",
        [(i + 1, guild_id, g["game"], g["updated_at"]) for i in range(running, games)],
    )
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="bench-async-"))
    driver = FakeDiscordDriver(global_rate_limit=args.rate_limit)
    await driver.start()
    try:
        guild = await driver.add_guild("Bench")
        channels = [(await driver.add_channel(guild, f"t{i}")).id for i in range(args.due)]
        away_channels = [(await driver.add_channel(guild, f"a{i}")).id for i in range(args.away)]
        db = workdir / "boardroom.db"
        rows = await template(workdir / "template.db")
        async with SqliteStore(db):
            pass  # the schema, migrated
        # the deadlines fall due after start-up and the idle window
        due_at = time.time() + args.startup_budget + args.idle + 5
        started = time.perf_counter()
        build(
            db,
            rows,
            games=args.games,
            running=args.running,
            due_channels=channels,
            guild_id=guild.id,
            due_at=due_at,
            resting=args.resting,
            banks=args.banks,
            away_channels=tuple(away_channels),
        )
        built = time.perf_counter() - started
        bot = BotProcess(
            driver=driver,
            guild=guild,
            workdir=workdir,
            db_path=db,
            log_path=workdir / "bot.log",
            extra_env={"LOG_LEVEL": "WARNING"},
        )
        t0 = time.perf_counter()
        await bot.start(timeout=120.0)
        ready = time.perf_counter() - t0
        assert bot.pid is not None
        pid = bot.pid
        rss_ready = rss_kib(pid)
        await asyncio.sleep(2.0)  # let start-up work (the first sweep, caches) settle
        cpu_before, wall_before = cpu_seconds(pid), time.perf_counter()
        await asyncio.sleep(min(args.idle, max(0.0, due_at - time.time() - 2)))
        cpu_after, wall_after = cpu_seconds(pid), time.perf_counter()
        idle_cpu = 100 * ((cpu_after or 0) - (cpu_before or 0)) / (wall_after - wall_before)
        rss_idle = rss_kib(pid)
        # the 1,000 deadlines: wait until every vote message is in its channel
        await asyncio.sleep(max(0.0, due_at - time.time()))
        fired = time.time()

        def votes() -> list[int]:
            return [
                len([m for m in driver.channel_messages(c) if "ran out" in m.content])
                for c in channels
            ]

        def due_clocks() -> dict[int, tuple[float | None, float | None]]:
            """(deadline, clock left) of each game falling due or coming back, by its index."""
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                found = conn.execute(
                    "SELECT id, deadline, clock_left FROM games WHERE id <= ?",
                    (args.due + args.away,),
                ).fetchall()
            finally:
                conn.close()
            return {game_id - 1: (deadline, left) for game_id, deadline, left in found}

        def clocks_back() -> list[float]:
            """The deadlines of the away games whose clocks run again."""
            clocks = due_clocks()
            return [
                deadline
                for i in away_games
                for deadline, left in (clocks[i],)
                if deadline is not None and left is None
            ]

        away_games = range(args.due, args.due + args.away)
        expected = args.due
        while time.time() - fired < args.timeout and (
            sum(1 for v in votes() if v) < expected or len(clocks_back()) < len(away_games)
        ):
            await asyncio.sleep(0.25)
        counts = votes()
        handled = time.time() - fired
        # the away games: their clocks run on with what they had left, nobody votes on them
        runs_on = [
            d for d in clocks_back() if due_at + AWAY_LEFT <= d <= fired + handled + AWAY_LEFT
        ]
        away_votes = sum(
            1 for c in away_channels for m in driver.channel_messages(c) if "ran out" in m.content
        )
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        still_away = conn.execute("SELECT COUNT(*) FROM away").fetchone()[0]
        opened = conn.execute("SELECT COUNT(*) FROM votes").fetchone()[0]
        bank_votes = conn.execute(
            "SELECT COUNT(*) FROM votes v JOIN games g ON g.id = v.game_id"
            " WHERE g.bank_cap IS NOT NULL"
        ).fetchone()[0]
        bank_games = conn.execute(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND bank_cap IS NOT NULL"
        ).fetchone()[0]
        resting_games = conn.execute(
            "SELECT COUNT(*) FROM games WHERE rest_days IS NOT NULL"
        ).fetchone()[0]
        resting_vote_ends = conn.execute(
            "SELECT g.id, t.due FROM timers t JOIN games g ON g.id = t.game_id"
            " WHERE t.kind = 'vote_end' AND g.rest_days IS NOT NULL"
        ).fetchall()
        conn.close()
        # each ends one running clock period (24 h) after its deadline, its two rest days later
        in_rest = [
            game_id
            for game_id, vote_end in resting_vote_ends
            if rest_calendar(game_id - 1, due_at).resting_until(vote_end) is not None
        ]
        moved = [
            game_id
            for game_id, vote_end in resting_vote_ends
            if vote_end >= due_at + CLOCK + 24 * 3600  # past at least one whole rest day
        ]
        rate_limited = len([r for r in driver.requests if getattr(r, "status", 0) == 429])
        await bot.terminate()
        return {
            "games": args.games,
            "running": args.running,
            "due": args.due,
            "running_bank_games": bank_games,
            "build_s": round(built, 1),
            "startup_s": round(ready, 2),
            "rss_ready_mb": round((rss_ready or 0) / 1024, 1),
            "rss_idle_mb": round((rss_idle or 0) / 1024, 1),
            "idle_window_s": round(wall_after - wall_before, 1),
            "idle_cpu_pct": round(idle_cpu, 2),
            "deadlines_handled_s": round(handled, 1),
            "votes_opened": opened,
            "bank_votes_opened": bank_votes,
            "resting_games": resting_games,
            "resting_votes": len(resting_vote_ends),
            "resting_vote_ends_after_rest": len(moved),
            "resting_vote_ends_in_rest": len(in_rest),
            "away_games": len(away_games),
            "away_clocks_running_on": len(runs_on),
            "away_votes": away_votes,
            "still_away": still_away,
            "vote_messages": sum(counts),
            "channels_with_one_vote": sum(1 for c in counts if c == 1),
            "channels_expected_to_vote": expected,
            "channels_with_more": sum(1 for c in counts if c > 1),
            "rate_limited_responses": rate_limited,
            "unknown_routes": len(driver.unknown_routes),
        }
    finally:
        await driver.stop()


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--running", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=1_000)
    parser.add_argument("--idle", type=float, default=60.0)
    parser.add_argument("--banks", type=float, default=0.5, help="share of time bank games")
    parser.add_argument("--startup-budget", type=float, default=30.0)
    parser.add_argument(
        "--resting", type=int, default=4, help="every n-th running game rests (0: none)"
    )
    parser.add_argument(
        "--away",
        type=int,
        default=250,
        help="running games whose player to move is away until the deadlines fall due",
    )
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument(
        "--rate-limit", type=int, default=50, help="the fake's global limit, requests per second"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    result = asyncio.run(run(arguments(argv)))
    print(json.dumps(result, indent=2))
    return 0 if ok(result) else 1


def ok(result: dict[str, Any]) -> bool:
    """Every vote due opened once, every away game's clock ran on without one, no rest broken,
    and nothing was refused for going over Discord's rate limits."""
    expected = result["channels_expected_to_vote"]
    return (
        result["votes_opened"] == expected
        and result["channels_with_one_vote"] == expected
        and not result["channels_with_more"]
        and result["away_clocks_running_on"] == result["away_games"]
        and not result["away_votes"]
        and not result["still_away"]
        and not result["rate_limited_responses"]
        and not result["resting_vote_ends_in_rest"]
        and result["resting_vote_ends_after_rest"] == result["resting_votes"]
    )


if __name__ == "__main__":
    raise SystemExit(main())
