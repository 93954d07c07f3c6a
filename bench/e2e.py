"""End-to-end latency and load benchmark: N channels play a game against one real bot process.

``python -m bench.e2e --channels 1,50,500 [--game cantstop,kokeshi,harmonies] [--mix]
[--moves-per-channel M] [--seconds S] [--think-ms T]``

For each N a fresh fake Discord (``tests.fakediscord``, 127.0.0.1 only), a fresh SQLite database
and a fresh bot process are started. The bot is ``python -m bench.e2e_bot``: the unmodified
``boardroom run`` plus an event-loop stall monitor (see that module). Each of the N channels has
its own two players. Setup: every channel opens a lobby (``/play <game>``), the guest joins and
the host starts (at most ``--setup-concurrency`` channels at a time; not measured). Then all
channels play at once, one interaction in flight per channel, until ``--seconds`` have passed or
the channel made ``--moves-per-channel`` moves. ``--game`` names the game every channel plays
(several: one row each); ``--mix`` gives the channels the named games in turn, in one row.

The players are the e2e tests' quick players (``tests.e2e.test_languages_e2e``: ``offered``
reads the controls a message carries, ``choose`` picks one), driving each game as a person does:
a Can't Stop roll or choice edits the clicked public board in place; a Kokeshi or Harmonies
turn's first step is answered privately (an ephemeral follow-up with a preview and the next
controls, which the player clicks next), its later steps edit that private message, and the
turn's end is a new public board. A move (a click on a game control, private steps included)
counts once its new board is visible to the player, however it arrives: the clicked message
(public or private) edited into the new version, the answer's follow-up (public or private),
or a new message in the channel. A finished game is followed by a new lobby in the
same channel (lobby interactions are not counted as moves). ``--think-ms`` adds a pause after
each move (random 0.5x..1.5x, first move staggered), for human-paced load instead of the
default closed loop where every channel clicks again as soon as its board arrives.

A move that gets no board (the bot answered after the 3 s deadline and the fake refused it, an
error reply, or no answer within ``--timeout``) counts as failed (``fail%``) and is left out of
the latencies. The channel then does what a player would: ``/game board`` to get its controls
back (or abandon and open a new game if there is none), with growing pauses, at most 6 tries
before the channel gives up.

Measured per N (moves only, i.e. clicks on a game control):

* first response: interaction dispatched on the gateway -> initial response accepted by the fake;
* full move: interaction dispatched -> the new board stored by the fake (edit, follow-up or post);
* moves/s: moves completed in the window / window length;
* bot RSS: max of ``VmRSS`` in ``/proc/<pid>/status``, sampled every 250 ms from READY on;
* bot CPU: user+system seconds of the bot during the window / window length (1.0 = one core),
  and per successful move; also how long its threads waited for a CPU (``schedstat``), which
  shows when other work on the machine took the cores;
* stall: the longest turn of the bot's event loop in the whole seconds inside the window (from
  one look at its sockets and timers to the next: how long an event arriving meanwhile waited;
  ``bench.e2e_bot``), and how many of the seconds with a stall > 50 ms also had a lag > 50 ms
  in the harness (both processes starved at once points at the machine rather than the bot's
  own code);
* harness lag: how late a 5 ms sleep wakes on this process's loop (the fake and the players
  share it; a large value means the harness, not the bot, added latency). The harness holds off its own
  garbage collector during the window (``gc.freeze`` + ``gc.disable``) so that its collections
  do not pause the fake; the bot's collections are timed and reported, not changed.

``--backends sqlite,postgres`` runs every N on each backend in the same run (PostgreSQL: a
throwaway server started with initdb/pg_ctl, ``tests.pg.server``, with fsync on, as a real one;
a fresh database per N), and ``--processes 1,2`` with one bot process (unsharded, as today) and
with two processes sharing one database, each running one of two gateway shards
(``BOARDROOM_SHARDS``) with half the channels in a guild of its shard. The summary compares the
backends' move p50 and p99 at each N (PostgreSQL / SQLite) and two processes against one. With
several processes, CPU is their sum, RSS and stalls their maximum. After each window the bots are
stopped and the database is checked: the player moves it holds against those the players
counted, and every game must replay from its move log to its stored state.

``--metrics off,on`` runs every row with the bot's metrics port off (no ``BOARDROOM_METRICS_PORT``,
as by default) and on (a port per process, its database writes timed, ``/metrics`` scraped every
``SCRAPE_SECONDS`` during the window as Prometheus would, ``/readyz`` once), in the same run; the
summary compares on against off at each N. A scrape that fails, or a last one that counted no
interactions, fails the row.

Every loop is bounded in count and time: READY within 60 s, setup within ``--setup-seconds``,
each interaction waits at most ``--timeout`` seconds, and the run ends ``--timeout`` seconds
after the window at the latest, so the whole benchmark ends by itself. ``tests/bench`` runs a
few seconds of it on both backends with every game, and fails when a move fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bench.e2e_bot import STALL_FILE_ENV, StallMonitor, read_stall_file, window
from bench.stats import percentile
from tests.e2e.conftest import BotProcess
from tests.e2e.test_languages_e2e import choose, offered  # the e2e tests' quick players
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeDiscordDriver,
    FakeUser,
    InteractionRecord,
    StoredMessage,
)
from tests.pg.server import free_port

GAMES = ("cantstop", "kokeshi", "harmonies")
#: a game control's custom_id: ``br:<game>:<version>:<action>`` or ``brs:<game>:<version>:<n>``
CONTROL_ID = re.compile(r"brs?:(\d+):(\d+):.+")
MENTION = re.compile(r"<@!?(\d+)>")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_RECOVERIES = 6
RSS_PERIOD = 0.25
#: how often the metrics row's harness reads /metrics (Prometheus's usual interval is 15 s or more)
SCRAPE_SECONDS = 5.0
READY_WAIT = 10.0
TARGETS = (
    "targets: move p50 <= 15 ms and p99 <= 50 ms at N=50; >= 100 moves/s at N=500; "
    "no bot stall > 50 ms; bot CPU <= 3 ms per move in the main process"
)


# ---------------------------------------------------------------------------------------------
# interaction records and channels that say when they change (no shared condition to poll)


class _Watched(list):  # type: ignore[type-arg]
    """A list that calls back on append."""

    def __init__(self, on_append: Any) -> None:
        super().__init__()
        self._on_append = on_append

    def append(self, item: Any) -> None:
        super().append(item)
        self._on_append()


class TrackedRecord(InteractionRecord):
    """An InteractionRecord with its own change event and the time its first follow-up came."""

    def __init__(self, **kwargs: Any) -> None:
        self.changed_event = asyncio.Event()
        self.followup_at: float | None = None
        super().__init__(**kwargs)
        self.followups = _Watched(self._on_followup)
        self.rejections = _Watched(self.changed_event.set)

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "response_type" and value is not None:
            self.changed_event.set()

    def _on_followup(self) -> None:
        if self.followup_at is None:
            self.followup_at = asyncio.get_running_loop().time()
        self.changed_event.set()


@dataclass
class ChannelWatch:
    """The channel's messages created or edited while a click waits (message id -> when the
    fake stored it), and the click's record to wake."""

    waiting: TrackedRecord | None = None
    stored_at: dict[int, float] = field(default_factory=dict)


class BenchFake(FakeDiscord):
    """The fake Discord, telling the one player of a channel when a channel message of it was
    created or edited (an edited board, a board posted to the channel), or a private message
    edited (a private step shown on the message it was clicked on)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.watches: dict[int, ChannelWatch] = {}

    async def dispatch_message(self, event: str, msg: StoredMessage) -> None:
        await super().dispatch_message(event, msg)
        watch = self.watches.get(msg.channel_id)
        private_edit = msg.ephemeral and event == "MESSAGE_UPDATE"
        if watch is not None and watch.waiting is not None and (private_edit or not msg.ephemeral):
            watch.stored_at[msg.id] = asyncio.get_running_loop().time()
            watch.waiting.changed_event.set()


class BenchDriver(FakeDiscordDriver):
    """The fake's driver, recording TrackedRecords (each waiter wakes only for its own record)."""

    record_class = TrackedRecord

    def __init__(self, **options: Any) -> None:
        super().__init__(BenchFake(**options))

    def watch(self, channel: FakeChannel) -> ChannelWatch:
        fake = self.fake
        assert isinstance(fake, BenchFake)
        return fake.watches.setdefault(channel.id, ChannelWatch())


async def settle(rec: InteractionRecord, need_followup: bool, timeout: float) -> str:
    """Wait for a lobby or command interaction's answer: 'ok', 'refused' (ephemeral), 'late',
    'rejected', 'timeout'."""
    assert isinstance(rec, TrackedRecord)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        if rec.rejections:
            return "late" if any(r.code == 10062 for r in rec.rejections) else "rejected"
        if rec.responded:
            if rec.ephemeral or (rec.followups and rec.followups[0].ephemeral):
                return "refused"
            if not need_followup or rec.followups:
                return "ok"
        remaining = deadline - loop.time()
        if remaining <= 0:
            return "timeout"
        rec.changed_event.clear()
        try:
            await asyncio.wait_for(rec.changed_event.wait(), remaining)
        except TimeoutError:
            return "timeout"


@dataclass(frozen=True)
class Shown:
    """Where a move's new board came: 'edited' (the clicked public message), 'private edit'
    (the clicked private message), 'public' or 'private' (the answer's follow-up), 'posted' (a
    new channel message); when the fake stored it."""

    via: str
    message: StoredMessage
    at: float


def version_of(message: StoredMessage) -> int | None:
    """The game version a message's controls act on (None: no game controls)."""
    versions = [int(m.group(2)) for c in message.custom_ids if (m := CONTROL_ID.fullmatch(c))]
    return max(versions) if versions else None


def board_size(message: StoredMessage) -> int | None:
    """Bytes of the board pictures on a message (None without a PNG board)."""
    boards = [a for a in message.attachments if a.filename.startswith("board")]
    if not boards or not all(a.data.startswith(PNG_MAGIC) for a in boards):
        return None
    return sum(len(a.data) for a in boards)


def shows_after(message: StoredMessage, version: int) -> bool:
    """Does the message show a board newer than ``version`` (controls of a later version, or
    none: the game's last board)?"""
    if board_size(message) is None:
        return False
    newer = version_of(message)
    return newer is None or newer > version


async def new_board(
    driver: BenchDriver,
    rec: InteractionRecord,
    clicked: StoredMessage,
    watch: ChannelWatch,
    timeout: float,
) -> Shown | str:
    """Wait until the click's new board is visible to the player, however it comes; else why
    not: 'refused' (an error answer), 'late', 'rejected', 'timeout'."""
    assert isinstance(rec, TrackedRecord)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    version = version_of(clicked)
    assert version is not None
    channel = driver.fake.channel_index.get(clicked.channel_id, [])
    mark = channel[-1] if channel else 0
    watch.waiting, watch.stored_at = rec, {}
    try:
        while True:
            if rec.rejections:
                return "late" if any(r.code == 10062 for r in rec.rejections) else "rejected"
            if rec.responded and rec.ephemeral:
                return "refused"
            if rec.followups:
                answer = rec.followups[0]
                if board_size(answer) is None:
                    return "refused"
                assert rec.followup_at is not None
                via = "private" if answer.ephemeral else "public"
                return Shown(via, answer, rec.followup_at)
            for message_id in sorted(watch.stored_at):
                message = driver.message(message_id)
                if message_id == clicked.id and (version_of(message) or 0) > version:
                    # a step shown in place (the first response only took the controls off)
                    via = "private edit" if message.ephemeral else "edited"
                    return Shown(via, message, watch.stored_at[message_id])
                if message.ephemeral or message_id <= mark or message_id == clicked.id:
                    continue
                if shows_after(message, version):
                    return Shown("posted", message, watch.stored_at[message_id])
            remaining = deadline - loop.time()
            if remaining <= 0:
                return "timeout"
            rec.changed_event.clear()
            try:
                await asyncio.wait_for(rec.changed_event.wait(), remaining)
            except TimeoutError:
                return "timeout"
    finally:
        watch.waiting = None


# ---------------------------------------------------------------------------------------------
# the bot process


#: the bot plus a stall monitor (see ``bench.e2e_bot``), started like the e2e tests start it
BENCH_BOT_COMMAND = ("-m", "bench.e2e_bot")


def rss_kib(pid: int) -> int | None:
    """VmRSS of a process in KiB (None once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def runqueue_seconds(pid: int) -> float:
    """Seconds the threads of a process spent runnable but waiting for a CPU (schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (all its threads; not its children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def children_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds so far of the running child processes of ``pid``: the bot's
    drawing processes (and multiprocessing's resource tracker), which ``cpu_seconds`` of the
    bot does not include."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


# ---------------------------------------------------------------------------------------------
# players


@dataclass
class Results:
    """What the players of one N measured."""

    first: list[float] = field(default_factory=list)
    full: list[float] = field(default_factory=list)
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    resyncs: int = 0
    png_bytes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    shown_via: Counter[str] = field(default_factory=Counter)
    last_move_at: float = 0.0


def lobby_id(message: StoredMessage) -> int | None:
    """The game id in a lobby message's buttons."""
    for custom_id in message.custom_ids:
        if custom_id.startswith("brl:"):
            return int(custom_id.split(":")[1])
    return None


def forget_bytes(message: StoredMessage) -> None:
    """Drop stored upload bytes (the fake keeps every board otherwise)."""
    for attachment in message.attachments:
        attachment.data = attachment.data[:8]


def backoff(attempt: int) -> float:
    """Pause before recovery attempt ``attempt`` (0-based): 0.25 s doubling up to 4 s."""
    return min(4.0, 0.25 * 2**attempt)


class ChannelFailed(Exception):
    """A channel could not get a game going again."""


class Player:
    """One channel: two users playing ``game``, one interaction in flight at a time."""

    def __init__(
        self,
        driver: BenchDriver,
        channel: FakeChannel,
        host: FakeUser,
        guest: FakeUser,
        results: Results,
        timeout: float,
        game: str = "cantstop",
    ) -> None:
        self.driver, self.channel, self.host, self.guest = driver, channel, host, guest
        self.results, self.timeout, self.game = results, timeout, game
        self.watch = driver.watch(channel)
        self.rng = random.Random(channel.id)
        self.turn: StoredMessage | None = None  # the message with the controls to press next
        self.last_mover: FakeUser = host

    async def open_game(self) -> None:
        """Lobby, join, start: sets ``self.turn`` to the first board."""
        d, r = self.driver, self.results
        rec = await d.slash(self.host, self.channel, "play", {}, subcommand=self.game)
        outcome = await settle(rec, False, self.timeout)
        gid = lobby_id(rec.original) if outcome == "ok" and rec.original else None
        if gid is None:
            raise ChannelFailed(f"lobby: {outcome} {rec.content!r}")
        lobby = rec.original
        assert lobby is not None
        rec = await d.click(self.guest, lobby, f"brl:{gid}:join")
        if (outcome := await settle(rec, False, self.timeout)) != "ok":
            raise ChannelFailed(f"join: {outcome} {rec.content!r}")
        rec = await d.click(self.host, d.message(lobby.id), f"brl:{gid}:start")
        if (outcome := await settle(rec, True, self.timeout)) != "ok":
            raise ChannelFailed(f"start: {outcome} {rec.content!r}")
        turn = rec.followups[0]
        if board_size(turn) is None:
            raise ChannelFailed("start: no board")
        forget_bytes(turn)
        self.turn = turn
        r.games_started += 1

    async def ensure_game(self) -> None:
        """``open_game``, retried after an abandon with a growing pause (bounded)."""
        for attempt in range(MAX_RECOVERIES):
            try:
                await self.open_game()
                return
            except ChannelFailed as exc:
                self.results.errors[f"new game: {str(exc).split()[0]}"] += 1
                last = exc
            await asyncio.sleep(backoff(attempt))
            rec = await self.driver.slash(self.host, self.channel, "game", {}, subcommand="abandon")
            await settle(rec, False, self.timeout)
        raise ChannelFailed(f"no new game after {MAX_RECOVERIES} tries ({last})")

    async def resync(self, why: str) -> None:
        """After a failed interaction: the player to move gets their controls back with
        ``/game board`` (a private copy; bounded); no running game: start over."""
        self.results.errors[why] += 1
        for attempt in range(MAX_RECOVERIES):
            await asyncio.sleep(backoff(attempt))
            running = False
            for user in (self.host, self.guest):
                rec = await self.driver.slash(user, self.channel, "game", {}, subcommand="board")
                if await settle(rec, False, self.timeout) == "timeout" or not rec.responded:
                    continue
                await rec.wait_followups(1, timeout=self.timeout)
                answer = rec.followups[0] if rec.followups else None
                if answer is None or board_size(answer) is None:
                    continue  # no running game here (a lobby, or none)
                running = True
                if offered(answer):
                    forget_bytes(answer)
                    self.turn, self.last_mover = answer, user
                    self.results.resyncs += 1
                    return
            if not running:
                await self.ensure_game()
                return
        raise ChannelFailed(f"no controls after {MAX_RECOVERIES} tries")

    def mover(self, turn: StoredMessage) -> FakeUser:
        """Who acts on ``turn``: the user its prompt (the last line mentioning someone)
        addresses; on a private step without one, the player it was shown to."""
        users = {self.host.id: self.host, self.guest.id: self.guest}
        for line in reversed(turn.content.splitlines()):
            if found := MENTION.findall(line):
                if (user := users.get(int(found[0]))) is not None:
                    return user
                break
        if turn.ephemeral:
            return self.last_mover
        raise ChannelFailed(f"no mover in {turn.content!r}")

    async def press(self, user: FakeUser, turn: StoredMessage, code: str) -> InteractionRecord:
        custom_id, menu = offered(turn)[code]
        if menu:
            return await self.driver.select(user, turn, custom_id, [code])
        return await self.driver.click(user, turn, custom_id)

    async def play(self, stop_at: float, max_moves: int, think: float) -> None:
        """Moves until the window closes or the channel made ``max_moves``.

        With a think time the first move waits a random share of it and every pause is drawn
        from 0.5x..1.5x, so the channels do not click in lockstep.
        """
        loop = asyncio.get_running_loop()
        r, made, rng = self.results, 0, self.rng
        if think > 0:
            await asyncio.sleep(rng.uniform(0, think))
        while made < max_moves and loop.time() < stop_at:
            turn = self.turn
            assert turn is not None
            controls = offered(turn)
            if not controls:
                r.games_finished += 1  # no game controls left: the game is over
                await self.ensure_game()
                continue
            mover = self.mover(turn)
            code = choose(self.game, sorted(controls), rng)
            rec = await self.press(mover, turn, code)
            shown = await new_board(self.driver, rec, turn, self.watch, self.timeout)
            if isinstance(shown, str):
                await self.resync(f"{shown} ({code.split(':')[0]})")
                continue
            made += 1
            r.moves += 1
            r.shown_via[shown.via] += 1
            if rec.latency is not None:  # none when the board came first (posted by the sweep)
                r.first.append(rec.latency)
            r.full.append(shown.at - rec.created_at)
            r.png_bytes += board_size(shown.message) or 0
            r.last_move_at = max(r.last_move_at, shown.at)
            forget_bytes(shown.message)
            self.turn, self.last_mover = shown.message, mover
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))


# ---------------------------------------------------------------------------------------------
# one N


@dataclass
class Options:
    """Command-line settings."""

    seconds: float
    moves_per_channel: int
    think_ms: float
    timeout: float
    setup_seconds: float
    setup_concurrency: int
    keep: Path | None


async def sample_rss(pid: int, peak: list[int]) -> None:
    """Keep peak[0] at the largest VmRSS seen (KiB) until cancelled or the process ends."""
    while (kib := rss_kib(pid)) is not None:
        peak[0] = max(peak[0], kib)
        await asyncio.sleep(RSS_PERIOD)


class Scraper:
    """Reads each bot's ``/metrics`` every ``SCRAPE_SECONDS`` (and ``/readyz`` first), as a
    Prometheus server would; nothing to do when the metrics are off (no ports)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.scrapes = 0
        self.failures: Counter[str] = Counter()
        self.interactions = 0.0  # counted by all processes, at the last scrape

    async def run(self, stop_at: float) -> None:
        if not self.ports:
            return
        loop = asyncio.get_running_loop()
        await self.check_ready()
        while loop.time() + SCRAPE_SECONDS < stop_at:
            await asyncio.sleep(SCRAPE_SECONDS)
            await self.scrape_all()

    async def check_ready(self) -> None:
        """Each bot's ``/readyz`` answers 200 within ``READY_WAIT`` s (discord.py reports ready
        a moment after the gateway's READY, once the guilds stopped arriving)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + READY_WAIT
        async with aiohttp.ClientSession() as session:
            for port in self.ports:
                while True:
                    async with session.get(f"http://127.0.0.1:{port}/readyz") as response:
                        if response.status == 200:
                            break
                        if loop.time() > deadline:
                            self.failures[f"/readyz {response.status} {await response.text()}"] += 1
                            break
                    await asyncio.sleep(0.2)

    async def scrape_all(self) -> None:
        total = 0.0
        async with aiohttp.ClientSession() as session:
            for port in self.ports:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                        text = await response.text()
                        if response.status != 200:
                            self.failures[f"/metrics {response.status}"] += 1
                            continue
                except aiohttp.ClientError as exc:
                    self.failures[f"/metrics {type(exc).__name__}"] += 1
                    continue
                self.scrapes += 1
                total += sum(
                    sample.value
                    for family in text_string_to_metric_families(text)
                    if family.name == "boardroom_interactions"
                    for sample in family.samples
                    if sample.name == "boardroom_interactions_total"
                )
        self.interactions = total


def pct_ms(values: list[float], q: float) -> float | None:
    """A percentile in milliseconds, or None without data."""
    return percentile(values, q) * 1000 if values else None


@dataclass(frozen=True)
class Setup:
    """What one row runs: the channel count, the database backend and the bot processes."""

    n: int
    backend: str = "sqlite"  # or "postgres"
    processes: int = 1
    #: what the channels play (several: the channels take them in turn)
    games: tuple[str, ...] = ("cantstop",)
    #: the bot's metrics port on (scraped during the window) or off
    metrics: bool = False


async def stored_moves(database: str) -> dict[str, int]:
    """After the window: how many player moves the database holds, and how many of its games
    do not replay from their move log to their stored state (a lost or doubled move would)."""
    from bot.service.games import GameService
    from bot.storage import open_store

    async with open_store(database, pool_size=2) as store:
        service = GameService(store)
        games = [row[0] for row in await store.table_rows("games", ["id"])]
        moves = bad = 0
        for game_id in games:
            log = await store.moves(game_id)
            moves += sum(1 for m in log if m.seat is not None)
            if not await service.verify(game_id):
                bad += 1
    return {"games": len(games), "player_moves": moves, "not_replaying": bad}


def merged_stalls(paths: list[Path]) -> dict[str, Any]:
    """The stall files of several processes as one: per second the worst of them."""
    found = [s for s in (read_stall_file(p) for p in paths) if s]
    if len(found) != len(paths):
        return {}
    per_second: dict[int, list[float]] = {}
    for stalls in found:
        for second, (worst, over20, over50) in stalls.get("per_second", {}).items():
            mine = per_second.setdefault(second, [0.0, 0, 0])
            mine[0] = max(mine[0], worst)
            mine[1] += over20
            mine[2] += over50
    return {
        "per_second": per_second,
        "max_ms": max(s.get("max_ms") or 0 for s in found),
        "gc_max_ms": [max(s["gc_max_ms"][i] for s in found) for i in range(3)]
        if all(s.get("gc_max_ms") for s in found)
        else None,
        "gc_count": [sum(s["gc_count"][i] for s in found) for i in range(3)]
        if all(s.get("gc_count") for s in found)
        else None,
    }


async def run_one(
    setup_: Setup, opts: Options, workdir: Path, pg: Any = None
) -> dict[str, Any]:
    """Start fake + bot(s), set up n channels, play the window, collect the figures."""
    n, processes = setup_.n, setup_.processes
    loop = asyncio.get_running_loop()
    harness = StallMonitor()
    harness.start()
    driver = BenchDriver(shard_count=processes) if processes > 1 else BenchDriver()
    await driver.start()
    bots: list[BotProcess] = []
    rss_tasks: list[asyncio.Task[None]] = []
    try:
        # one guild per process (on its shard when there are several)
        guilds = [
            await driver.add_guild(f"Bench {k}", shard=k if processes > 1 else None)
            for k in range(processes)
        ]
        results = Results()
        players = []
        for i in range(n):
            guild = guilds[i % processes]
            host, guest = driver.add_user(f"host{i}"), driver.add_user(f"guest{i}")
            await driver.add_member(guild, host)
            await driver.add_member(guild, guest)
            channel = await driver.add_channel(guild, f"table-{i}")
            game = setup_.games[i % len(setup_.games)]
            players.append(Player(driver, channel, host, guest, results, opts.timeout, game))
        database: str = str(workdir / "boardroom.db")
        if setup_.backend == "postgres":
            assert pg is not None, "PostgreSQL was not started"
            database = pg.new_database()
        stall_paths = [workdir / f"stalls-{k}.json" for k in range(processes)]
        metrics_ports = [free_port() for _ in range(processes)] if setup_.metrics else []
        for k in range(processes):
            env = {
                "LOG_LEVEL": "WARNING",
                STALL_FILE_ENV: str(stall_paths[k]),
                "BOARDROOM_DB": database,
                "BOARDROOM_STATE_DIR": str(workdir / f"state-{k}"),
            }
            if metrics_ports:
                env["BOARDROOM_METRICS_PORT"] = str(metrics_ports[k])
            if processes > 1:
                env["BOARDROOM_SHARDS"] = f"{k}/{processes}"
                env["DEV_GUILD_ID"] = ""  # global commands: both guilds have them
            bot = BotProcess(
                driver=driver,
                guild=guilds[k],
                workdir=workdir,
                db_path=workdir / "boardroom.db",
                log_path=workdir / f"bot-{k}.log",
                extra_env=env,
                command=BENCH_BOT_COMMAND,
            )
            bots.append(bot)
            # on one SQLite file the processes share the command-sync marker: the first syncs
            await bot.start(timeout=60.0, wait_sync=k == 0 or setup_.backend == "postgres")
        await driver.fake.wait_until(
            lambda: len(driver.fake.ready_sessions()) >= processes, timeout=60
        )
        pids = [b.pid for b in bots if b.pid is not None]
        assert len(pids) == processes
        rss_ready = max(rss_kib(pid) or 0 for pid in pids)
        peaks = [[rss_kib(pid) or 0] for pid in pids]
        rss_tasks = [asyncio.create_task(sample_rss(pid, peak)) for pid, peak in zip(pids, peaks, strict=True)]

        # setup: every channel gets a started game
        gate = asyncio.Semaphore(opts.setup_concurrency)
        setup_failures: Counter[str] = Counter()

        async def setup(player: Player) -> bool:
            async with gate:
                try:
                    await player.ensure_game()
                    return True
                except Exception as exc:
                    setup_failures[f"{type(exc).__name__}: {exc}"[:70]] += 1
                    return False

        setup_started = loop.time()
        tasks = [asyncio.create_task(setup(p)) for p in players]
        done, pending = await asyncio.wait(tasks, timeout=opts.setup_seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        ready = [p for p, t in zip(players, tasks, strict=True) if t in done and t.result()]
        setup_seconds = loop.time() - setup_started
        if pending:
            setup_failures["not set up in time"] += len(pending)
        results.games_started = len(ready)
        for why, count in results.errors.items():
            setup_failures[f"retried: {why}"] += count
        results.errors.clear()

        # the measured window; the harness's own garbage collector is held off meanwhile (its
        # full collections of the fake's growing history would otherwise pause the players and
        # the fake, and show up as bot latency)
        gc.collect()
        gc.freeze()
        gc.disable()
        cpu_before = sum(cpu_seconds(pid) or 0.0 for pid in pids)
        workers_before = sum(children_cpu_seconds(pid) for pid in pids)
        wait_before = sum(runqueue_seconds(pid) for pid in pids)
        own_before = time.process_time()
        t0 = loop.time()
        wall0 = time.time()
        stop_at = t0 + opts.seconds
        failed: Counter[str] = Counter()

        async def play(player: Player) -> None:
            try:
                await player.play(stop_at, opts.moves_per_channel, opts.think_ms / 1000)
            except Exception as exc:  # a channel that breaks stops; the others go on
                failed[f"{type(exc).__name__}: {exc}"[:70]] += 1

        tasks = [asyncio.create_task(play(p)) for p in ready]
        scraper = Scraper(metrics_ports)
        scraping = asyncio.create_task(scraper.run(stop_at))
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=opts.seconds + opts.timeout + 5)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            if pending:
                failed["still running at the hard stop"] += len(pending)
        t_end = loop.time()
        scraping.cancel()
        await asyncio.gather(scraping, return_exceptions=True)
        if metrics_ports:
            await scraper.scrape_all()  # the last one: every process counted its interactions
        gc.enable()
        wall_end = time.time()
        cpu_after = sum(cpu_seconds(pid) or 0.0 for pid in pids) or cpu_before
        workers_cpu = sum(children_cpu_seconds(pid) for pid in pids) - workers_before
        wait_after = sum(runqueue_seconds(pid) for pid in pids)
        own_cpu = time.process_time() - own_before
        span = max(1e-9, max(results.last_move_at, min(t_end, stop_at)) - t0)
        await asyncio.sleep(WRITE_WAIT)  # let the bot's monitor write its last lags
        stalls = merged_stalls(stall_paths)
        bot_seconds = stalls.get("per_second", {})
        stall_max, over20, over50 = window(bot_seconds, wall0, wall_end)
        bad = [k for k, v in bot_seconds.items() if v[0] > 50 and wall0 <= k and k + 1 <= wall_end]
        shared = [k for k in bad if harness.per_second.get(k, [0.0])[0] > 50]
        failed_moves = sum(v for k, v in results.errors.items() if not k.startswith("new game"))
        log = "\n".join(b.log_text() for b in bots)
        for bot in bots:  # stopped first: the check reads a database nobody writes any more
            await bot.terminate(10.0)
        stored = await stored_moves(database)
        return {
            "stored": stored,
            "channels": n,
            "game": "+".join(setup_.games),
            "backend": setup_.backend,
            "processes": processes,
            "metrics": setup_.metrics,
            "scrapes": scraper.scrapes,
            "scrape_failures": dict(scraper.failures),
            "interactions_counted": scraper.interactions,
            "channels_playing": len(ready),
            "setup_seconds": round(setup_seconds, 2),
            "setup_failures": dict(setup_failures),
            "window_seconds": round(span, 2),
            "moves": results.moves,
            "moves_per_second": results.moves / span,
            "games_started": results.games_started,
            "games_finished": results.games_finished,
            "resyncs": results.resyncs,
            "first_ms": {q: pct_ms(results.first, q) for q in (50, 95, 99)},
            "move_ms": {q: pct_ms(results.full, q) for q in (50, 95, 99)},
            "move_max_ms": max(results.full) * 1000 if results.full else None,
            "move_mean_ms": statistics.fmean(results.full) * 1000 if results.full else None,
            "errors": dict(results.errors),
            "shown_via": dict(results.shown_via),
            "channel_failures": dict(failed),
            "png_kib_mean": results.png_bytes / results.moves / 1024 if results.moves else None,
            "rss_ready_mib": rss_ready / 1024,
            "rss_max_mib": max(p[0] for p in peaks) / 1024,
            "bot_cpu": (cpu_after - cpu_before) / max(1e-9, t_end - t0),
            "bot_cpu_ms_per_move": (cpu_after - cpu_before) * 1000 / max(1, results.moves),
            "drawing_cpu": workers_cpu / max(1e-9, t_end - t0),
            "drawing_cpu_ms_per_move": workers_cpu * 1000 / max(1, results.moves),
            "bot_runqueue_wait": (wait_after - wait_before) / max(1e-9, t_end - t0),
            "harness_cpu": own_cpu / max(1e-9, t_end - t0),
            "harness_cpu_ms_per_move": own_cpu * 1000 / max(1, results.moves),
            "stall_max_ms": stall_max,
            "stalls_over_20ms": over20,
            "stalls_over_50ms": over50,
            "stall_max_ms_incl_startup": stalls.get("max_ms"),
            "bot_gc_max_ms": stalls.get("gc_max_ms"),
            "bot_gc_count": stalls.get("gc_count"),
            "harness_gc_max_ms": [round(x, 1) for x in harness.gc_max_ms],
            "harness_gc_count": list(harness.gc_count),
            "stall_seconds_over_50ms": len(bad),
            "stall_seconds_shared_with_harness": len(shared),
            "failed_move_pct": 100 * failed_moves / max(1, failed_moves + results.moves),
            "monitor_ok": bool(stalls),
            "harness_lag_max_ms": harness.max_between(wall0, wall_end),
            "load_average": os.getloadavg(),
            "bot_log_errors": sum(1 for line in log.splitlines() if "ERROR" in line),
            "bot_log_lines": len(log.splitlines()),
        }
    finally:
        gc.enable()
        gc.unfreeze()
        for task in rss_tasks:
            task.cancel()
        await asyncio.gather(*rss_tasks, return_exceptions=True)
        for bot in bots:
            await bot.terminate(10.0)
        await driver.stop()
        await harness.stop()


WRITE_WAIT = 1.2


# ---------------------------------------------------------------------------------------------
# report


def fmt(value: float | None, spec: str = ".1f") -> str:
    """A number, or '-' without data."""
    return "-" if value is None else format(value, spec)


def table(rows: list[dict[str, Any]]) -> str:
    """The compact summary table."""
    head = (
        f"{'game':>9} {'db':>8} {'P':>1} {'metr':>4} {'N':>4} {'moves':>6} {'mv/s':>6} | {'first p50':>9} {'p95':>6} {'p99':>6} | "
        f"{'move p50':>8} {'p95':>6} {'p99':>6} | {'RSS MiB':>7} {'CPU':>4} {'ms/mv':>5} {'draw':>5} "
        f"{'stall ms':>8} {'harness':>7} {'fail%':>5}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        f, m = r["first_ms"], r["move_ms"]
        lines.append(
            f"{r['game'][:9]:>9} {r['backend']:>8} {r['processes']:>1} {on_off(r):>4} {r['channels']:>4} {r['moves']:>6} {r['moves_per_second']:>6.1f} | "
            f"{fmt(f[50]):>9} {fmt(f[95]):>6} {fmt(f[99]):>6} | "
            f"{fmt(m[50]):>8} {fmt(m[95]):>6} {fmt(m[99]):>6} | "
            f"{r['rss_max_mib']:>7.1f} {r['bot_cpu']:>4.2f} {r['bot_cpu_ms_per_move']:>5.1f} "
            f"{r['drawing_cpu_ms_per_move']:>5.1f} "
            f"{r['stall_max_ms']:>8.1f} {r['harness_lag_max_ms']:>7.1f} {r['failed_move_pct']:>5.1f}"
        )
    lines.append(
        "latencies in ms (successful moves only); CPU = bot CPU seconds per second (1.00 = one "
        "core) and ms/mv per move, in the bot's main process; draw = CPU ms per move of its "
        "drawing processes; fail% = moves without a board (late for the 3 s deadline, refused, "
        "timed out)"
    )
    lines.append(TARGETS)
    for r in rows:
        checks = []
        if r["channels"] == 50:
            checks.append(_check("move p50 <= 15 ms", r["move_ms"][50], 15, below=True))
            checks.append(_check("move p99 <= 50 ms", r["move_ms"][99], 50, below=True))
        if r["channels"] == 500:
            checks.append(_check(">= 100 moves/s", r["moves_per_second"], 100, below=False))
        checks.append(_check("stall <= 50 ms", r["stall_max_ms"], 50, below=True))
        checks.append(
            _check("bot CPU <= 3 ms per move", r["bot_cpu_ms_per_move"], 3, below=True)
        )
        if r["metrics"]:
            scraped = not r["scrape_failures"] and r["interactions_counted"] > 0
            checks.append(
                f"metrics scraped {r['scrapes']} times, {r['interactions_counted']:g} "
                f"interactions counted: {'met' if scraped else 'MISSED'}"
            )
        lines.append(f"  {label(r)}: " + "; ".join(checks))
    lines.extend(comparisons(rows))
    return "\n".join(lines)


def on_off(r: dict[str, Any]) -> str:
    return "on" if r["metrics"] else "off"


def label(r: dict[str, Any]) -> str:
    metrics = " metrics" if r["metrics"] else ""
    return f"{r['game']} {r['backend']} x{r['processes']}{metrics} N={r['channels']}"


def comparisons(rows: list[dict[str, Any]]) -> list[str]:
    """PostgreSQL against SQLite, two processes against one, and metrics on against off, at
    each N (same run)."""
    by = {
        (r["game"], r["backend"], r["processes"], r["channels"]): r
        for r in rows
        if not r["metrics"]
    }
    with_metrics = {
        (r["game"], r["backend"], r["processes"], r["channels"]): r for r in rows if r["metrics"]
    }
    out = []

    def ratio(a: float | None, b: float | None) -> str:
        return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}x"

    for (game, backend, procs, n), r in sorted(by.items()):
        base = by.get((game, "sqlite", procs, n))
        if backend != "sqlite" and base is not None:
            p50 = ratio(r["move_ms"][50], base["move_ms"][50])
            verdict = (
                "met" if r["move_ms"][50] and base["move_ms"][50]
                and r["move_ms"][50] <= 1.5 * base["move_ms"][50] else "MISSED"
            )
            out.append(
                f"  {game} {backend}/sqlite x{procs} N={n}: move p50 {p50}, p99 "
                f"{ratio(r['move_ms'][99], base['move_ms'][99])}, moves/s "
                f"{ratio(r['moves_per_second'], base['moves_per_second'])}"
                + (f" (target p50 <= 1.5x at N=50: {verdict})" if n == 50 else "")
            )
        one = by.get((game, backend, 1, n))
        if procs > 1 and one is not None:
            out.append(
                f"  {game} {backend} x{procs}/x1 N={n}: moves/s "
                f"{ratio(r['moves_per_second'], one['moves_per_second'])}, move p50 "
                f"{ratio(r['move_ms'][50], one['move_ms'][50])}, p99 "
                f"{ratio(r['move_ms'][99], one['move_ms'][99])}"
            )
    for key, on in sorted(with_metrics.items()):
        off = by.get(key)
        if off is None:
            continue
        game, backend, procs, n = key
        out.append(
            f"  {game} {backend} x{procs} N={n} metrics on/off: first p50 "
            f"{ratio(on['first_ms'][50], off['first_ms'][50])}, move p50 "
            f"{ratio(on['move_ms'][50], off['move_ms'][50])}, p95 "
            f"{ratio(on['move_ms'][95], off['move_ms'][95])}, p99 "
            f"{ratio(on['move_ms'][99], off['move_ms'][99])}, moves/s "
            f"{ratio(on['moves_per_second'], off['moves_per_second'])}, bot CPU per move "
            f"{ratio(on['bot_cpu_ms_per_move'], off['bot_cpu_ms_per_move'])}"
        )
    return out


def _check(label: str, value: float | None, limit: float, *, below: bool) -> str:
    if value is None:
        return f"{label}: no data"
    ok = value <= limit if below else value >= limit
    return f"{label}: {value:.1f} {'met' if ok else 'MISSED'}"


def metrics_line(r: dict[str, Any]) -> str:
    if not r["metrics"]:
        return "off (no BOARDROOM_METRICS_PORT)"
    return (
        f"on, /metrics read {r['scrapes']} times ({r['scrape_failures'] or 'no failures'}), "
        f"{r['interactions_counted']:g} interactions counted at the end"
    )


def details(r: dict[str, Any]) -> str:
    """A few lines of secondary figures for one N."""
    load = ", ".join(f"{x:.2f}" for x in r["load_average"])
    monitor = "ok" if r["monitor_ok"] else "MISSING"
    return "\n".join(
        [
            f"{label(r)}: {r['channels_playing']} channels played {r['window_seconds']} s "
            f"(setup {r['setup_seconds']} s, {r['setup_failures'] or 'no setup failures'})",
            f"  games started {r['games_started']}, finished {r['games_finished']}; "
            f"move mean {fmt(r['move_mean_ms'])} ms, max {fmt(r['move_max_ms'])} ms; "
            f"board {fmt(r['png_kib_mean'])} KiB",
            f"  boards shown by {r['shown_via'] or 'none'}",
            f"  failed moves {r['errors'] or 'none'}; controls fetched again {r['resyncs']}; "
            f"channels given up {r['channel_failures'] or 'none'}; "
            f"bot log ERROR lines {r['bot_log_errors']}",
            f"  database: {r['stored']['games']} games, {r['stored']['player_moves']} player moves"
            f" stored for {r['moves']} counted (the rest: setup, and moves whose board came too"
            f" late); games that do not replay: {r['stored']['not_replaying']}",
            f"  bot: RSS at READY {r['rss_ready_mib']:.1f} MiB, max {r['rss_max_mib']:.1f} MiB; "
            f"CPU {r['bot_cpu']:.2f} ({r['bot_cpu_ms_per_move']:.2f} ms per move) in the main "
            f"process, {r['drawing_cpu']:.2f} ({r['drawing_cpu_ms_per_move']:.2f} ms per move) "
            f"in its drawing processes; waited for a CPU {r['bot_runqueue_wait']:.2f} s/s",
            f"  bot loop lags > 20 ms: {r['stalls_over_20ms']}, > 50 ms: {r['stalls_over_50ms']} "
            f"in {r['stall_seconds_over_50ms']} seconds ({r['stall_seconds_shared_with_harness']} "
            f"of them with a > 50 ms lag in the harness too); max incl. startup "
            f"{fmt(r['stall_max_ms_incl_startup'])} ms; monitor {monitor}",
            f"  metrics: {metrics_line(r)}",
            f"  bot garbage collections per generation {r['bot_gc_count']}, longest "
            f"{r['bot_gc_max_ms']} ms (whole run)",
            f"  harness: CPU {r['harness_cpu']:.2f} ({r['harness_cpu_ms_per_move']:.2f} ms per "
            f"move), loop lag max {r['harness_lag_max_ms']:.1f} ms; collections "
            f"{r['harness_gc_count']}, longest {r['harness_gc_max_ms']} ms; load average {load}",
        ]
    )


async def run_all(setups: list[Setup], opts: Options) -> list[dict[str, Any]]:
    """Every setup in turn, each in its own directory (one PostgreSQL server for them all)."""
    rows = []
    pg: Any = None
    if any(s.backend == "postgres" for s in setups):
        from tests.pg.server import start_server

        pg = start_server(durable=True)
        if isinstance(pg, str):
            raise SystemExit(pg)
    try:
        for setup_ in setups:
            with contextlib.ExitStack() as stack:
                name = f"{'+'.join(setup_.games)}-{setup_.backend}-p{setup_.processes}-n{setup_.n}"
                if setup_.metrics:
                    name += "-metrics"
                if opts.keep is not None:
                    workdir = opts.keep / name
                    workdir.mkdir(parents=True, exist_ok=True)
                    for stale in workdir.glob("boardroom.db*"):
                        stale.unlink()
                    for stale in workdir.glob("bot-*.log"):
                        stale.unlink()
                else:
                    workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="e2e-")))
                print(f"{name}: running (up to {opts.seconds:g} s of play) ...", flush=True)
                row = await run_one(setup_, opts, workdir, pg)
            print(details(row), flush=True)
            rows.append(row)
    finally:
        if pg is not None:
            pg.remove()
    return rows


def parse_args(argv: list[str] | None = None) -> tuple[list[Setup], Options, Path | None]:
    """Command line -> (what to run, options, JSON output path)."""
    parser = argparse.ArgumentParser(
        description="End-to-end latency/load benchmark: games against one real bot process."
    )
    parser.add_argument(
        "--game", default="cantstop", help=f"comma-separated, one row each: {', '.join(GAMES)}"
    )
    parser.add_argument(
        "--mix", action="store_true", help="one row: the channels play the --game games in turn"
    )
    parser.add_argument("--channels", default="1,50,500", help="comma-separated N values")
    parser.add_argument("--seconds", type=float, default=60.0, help="play window per N")
    parser.add_argument("--moves-per-channel", type=int, default=2000, help="move cap per channel")
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="mean pause after each move (0.5x..1.5x)"
    )
    parser.add_argument("--timeout", type=float, default=15.0, help="wait per interaction (s)")
    parser.add_argument("--setup-seconds", type=float, default=90.0, help="bound on the setup")
    parser.add_argument("--setup-concurrency", type=int, default=25)
    parser.add_argument(
        "--backends", default="sqlite", help="comma-separated: sqlite, postgres (both: compare)"
    )
    parser.add_argument(
        "--processes", default="1", help="comma-separated bot process counts on one database"
    )
    parser.add_argument(
        "--metrics",
        default="off",
        help="comma-separated: off, on (both: compare; on: the bot's metrics port, scraped)",
    )
    parser.add_argument("--keep", type=Path, default=None, help="keep databases and logs here")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    ns = [int(x) for x in args.channels.split(",") if x.strip()]
    if not ns or min(ns) < 1:
        parser.error("--channels needs positive integers")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if not backends or set(backends) - {"sqlite", "postgres"}:
        parser.error("--backends takes sqlite and/or postgres")
    procs = [int(x) for x in args.processes.split(",") if x.strip()]
    if not procs or min(procs) < 1:
        parser.error("--processes needs positive integers")
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if not metrics or set(metrics) - {"off", "on"}:
        parser.error("--metrics takes off and/or on")
    games = [g.strip() for g in args.game.split(",") if g.strip()]
    if not games or set(games) - set(GAMES):
        parser.error(f"--game takes {', '.join(GAMES)}")
    loads = [tuple(games)] if args.mix else [(g,) for g in games]
    setups = [
        Setup(n, b, p, load, m == "on")
        for load in loads
        for n in ns
        for p in procs
        for b in backends
        for m in metrics
    ]
    opts = Options(
        seconds=args.seconds,
        moves_per_channel=max(1, args.moves_per_channel),
        think_ms=max(0.0, args.think_ms),
        timeout=args.timeout,
        setup_seconds=args.setup_seconds,
        setup_concurrency=max(1, args.setup_concurrency),
        keep=args.keep,
    )
    return setups, opts, args.json


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    setups, opts, json_path = parse_args(argv)
    ns = sorted({s.n for s in setups})
    print(
        f"e2e benchmark: {sorted({'+'.join(s.games) for s in setups})}, channels {ns}, backends {sorted({s.backend for s in setups})}, "
        f"processes {sorted({s.processes for s in setups})}, "
        f"metrics {sorted({'on' if s.metrics else 'off' for s in setups})}, window {opts.seconds:g} s, "
        f"<= {opts.moves_per_channel} moves/channel, think {opts.think_ms:g} ms, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    rows = asyncio.run(run_all(setups, opts))
    print()
    print(table(rows))
    if json_path is not None:
        json_path.write_text(json.dumps(rows, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
