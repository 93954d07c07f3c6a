"""The ``boardroom`` command and its ten subcommands, in four groups:

- the bot: ``run`` (connect to Discord; needs ``DISCORD_TOKEN``) and ``health`` (exit 0 while
  the running bot is ready: its ``/readyz``, else its heartbeat's age; the container's check);
- the database: ``migrate`` (create or upgrade it), ``backup`` (a safe copy while the bot runs),
  ``copy-db`` (every game between a SQLite file and PostgreSQL) and ``ratings`` (rate finished
  games not rated yet, or ``--rebuild`` them all);
- an exported game: ``verify`` (its seed and every chance step) and ``replay`` (its boards);
- without Discord: ``play`` (a hot-seat game in the terminal) and ``demo`` (watch random or
  computer players), through the same service and SQLite storage as the bot, so a newcomer
  without a token sees the product work; each board is written as a PNG.

Every subcommand first registers the games ``BOARDROOM_GAMES`` names and checks every game
(``bot/games.py``), so a game that lacks a part stops the command with what it lacks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.games import GameSetupError, load_games
from bot.present import get_presenter
from bot.present.base import final_scores
from bot.service.errors import UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.settings import BadSetting, MissingSetting, Settings, heartbeat_path
from bot.storage import is_postgres_url, open_store
from bot.storage.sqlite import SqliteStore
from bot.table_args import BadArguments, TableArgs, boards_folder, table_args
from engines.base import CHANCE
from engines.bots import get_bot
from engines.registry import game_names, get_engine
from engines.rng import Rng
from i18n import join_list, t, translator
from render import describe, render_png

CHANNEL = 1  # the terminal is one "channel"
LOCALE = "en"


_MARKDOWN = re.compile(r"\*\*|__|~~|`")


def plain(text: str) -> str:
    """A catalogue sentence without the Discord markdown (bold, underline, code) it carries."""
    return _MARKDOWN.sub("", text)


def game_folder(out: Path, snap: GameSnapshot, db: Path | None) -> Path:
    """Each game its own folder of boards: the same one when a game in ``db`` resumes."""
    if db is not None:
        return out / f"{db.stem}-{snap.game}-{snap.id}"
    number = 1
    while (out / f"{snap.game}-{number}").exists():
        number += 1
    return out / f"{snap.game}-{number}"


def choices(snap: GameSnapshot) -> list[tuple[str, str]]:
    """(action, words) for every legal action, with the labels of the Discord buttons."""
    from bot.present.base import Button

    legal = set(snap.legal)
    found: dict[str, str] = {}
    for row in get_presenter(snap.game).controls(snap.state, snap.legal, LOCALE).rows:
        for control in row:
            if isinstance(control, Button):
                label = f"{control.emoji} {control.label}" if control.emoji else control.label
                items = [(control.action, label)]
            else:
                items = [
                    (o.action, f"{o.label} ({o.description})" if o.description else o.label)
                    for o in control.options
                ]
            for action, label in items:
                if action in legal and action not in found:
                    found[action] = plain(label)
    return [(code, found.get(code, code)) for code in snap.legal]


class Table:
    """Drives one game through the service for the terminal commands."""

    def __init__(
        self,
        service: GameService,
        out: Path | None,
        echo: Callable[[str], None],
        db: Path | None = None,
        *,
        position: bool = False,
    ) -> None:
        self.service, self.out, self.echo, self.db = service, out, echo, db
        self.folder: Path | None = None
        #: say the position in words (the boards' alt text) whenever a person is to move
        self.position = position

    async def open(
        self,
        game: str,
        players: Sequence[str],
        options: dict[str, str],
        bots: Sequence[tuple[str, str]] = (),
    ) -> GameSnapshot:
        lobby = await self.service.open_lobby(
            guild_id=None,
            channel_id=CHANNEL,
            host_id=1,
            host_name=players[0],
            game=game,
            options=options,
            players=len(players) + len(bots),
        )
        for index, name in enumerate(players[1:], start=2):
            await self.service.join(lobby.id, index, name)
        for name, level in bots:
            await self.service.add_bot(lobby.id, 1, level, name)
        outcome = await self.service.start(lobby.id, 1)
        self.show(outcome)
        return outcome.after

    def show(self, outcome: Outcome | GameSnapshot) -> None:
        snap = outcome.after if isinstance(outcome, Outcome) else outcome
        presenter = get_presenter(snap.game)
        names = [s.name for s in snap.seats]
        if isinstance(outcome, Outcome) and outcome.before.state is not None:
            for line in presenter.events(
                outcome.before.state, outcome.moves, snap.state, names, LOCALE
            ):
                self.echo(plain(line))
        if self.out is not None:
            if self.folder is None:
                self.folder = game_folder(self.out, snap, self.db)
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / f"{snap.version:04d}.png"
            path.write_bytes(render_png(snap.game, snap.state, translator(LOCALE), names=names))
            self.echo(t(LOCALE, "cli.wrote", path=path))
        people_move = snap.to_move is not None and not snap.seats[snap.to_move].is_bot
        if self.position and (people_move or snap.status != "active"):
            self.echo(describe(snap.game, snap.state, translator(LOCALE), names=names))
        if people_move:
            self.echo(plain(presenter.prompt(snap.state, names, LOCALE)))

    def result(self, snap: GameSnapshot) -> str:
        names = [s.name for s in snap.seats]
        winners = join_list(LOCALE, [names[w] for w in snap.winners])
        scores = final_scores(LOCALE, snap.game, names, snap.scores)
        return t(LOCALE, "cli.result", winners=winners, scores=scores)


async def _with_service(
    db: Path | None, seed: int | None, work: Callable[[GameService], object]
) -> int:
    problem = database_problem(db) if db is not None else None
    if problem:
        print(problem, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        path = db or Path(scratch) / "boardroom.db"
        async with SqliteStore(path) as store:
            kwargs = {"new_seed": (lambda: seed)} if seed is not None else {}
            service = GameService(store, **kwargs)
            try:
                return int(await work(service))  # type: ignore[misc]
            except UserFacingError as error:  # a bad --players or --option: say so in words
                from bot.adapter.words import error_text

                print(plain(error_text(LOCALE, error)), file=sys.stderr)
                return 2


async def resume_or_open(
    table: Table, args: argparse.Namespace, seats: TableArgs
) -> GameSnapshot | None:
    """The running game of the ``--db`` database, else a new one; None when it is another game."""
    from bot.service.errors import NoActiveGame

    try:
        snap = await table.service.current(CHANNEL)
    except NoActiveGame:
        return await table.open(seats.game, seats.people, seats.options, seats.bots)
    if snap.status == "lobby":  # a table that never started: set it aside and open a new one
        await table.service.cancel(snap.id, snap.host_id)
        return await table.open(seats.game, seats.people, seats.options, seats.bots)
    if snap.game != args.game:
        print(t(LOCALE, "cli.play.other_game", db=args.db, game=snap.game), file=sys.stderr)
        return None
    moves = len(await table.service.history(snap.id))
    print(t(LOCALE, "cli.play.resumed", db=args.db, count=moves))
    table.show(snap)
    return snap


def cmd_play(args: argparse.Namespace) -> int:
    """A game in the terminal: people take turns at the keyboard, computer seats play themselves."""
    from bot.service.bots import bot_to_move, play_bot_turn

    table_of = table_args(args, keyboard=True)
    db = Path(args.db) if args.db else None

    async def work(service: GameService) -> int:
        table = Table(service, table_of.out, print, db, position=True)
        found = await resume_or_open(table, args, table_of)
        if found is None:
            return 2
        snap = found
        print(t(LOCALE, "cli.play.help"))
        while snap.status == "active":
            if bot_to_move(snap) is not None:
                turn = await play_bot_turn(service, snap.id)
                if turn is None:
                    snap = await service.game(snap.id)
                    continue
                table.show(turn.outcome)
                snap = turn.outcome.after
                continue
            listed = choices(snap)
            for number, (_, words) in enumerate(listed, start=1):
                print(f"  {number:2d}. {words}")
            print(t(LOCALE, "cli.choose"), end=" ", flush=True)
            line = sys.stdin.readline()
            text = line.strip()
            if not line or text.lower() in ("quit", "exit", "q"):
                print()
                print(t(LOCALE, "cli.play.saved" if db else "cli.play.stopped", db=db or ""))
                return 0
            if text.lower() in ("help", "?", "h"):
                print(t(LOCALE, "cli.play.help"))
                continue
            number = int(text) if text.isdigit() else 0
            code = listed[number - 1][0] if 0 < number <= len(listed) else text
            user = snap.seats[snap.to_move].user_id if snap.to_move is not None else 0
            try:
                outcome = await service.act(snap.id, user or 0, code, snap.version)
            except UserFacingError:
                print(t(LOCALE, "cli.invalid", text=text))
                continue
            table.show(outcome)
            snap = outcome.after
        print(table.result(snap))
        return 0

    return asyncio.run(_with_service(db, args.seed, work))


def cmd_demo(args: argparse.Namespace) -> int:
    """A whole game between random legal players (``--players``) and computer opponents
    (``--bots``), each seat's choice made here."""
    seats = table_args(args, keyboard=False)
    players: list[tuple[str, Any]] = [(name, None) for name in seats.people]
    players += [(name, get_bot(args.game, level)) for name, level in seats.bots]
    names = [name for name, _ in players]
    engine = get_engine(args.game)

    async def work(service: GameService) -> int:
        table = Table(service, seats.out, print)
        snap = await table.open(args.game, names, seats.options)
        step = 0
        while snap.status == "active":
            rng = Rng.for_step(args.seed, 1_000_000 + step)  # the players' own choices
            bot = players[snap.to_move][1] if snap.to_move is not None else None
            if bot is None:
                code = rng.choice(snap.legal)
            else:
                code = engine.encode_action(bot.choose(engine, snap.state, rng))
            user = snap.seats[snap.to_move].user_id if snap.to_move is not None else 0
            outcome = await service.act(snap.id, user or 0, code, snap.version)
            table.show(outcome)
            snap = outcome.after
            step += 1
        print(table.result(snap))
        return 0

    return asyncio.run(_with_service(None, args.seed, work))


def load_settings(*, need_token: bool) -> Settings:
    """Settings from the environment; a missing or malformed one stops here with its name."""
    try:
        return Settings.from_env(need_token=need_token)
    except MissingSetting:
        message = t(LOCALE, "cli.missing_token")
    except BadSetting as bad:
        message = t(LOCALE, f"cli.bad_setting.{bad.expected}", name=bad.name, value=bad.value)
    print(message, file=sys.stderr)
    raise SystemExit(2)


def database_problem(path: Path) -> str | None:
    """Why the database file cannot be opened for writing, in words; None when it can."""
    import sqlite3

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path)
        try:
            connection.execute("BEGIN IMMEDIATE")  # takes the write lock: fails when read-only
            connection.rollback()
        finally:
            connection.close()
    except (OSError, sqlite3.Error) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return t(LOCALE, "cli.db_unwritable", path=path, reason=reason)
    return None


def usable_database(settings: Settings) -> Path:
    """The settings' database, or a sentence and exit 2 when it is off the volume or unwritable."""
    if settings.db_url:  # PostgreSQL: the folder of the heartbeat must exist
        settings.database.parent.mkdir(parents=True, exist_ok=True)
        return settings.database
    if settings.database_off_volume():
        where = os.path.abspath(settings.database)
        print(t(LOCALE, "cli.db_off_volume", path=where), file=sys.stderr)
        raise SystemExit(2)
    problem = database_problem(settings.database)
    if problem:
        print(problem, file=sys.stderr)
        raise SystemExit(2)
    return settings.database


def cmd_run(args: argparse.Namespace) -> int:
    import aiohttp
    import discord

    from bot.logs import setup_logging

    settings = load_settings(need_token=True)
    usable_database(settings)
    setup_logging(settings.log_level, settings.token, log_format=settings.log_format)
    from bot.adapter.client import run_bot
    from bot.storage.base import StoreUnavailable

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_bot(settings))
    except StoreUnavailable as error:  # PostgreSQL not reachable at start-up
        where = shown_database(settings.store_target)
        print(t(LOCALE, "cli.db_unreachable", where=where, reason=error), file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, ConnectionError, TimeoutError) as error:
        url = settings.api_base or "https://discord.com"
        print(t(LOCALE, "cli.unreachable", url=url, reason=error), file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(t(LOCALE, "cli.bad_token"), file=sys.stderr)
        return 2
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    settings = load_settings(need_token=False)
    usable_database(settings)

    async def work() -> None:
        target = settings.store_target
        async with open_store(target, synchronous=settings.synchronous) as store:
            await GameService(store).upgrade_stored_states(force=True)

    asyncio.run(work())
    print(shown_database(settings.store_target))
    return 0


def shown_database(target: str | Path) -> str:
    """A database as it may be printed: a URL without its password."""
    if not is_postgres_url(target):
        return str(target)
    parts = urlsplit(str(target))
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    user = f"{parts.username}@" if parts.username else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


async def unverified_games(store: Any) -> list[int]:
    """The games of a store whose move log does not replay to the stored state."""
    service = GameService(store)
    bad = []
    for (game_id,) in await store.table_rows("games", ["id"]):
        try:
            ok = await service.verify(game_id)
        except Exception:  # a game not loaded here, a state it cannot read: not verified
            ok = False
        if not ok:
            bad.append(game_id)
    return bad


def cmd_copy_db(args: argparse.Namespace) -> int:
    """Copy every game (seats, moves, posts, settings) between SQLite and PostgreSQL."""
    from bot.storage.base import StoreUnavailable
    from bot.storage.copy import CopyFailed, CopyRefused, copy_database

    source, target = shown_database(args.source), shown_database(args.target)
    try:
        report = asyncio.run(copy_database(args.source, args.target, unverified_games))
    except CopyRefused as refused:
        games = join_list(LOCALE, [str(g) for g in refused.games])
        print(
            t(LOCALE, f"cli.copy.{refused.reason}", source=source, target=target, games=games),
            file=sys.stderr,
        )
        return 2
    except CopyFailed as failed:
        games = join_list(LOCALE, [str(g) for g in failed.games]) or "-"
        tables = join_list(LOCALE, list(failed.tables)) or "-"
        print(t(LOCALE, "cli.copy.failed", target=target, games=games, tables=tables),
              file=sys.stderr)
        return 1
    except (StoreUnavailable, OSError) as error:
        print(t(LOCALE, "cli.copy.unreachable", where=f"{source} / {target}", reason=error),
              file=sys.stderr)
        return 1
    print(t(LOCALE, "cli.copy.done", source=source, target=target, count=report.games))
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    """Record finished games not rated yet; with ``--rebuild``, recompute every result and
    rating from the move logs (the bot may keep running: one write transaction swaps them)."""
    from bot.service import ratings

    settings = load_settings(need_token=False)
    usable_database(settings)

    async def work() -> tuple[int, int]:
        async with SqliteStore(settings.database, synchronous=settings.synchronous) as store:
            await GameService(store).upgrade_stored_states()
            done = await (ratings.rebuild if args.rebuild else ratings.record_unrecorded)(store)
            return done, len(await store.all_ratings())

    games, rated = asyncio.run(work())
    key = "cli.ratings.rebuilt" if args.rebuild else "cli.ratings.recorded"
    print(t(LOCALE, key, count=games, ratings=rated))
    return 0


#: a heartbeat older than this means the bot has lost Discord or stopped (it beats every 30 s)
HEALTHY_AGE = 120


def ready_over_http(settings: Settings) -> int:
    """``/readyz`` of the running bot (``bot.ops.health``): one line per failed check."""
    import json
    import urllib.error
    import urllib.request

    host = settings.metrics_host if settings.metrics_host not in ("0.0.0.0", "::") else "127.0.0.1"
    url = f"http://{host}:{settings.metrics_port}/readyz"
    try:
        with urllib.request.urlopen(url, timeout=8) as answer:
            checks = json.load(answer)
    except urllib.error.HTTPError as refused:
        checks = json.load(refused)
    except (OSError, ValueError) as error:
        print(t(LOCALE, "cli.health.no_answer", url=url, reason=error))
        return 1
    failed = [name for name, passed in checks.items() if not passed]
    for name in failed:
        print(t(LOCALE, f"cli.health.unready.{name}"))
    if not failed:
        print(t(LOCALE, "cli.health.ready"))
    return 1 if failed else 0


def cmd_health(args: argparse.Namespace) -> int:
    """One line, healthy or why not; exit 0 while the bot is ready (the HEALTHCHECK). With
    BOARDROOM_METRICS_PORT, the bot's own ``/readyz`` says so; else its heartbeat file's age."""
    import time

    settings = load_settings(need_token=False)
    if settings.metrics_port:
        return ready_over_http(settings)
    path = heartbeat_path(settings)
    try:
        age = max(0, int(time.time()) - int(path.read_text().strip()))
    except (OSError, ValueError):
        print(t(LOCALE, "cli.health.missing", path=path))
        return 1
    if age >= HEALTHY_AGE:
        print(t(LOCALE, "cli.health.stale", age=age, limit=HEALTHY_AGE))
        return 1
    print(t(LOCALE, "cli.health.ok", age=age))
    return 0


def backup_database(source: Path, target: Path) -> int:
    """A consistent copy of ``source`` taken while the bot may be writing; the number of games."""
    import sqlite3

    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # read-only: a mistyped BOARDROOM_DB must not create an empty database to back up
    src = sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one snapshot, whatever commits meanwhile
            (games,) = dst.execute("SELECT count(*) FROM games").fetchone()
            if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, target)
    return int(games)


def cmd_backup(args: argparse.Namespace) -> int:
    import sqlite3

    settings = load_settings(need_token=False)
    if settings.db_url:
        print(t(LOCALE, "cli.backup.postgres"), file=sys.stderr)
        return 2
    source, target = settings.database, Path(args.file)
    if not source.is_file():
        print(t(LOCALE, "cli.backup.no_database", path=source), file=sys.stderr)
        return 2
    if target.exists() and target.resolve() == source.resolve():
        print(t(LOCALE, "cli.backup.same_file", path=target), file=sys.stderr)
        return 2
    try:
        games = backup_database(source, target)
    except (OSError, sqlite3.Error) as error:
        reason = getattr(error, "strerror", None) or str(error)
        print(t(LOCALE, "cli.backup.failed", path=target, reason=reason), file=sys.stderr)
        return 1
    print(t(LOCALE, "cli.backup.done", source=source, path=target, count=games))
    return 0


def read_export(path: Path) -> tuple[Any, str | None]:
    """An export file's JSON, or None and why it could not be read."""
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return None, t(LOCALE, "cli.verify.unreadable", path=path, reason=reason)


def cmd_verify(args: argparse.Namespace) -> int:
    """Check an exported game: the commitment against the seed, every chance outcome against
    what the seed gives, every move against the rules (``bot.service.verify``)."""
    from bot.service.verify import verify

    data, problem = read_export(Path(args.file))
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    verdict = verify(data)
    params = dict(verdict.params)
    print(t(LOCALE, verdict.key, **params), file=sys.stdout if verdict.ok else sys.stderr)
    return 0 if verdict.ok else 1


def cmd_replay(args: argparse.Namespace) -> int:
    """The boards of an exported game, checked as ``verify`` checks it: one PNG per turn
    (``000.png`` after the setup, then one after each turn ended, and the last position of a
    game abandoned mid-turn)."""
    from bot.service.verify import Refused, positions

    data, problem = read_export(Path(args.file))
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    out = boards_folder(args.out)
    assert out is not None  # --out is required
    names = [str(s.get("name", "")) for s in data.get("seats", []) if isinstance(s, dict)]
    written: list[Path] = []
    shown_turn = -1
    last: tuple[Any, Any] | None = None
    tr = translator(LOCALE)
    try:
        for engine, state in positions(data):
            last = (engine, state)
            turn = engine.turn(state)
            if turn > shown_turn and engine.to_move(state) != CHANCE:
                path = out / f"{len(written):03d}.png"
                path.write_bytes(render_png(engine.info.name, state, tr, names=names))
                written.append(path)
                shown_turn, last = turn, None
    except Refused as refused:
        print(t(LOCALE, refused.key, **refused.params), file=sys.stderr)
        return 1
    if last is not None and last[0].to_move(last[1]) != CHANCE:  # ended mid-turn
        path = out / f"{len(written):03d}.png"
        path.write_bytes(render_png(last[0].info.name, last[1], tr, names=names))
        written.append(path)
    print(t(LOCALE, "cli.replay.wrote", count=len(written), path=out))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardroom", description="Board games in Discord channels."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)").set_defaults(
        func=cmd_run
    )
    sub.add_parser("health", help="exit 0 while the running bot is connected").set_defaults(
        func=cmd_health
    )
    backup = sub.add_parser("backup", help="copy the database safely while the bot runs")
    backup.add_argument("file", help="where to write the copy (replaced if it exists)")
    backup.set_defaults(func=cmd_backup)
    sub.add_parser("migrate", help="create or upgrade the database").set_defaults(func=cmd_migrate)
    rating = sub.add_parser("ratings", help="rate finished games not rated yet")
    rating.add_argument(
        "--rebuild", action="store_true", help="recompute every rating from the move logs"
    )
    rating.set_defaults(func=cmd_ratings)
    verify = sub.add_parser("verify", help="check an exported game's seed and every chance step")
    verify.add_argument("file", help="the JSON file from /game export")
    verify.set_defaults(func=cmd_verify)
    replay = sub.add_parser("replay", help="write the boards of an exported game, one per turn")
    replay.add_argument("file", help="the JSON file from /game export")
    replay.add_argument("--out", required=True, help="folder for the board PNGs")
    replay.set_defaults(func=cmd_replay)
    copy = sub.add_parser(
        "copy-db", help="copy every game between a SQLite file and a postgresql:// database"
    )
    copy.add_argument("source", help="SQLite file or postgresql:// URL to copy from")
    copy.add_argument("target", help="SQLite file or postgresql:// URL to copy into (no games)")
    copy.set_defaults(func=cmd_copy_db)
    for name, func, helptext in (
        ("play", cmd_play, "hot-seat game in the terminal"),
        ("demo", cmd_demo, "watch random players play a whole game"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("game", choices=game_names())
        p.add_argument(
            "--players",
            type=int,
            default=None,
            help="people at the keyboard (default 2, or 1 with --bots)"
            if name == "play"
            else "random players (default 2, or none with --bots)",
        )
        p.add_argument("--seed", type=int, default=None if name == "play" else 1)
        p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        p.add_argument(
            "--bots",
            default="",
            help="computer opponents per seat, e.g. hard,medium"
            if name == "demo"
            else "computer opponents after the people, e.g. hard,medium",
        )
        p.add_argument(
            "--out", default="boards" if name == "play" else None, help="folder for the board PNGs"
        )
        if name == "play":
            p.add_argument("--db", default=None, help="SQLite file (default: a temporary one)")
        p.set_defaults(func=func)
    return parser


def load_configured_games() -> None:
    """Register the games named in ``BOARDROOM_GAMES`` (before the parser lists game names)."""
    settings = load_settings(need_token=False)
    try:
        load_games(settings.game_modules)
    except GameSetupError as problem:
        print(t(LOCALE, "cli.bad_games", problem=problem), file=sys.stderr)
        raise SystemExit(2) from None


def main(argv: Sequence[str] | None = None) -> int:
    load_configured_games()
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BadArguments as bad:  # a sentence, and the status argparse gives a bad argument
        print(bad, file=sys.stderr)
        return 2
