"""Japanese, German and French through the real bot and the fake Discord: on a server whose
locale is Japanese, with players whose Discord is set to ja, de and fr, a whole game of every
game: everything the channel sees in Japanese, each player's private answers in their own
language, and the synced commands carrying all three. ``/settings language`` changes the
language of the public messages, for that server only, across a restart."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.present import get_presenter
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from i18n import game_title, t
from tests.e2e.helpers import (
    assert_board,
    board_after_click,
    lobby_id,
    public_boards,
    seat_users,
)
from tests.fakediscord import FakeDiscordDriver, FakeUser, StoredMessage
from tests.fakediscord import payloads as p
from tests.fakediscord.models import iter_components

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
BUTTON_ID = re.compile(r"br:\d+:\d+:(.+)")
MANAGE_GUILD = 1 << 5
PLAYERS = (("Aiko", "ja"), ("Dieter", "de"), ("Fanny", "fr"))
MAX_ACTIONS = 900
NIM = {"BOARDROOM_GAMES": "tests.games.nim"}


def stored(db_path: Path, game: str) -> tuple[Any, dict[int, int]]:
    """The game's state and its seats (seat -> user id), read from the bot's database."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        (gid, state_json) = conn.execute(
            "SELECT id, state_json FROM games WHERE game = ? ORDER BY id DESC", (game,)
        ).fetchone()
        seats = dict(conn.execute("SELECT seat, user_id FROM seats WHERE game_id = ?", (gid,)))
    finally:
        conn.close()
    return get_engine(game).decode_state(json.loads(state_json)), seats


def offered(message: StoredMessage) -> dict[str, tuple[str, bool]]:
    """action code -> (custom_id, chosen from a menu) for every game control on a message."""
    found: dict[str, tuple[str, bool]] = {}
    for comp in iter_components(message.components):
        custom_id = comp.get("custom_id", "")
        if comp.get("type") == 2 and (m := BUTTON_ID.fullmatch(custom_id)):
            found[m.group(1)] = (custom_id, False)
        elif comp.get("type") == 3 and custom_id.startswith("brs:"):
            for option in comp.get("options") or []:
                found[option["value"]] = (custom_id, True)
    return found


def choose(game: str, codes: list[str], rnd: random.Random) -> str:
    """A quick player: stops early at Can't Stop, fills the board at Harmonies."""
    kinds: dict[str, list[str]] = {}
    for code in sorted(codes):
        kinds.setdefault(code.split(":")[0], []).append(code)
    if game == "cantstop":
        if "stop" in kinds and rnd.random() < 0.6:
            return "stop"
        return rnd.choice(kinds.get("move") or kinds.get("roll") or codes)
    if game == "harmonies":
        for kind in ("keep", "cube", "place", "take", "end", "card"):
            if kind in kinds:
                return rnd.choice(kinds[kind])
    if game == "nim":
        return max(codes, key=lambda c: int(c.split(":")[2]))
    return rnd.choice(sorted(codes))


def before_field(text: str) -> str:
    """The words of a catalogue text up to its first placeholder."""
    return text.split("{", 1)[0].strip()


async def press(
    driver: FakeDiscordDriver, user: FakeUser, message: StoredMessage, code: str, locale: str
) -> Any:
    custom_id, menu = offered(message)[code]
    if menu:
        return await driver.select(user, message, custom_id, [code], locale=locale)
    return await driver.click(user, message, custom_id, locale=locale)


async def japanese_table(driver: FakeDiscordDriver, bot_process: Any, **env: str) -> Any:
    guild = await driver.add_guild("ボードゲーム部", locale="ja")
    bot = await bot_process(guild, **env)
    table = await seat_users(driver, guild, *(name for name, _ in PLAYERS))
    return bot, table, {u.id: lang for u, (_, lang) in zip(table.users, PLAYERS, strict=True)}


def assert_commands_localised(driver: FakeDiscordDriver, guild: Any) -> None:
    commands = driver.commands(guild)
    assert {c["name"] for c in commands} == {
        "play",
        "game",
        "rules",
        "settings",
        "away",
        "mygames",
        "stats",
        "leaderboard",
    }
    for command in commands:
        for field in ("name_localizations", "description_localizations"):
            assert set(command.get(field) or {}) >= {"ja", "de", "fr"}, (command["name"], field)
    play = next(c for c in commands if c["name"] == "play")
    assert play["name_localizations"] == {"ja": "遊ぶ", "de": "spielen", "fr": "jouer"}


@pytest.mark.parametrize(
    ("game", "seats"), [("cantstop", 3), ("kokeshi", 3), ("harmonies", 3), ("nim", 2)]
)
async def test_a_whole_game_in_three_languages_on_a_japanese_server(
    fake_discord: FakeDiscordDriver, bot_process: Any, game: str, seats: int
) -> None:
    bot, table, locale_of = await japanese_table(
        fake_discord, bot_process, **(NIM if game == "nim" else {})
    )
    assert_commands_localised(fake_discord, table.guild)
    users = table.users[:seats]
    host = users[1]  # the German player opens the lobby: still a Japanese lobby
    engine, presenter = get_engine(game), get_presenter(game)
    rec = await fake_discord.slash(
        host, table.channel, "play", {"players": seats}, subcommand=game, locale="de"
    )
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None and not rec.ephemeral
    title = game_title("ja", game)
    assert t("ja", "lobby.title", game=title) in lobby.content, lobby.content
    gid = lobby_id(lobby)
    for user in users:
        if user is not host:
            joined = await fake_discord.click(
                user, lobby, f"brl:{gid}:join", locale=locale_of[user.id]
            )
            await joined.wait_response()
            lobby = fake_discord.message(lobby.id)
    again = await fake_discord.click(users[0], lobby, f"brl:{gid}:join", locale="ja")
    await again.wait_response()  # the lobby as it is, and privately why nothing changed
    assert again.response_type == 7
    (note,) = await again.wait_followups(1)
    assert note.ephemeral and note.content == t("ja", "error.already_seated")
    start = await fake_discord.click(host, lobby, f"brl:{gid}:start", locale="de")
    await start.wait_response()
    (message,) = await start.wait_followups(1, timeout=10)

    rnd = random.Random(7)
    public = private = 0
    refused = logged = False
    for _ in range(MAX_ACTIONS):
        state, seat_users_ = stored(bot.db_path, game)
        mover_seat = engine.to_move(state)
        mentions = [f"<@{seat_users_[s]}>" for s in sorted(seat_users_)]
        if message.ephemeral:
            lang = locale_of[seat_users_[mover_seat]]
            private += 1
        else:
            lang = "ja"
            public += 1
            board = assert_board(message)
            assert board
            main = next(a for a in message.attachments if a.filename.startswith("board-1-"))
            alt = main.description
            assert JAPANESE.search(alt or ""), alt
        if mover_seat == TERMINAL:
            break
        assert mover_seat != CHANCE
        # the line asking for the next move is in the reader's language
        assert presenter.prompt(state, mentions, lang) in message.content, (lang, message.content)
        if lang == "ja":
            assert JAPANESE.search(message.content), message.content
        else:
            assert not JAPANESE.search(message.content.replace(title, "")), message.content
        mover = next(u for u in users if u.id == seat_users_[mover_seat])
        codes = list(offered(message))
        legal = {engine.encode_action(a) for a in engine.legal_actions(state)}
        assert set(codes) <= legal and codes, (codes, legal)
        if not refused and not message.ephemeral:
            other = next(u for u in users if u is not mover)
            wrong = await press(fake_discord, other, message, codes[0], locale_of[other.id])
            await wrong.wait_response()
            expected = before_field(t(locale_of[other.id], "error.not_your_turn"))
            assert wrong.ephemeral and expected in (wrong.content or ""), wrong.content
            refused = True
        if not logged and public >= 2:
            # the move log, asked for by the French player (a spectator at Nim), is French
            log = await fake_discord.slash(
                table.users[2], table.channel, "game", {}, subcommand="log", locale="fr"
            )
            await log.wait_response()
            heading = t("fr", "game.log.heading", game=game_title("fr", game), id="0")
            before, after = heading.split("#0")
            assert log.ephemeral and before in (log.content or ""), log.content
            assert after in (log.content or ""), log.content
            logged = True
        code = choose(game, codes, rnd)
        rec = await press(fake_discord, mover, message, code, locale_of[mover.id])
        await rec.wait_response()
        assert not rec.rejections, rec.rejections
        message = await board_after_click(fake_discord, rec, message, timeout=15)
    else:
        raise AssertionError("the game did not end")
    assert not message.ephemeral
    final = before_field(t("ja", "game.result.final"))
    assert final in message.content and JAPANESE.search(message.content), message.content
    assert refused and public >= 3
    # one public message per turn (and the first board): the steps inside a turn are shown in
    # place or privately
    state, _ = stored(bot.db_path, game)
    assert len(public_boards(fake_discord, table.channel)) <= engine.turn(state) + 1
    if game in ("kokeshi", "harmonies"):
        assert private >= 3  # steps inside a turn, answered in the player's own language
    assert logged
    fake_discord.assert_no_unknown_routes()


async def test_the_servers_language_is_chosen_with_settings_language(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot, table, _ = await japanese_table(fake_discord, bot_process)
    aiko, dieter, _ = table.users
    admin = await fake_discord.add_member(
        table.guild, dieter, permissions=p.DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD
    )
    assert admin
    settings = next(c for c in fake_discord.commands(table.guild) if c["name"] == "settings")
    # open to every member (their own reminder settings); changes to the server's are checked
    assert settings.get("default_member_permissions") is None

    async def settings_language(user: FakeUser, locale: str, **chosen: str) -> Any:
        rec = await fake_discord.slash(
            user, table.channel, "settings", chosen, subcommand="language", locale=locale
        )
        await rec.wait_response()
        assert rec.ephemeral
        return rec

    async def lobby_text(locale: str) -> str:
        """A lobby opened (and cancelled again) by a member whose Discord is in ``locale``."""
        rec = await fake_discord.slash(
            aiko, table.channel, "play", {}, subcommand="cantstop", locale=locale
        )
        await rec.wait_response()
        assert rec.original is not None
        content = rec.original.content
        cancel = await fake_discord.click(
            aiko, rec.original, f"brl:{lobby_id(rec.original)}:cancel", locale=locale
        )
        await cancel.wait_response()
        return content

    refused = await settings_language(aiko, "ja", language="fr")
    assert refused.content == t("ja", "error.not_allowed_settings")
    now = await settings_language(dieter, "de")  # no choice: what it is now, in German
    assert now.content == t("de", "settings.language.current", language="日本語")
    assert t("ja", "lobby.title", game=game_title("ja", "cantstop")) in await lobby_text("de")
    done = await settings_language(dieter, "de", language="fr")
    assert done.content == t("de", "settings.language.set", language="Français")
    french = t("fr", "lobby.title", game=game_title("fr", "cantstop"))
    assert french in await lobby_text("ja")  # a Japanese member, a French server
    await bot.restart()
    assert french in await lobby_text("ja")  # the choice is stored
    back = await settings_language(dieter, "de", language="default")
    assert back.content == t("de", "settings.language.set", language="日本語")
    assert t("ja", "lobby.title", game=game_title("ja", "cantstop")) in await lobby_text("fr")
