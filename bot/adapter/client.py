"""BoardroomBot: the discord.py client wired to the game service."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import signal
import time
from contextlib import AsyncExitStack
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.adapter import commands, dispatch, handlers
from bot.adapter.board_plan import Show
from bot.adapter.components import OurControl, is_ours, on_message
from bot.adapter.delivery import DISCORD_FAILURES, RETRY_DELAYS, BoardDelivery
from bot.adapter.handlers import reply_error
from bot.adapter.observe import discord_trace
from bot.adapter.outgoing import USERS_ONLY, board_files, board_view
from bot.adapter.rendering import start_processes, stop_processes
from bot.adapter.runtime import BotRunner, InteractionGate, Runtime
from bot.adapter.threads import archive_thread
from bot.adapter.timers import TimerActions
from bot.adapter.words import CatalogueTranslator, use_command_mentions
from bot.games import load_games
from bot.ops import metrics
from bot.ops.health import Readiness
from bot.ops.http import OpsServer
from bot.service.clocks import TimeUnits, TurnClock
from bot.service.errors import UserFacingError
from bot.service.games import GameService
from bot.service.models import GameSnapshot, Outcome
from bot.service.ratings import record_unrecorded
from bot.service.servers import ServerSettings
from bot.service.table import Table
from bot.settings import Settings, heartbeat_path
from i18n import DEFAULT_LOCALE

HEARTBEAT_SECONDS = 30
#: on SIGTERM, the moves in flight get this long to finish (the whole stop stays within 10 s)
DRAIN_SECONDS = 5.0
#: what the bot needs: View Channels, Send Messages, Embed Links, Attach Files, Read Message History
INVITE_PERMISSIONS = 117760


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot, with its slash commands, to a server."""
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
    )


log = logging.getLogger(__name__)


class BadInput(UserFacingError):
    key = "error.bad_input"


def point_rest_at(api_base: str) -> None:
    """Send REST calls to ``api_base`` (a proxy, or a local test double) instead of Discord."""
    Route.BASE = api_base.rstrip("/")


class GameTree(app_commands.CommandTree["BoardroomBot"]):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError):
            await reply_error(interaction, error.original)
            return
        # discord.py refused the input before our code ran: an option value that is not one
        # of its choices, a user that cannot be resolved, a command used where it is not offered
        log.info("command input refused: %s", type(error).__name__)
        await reply_error(interaction, BadInput())


#: the gateway events the bot is sent: its servers and their channels and threads (GUILDS) and
#: nothing else. Players act through interactions, which come whatever the intents; the default
#: set would also send every message, reaction and typing start in every channel of every server
#: the bot is in, each one read and parsed for nothing.
GATEWAY_INTENTS = discord.Intents(guilds=True)


class BoardroomBot(discord.Client):
    def __init__(self, settings: Settings, service: GameService, **options: object) -> None:
        super().__init__(
            intents=GATEWAY_INTENTS,
            max_messages=None,  # the bot never reads past messages; keep the heap small
            allowed_mentions=USERS_ONLY,
            http_trace=discord_trace(),  # Discord's errors and 429s, and first answers, counted
            **options,
        )
        self.settings = settings
        self.service = service
        self.tree = GameTree(self)
        delays = tuple(delay * settings.test_retry_scale for delay in RETRY_DELAYS)
        delivery = BoardDelivery(service, self.post_to_channel, delays=delays)
        bots = BotRunner(service, settings.bot_pause, delivery, typing=self.show_typing)
        delivery.on_shown = bots.after_public_turn  # a bot plays once the board before it is up
        delivery.on_seen = bots.wake  # ... also when someone else showed it meanwhile
        bots.on_ended = self.game_ended
        self._archiving: set[asyncio.Task[None]] = set()
        self.runtime = Runtime(
            service=service,
            servers=ServerSettings(service.store),
            settings=settings,
            gate=InteractionGate(settings.max_in_flight, reply_error),
            delivery=delivery,
            bots=bots,
            on_control=dispatch.on_control,
            table=Table(service, now=service.turn_clock.now),
        )
        self.timers = TimerActions(self, self.runtime, shards=settings.shards)
        self._background: set[asyncio.Task[None]] = set()
        self._invite_logged = False
        self._stopping = False
        commands.register(self.tree)

    async def setup_hook(self) -> None:
        if self.settings.api_base:
            # The same setting also moves the gateway: ask the API where it is.
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        self.add_dynamic_items(OurControl)
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        await self.resume_all()  # before the gateway connects: no click can race with it
        await self.timers.start()  # deadlines, reminders, votes: one scheduler for all of them
        sweep = self.runtime.delivery.keep_sweeping(then=self.runtime.bots.wake_all)
        for job in (self._beat(), sweep, self._catch_up_ratings()):
            self._background.add(asyncio.create_task(job))

    async def _catch_up_ratings(self) -> None:
        """Record the games that finished before results and ratings were kept, in the
        background: on a big database that is many replays, and play need not wait for them."""
        try:
            await record_unrecorded(self.service.store)
        except Exception:
            log.exception("could not record the outcomes of older finished games")

    async def stop_gracefully(self) -> None:
        """SIGTERM: take no new interaction, let the moves in flight finish (each committed
        move's board is then posted, or left for the delivery that posts it after the restart),
        then close; the database is closed by ``run_bot`` once the client has."""
        if self._stopping:
            return
        self._stopping = True
        log.info("stopping: the moves in flight finish first")
        if not await self.runtime.gate.close(DRAIN_SECONDS):
            log.warning("stopping with %d interactions unfinished", self.runtime.gate.in_flight)
        await self.runtime.bots.stop()
        await self.close()

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        await self.timers.stop()
        await self.runtime.delivery.close()
        await super().close()

    async def _beat(self) -> None:
        """Touch the heartbeat file while connected; ``boardroom health`` reads it."""
        path = heartbeat_path(self.settings)
        await self.wait_until_ready()  # the first beat as soon as the gateway session is up
        while not self.is_closed():
            if self.is_ready():
                await asyncio.to_thread(path.write_text, str(int(time.time())))
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def sync_commands(self) -> None:
        """Sync to the dev guild on every start, globally only when the commands changed."""
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            use_command_mentions(await self.tree.sync(guild=guild))
            log.info("commands synced to guild %s", self.settings.dev_guild_id)
            return
        # the payload as synced, localisations included: a changed catalogue syncs again
        translator = self.tree.translator
        assert translator is not None
        payload = [
            await c.get_translated_payload(self.tree, translator) for c in self.tree.get_commands()
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        marker = self.settings.database.with_name(self.settings.database.name + ".commands")
        if marker.is_file() and marker.read_text().strip() == digest:
            await self._learn_command_ids()
            return
        use_command_mentions(await self.tree.sync())
        marker.write_text(digest)
        log.info("global commands synced")

    async def _learn_command_ids(self) -> None:
        """The ids of the commands synced before, for the command mentions sentences show
        (without them a command is shown as typed)."""
        try:
            use_command_mentions(await self.tree.fetch_commands())
        except DISCORD_FAILURES as exc:
            log.warning("command ids not known: commands are shown as typed (%r)", exc)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s)", self.user, getattr(self.user, "id", "?"))
        if self.application_id and not self._invite_logged:  # once, not on every reconnect
            self._invite_logged = True
            log.info("invite the bot to a server with %s", invite_url(self.application_id))

    async def resume_all(self) -> None:
        """After a restart: post every board a channel never saw (the process stopped between
        saving a move and showing it; a bot waiting behind it then plays), and let every
        computer to move play (each runner checks that the board before its turn is up)."""
        try:
            await self.runtime.delivery.catch_up()
        except Exception:
            log.exception("could not look for unshown boards")
        try:
            await self.runtime.bots.wake_all()
        except Exception:
            log.exception("could not resume the computer opponents")

    async def post_to_channel(self, snap: GameSnapshot, outcome: Outcome | None = None) -> None:
        """A public turn message sent as a plain channel message (no interaction to answer)."""
        locale = await self.guild_locale(snap.guild_id)
        message = await handlers.board_message(self.runtime, locale, Show.TURN, snap, outcome)
        channel = self.get_partial_messageable(snap.channel_id, guild_id=snap.guild_id)
        sent = await channel.send(
            message.content,
            files=board_files(message),
            view=board_view(message) or discord.utils.MISSING,
            allowed_mentions=USERS_ONLY,
        )
        await self.service.record_post(snap.id, snap.version, snap.channel_id, sent.id)

    def game_ended(self, snap: GameSnapshot) -> None:
        """A game's last board is public: archive its thread, if it was opened in one."""
        task = asyncio.create_task(archive_thread(self, snap.channel_id))
        self._archiving.add(task)
        task.add_done_callback(self._archiving.discard)

    async def show_typing(self, game_id: int) -> None:
        """Discord's typing indicator where the game's boards go, while a bot thinks (best
        effort: a channel that refuses it changes nothing)."""
        try:
            snap = await self.service.game(game_id)
            post = await self.service.latest_post(game_id)
            channel_id = post[0] if post else snap.channel_id
            await self.get_partial_messageable(channel_id, guild_id=snap.guild_id).typing()
        except DISCORD_FAILURES as exc:
            log.info("typing indicator not shown: %r", exc, extra={"game_id": game_id})

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer the component clicks none of our items receives: a custom_id that does not
        start like ours (e.g. from a removed feature), or one that is not on the message."""
        if interaction.type != discord.InteractionType.component:
            return
        custom_id = (interaction.data or {}).get("custom_id")
        if isinstance(custom_id, str) and is_ours(custom_id) and on_message(interaction):
            return  # one of our items has it (and parses it)
        await handlers.refuse(interaction)

    async def guild_locale(self, guild_id: int | None) -> str:
        """The language of a server's public messages: chosen by its admins, else its own."""
        chosen = await self.runtime.servers.locale(guild_id)
        if chosen:
            return chosen
        guild = self.get_guild(guild_id) if guild_id else None
        return str(guild.preferred_locale.value) if guild else DEFAULT_LOCALE


class ShardedBoardroomBot(BoardroomBot, discord.AutoShardedClient):
    """BOARDROOM_SHARDS: the same bot on some of the gateway's shards (``shard_ids``); Discord
    sends each guild's events on shard ``(guild_id >> 22) % shard_count`` only."""


def time_units(settings: Settings, *, started: float | None = None) -> TimeUnits:
    """Game time: real hours, or the test's scaled ones with the calendar anchored where the
    test placed it (else at ``started``, the process's start; see ``rest_time.GameTime``)."""
    if not settings.test_hour_seconds:
        return TimeUnits()
    start = time.time() if started is None else started
    wall, game = settings.test_calendar_anchor or (start, start)
    return TimeUnits(hour=settings.test_hour_seconds, wall_anchor=wall, game_anchor=game)


def make_client(settings: Settings, service: GameService) -> BoardroomBot:
    if settings.shards is None:
        return BoardroomBot(settings, service)
    return ShardedBoardroomBot(
        settings,
        service,
        shard_ids=list(settings.shards.ids),
        shard_count=settings.shards.count,
    )


async def run_bot(settings: Settings) -> None:
    from bot.storage import open_store

    load_games(settings.game_modules)  # before the commands are built: /play lists every game
    if settings.api_base:
        point_rest_at(settings.api_base)
    target = settings.store_target
    store = open_store(target, pool_size=settings.db_pool, synchronous=settings.synchronous)
    async with store:
        if settings.db_url:
            log.info("game database: PostgreSQL (pool of %s)", settings.db_pool)
        else:
            log.info("game database %s (synchronous=%s)", target, settings.synchronous)
        if settings.shards:
            log.info("shards %s of %s", list(settings.shards.ids), settings.shards.count)
        units = time_units(settings)
        if settings.test_hour_seconds:
            log.warning(
                "BOARDROOM_TEST_HOUR_SECONDS is set: an hour of game time lasts %s s (a test"
                " setting; turn clocks, reminders and votes run that much faster)",
                settings.test_hour_seconds,
            )
        if settings.test_retry_scale != 1.0:
            log.warning(
                "BOARDROOM_TEST_RETRY_SCALE is set: the backoff of a refused board is %s times"
                " the real one (a test setting)",
                settings.test_retry_scale,
            )
        service = GameService(store, shards=settings.shards, turn_clock=TurnClock(units=units))
        await service.upgrade_stored_states()
        client = make_client(settings, service)
        # Everything loaded so far lives as long as the process: keep it out of the full
        # collections that would otherwise stall the event loop as the heap grows.
        gc.collect()
        gc.freeze()
        start_processes(settings.render_processes, settings.game_modules)
        loop = asyncio.get_running_loop()
        stopping: set[asyncio.Task[None]] = set()

        def on_signal() -> None:
            stopping.add(asyncio.create_task(client.stop_gracefully()))

        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, on_signal)
        try:
            async with AsyncExitStack() as stack:
                if settings.metrics_port:
                    await stack.enter_async_context(ops_server(settings, client, store))
                async with client:
                    await client.start(settings.token)
            await asyncio.gather(*stopping)
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
            stop_processes()
        log.info("stopped")


def gateway_connected(client: BoardroomBot) -> bool:
    """READY came, and every gateway connection of the process is open now."""
    if client.is_closed() or not client.is_ready():
        return False
    if isinstance(client, discord.AutoShardedClient):
        return all(not shard.is_closed() for shard in client.shards.values())
    return client.ws is not None and client.ws.open


def ops_server(settings: Settings, client: BoardroomBot, store: Any) -> OpsServer:
    """The metrics and health endpoints of this process (``BOARDROOM_METRICS_PORT``). The store
    is open, so its migrations are applied; each write transaction is timed from now on."""
    store.write = metrics.timed_writes(store.write)
    service = client.service

    async def due(now: float) -> list[float]:
        return [timer.due for timer in await store.due_timers(now, 1000, settings.shards)]

    async def game_name(game_id: int) -> str | None:
        row = await store.load_game(game_id)
        return None if row is None else str(row.game)

    levels = metrics.Levels(service.unshown_games, due, service.running_games, game_name)
    readiness = Readiness(
        gateway=lambda: gateway_connected(client),
        database=lambda: store.next_due(settings.shards),
        migrated=lambda: True,  # open_store applies them before it returns
    )
    assert settings.metrics_port is not None
    return OpsServer(settings.metrics_host, settings.metrics_port, readiness, levels)
