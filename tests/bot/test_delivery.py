"""Board delivery on a real SQLite file: the posts record says what each channel has seen, and
what it has not seen is posted now or retried with backoff, once, never behind a holder's back."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import discord
import pytest

from bot.adapter.delivery import BoardDelivery
from bot.adapter.runtime import BotRunner
from bot.service.bots import bot_to_move
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.storage.sqlite import SqliteStore

FAST = (0.01, 0.02, 0.04)


class Channel:
    """Stands in for Discord's channel post: fails ``failures`` times, then records the post
    the way the bot does (the posts table)."""

    def __init__(self, service: GameService, failures: int = 0, error: Exception | None = None):
        self.service = service
        self.failures = failures
        self.error = error or RuntimeError("Discord is down")
        self.posted: list[tuple[int, bool]] = []  # (version, with the outcome's words)
        self.tries = 0

    async def post(self, snap: GameSnapshot, outcome: Outcome | None) -> None:
        self.tries += 1
        if self.failures:
            self.failures -= 1
            raise self.error
        self.posted.append((snap.version, outcome is not None))
        await self.service.record_post(snap.id, snap.version, snap.channel_id, 1000 + self.tries)


@pytest.fixture
async def service(tmp_path):
    async with SqliteStore(tmp_path / "boardroom.db") as store:
        yield GameService(store, new_seed=lambda: 7)


async def started(service: GameService, channel_id: int = 5) -> Outcome:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=channel_id, host_id=1, host_name="A", game="cantstop"
    )
    await service.join(lobby.id, 2, "B")
    return await service.start(lobby.id, 1)


async def settle(delivery: BoardDelivery, game_id: int) -> None:
    for _ in range(500):
        if not delivery.retrying(game_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("still retrying")


async def test_a_board_is_posted_once_and_remembered(service: GameService) -> None:
    outcome = await started(service)
    channel = Channel(service)
    delivery = BoardDelivery(service, channel.post, delays=FAST)
    shown: list[int] = []
    delivery.on_shown = lambda snap: shown.append(snap.version)
    assert await service.unshown_games() == [outcome.after.id]
    assert await delivery.show(outcome.after.id, outcome)
    assert await delivery.show(outcome.after.id, outcome)  # already shown: nothing to do
    assert channel.posted == [(outcome.after.version, True)] and shown == [outcome.after.version]
    assert await service.unshown_games() == []


async def test_failed_posts_are_retried_with_backoff_until_they_get_through(
    service: GameService,
) -> None:
    outcome = await started(service)
    channel = Channel(service, failures=4)
    delivery = BoardDelivery(service, channel.post, delays=FAST)
    assert not await delivery.show(outcome.after.id, outcome)
    assert delivery.retrying(outcome.after.id)
    assert await delivery.pending(outcome.after.id)
    await settle(delivery, outcome.after.id)
    assert channel.tries == 5 and channel.posted == [(outcome.after.version, True)]
    assert not await delivery.pending(outcome.after.id)


async def test_the_newest_version_is_posted_when_the_game_moved_on(service: GameService) -> None:
    outcome = await started(service)
    channel = Channel(service, failures=1)
    delivery = BoardDelivery(service, channel.post, delays=FAST)
    assert not await delivery.show(outcome.after.id, outcome)
    rolled = await service.act(outcome.after.id, 1, "roll", outcome.after.version)
    await settle(delivery, outcome.after.id)
    assert channel.posted == [(rolled.after.version, False)]  # not the old outcome's words


async def test_the_sweep_works_through_the_record_but_not_behind_a_holder(
    service: GameService,
) -> None:
    held, free = await started(service, 5), await started(service, 6)
    channel = Channel(service)
    delivery = BoardDelivery(service, channel.post, delays=FAST)
    delivery.hold(held.after.id)
    assert await delivery.sweep() == 1
    await settle(delivery, free.after.id)
    assert channel.posted == [(free.after.version, False)]
    assert await service.unshown_games() == [held.after.id]
    delivery.release(held.after.id)
    await delivery.catch_up()
    assert len(channel.posted) == 2 and await service.unshown_games() == []


async def test_a_deleted_channel_is_given_up(service: GameService) -> None:
    outcome = await started(service)
    gone = discord.NotFound(
        SimpleNamespace(status=404, reason="Not Found"), {"code": 10003, "message": "Unknown Channel"}
    )
    channel = Channel(service, failures=1, error=gone)
    delivery = BoardDelivery(service, channel.post, delays=FAST)
    assert not await delivery.show(outcome.after.id, outcome)
    assert not delivery.retrying(outcome.after.id) and channel.tries == 1


class Gate(Channel):
    """A channel whose posts wait until ``opened`` (Discord retrying for a while), failing
    while ``refusing``."""

    def __init__(self, service: GameService) -> None:
        super().__init__(service)
        self.opened = asyncio.Event()
        self.waiting = asyncio.Event()
        self.refusing = True

    async def post(self, snap: GameSnapshot, outcome: Outcome | None) -> None:
        self.waiting.set()
        await self.opened.wait()
        if self.refusing:
            self.tries += 1
            raise self.error
        await super().post(snap, outcome)


async def until_true(check, what: str) -> None:
    for _ in range(500):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def test_a_computer_plays_on_when_woken_while_its_runner_waited(
    service: GameService,
) -> None:
    """The computer's board waits in a failing post while the person plays a whole turn and
    that board is shown: the wake that came meanwhile is not lost. When the runner gives up,
    the computer plays its next turn at once (not only when the retry gets through)."""
    lobby = await service.open_lobby(
        guild_id=1, channel_id=5, host_id=1, host_name="A", game="cantstop"
    )
    await service.add_bot(lobby.id, 1, "easy", "Bot 2")
    start = await service.start(lobby.id, 1)
    gid = start.after.id
    gate = Gate(service)
    delivery = BoardDelivery(service, gate.post, delays=(30.0,))  # no retry within the test
    bots = BotRunner(service, 0.0, delivery)
    delivery.on_shown = bots.after_public_turn
    snap = start.after
    await service.record_post(gid, snap.version, 5, 1)  # the first board is in the channel
    while "stop" not in snap.legal:  # the first roll and move (the first roll cannot bust)
        snap = (await service.act(gid, 1, snap.legal[0], snap.version)).after
        assert bot_to_move(snap) is None
    stopped = (await service.act(gid, 1, "stop", snap.version)).after
    await service.record_post(gid, stopped.version, 5, 3)
    bots.after_public_turn(stopped)
    await asyncio.wait_for(gate.waiting.wait(), 5)  # its turn is played, its board is stuck
    played = await service.game(gid)
    assert played.version > stopped.version and bot_to_move(played) is None
    snap = played
    while bot_to_move(snap) is None:  # the person plays a whole turn from a private copy
        action = "stop" if "stop" in snap.legal else snap.legal[0]
        snap = (await service.act(gid, 1, action, snap.version)).after
    await service.record_post(gid, snap.version, 5, 4)
    bots.after_public_turn(snap)  # the runner is still waiting in the post
    gate.refusing = False
    gate.opened.set()
    await until_true(
        lambda: _moved_past(service, gid, snap.version), "the computer's next turn"
    )
    await delivery.close()


async def _moved_past(service: GameService, gid: int, version: int) -> bool:
    return (await service.game(gid)).version > version


async def test_a_private_copy_is_not_the_channel_but_private_steps_are(
    service: GameService,
) -> None:
    """``is_shown`` follows the public record: a private message of a version whose previous
    version the channel never saw does not count; private steps right after a public board do."""
    outcome = await started(service)
    gid, first = outcome.after.id, outcome.after
    rolled = (await service.act(gid, 1, "roll", first.version)).after
    await service.record_post(gid, rolled.version, 5, 10, public=False)
    assert not await service.is_shown(rolled)  # the first board never reached the channel
    assert await service.unshown_games() == [gid]
    await service.record_post(gid, first.version, 5, 11)
    assert await service.is_shown(first) and await service.is_shown(rolled)
    assert await service.unshown_games() == []
