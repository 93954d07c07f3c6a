"""The bot process's timers: one ``Scheduler`` over the timers table, and what each kind of timer
does in Discord when it falls due.

Effects are committed by the service (``bot.service.table``) before anything is posted; what the
channel must hear is a notice row committed with the effect, posted here and retried with backoff
until Discord takes it (claimed first, so two processes never post it both). A channel that is
gone ends its game as abandoned after a grace period.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace
from typing import Any, Protocol

import discord

from bot.adapter import reminders
from bot.adapter.away_boards import boards_after_downtime, keeping_boards_true
from bot.adapter.delivery import DISCORD_FAILURES, RETRY_DELAYS, UNKNOWN_CHANNEL
from bot.adapter.digest import deliver_digest
from bot.adapter.outgoing import USERS_ONLY
from bot.adapter.pace import Pace
from bot.adapter.runtime import Runtime
from bot.adapter.table_play import post_vote, result_text, vote_messages_after_downtime
from bot.service.clocks import (
    AWAY_END,
    CHANNEL_CHECK,
    DEADLINE,
    LOBBY_EXPIRY,
    MOVED,
    NOTICE,
    REMINDER,
    VOTE_END,
)
from bot.service.digest import (
    DIGEST,
    late_limit,
    marked_sending,
    moment_of,
    quiet_end_of,
    schedule_digest,
    was_being_sent,
)
from bot.service.digest import OFF as DIGEST_OFF
from bot.service.errors import GameNotFound
from bot.service.models import GameSnapshot
from bot.service.preferences import Preferences
from bot.service.scheduler import Scheduler
from bot.service.table import (
    END,
    LOBBY_CLOSED,
    VOTE_DECIDED,
    VOTE_OPENED,
    YES,
    Decision,
    Downtime,
)
from bot.storage.base import PlayerSettingsRow, Shards, TimerRow, Tx
from i18n import game_title, t

log = logging.getLogger(__name__)

#: a claimed notice is someone's to post for this long (then another try may take it)
CLAIM_SECONDS = 60.0


class Poster(Protocol):
    """What the dispatcher needs of the bot client."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: Any = None
    ) -> Any: ...

    async def guild_locale(self, guild_id: int | None) -> str: ...

    async def wait_until_ready(self) -> None: ...


class TimerActions:
    """Handles each due timer for one bot process."""

    def __init__(self, client: Poster, runtime: Runtime, *, shards: Shards | None = None):
        self.client = client
        self.runtime = runtime
        self.service = runtime.service
        self.table = runtime.table
        self.now = self.table.now
        self.scheduler = Scheduler(self.service.store, self.handle, now=self.now, shards=shards)
        self.service.turn_clock.on_timer = self.scheduler.poke
        self.pace = Pace()
        #: the boards whose deadline moved at start-up, being rewritten
        self._rewriting: asyncio.Task[None] | None = None

    async def start(self) -> None:
        downtime = await self.table.after_downtime(self.scheduler.shards)
        if downtime.postponed or downtime.dropped:
            log.info(
                "after downtime: %d deadlines given a grace period, %d old reminders dropped",
                downtime.postponed,
                downtime.dropped,
            )
        if downtime.moved or downtime.votes_moved:  # in the background: start-up goes on
            self._rewriting = asyncio.create_task(self._keep_messages_true(downtime))
        self.scheduler.start()

    async def _keep_messages_true(self, downtime: Downtime) -> None:
        """After downtime: the boards and vote messages that name a moment the grace period
        moved name the new one."""
        await boards_after_downtime(self.client, self.runtime, downtime.moved, self.pace.wait)
        await vote_messages_after_downtime(
            self.client, self.runtime, downtime.votes_moved, self.pace.wait
        )

    async def stop(self) -> None:
        if self._rewriting is not None:
            self._rewriting.cancel()
        await self.scheduler.stop()

    # ----------------------------------------------------------------- dispatch

    async def handle(self, timer: TimerRow) -> None:
        if timer.kind == DEADLINE:
            await self.table.deadline_passed(timer)  # its vote message is a notice
        elif timer.kind == VOTE_END:
            await self.table.vote_timed_out(timer)  # so is its result
        elif timer.kind == REMINDER:
            await self._remind(timer)
        elif timer.kind == LOBBY_EXPIRY:
            await self.service.expire_lobby(timer.game_id or 0, timer.id)
        elif timer.kind == AWAY_END:
            guild_id, user_id = timer.guild_id or 0, timer.user_id or 0
            back = self.table.come_back(guild_id, user_id, timer_id=timer.id)
            await keeping_boards_true(
                self.client, self.runtime, guild_id, user_id, back, self.pace.wait
            )
        elif timer.kind == CHANNEL_CHECK:
            await self._check_channel(timer)
        elif timer.kind == NOTICE:
            await self._notice(timer)
        elif timer.kind == DIGEST:
            await self._digest(timer)
        else:
            log.warning("unknown timer kind %r dropped", timer.kind)
            await self._drop(timer)

    async def _drop(self, timer: TimerRow) -> None:
        async with self.service.store.write() as tx:
            await tx.delete_timer(timer.id)

    async def _claim(self, timer: TimerRow) -> bool:
        """Take the timer for this process for a while (False: someone else has it, or it is
        gone)."""
        async with self.service.store.write() as tx:
            current = await tx.load_timer(timer.id)
            if current is None or current.due > self.now():
                return False
            await tx.reschedule_timer(timer.id, self.now() + CLAIM_SECONDS, current.attempts)
            return True

    async def _retry(self, timer: TimerRow, exc: BaseException) -> None:
        """Discord refused or failed: try again with backoff (nothing is lost)."""
        delay = RETRY_DELAYS[min(timer.attempts, len(RETRY_DELAYS) - 1)]
        log.warning(
            "%s not posted yet (try %d): %r",
            timer.kind,
            timer.attempts + 1,
            exc,
            extra={"game_id": timer.game_id},
        )
        async with self.service.store.write() as tx:
            if await tx.load_timer(timer.id) is not None:
                await tx.reschedule_timer(timer.id, self.now() + delay, timer.attempts + 1)
        self.scheduler.poke(self.now() + delay)

    def _channel(self, snap: GameSnapshot, channel_id: int | None = None) -> Any:
        return self.client.get_partial_messageable(
            channel_id or snap.channel_id, guild_id=snap.guild_id
        )

    async def _gone(self, timer: TimerRow, exc: BaseException) -> bool:
        """A channel that no longer exists: drop the message; its game ends after a grace."""
        if not (isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL):
            return False
        log.warning("the game's channel is gone", extra={"game_id": timer.game_id})
        await self.table.channel_gone(timer)
        return True

    # ----------------------------------------------------------------- kinds

    async def _remind(self, timer: TimerRow) -> None:
        snap = await self._game(timer)
        seat = json.loads(timer.data).get("seat")
        if (
            snap is None
            or snap.version != timer.version
            or snap.to_move != seat
            or snap.status != "active"
        ):
            await self._drop(timer)
            return
        if not await self._claim(timer):
            return
        try:
            await self.pace.wait()
            again = await reminders.deliver_reminder(self.client, self.runtime, timer, snap)
        except DISCORD_FAILURES as exc:
            if not await self._gone(timer, exc):
                await self._retry(timer, exc)
                return
            again = None
        async with self.service.store.write() as tx:
            if again is None:
                await tx.delete_timer(timer.id)
            else:
                await tx.reschedule_timer(timer.id, again, timer.attempts)
        if again is not None:
            self.scheduler.poke(again)

    async def _digest(self, timer: TimerRow) -> None:
        """A player's digest fell due: sent once (late after downtime, or skipped when too
        late; see ``bot.service.digest``), then its timer moves to the next moment."""
        # the servers' names come from the gateway: at start-up, wait until it told them
        await self.client.wait_until_ready()
        store = self.service.store
        player = await Preferences(store).player(timer.user_id or 0)
        now = self.now()
        async with store.write() as tx:
            current = await tx.load_timer(timer.id)
            if current is None or current.due > now:
                return  # another process has it, or the player's choice replaced it
            moment = moment_of(current)
            units = self.service.turn_clock.units
            late = now - moment > late_limit(player, units)
            if player.digest == DIGEST_OFF or late or was_being_sent(current):
                if late:
                    log.info("digest skipped: %.0f s late", now - moment)
                await self._next_digest(tx, player, now)
                return
            quiet_end = quiet_end_of(now, player, units.game_time)
            if quiet_end > now:  # (a late one may fall in the player's quiet hours)
                await tx.reschedule_timer(current.id, quiet_end, current.attempts)
                tx.on_commit(lambda: self.scheduler.poke(quiet_end))
                return
            await tx.delete_timer(current.id)  # marked as being sent, claimed for a while
            sending = await tx.add_timer(
                replace(current, due=now + CLAIM_SECONDS, data=marked_sending(current), attempts=0)
            )
        try:
            await deliver_digest(self.client, self.runtime, player, self.pace.wait)
        except DISCORD_FAILURES as exc:
            delay = RETRY_DELAYS[min(current.attempts, len(RETRY_DELAYS) - 1)]
            log.warning("digest not sent yet (try %d): %r", current.attempts + 1, exc)
            async with store.write() as tx:
                if await tx.load_timer(sending) is not None:  # unmarked: nothing went by DM
                    await tx.delete_timer(sending)
                    retry = replace(current, due=now + delay, attempts=current.attempts + 1)
                    await tx.add_timer(retry)
            self.scheduler.poke(now + delay)
            return
        async with store.write() as tx:
            if await tx.load_timer(sending) is not None:  # (else the player chose anew)
                await self._next_digest(tx, player, self.now())

    async def _next_digest(self, tx: Tx, player: PlayerSettingsRow, now: float) -> None:
        timer = await schedule_digest(tx, player, now, self.service.turn_clock.units.game_time)
        if timer is not None:
            due = timer.due
            tx.on_commit(lambda: self.scheduler.poke(due))

    async def _game(self, timer: TimerRow) -> GameSnapshot | None:
        try:
            return await self.service.game(timer.game_id or 0)
        except GameNotFound:
            return None

    async def _notice(self, timer: TimerRow) -> None:
        snap = await self._game(timer)
        if snap is None:
            await self._drop(timer)
            return
        if not await self._claim(timer):
            return
        data = json.loads(timer.data)
        decided: Decision | None = None
        try:
            await self.pace.wait()
            decided = await self._post_notice(snap, data)
        except DISCORD_FAILURES as exc:
            if not await self._gone(timer, exc):
                await self._retry(timer, exc)
                return
        await self._drop(timer)  # first: a computer waits while a decision's notice is due
        if data.get("notice") == VOTE_DECIDED:
            await self._after_decision(snap, decided)

    async def _post_notice(self, snap: GameSnapshot, data: dict[str, Any]) -> Decision | None:
        """Post the notice; the decision it told (None: another kind, or nothing to tell)."""
        kind = data.get("notice")
        locale = await self.client.guild_locale(snap.guild_id)
        if kind == LOBBY_CLOSED:
            await self._close_lobby_message(snap, locale)
            return None
        vote = await self.service.store.vote(int(data.get("vote_id", 0)))
        if vote is None:
            return None
        post = await self.service.latest_post(snap.id)
        channel = self._channel(snap, post[0] if post else None)
        if kind == VOTE_OPENED:
            if vote.outcome is not None or vote.message_id is not None:
                return None  # decided before its message went out, or posted already
            message_id = await post_vote(self.runtime, channel, locale, vote, snap)
            async with self.service.store.write() as tx:
                await tx.set_vote_message(vote.id, channel.id, message_id)
        elif kind == VOTE_DECIDED:
            if data.get("outcome") == MOVED and vote.message_id is None:
                return None  # moot before the table was ever asked: nothing to say
            decision = Decision(vote, {}, data.get("outcome"), snap)
            if vote.message_id is not None:
                await self._edit(channel, vote.message_id, view=None)
            text = result_text(locale, decision, by_default=bool(data.get("by_default")))
            await channel.send(text, allowed_mentions=USERS_ONLY)
            return decision
        return None

    async def _after_decision(self, snap: GameSnapshot, decision: Decision | None) -> None:
        """Once the channel heard the decision (or it was moot and said nothing): a computer to
        move plays now, stand-in or bot seat (it waited for the notice; the board before its
        turn is in the channel already), or the ended game's last board loses its buttons."""
        if snap.status == "active":
            self.runtime.bots.wake(snap.id)
        elif decision is not None and decision.outcome in (END, YES) and snap.status == "abandoned":
            await self._strip_last_board(snap)

    async def _edit(self, channel: Any, message_id: int, **changes: Any) -> None:
        """Best effort: an old message that cannot be edited changes nothing that matters."""
        try:
            await channel.get_partial_message(message_id).edit(**changes)
        except DISCORD_FAILURES as exc:
            log.info("message %s not updated: %r", message_id, exc)

    async def _strip_last_board(self, snap: GameSnapshot) -> None:
        post = await self.service.latest_post(snap.id)
        if post is not None:
            await self._edit(self._channel(snap, post[0]), post[1], view=None)

    async def _close_lobby_message(self, snap: GameSnapshot, locale: str) -> None:
        post = await self.service.latest_post(snap.id)
        text = t(locale, "lobby.expired", game=game_title(locale, snap.game))
        if post is None:
            await self._channel(snap).send(text, allowed_mentions=USERS_ONLY)
            return
        channel = self._channel(snap, post[0])
        try:
            await channel.get_partial_message(post[1]).edit(content=text, view=None)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                raise
            await channel.send(text, allowed_mentions=USERS_ONLY)  # the lobby message is gone

    async def _check_channel(self, timer: TimerRow) -> None:
        """After the grace period: a game whose channel is still gone ends as abandoned."""
        snap = await self._game(timer)
        if snap is None or snap.status not in ("lobby", "active"):
            await self._drop(timer)
            return
        try:
            await self.client.fetch_channel(snap.channel_id)  # type: ignore[attr-defined]
        except discord.NotFound:
            await self.table.end_for_lost_channel(timer)
            return
        except DISCORD_FAILURES as exc:
            await self._retry(timer, exc)
            return
        await self._drop(timer)  # it is back (or was never gone)
