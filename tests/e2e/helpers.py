"""Shared steps for end-to-end tests: a table of users in a channel, lobby and turn helpers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.fakediscord import FakeChannel, FakeDiscordDriver, FakeGuild, FakeUser, StoredMessage
from tests.fakediscord.payloads import snowflake_time

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TURN_ID = re.compile(r"br:(\d+):(\d+):(.+)")


@dataclass
class Table:
    driver: FakeDiscordDriver
    guild: FakeGuild
    channel: FakeChannel
    users: list[FakeUser]


async def seat_users(driver: FakeDiscordDriver, guild: FakeGuild, *names: str) -> Table:
    users = []
    for name in names:
        user = driver.add_user(name)
        await driver.add_member(guild, user)
        users.append(user)
    channel = await driver.add_channel(guild, "games")
    return Table(driver, guild, channel, users)


def sent_at(message: StoredMessage) -> float:
    """When the fake took the message (unix seconds, to the millisecond: its id's time)."""
    return snowflake_time(message.id).timestamp()


def lobby_id(message: StoredMessage) -> int:
    for custom_id in message.custom_ids:
        if custom_id.startswith("brl:"):
            return int(custom_id.split(":")[1])
    raise AssertionError(f"not a lobby message: {message.custom_ids}")


def action_ids(message: StoredMessage) -> dict[str, str]:
    """action code -> custom_id for the game buttons on a message."""
    found = {}
    for custom_id in message.custom_ids:
        if m := TURN_ID.fullmatch(custom_id):
            found[m.group(3)] = custom_id
    return found


def assert_board(message: StoredMessage) -> bytes:
    """The message carries exactly one valid PNG board with alt text."""
    boards = [a for a in message.attachments if a.filename.startswith("board-1-")]
    assert len(boards) == 1, message.attachments
    assert boards[0].data.startswith(PNG_MAGIC)
    assert boards[0].description
    return boards[0].data


async def open_and_start(table: Table, game: str = "cantstop", **options) -> StoredMessage:
    """Host opens a lobby, everyone else joins, the host starts: returns the first turn message."""
    driver, host = table.driver, table.users[0]
    rec = await driver.slash(host, table.channel, "play", options, subcommand=game)
    await rec.wait_response()
    lobby = rec.original
    assert lobby is not None and not rec.ephemeral
    gid = lobby_id(lobby)
    for user in table.users[1:]:
        joined = await driver.click(user, lobby, f"brl:{gid}:join")
        await joined.wait_response()
        assert joined.response_type == 7, joined.data
        lobby = driver.message(lobby.id)
    start = await driver.click(host, lobby, f"brl:{gid}:start")
    await start.wait_response()
    (turn,) = await start.wait_followups(1, timeout=10)
    return turn


def assert_every_image_described(driver: FakeDiscordDriver) -> int:
    """Walk every message the bot sent in this fake (channel and private ones, as last edited):
    each image attachment carries alt text. Returns how many images there were."""
    images = [
        (message, attachment)
        for message in driver.fake.messages.values()
        for attachment in message.attachments
        if attachment.filename.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp"))
        or (attachment.content_type or "").startswith("image/")
    ]
    missing = [
        (message.id, attachment.filename, message.content[:80])
        for message, attachment in images
        if not (attachment.description or "").strip()
    ]
    assert not missing, missing
    assert images
    return len(images)


async def board_after_click(
    driver: FakeDiscordDriver, rec, clicked: StoredMessage, timeout: float = 10.0
) -> StoredMessage:
    """The board that shows a click's result: the clicked message itself, edited in place (a
    step inside a turn, on the public board or on a private message: the answer itself, or a
    deferred update and then the edit), or the new message posted as the answer's follow-up
    (the turn passed, the game ended, or a turn's first private step)."""
    pressed = str((rec.payload.get("data") or {}).get("custom_id", ""))
    await rec.wait_response()
    if rec.updated_in_place and pressed:

        def updated() -> bool:  # a control names the version it was made for: the edit's differ
            return pressed not in driver.message(clicked.id).custom_ids

        await driver.fake.wait_until(updated, timeout)
        return driver.message(clicked.id)
    (board,) = await rec.wait_followups(1, timeout=timeout)
    return board


def public_boards(driver: FakeDiscordDriver, channel: FakeChannel) -> list[StoredMessage]:
    """The bot's public messages in ``channel`` that carry a board picture."""
    return [
        m
        for m in driver.channel_messages(channel)
        if not m.ephemeral and any(a.filename.startswith("board") for a in m.attachments)
    ]
