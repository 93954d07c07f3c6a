"""No committed move without its board: the channel sees every game's newest version.

A move is committed before anything is shown. Usually the interaction carries its board; when it
cannot (Discord refused or lost the answer, or the interaction waited too long to be answered),
or when a computer opponent played, the board is posted as a normal channel message here. A
post that fails is retried with backoff until it gets through.

The record of what the channel has seen is durable: ``posts`` holds the version every posted
message shows and whether the channel saw it, so "committed but not yet shown" is any game whose
version is newer than its newest public post, private steps after it aside
(``GameService.unshown_games``); a private copy of a board never counts. The start-up recovery
and a periodic sweep of the running bot both work through that record, so a board is not lost
with the memory of a retry. Whoever is showing a game right now (an interaction handler, the
computer opponent's runner) holds it, and the sweep leaves it alone meanwhile, so a board is not
posted twice.

Whenever a post lands, or a try finds the channel has the newest board already, the delivery
says so (``on_shown``, ``on_seen``): a computer to move then plays (``runtime.BotRunner``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Iterator

import aiohttp
import discord

from bot.service.games import GameService, utc_ago
from bot.service.models import GameSnapshot, Outcome

log = logging.getLogger(__name__)

ChannelPost = Callable[[GameSnapshot, Outcome | None], Awaitable[None]]

#: seconds between attempts to post a board, then every last one until it gets through
RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0, 120.0, 300.0)
#: how often the running bot looks for boards its channels never saw
SWEEP_SECONDS = 30.0
#: how often ``others_done`` looks again
OTHERS_DONE_POLL = 0.02
UNKNOWN_CHANNEL = 10003  # the channel was deleted: nothing can be posted there any more
#: what a failing Discord (or the way to it) raises, as opposed to a fault of ours
DISCORD_FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError)


def _shows_a_board(snap: GameSnapshot) -> bool:
    return snap.status in ("active", "finished")


class BoardDelivery:
    """Posts the boards no message shows yet, now or with backoff, one game at a time."""

    def __init__(
        self,
        service: GameService,
        post: ChannelPost,
        *,
        delays: tuple[float, ...] = RETRY_DELAYS,
        sweep_seconds: float = SWEEP_SECONDS,
    ) -> None:
        self.service = service
        self.post = post
        self.delays = delays
        self.sweep_seconds = sweep_seconds
        #: called after a board was posted here (lets a computer opponent play next)
        self.on_shown: Callable[[GameSnapshot], None] = lambda snap: None
        #: called when a try finds nothing to post: the channel has the game's newest board
        #: (shown by someone else meanwhile), so a computer to move may play now
        self.on_seen: Callable[[int], None] = lambda game_id: None
        self._holders: dict[int, int] = {}
        self._retrying: dict[int, asyncio.Task[None]] = {}
        self._words: dict[int, Outcome] = {}

    # ------------------------------------------------------------------ holding

    def hold(self, game_id: int) -> None:
        """Someone is showing this game now: the sweep and the retries wait for them."""
        self._holders[game_id] = self._holders.get(game_id, 0) + 1

    def release(self, game_id: int) -> None:
        left = self._holders.get(game_id, 0) - 1
        if left > 0:
            self._holders[game_id] = left
        else:
            self._holders.pop(game_id, None)

    @contextlib.contextmanager
    def showing(self, game_id: int) -> Iterator[None]:
        self.hold(game_id)
        try:
            yield
        finally:
            self.release(game_id)

    def held(self, game_id: int) -> bool:
        return game_id in self._holders

    async def others_done(self, game_id: int, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until nobody but the caller, who holds the game
        too, is showing it: a board Discord already shows is recorded as seen only once the
        interaction that showed it is done."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._holders.get(game_id, 0) > 1 and loop.time() < end:
            await asyncio.sleep(OTHERS_DONE_POLL)

    def retrying(self, game_id: int) -> bool:
        return game_id in self._retrying

    # ------------------------------------------------------------------ posting

    async def show(self, game_id: int, outcome: Outcome | None = None) -> bool:
        """Post the game's newest board to its channel unless a message already shows it.
        True when the channel has it now; False when it did not get through (it is retried in
        the background, with backoff, until it does)."""
        try:
            with self.showing(game_id):
                await self._post_newest(game_id, outcome)
            return True
        except Exception as exc:
            if self._hopeless(game_id, exc, attempt=0):
                return False
            self.later(game_id, outcome)
            return False

    def later(
        self, game_id: int, outcome: Outcome | None = None, *, first: float | None = None
    ) -> None:
        """Keep trying to post the game's newest board (``first``: seconds before the first try,
        else the first backoff delay)."""
        if outcome is not None:
            self._words[game_id] = outcome
        if game_id in self._retrying:
            return
        task = asyncio.create_task(self._retry(game_id, first))
        self._retrying[game_id] = task

    async def pending(self, game_id: int) -> bool:
        """Is the game's newest version still unseen by its channel? (Then try again now.)"""
        snap = await self.service.game(game_id)
        if not _shows_a_board(snap) or await self.service.is_shown(snap):
            return False
        if not self.held(game_id):
            task = self._retrying.pop(game_id, None)
            if task is not None:
                task.cancel()
            self.later(game_id, first=0.0)
        return True

    async def _post_newest(self, game_id: int, outcome: Outcome | None) -> bool:
        """Post the newest version if no message shows it; False when there was nothing to do."""
        snap = await self.service.game(game_id)
        if not _shows_a_board(snap) or await self.service.is_shown(snap):
            self.on_seen(game_id)
            return False
        words = outcome if outcome is not None and outcome.after.version == snap.version else None
        await self.post(snap, words)
        log.info("board posted in the channel %s", snap.channel_id, extra={"game_id": game_id})
        self.on_shown(snap)
        return True

    def _delay(self, attempt: int) -> float:
        base = self.delays[min(attempt, len(self.delays) - 1)]
        return base * random.uniform(1.0, 1.2)

    async def _retry(self, game_id: int, first: float | None) -> None:
        try:
            attempt = 0
            while True:
                await asyncio.sleep(self._delay(attempt) if first is None or attempt else first)
                attempt += 1
                if self.held(game_id):
                    continue  # someone is showing it right now; look again later
                try:
                    with self.showing(game_id):
                        await self._post_newest(game_id, self._words.get(game_id))
                    return
                except Exception as exc:
                    if self._hopeless(game_id, exc, attempt):
                        return
        finally:
            if self._retrying.get(game_id) is asyncio.current_task():
                del self._retrying[game_id]
                self._words.pop(game_id, None)

    def _hopeless(self, game_id: int, exc: Exception, attempt: int) -> bool:
        """Log a failed post; True when trying again cannot help."""
        extra = {"game_id": game_id, "attempt": attempt}
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
            log.warning("board not posted: the channel is gone", extra=extra)
            return True
        if isinstance(exc, DISCORD_FAILURES):
            log.warning("board not posted yet (try %d): %r", attempt + 1, exc, extra=extra)
        else:
            log.exception("board not posted yet (try %d)", attempt + 1, extra=extra)
        return False

    # ------------------------------------------------------------------ sweeping

    async def sweep(self, changed_since: str | None = None) -> int:
        """Schedule a post for every game the record says its channel has not seen (except
        those someone is showing now). Returns how many were scheduled."""
        scheduled = 0
        for game_id in await self.service.unshown_games(changed_since):
            if self.held(game_id) or self.retrying(game_id):
                continue
            self.later(game_id, first=0.0)
            scheduled += 1
        return scheduled

    async def catch_up(self) -> None:
        """At start-up: post, one after the other, every board the channels never saw (the
        process stopped between saving a move and showing it); failures are retried later."""
        for game_id in await self.service.unshown_games():
            if not self.held(game_id):
                await self.show(game_id)

    async def keep_sweeping(self, then: Callable[[], Awaitable[object]] | None = None) -> None:
        """Sweep the record every ``sweep_seconds`` while the bot runs, and ``then`` (the bot
        runner's look at every game with a computer in it)."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                # finished games: only those that ended lately (running ones: all of them)
                await self.sweep(utc_ago(self.sweep_seconds * 4))
                if then is not None:
                    await then()
            except Exception:
                log.exception("sweep for unshown boards failed")

    async def close(self) -> None:
        tasks = list(self._retrying.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
