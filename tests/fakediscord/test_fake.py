"""Self-tests: a real discord.py client, in-process, against the fake."""

from __future__ import annotations

import asyncio
import io
import json
import re
import struct
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscordDriver, FakeGuild, FakeUser, point_discord_py_at
from tests.fakediscord.contract import Contract
from tests.fakediscord.models import FakeChannel
from tests.fakediscord.payloads import MANAGE_CHANNELS

DEADLINE = 0.6


def tiny_png() -> bytes:
    """A valid 1x1 PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


PNG = tiny_png()


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A stateless button whose state lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+{n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"clicked {self.n}")


class MenuView(discord.ui.View):
    """A view with one string select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="menu:game",
        options=[discord.SelectOption(label=g, value=g) for g in ("cantstop", "kokeshi")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)

    @discord.ui.button(label="Touch", custom_id="menu:touch")
    async def touch(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="touched")


class NameModal(discord.ui.Modal, title="Name the table"):
    """A one-field modal."""

    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value}", ephemeral=True)


class MiniBot(discord.Client):
    """A tiny bot with a handful of slash commands."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_obj = discord.Object(guild_id)
        self.tree = app_commands.CommandTree(self)
        self.errors: list[BaseException] = []
        self._define()

    def _define(self) -> None:
        tree = self.tree

        @tree.command(name="hello", description="Say hello")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"hello {interaction.user.name}")

        @tree.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(0))
            file = discord.File(io.BytesIO(PNG), filename="board.png", description="the board")
            await interaction.followup.send("board", file=file, view=view)

        @tree.command(name="secret", description="Whisper")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("psst", ephemeral=True)

        @tree.command(name="quiet", description="Think privately, then answer")
        async def quiet(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.edit_original_response(content="done")
            await interaction.followup.send("extra", ephemeral=True)

        @tree.command(name="table", description="Open a table thread")
        async def table(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("table open")
            msg = await interaction.original_response()
            thread = await msg.create_thread(name="table 1")
            inside = await thread.send("inside", file=discord.File(io.BytesIO(PNG), "b.png"))
            await inside.edit(content="inside (edited)", attachments=[])
            archived = await thread.edit(archived=True)
            assert archived.archived and archived.parent_id == interaction.channel_id
            channel = await self.fetch_channel(interaction.channel_id or 0)
            assert isinstance(channel, discord.TextChannel)
            note = await channel.send("note")
            await note.delete()
            history = [m.content async for m in channel.history(limit=5)]
            await interaction.followup.send(f"history {history}")

        @tree.command(name="form", description="Open a form")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal(custom_id="form:name"))

        @tree.command(name="twice", description="Respond twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            interaction.response._response_type = None  # bypass the client-side guard
            try:
                await interaction.response.send_message("two")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(name="slow", description="Too slow")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(DEADLINE + 0.2)
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as exc:
                self.errors.append(exc)

        @tree.command(name="menu", description="Pick a game")
        async def menu(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("choose", view=MenuView())

        async def games(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["cantstop", "kokeshi", "harmonies"]
            return [app_commands.Choice(name=n, value=n) for n in names if current in n]

        group = app_commands.Group(name="game", description="Games")

        @group.command(name="start", description="Start a game")
        @app_commands.autocomplete(kind=games)
        async def start(interaction: discord.Interaction, kind: str, players: int) -> None:
            perms = interaction.permissions.manage_channels
            await interaction.response.send_message(
                f"starting {kind} for {players} (manage={perms}, locale={interaction.locale})"
            )

        tree.add_command(group)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Skip discord.py's 5 s pause before a re-IDENTIFY."""

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        self.tree.copy_global_to(guild=self.guild_obj)
        await self.tree.sync(guild=self.guild_obj)


class World:
    """The fake plus the objects a test needs."""

    def __init__(self, driver: FakeDiscordDriver, guild: FakeGuild, channel: FakeChannel) -> None:
        self.driver = driver
        self.guild = guild
        self.channel = channel
        self.alice: FakeUser = driver.add_user("alice")


@pytest.fixture
async def world(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    driver = FakeDiscordDriver()  # Discord's 3 s; test_late_response_refused shortens it
    await driver.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    point_discord_py_at(driver.api_base)
    guild = await driver.add_guild("Den")
    channel = await driver.add_channel(guild, "games")
    w = World(driver, guild, channel)
    await driver.add_member(guild, w.alice)
    try:
        yield w
    finally:
        await driver.stop()


@pytest.fixture
async def bot(world: World) -> AsyncIterator[MiniBot]:
    client = MiniBot(world.guild.id)
    await client.login(world.driver.token)
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


async def test_login_ready_and_sync(world: World, bot: MiniBot) -> None:
    d = world.driver
    assert bot.user is not None and bot.user.id == d.bot_user.id
    assert bot.application_id == d.application_id
    assert bot.get_guild(world.guild.id) is not None
    assert bot.get_channel(world.channel.id) is not None
    sync = await d.wait_for_sync(world.guild)
    assert {c["name"] for c in sync.commands} >= {"hello", "board", "game"}
    assert d.compression_used
    session = d.gateway_sessions[0]
    assert session.compress == "zlib-stream" and session.heartbeats >= 1
    assert [p["t"] for p in session.sent if p["op"] == 0][:2] == ["READY", "GUILD_CREATE"]
    d.assert_no_unknown_routes()


async def test_slash_reply(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "hello")
    await rec.wait_response(2)
    assert rec.response_type == 4 and rec.content == "hello alice"
    assert not rec.ephemeral and rec.latency is not None and rec.latency >= 0
    msg = d.latest_message(world.channel)
    assert msg is not None and msg.content == "hello alice" and msg.author.id == d.bot_user.id
    d.assert_no_unknown_routes()


async def test_defer_followup_file_and_dynamic_button(world: World, bot: MiniBot) -> None:
    d = world.driver
    since = d.marker()
    rec = await d.slash(world.alice, world.channel, "board")
    await rec.wait_response(2)
    assert rec.response_type == 5
    shown = await d.wait_for_channel_message(
        world.channel, lambda m: m.content == "board", after=since, timeout=2
    )
    (follow,) = await rec.wait_followups(1, timeout=2)
    assert shown is follow is rec.original  # the first follow-up edits the loading message
    assert rec.all_attachments == follow.attachments
    assert follow.content == "board"
    (att,) = follow.attachments
    assert att.filename == "board.png" and att.data == PNG and att.description == "the board"
    assert follow.custom_ids == ["counter:0"]
    assert d.channel_messages(world.channel) == [follow]
    click = await d.click(world.alice, follow, "counter:0")
    await click.wait_response(2)
    assert click.response_type == 4 and click.content == "clicked 0"
    async with aiohttp.ClientSession() as http, http.get(att.url) as resp:
        assert await resp.read() == PNG
    d.assert_no_unknown_routes()


async def test_ephemeral_not_in_channel(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "secret")
    await rec.wait_response(2)
    assert rec.ephemeral and rec.content == "psst"
    assert rec.original is not None and rec.original.ephemeral
    assert d.channel_messages(world.channel) == []


async def test_double_response_refused(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "twice")
    rejection = await rec.wait_rejection(2)
    assert rejection.status == 400 and rejection.code == 40060
    assert rec.content == "one"
    await d.fake.wait_until(lambda: bool(bot.errors), 2)
    assert isinstance(bot.errors[0], discord.HTTPException) and bot.errors[0].code == 40060
    async with aiohttp.ClientSession() as http:
        url = f"{d.api_base}/interactions/{rec.id}/{rec.token}/callback"
        async with http.post(url, json={"type": 4, "data": {"content": "x"}}) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 40060


async def test_late_response_refused(world: World, bot: MiniBot) -> None:
    d = world.driver
    d.response_deadline = DEADLINE
    rec = await d.slash(world.alice, world.channel, "slow")
    rejection = await rec.wait_rejection(DEADLINE + 2)
    assert rejection.status == 404 and rejection.code == 10062 and rec.late
    assert not rec.responded
    await d.fake.wait_until(lambda: bool(bot.errors), 2)
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062


async def test_subcommand_autocomplete_and_permissions(world: World, bot: MiniBot) -> None:
    d = world.driver
    mod = d.add_user("mod")
    role = await d.add_role(world.guild, "mods", MANAGE_CHANNELS)
    await d.add_member(world.guild, mod, roles=[role])
    ac = await d.autocomplete(
        mod, world.channel, "game", {"kind": "k"}, focused="kind", subcommand="start"
    )
    await ac.wait_response(2)
    assert ac.response_type == 8
    assert [c["value"] for c in (ac.data or {})["choices"]] == ["kokeshi"]
    rec = await d.slash(
        mod,
        world.channel,
        "game",
        {"kind": "kokeshi", "players": 3},
        subcommand="start",
        locale="fr",
    )
    await rec.wait_response(2)
    assert rec.content == "starting kokeshi for 3 (manage=True, locale=fr)"
    rec2 = await d.slash(
        world.alice, world.channel, "game", {"kind": "cantstop", "players": 2}, subcommand="start"
    )
    await rec2.wait_response(2)
    assert rec2.content is not None and "manage=False" in rec2.content


async def test_select_updates_message(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "menu")
    await rec.wait_response(2)
    assert rec.original is not None
    sel = await d.select(world.alice, rec.original, "menu:game", ["kokeshi"])
    await sel.wait_response(2)
    assert sel.response_type == 7
    assert rec.original.content == "picked kokeshi" and rec.original.components == []


async def test_unknown_route_recorded(world: World, bot: MiniBot) -> None:
    d = world.driver
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{g}/bans", g=world.guild.id))
    assert [(r.method, r.path) for r in d.unknown_routes] == [
        ("GET", f"/api/v10/guilds/{world.guild.id}/bans")
    ]
    with pytest.raises(AssertionError):
        d.assert_no_unknown_routes()


async def test_ephemeral_defer_then_edit_original(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "quiet")
    await rec.wait_response(2)
    assert rec.response_type == 5 and rec.ephemeral
    original = await rec.wait_original_edit(2)
    assert original.content == "done" and original.ephemeral
    (extra,) = await rec.wait_followups(1, 2)
    assert extra.content == "extra" and extra.ephemeral and extra is not original
    assert d.channel_messages(world.channel) == []


async def test_component_deferred_update_edits_source(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "menu")
    await rec.wait_response(2)
    assert rec.original is not None
    touch = await d.click(world.alice, rec.original, "menu:touch")
    await touch.wait_response(2)
    assert touch.response_type == 6
    await touch.wait_for(lambda r: r.original is not None and r.original.content == "touched", 2)
    assert rec.original.content == "touched" and rec.original.edited_timestamp is not None
    with pytest.raises(ValueError):
        await d.click(world.alice, rec.original, "menu:nope")


async def test_resume_and_invalid_session(world: World, bot: MiniBot) -> None:
    d = world.driver
    await d.disconnect_all(4000)
    await d.fake.wait_until(lambda: any(s.resumed and s.ready for s in d.gateway_sessions), 5)
    assert d.ready_count == 1
    d.fake.allow_resume = False
    await d.disconnect_all(4000)
    await d.wait_ready(2, timeout=5)
    assert d.fake.resume_attempts == 2
    rec = await d.slash(world.alice, world.channel, "hello")
    await rec.wait_response(2)
    assert rec.content == "hello alice"


def test_pointing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    ws = discord.gateway.DiscordWebSocket
    monkeypatch.setattr(ws, "DEFAULT_GATEWAY", ws.DEFAULT_GATEWAY)
    point_discord_py_at("http://127.0.0.1:1234/api/v10/")
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:1234/api/v10/users/@me"
    assert str(ws.DEFAULT_GATEWAY) == "ws://127.0.0.1:1234/gateway"


async def test_threads_and_channel_messages(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "table")
    (follow,) = await rec.wait_followups(1, 3)
    assert follow.content == "history ['table open']"
    (thread,) = d.threads_of(world.channel)
    assert rec.original is not None and thread.id == rec.original.id and thread.name == "table 1"
    (inside,) = d.channel_messages(thread)
    assert inside.content == "inside (edited)" and inside.attachments == [] and inside.edits == 1
    assert thread.archived and not world.channel.archived
    assert [m.content for m in d.channel_messages(world.channel)] == ["table open", follow.content]
    in_thread = await d.slash(world.alice, thread, "hello")
    await in_thread.wait_response(2)
    assert in_thread.content == "hello alice"
    assert d.latest_message(thread) is in_thread.original
    d.assert_no_unknown_routes()


async def test_multipart_bytes_kept_verbatim(world: World, bot: MiniBot) -> None:
    d = world.driver
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    tricky = b"\r\n--\r\n\r\n" + PNG + b"\r\n"
    files = [
        discord.File(io.BytesIO(tricky), "plateau é.png", description="alt é"),
        discord.File(io.BytesIO(b""), "empty.txt"),
    ]
    sent = await channel.send("files", files=files)
    stored = d.message(sent.id)
    assert [(a.filename, a.data, a.description) for a in stored.attachments] == [
        ("plateau é.png", tricky, "alt é"),
        ("empty.txt", b"", None),
    ]
    assert [a.size for a in sent.attachments] == [len(tricky), 0]
    assert sent.attachments[0].description == "alt é"


GUILD_COMMANDS = "/applications/1/guilds/2/commands"


def described_problems(method: str, path: str, body: Any) -> list[str]:
    """Why Discord's description refuses ``body`` (``field.path: why`` each)."""
    return [str(p) for p in Contract.shipped().body_problems(method, path, body)]


def test_command_rules() -> None:
    from tests.fakediscord.command_rules import validate_commands

    ok = {
        "name": "play",
        "description": "Play",
        "options": [
            {"type": 4, "name": "players", "description": "n", "required": True},
            {"type": 5, "name": "fast", "description": "f"},
        ],
    }
    assert validate_commands([ok]) == []
    assert described_problems("PUT", GUILD_COMMANDS, [ok]) == []
    bad = {
        "name": "Play",
        "description": "x" * 101,
        "options": [
            {"type": 5, "name": "fast", "description": "f"},
            {"type": 4, "name": "players", "description": "n", "required": True},
        ],
        "description_localizations": {"fr": "", "xx": "y"},
    }
    problems = " | ".join(validate_commands([bad]))
    for words in ("invalid chat input name", "1-100", "before optional", "invalid locale"):
        assert words in problems
    assert described_problems("PUT", GUILD_COMMANDS, [bad]) == [
        "0.description: Must be 100 or fewer in length.",
        "0.description_localizations.fr: Must be 1 or more in length.",
    ]


def test_localised_command_rules() -> None:
    """Localised names follow the same rule as names (lowercase letters and numbers of any
    script, ``-``, ``_``, ``'``, 1-32 characters), descriptions and choices 1-100 characters:
    the rule from the fake's rules, the lengths from Discord's description."""
    from tests.fakediscord.command_rules import valid_chat_input_name, validate_commands

    for good in ("spielen", "règles", "プレイ", "ゲーム盤", "joueur-2", "aujourd'hui", "ค้นหา"):
        assert valid_chat_input_name(good), good
    for bad in ("Spielen", "zwei wörter", "盤・面", "a" * 33, "", "play!", "ÉTAT"):
        assert not valid_chat_input_name(bad), bad
    option = {
        "type": 3,
        "name": "game",
        "description": "g",
        "name_localizations": {"de": "Spiel", "ja": "ゲーム"},
        "description_localizations": {"fr": "x" * 101},
        "choices": [{"name": "Nim", "value": "nim", "name_localizations": {"ja": "", "xx": "n"}}],
    }
    cmd = {
        "name": "rules",
        "description": "Rules",
        "name_localizations": {"ja": "ルール", "fr": "les règles"},
        "options": [option],
    }
    assert validate_commands([cmd]) == [
        "0.name_localizations.fr.name: invalid chat input name 'les règles'",
        "0.options.0.name_localizations.de.name: invalid chat input name 'Spiel'",
        "0.options.0.choices.0.name_localizations.xx: invalid locale",
    ]
    assert described_problems("PUT", GUILD_COMMANDS, [cmd]) == [
        "0.options.0.description_localizations.fr: Must be 100 or fewer in length.",
        "0.options.0.choices.0.name_localizations.ja: Must be 1 or more in length.",
    ]

    def command(choice_chars: int) -> dict:
        options = [
            {
                "type": 3,
                "name": f"o{k:02d}",
                "description": "x",
                "description_localizations": {"de": "y" * 100},
                "choices": [
                    {"name": "c", "value": "v", "name_localizations": {"de": "z" * choice_chars}}
                ],
            }
            for k in range(25)
        ]
        return {"name": "big", "description": "d" * 100, "options": options}

    assert validate_commands([command(50)]) == []  # 3,930 characters in German
    assert described_problems("PUT", GUILD_COMMANDS, [command(60)]) == []
    assert validate_commands([command(60)]) == ["0: more than 4000 characters in total (de)"]


def test_message_rules() -> None:
    """What the description cannot say about a message: rows only without IS_COMPONENTS_V2,
    custom ids unique, 6,000 characters across embeds."""
    from tests.fakediscord.message_rules import IS_COMPONENTS_V2, component_problems, embed_problems

    button = {"type": 2, "style": 1, "label": "Roll", "custom_id": "br:1:roll"}
    assert component_problems([{"type": 1, "components": [button]}], 0) == []
    rows = [{"type": 1, "components": [button, dict(button)]}]
    assert any("duplicated" in p for p in component_problems(rows, 0))
    six = [{"type": 1, "components": [dict(button, custom_id=str(i))]} for i in range(6)]
    assert component_problems(six, 0) == ["components: Must be 5 or fewer in length."]
    assert component_problems(six, IS_COMPONENTS_V2) == []
    big = {"title": "t" * 256, "description": "x" * 4096}
    assert embed_problems([big]) == []
    assert embed_problems([big, dict(big, description="x" * 1400)]) == [
        "embeds: more than 6000 characters in total"
    ]


async def test_refused_message_is_not_stored(world: World, bot: MiniBot) -> None:
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.status == 400 and info.value.code == 50035
    assert "In content: Must be 2000 or fewer in length." in str(info.value)
    assert world.driver.channel_messages(world.channel) == []
    (violation,) = world.driver.take_violations()
    assert violation.route == "/channels/{channel_id}/messages" and violation.status == 400


async def send(
    world: World,
    method: str,
    path: str,
    body: Any = None,
    params: dict[str, str] | None = None,
    *,
    data: aiohttp.FormData | None = None,
) -> tuple[int, dict[str, Any]]:
    """One raw REST request to the fake, as a client with the bot's token sends it."""
    headers = {"Authorization": f"Bot {world.driver.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(
            method,
            world.driver.api_base + path,
            json=body,
            params=params,
            data=data,
            headers=headers,
        ) as resp,
    ):
        return resp.status, (await resp.json() if resp.content_length else {})


ROW = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Roll", "custom_id": "roll"}]}


async def test_a_valid_request_passes_the_contract(world: World) -> None:
    d, cid = world.driver, world.channel.id
    embed = {"title": "Board", "description": "x" * 4096, "fields": [{"name": "a", "value": "b"}]}
    status, message = await send(
        world,
        "POST",
        f"/channels/{cid}/messages",
        {"content": "hi", "components": [ROW], "embeds": [embed]},
    )
    assert status == 200 and message["content"] == "hi"
    status, _ = await send(world, "GET", f"/channels/{cid}/messages", params={"limit": "100"})
    assert status == 200
    form = aiohttp.FormData()
    payload = {"content": "file", "attachments": [{"id": 0, "filename": "b.png"}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", PNG, filename="b.png", content_type="image/png")
    status, message = await send(world, "POST", f"/channels/{cid}/messages", data=form)
    assert status == 200 and message["attachments"][0]["filename"] == "b.png"
    assert d.violations == []
    assert [r.described for r in d.requests] == [
        "/channels/{channel_id}/messages",
        "/channels/{channel_id}/messages",
        "/channels/{channel_id}/messages",
    ]


def _button(**changes: Any) -> dict[str, Any]:
    return {"type": 1, "components": [dict(ROW["components"][0], **changes)]}


REFUSED = {
    "unknown route": ("GET", "/channels/{cid}/nothing", None, {}, 404, 0, {}),
    "wrong method": ("PUT", "/channels/{cid}/messages", {"content": "x"}, {}, 405, 0, {}),
    "label too long": (
        "POST",
        "/channels/{cid}/messages",
        {"components": [_button(label="x" * 81)]},
        {},
        400,
        50035,
        {"components": {"0": {"components": {"0": {"label": "BASE_TYPE_MAX_LENGTH"}}}}},
    ),
    "six buttons in a row": (
        "POST",
        "/channels/{cid}/messages",
        {
            "components": [
                {
                    "type": 1,
                    "components": [dict(ROW["components"][0], custom_id=str(i)) for i in range(6)],
                }
            ]
        },
        {},
        400,
        50035,
        {"components": {"0": {"components": "BASE_TYPE_MAX_LENGTH"}}},
    ),
    "26 select options": (
        "POST",
        "/channels/{cid}/messages",
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    ],
                }
            ]
        },
        {},
        400,
        50035,
        {"components": {"0": {"components": {"0": {"options": "BASE_TYPE_MAX_LENGTH"}}}}},
    ),
    "bad snowflake": (
        "GET",
        "/channels/abc/messages",
        None,
        {},
        400,
        50035,
        {"channel_id": "NUMBER_TYPE_COERCE"},
    ),
    "limit over 100": (
        "GET",
        "/channels/{cid}/messages",
        None,
        {"limit": "101"},
        400,
        50035,
        {"limit": "NUMBER_TYPE_MAX"},
    ),
    "unknown query parameter": (
        "GET",
        "/channels/{cid}/messages",
        None,
        {"newest": "1"},
        400,
        50035,
        {"newest": "UNKNOWN_FIELD"},
    ),
    "attachment without its file": (
        "POST",
        "/channels/{cid}/messages",
        {"content": "x", "attachments": [{"id": 0, "filename": "b.png"}]},
        {},
        400,
        50035,
        {"attachments": {"0": {"id": "ATTACHMENT_NOT_FOUND"}}},
    ),
    "content over a bot's 2000": (
        "POST",
        "/channels/{cid}/messages",
        {"content": "x" * 2001},
        {},
        400,
        50035,
        {"content": "BASE_TYPE_INVALID"},
    ),
}


def _codes(tree: dict[str, Any]) -> dict[str, Any]:
    """An ``errors`` tree with each leaf's ``_errors`` replaced by its one code."""
    return {
        key: value["_errors"][0]["code"] if set(value) == {"_errors"} else _codes(value)
        for key, value in tree.items()
    }


@pytest.mark.parametrize("case", list(REFUSED))
async def test_a_request_discord_refuses_is_refused_and_recorded(world: World, case: str) -> None:
    method, path, body, params, status, code, errors = REFUSED[case]
    d = world.driver
    path = path.format(cid=world.channel.id)
    got, answer = await send(world, method, path, body, params)
    assert (got, answer["code"]) == (status, code)
    assert _codes(answer.get("errors", {})) == errors
    assert d.channel_messages(world.channel) == []
    (violation,) = d.violations
    assert (violation.method, violation.path, violation.status) == (
        method,
        "/api/v10" + path,
        status,
    )
    with pytest.raises(AssertionError, match="requests Discord refuses"):
        d.assert_no_violations()
    d.take_violations()


async def test_a_test_whose_requests_discord_refuses_fails_at_stop() -> None:
    driver = await FakeDiscordDriver().start()
    headers = {"Authorization": f"Bot {driver.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.get(driver.api_base + "/channels/x", headers=headers) as resp,
    ):
        assert resp.status == 400
    with pytest.raises(
        AssertionError, match=r"GET /api/v10/channels/x \(/channels/\{channel_id\}\)"
    ):
        await driver.stop()


async def test_modal_round_trip(world: World, bot: MiniBot) -> None:
    d = world.driver
    rec = await d.slash(world.alice, world.channel, "form")
    await rec.wait_response(2)
    assert rec.response_type == 9 and (rec.data or {})["custom_id"] == "form:name"
    sub = await d.submit_modal(world.alice, world.channel, "form:name", {"name": "Table 7"})
    await sub.wait_response(2)
    assert sub.response_type == 4 and sub.ephemeral and sub.content == "named Table 7"


async def test_shards_get_only_their_guilds(monkeypatch: pytest.MonkeyPatch) -> None:
    """GET /gateway/bot says how many shards; IDENTIFY carries [id, count]; each guild's events,
    READY's guild list and interactions go only to the session of its shard."""
    from tests.fakediscord.driver import NoGatewaySession

    driver = FakeDiscordDriver(shard_count=4)
    await driver.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    point_discord_py_at(driver.api_base)
    guilds = [await driver.add_guild(f"G{shard}", shard=shard) for shard in range(4)]
    assert [(g.id >> 22) % 4 for g in guilds] == [0, 1, 2, 3]
    client = discord.AutoShardedClient(
        intents=discord.Intents.default(), shard_ids=[0, 1], shard_count=4
    )
    await client.login(driver.token)
    assert (await client.http.get_bot_gateway())[0] == 4
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        assert sorted(s.shard for s in driver.gateway_sessions) == [(0, 4), (1, 4)]
        assert {g.id for g in client.guilds} == {guilds[0].id, guilds[1].id}
        late = await driver.add_guild("late", shard=1)
        await asyncio.sleep(0.2)
        assert client.get_guild(late.id) is not None
        other = await driver.add_guild("elsewhere", shard=3)
        channel = await driver.add_channel(other, "games")
        alice = driver.add_user("alice")
        await driver.add_member(other, alice)
        driver.strict_commands = False  # no commands synced here: only the routing counts
        with pytest.raises(NoGatewaySession):
            await driver.slash(alice, channel, "hello")
        assert client.get_guild(other.id) is None
        for session in driver.gateway_sessions:
            sent_to = {p["d"].get("id") for p in session.sent if p["t"] == "GUILD_CREATE"}
            assert all((int(g) >> 22) % 4 == session.shard[0] for g in sent_to)
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)
        await driver.stop()
    # a client that asks for a shard of another count is refused, as Discord does (4010)
    wrong = FakeDiscordDriver(shard_count=2)
    await wrong.start()
    point_discord_py_at(wrong.api_base)
    client = discord.AutoShardedClient(
        intents=discord.Intents.default(), shard_ids=[0], shard_count=3
    )
    await client.login(wrong.token)
    with pytest.raises(discord.ConnectionClosed) as closed:
        await asyncio.wait_for(client.connect(reconnect=False), 10)
    assert closed.value.code == 4010
    await client.close()
    await wrong.stop()


async def test_direct_messages_and_closed_dms(world: World, bot: MiniBot) -> None:
    d = world.driver
    dm = await bot.create_dm(discord.Object(id=world.alice.id))
    assert isinstance(dm, discord.DMChannel)
    assert dm.recipient is not None and dm.recipient.id == world.alice.id
    sent = await dm.send("your turn")
    assert [m.content for m in d.dms_to(world.alice)] == ["your turn"]
    assert d.dms_to(world.alice)[0].id == sent.id and d.channel_messages(world.channel) == []
    again = await bot.http.start_private_message(world.alice.id)
    assert int(again["id"]) == dm.id and again["type"] == 1  # one DM channel per user
    d.close_dms(world.alice)
    with pytest.raises(discord.Forbidden) as info:
        await dm.send("refused")
    assert info.value.status == 403 and info.value.code == 50007
    assert len(d.dms_to(world.alice)) == 1
    d.close_dms(world.alice, closed=False)
    waiting = asyncio.ensure_future(d.wait_for_dm(world.alice, lambda m: m.content == "open"))
    await asyncio.sleep(0)
    await dm.send("open")
    assert (await waiting).content == "open"
    with pytest.raises(discord.HTTPException) as bad:
        await bot.http.start_private_message(123)  # nobody
    assert bad.value.code == 50033
    d.assert_no_unknown_routes()
