"""``/mygames`` through the real bot process and the fake Discord: games in several channels,
those where it is the reader's turn first, each with its game, channel, whose turn it is, the
time left and a link to its newest board; private, in the reader's language."""

from __future__ import annotations

from typing import Any

from bot.adapter.mygames_command import fit_lines
from i18n import game_title, t
from tests.e2e.helpers import lobby_id
from tests.fakediscord import FakeChannel, FakeDiscordDriver, FakeUser, StoredMessage


async def start_game(
    driver: FakeDiscordDriver,
    channel: FakeChannel,
    host: FakeUser,
    *others: FakeUser,
    game: str = "cantstop",
) -> StoredMessage:
    """``host`` opens a lobby in ``channel``, the others join, the host starts: the first
    board."""
    rec = await driver.slash(host, channel, "play", {"players": 1 + len(others)}, subcommand=game)
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None
    gid = lobby_id(lobby)
    for user in others:
        joined = await driver.click(user, lobby, f"brl:{gid}:join")
        await joined.wait_response()
        lobby = driver.message(lobby.id)
    start = await driver.click(host, lobby, f"brl:{gid}:start")
    await start.wait_response()
    (board,) = await start.wait_followups(1, timeout=10)
    return board


def link(guild_id: int, board: StoredMessage) -> str:
    return f"https://discord.com/channels/{guild_id}/{board.channel_id}/{board.id}"


async def mygames(driver: FakeDiscordDriver, user: FakeUser, channel: Any, locale: str) -> str:
    rec = await driver.slash(user, channel, "mygames", locale=locale)
    await rec.wait_response()
    assert rec.ephemeral and not rec.rejections
    return rec.content or ""


async def test_mygames_across_three_channels(
    fake_discord: FakeDiscordDriver, bot_process: Any
) -> None:
    bot = await bot_process()
    guild = bot.guild
    users = []
    for name in ("Alice", "Bob", "Carol", "Dave"):
        user = fake_discord.add_user(name)
        await fake_discord.add_member(guild, user)
        users.append(user)
    alice, bob, carol, dave = users
    one, two, three, four, five = [
        await fake_discord.add_channel(guild, name)
        for name in ("tavern", "library", "garden", "cellar", "hall")
    ]
    # the host moves first: Alice's turn in #tavern and #garden, Bob's in #library
    tavern = await start_game(fake_discord, one, alice, bob)
    library = await start_game(fake_discord, two, bob, alice, carol, game="kokeshi")
    garden = await start_game(fake_discord, three, alice, carol)
    await start_game(fake_discord, four, bob, carol)  # not Alice's
    lobby = await fake_discord.slash(carol, five, "play", {}, subcommand="cantstop")
    await lobby.wait_response()
    joined = await fake_discord.click(alice, lobby.original, f"brl:{lobby_id(lobby.original)}:join")
    await joined.wait_response()  # a lobby is not a running game

    def line(locale: str, game: str, board: StoredMessage, turn: str) -> str:
        return t(
            locale,
            "mygames.line",
            game=game_title(locale, game),
            channel_id=board.channel_id,
            turn=turn,
            left=t(locale, "mygames.left.no_clock"),
            link=link(guild.id, board),
        )

    said = await mygames(fake_discord, alice, five, "en-US")  # asked from anywhere on the server
    assert said.splitlines() == [
        f"**{t('en', 'mygames.title')}**",
        t("en", "mygames.heading.yours", count=2),
        line("en", "cantstop", tavern, t("en", "mygames.turn.yours")),
        line("en", "cantstop", garden, t("en", "mygames.turn.yours")),
        t("en", "mygames.heading.others", count=1),
        line("en", "kokeshi", library, t("en", "mygames.turn.of", player="Bob")),
    ]
    # Carol, in Japanese: her turn nowhere, Bob's in two games, Alice's in one
    said = await mygames(fake_discord, carol, one, "ja")
    lines = said.splitlines()
    assert lines[:2] == [
        f"**{t('ja', 'mygames.title')}**",
        t("ja", "mygames.heading.others", count=3),
    ]
    assert lines[2] == line("ja", "kokeshi", library, t("ja", "mygames.turn.of", player="Bob"))
    assert lines[3] == line("ja", "cantstop", garden, t("ja", "mygames.turn.of", player="Alice"))
    assert lines[4].startswith(f"<#{four.id}>")  # the Japanese line begins with the channel
    assert len(lines) == 5
    # Alice rolls in #tavern (Can't Stop shows every roll): the link goes to the newest board
    stop = await fake_discord.click(
        alice, tavern, next(c for c in tavern.custom_ids if c.endswith(":roll"))
    )
    await stop.wait_response()
    (rolled,) = await stop.wait_followups(1, timeout=10)
    said = await mygames(fake_discord, alice, one, "en-US")
    assert link(guild.id, rolled) in said and link(guild.id, tavern) not in said
    assert await mygames(fake_discord, dave, one, "de") == t("de", "mygames.none")
    fake_discord.assert_no_unknown_routes()
    bot.assert_no_traceback()


def test_a_long_list_is_cut_to_one_message_and_says_how_many_are_left() -> None:
    lines = [("heading", False)] + [(f"game {n} " + "x" * 90, True) for n in range(60)]
    said = fit_lines("en", ["**title**"], lines)
    assert len(said) <= 2000
    shown = [line for line in said.splitlines() if line.startswith("game ")]
    assert 10 < len(shown) < 60
    assert said.splitlines()[-1] == t("en", "mygames.more", count=60 - len(shown))
    assert fit_lines("en", ["**title**"], lines[:5]) == "\n".join(
        ["**title**", *(x for x, _ in lines[:5])]
    )
