"""A bounded, seeded fuzz run through the real bot: forged controls, forged options, clicks out
of turn, old boards, inputs from the wrong place, mixed with legitimate moves.

After every input: it got an answer the fake accepted within Discord's deadline (none refused
as late), the stored games, seats and moves changed exactly when the input was legitimate (then
by one move and its board followed), and the bot logged no traceback.

``BOARDROOM_FUZZ_COUNT`` (default 300) and ``BOARDROOM_FUZZ_SEED`` (default 11) set the size
and the seed; a long run: ``BOARDROOM_FUZZ_COUNT=5000 python -m pytest -s tests/e2e/test_fuzz_e2e.py``.
"""

from __future__ import annotations

import collections
import copy
import os
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.conftest import BotProcess
from tests.e2e.helpers import (
    Table,
    action_ids,
    board_after_click,
    lobby_id,
    open_and_start,
    seat_users,
)
from tests.e2e.reliability import fingerprint
from tests.e2e.test_harmonies_e2e import mover_of
from tests.fakediscord import FakeChannel, FakeDiscordDriver, FakeUser, InteractionRecord

COUNT = int(os.environ.get("BOARDROOM_FUZZ_COUNT", "300"))
SEED = int(os.environ.get("BOARDROOM_FUZZ_SEED", "11"))
ANSWER_WAIT = 5.0  # how long the test waits; the fake itself refuses answers after 3 s

HUGE = (2**63, 2**64 + 1, 10**30, -1, -(2**63), 2**63 - 1, 0)
JUNK_CHARS = "abcxyz019:+-_.ÄéΩ٣１ \n\t\x00/\\%'\"<>@#&"
JUNK_TYPED = (5, -1, 2**70, True, False, 1.5, "", "   ", "jump:9", "roll; DROP TABLE games", "x" * 150)


class LogWatch:
    """Reads the bot's log incrementally and says whether a traceback appeared since last time."""

    def __init__(self, bot: BotProcess) -> None:
        self.path = bot.log_path
        self.offset = self.path.stat().st_size
        self.tail = b""

    def new_traceback(self) -> str | None:
        with self.path.open("rb") as f:
            f.seek(self.offset)
            chunk = f.read()
        self.offset += len(chunk)
        text = self.tail + chunk
        self.tail = chunk[-64:]
        at = text.find(b"Traceback")
        return None if at < 0 else text[max(0, at - 200) : at + 2000].decode(errors="replace")


@dataclass
class World:
    driver: FakeDiscordDriver
    bot: BotProcess
    channel: FakeChannel
    players: list[FakeUser]
    watcher: FakeUser
    elsewhere: list[FakeChannel]
    lobby: Any  # a lobby message in another channel, for forged lobby presses
    lobby_gid: int
    lobby_channel: FakeChannel
    board: Any = None
    old_boards: list[Any] = field(default_factory=list)
    games: int = 0

    @property
    def everyone(self) -> list[FakeUser]:
        return [*self.players, self.watcher]

    def mover(self) -> FakeUser:
        return mover_of(self.board, self.players)

    def buttons(self) -> dict[str, str]:
        return action_ids(self.board)


def junk(rnd: random.Random, length: int) -> str:
    return "".join(rnd.choice(JUNK_CHARS) for _ in range(length))


def forged_custom_id(rnd: random.Random, w: World) -> str:
    """A custom_id that is not the id of any current control."""
    gid, version, _ = next(iter(w.buttons().values())).split(":", 3)[1:]
    version_n = int(version)
    action = rnd.choice(list(w.buttons()))
    big = rnd.choice(HUGE)
    shapes = [
        lambda: f"br:{big}:{version}:{action}",
        lambda: f"br:{gid}:{big}:{action}",
        lambda: f"br:{gid}:{version_n + rnd.choice([-2, -1, 1, 7])}:{action}",
        lambda: f"br:{gid}:{version}:{junk(rnd, rnd.randint(1, 12))}",
        lambda: f"br:{gid}:{version}:{rnd.choice(['stop', 'roll', 'move:2+12', 'end'])}",
        lambda: f"br:0{gid}:{version}:{action}",
        lambda: f"br:{gid}:{version}:{action}" + rnd.choice(["\n", " ", ":x", "\x00"]),
        lambda: f"brs:{gid}:{version}:{rnd.randint(-3, 40)}",
        lambda: f"brl:{w.lobby_gid}:{rnd.choice(['bot-xyz', 'JOIN', 'start ', 'bot-', 'x' * 13])}",
        lambda: f"brl:{big}:join",
        lambda: rnd.choice(["br:", "brs:", "brl:"]) + junk(rnd, rnd.randint(0, 96)),
        lambda: junk(rnd, rnd.randint(1, 100)),
        lambda: f"br:{gid}:{version}:{action}"[: rnd.randint(1, 8)],
        lambda: "br:" + "9" * rnd.randint(19, 97),
    ]
    current = set(w.buttons().values())
    while True:
        custom_id = rnd.choice(shapes)()[:100] or "x"
        if custom_id not in current:
            return custom_id


async def one_input(rnd: random.Random, w: World) -> tuple[str, bool, InteractionRecord]:
    """Send one input; returns (its kind, whether it is legitimate, its record)."""
    d = w.driver
    mover = w.mover()
    others = [u for u in w.everyone if u is not mover]
    buttons = w.buttons()
    roll = rnd.random()
    if roll < 0.12:  # a legitimate move: a current button, or the same code typed
        code = rnd.choice(sorted(buttons))
        if rnd.random() < 0.25:
            rec = await d.slash(mover, w.channel, "game", {"action": code}, subcommand="move")
            return "legit-typed", True, rec
        return "legit", True, await d.click(mover, w.board, buttons[code])
    if roll < 0.27:  # out of turn: someone else presses a current button
        user = rnd.choice(others)
        custom_id = rnd.choice(list(buttons.values()))
        return "out-of-turn", False, await d.click(user, w.board, custom_id)
    if roll < 0.37 and w.old_boards:  # an old board, as a client that did not refresh shows it
        old = rnd.choice(w.old_boards[-8:])
        ids = action_ids(old)
        if ids:
            user = rnd.choice(w.everyone)
            return "old-board", False, await d.click(user, old, rnd.choice(list(ids.values())))
    if roll < 0.62:  # a forged custom_id, by anyone (the mover included)
        user = rnd.choice(w.everyone)
        kind = rnd.choice([2, 2, 3])
        values = None
        if kind == 3:
            values = rnd.choice([[junk(rnd, 5)], [], [5], ["a" * 120], ["x", "y"], [None]])
        custom_id = forged_custom_id(rnd, w)
        rec = await d.forge_component(user, w.board, custom_id, component_type=kind, values=values)
        return "forged-id", False, rec
    if roll < 0.70:  # a select with a current-looking id but values that are no legal move
        gid, version, _ = next(iter(buttons.values())).split(":", 3)[1:]
        values = [rnd.choice(["x", "move:99", "ROLL", junk(rnd, 4)])]
        values = [v for v in values if v not in buttons] or ["nope"]
        custom_id = f"brs:{gid}:{version}:0"
        user = rnd.choice(w.everyone)
        rec = await d.forge_component(user, w.board, custom_id, component_type=3, values=values)
        return "forged-select", False, rec
    if roll < 0.80:  # the mover's current button from the wrong place
        place = rnd.choice(w.elsewhere)
        code = rnd.choice(sorted(buttons))
        rec = await d.forge_component(mover, w.board, buttons[code], channel=place)
        return "wrong-place", False, rec
    if roll < 0.85:  # a lobby press from the wrong place
        place = rnd.choice([p for p in w.elsewhere if p is not w.lobby_channel])
        op = rnd.choice(["join", "leave", "start", "cancel", "bot-easy"])
        user = rnd.choice(w.everyone)
        custom_id = f"brl:{w.lobby_gid}:{op}"
        rec = await d.forge_component(user, w.lobby, custom_id, channel=place)
        return "lobby-elsewhere", False, rec
    # a typed move: a forged value, or a legal code typed by someone who is not to move
    if rnd.random() < 0.5:
        value: Any = rnd.choice(JUNK_TYPED)
        user = rnd.choice(w.everyone)
    else:
        value, user = rnd.choice(sorted(buttons)), rnd.choice(others)
    rec = await d.slash(user, w.channel, "game", {"action": value}, subcommand="move")
    return "typed", False, rec


async def set_up(driver: FakeDiscordDriver, bot: BotProcess) -> World:
    table = await seat_users(driver, bot.guild, "Alice", "Bob", "Watcher")
    alice, bob, watcher = table.users
    table.users = [alice, bob]
    other = await driver.add_channel(bot.guild, "lobby-corner")
    rec = await driver.slash(watcher, other, "play", {}, subcommand="kokeshi")
    await rec.wait_response()
    foreign_guild = await driver.add_guild("Elsewhere")
    for user in (alice, bob, watcher):
        await driver.add_member(foreign_guild, user)
    foreign = await driver.add_channel(foreign_guild, "games")
    dm = await driver.dm_channel(alice)
    world = World(
        driver,
        bot,
        table.channel,
        [alice, bob],
        watcher,
        [other, foreign, dm],
        rec.original,
        lobby_id(rec.original),
        other,
    )
    world.board = await open_and_start(table)
    world.games = 1
    return world


async def test_fuzz(fake_discord, bot_process) -> None:
    bot = await bot_process()
    world = await set_up(fake_discord, bot)
    watch = LogWatch(bot)
    rnd = random.Random(SEED)
    kinds: collections.Counter[str] = collections.Counter()
    latencies: list[float] = []
    started = time.monotonic()
    before = fingerprint(bot)
    for step in range(COUNT):
        seen = copy.deepcopy(world.board)  # as shown before the input (it may be edited)
        kind, legit, rec = await one_input(rnd, world)
        where = f"input {step} ({kind}, seed {SEED})"
        await rec.wait_response(timeout=ANSWER_WAIT)
        assert not rec.late and rec.latency is not None, where
        latencies.append(rec.latency)
        kinds[kind] += 1
        if legit:
            if rec.type == 3:  # a click: the board is updated in place, or a follow-up
                assert rec.source_message is not None, where
                board = await board_after_click(fake_discord, rec, rec.source_message)
            else:  # a typed move: the deferred answer becomes the board, or a private note
                answer = await rec.wait_original_edit(timeout=10)
                # a step is shown on the newest board, edited before the note was sent
                board = fake_discord.message(seen.id) if answer.ephemeral else answer
            after = fingerprint(bot)
            assert after[3][0] > before[3][0], where
            world.old_boards.append(seen)
            world.board = board
            if not action_ids(board):  # the game is over: the next one in the same channel
                assert "wins" in board.content, where
                table = Table(fake_discord, bot.guild, world.channel, world.players)
                world.board = await open_and_start(table)
                world.games += 1
            before = fingerprint(bot)
        else:
            assert rec.ephemeral, (where, rec.payload["data"], rec.user.name, world.board.content)
            assert fingerprint(bot) == before, where
        found = watch.new_traceback()
        assert found is None, f"{where}: traceback in the bot's log:\n{found}"
    elapsed = time.monotonic() - started
    latencies.sort()
    print(
        f"\nfuzz: {COUNT} inputs in {elapsed:.1f} s, seed {SEED}, {world.games} game(s); "
        f"answer latency median {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {latencies[int(0.99 * (len(latencies) - 1))] * 1000:.1f} ms, "
        f"max {latencies[-1] * 1000:.1f} ms; none late; by kind: {dict(sorted(kinds.items()))}"
    )
    assert not fake_discord.late_answers()
    bot.assert_no_traceback()
