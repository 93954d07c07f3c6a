"""``render.turn_views``: which pictures tell a turn that ended, and one attachment per view."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

from bot.adapter.messages import turn_message
from bot.adapter.outgoing import board_files
from bot.games import load_games
from bot.service.models import GameSnapshot, LoggedMove, Seat
from bot.service.turns import split_turns
from engines.registry import get_engine
from i18n import translator
from render import describe, render_png, renderer, turn_views

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def nim_turns():
    load_games(("tests.games.nim",))
    moves = [LoggedMove(0, None, "first:1"), LoggedMove(1, 1, "take:3:2")]
    return split_turns("nim", 2, {}, moves)


def snapshot(state) -> GameSnapshot:
    engine = get_engine("nim")
    return GameSnapshot(
        id=1, guild_id=1, channel_id=2, game="nim", host_id=100, status="active", version=3,
        capacity=2, options={}, seats=(Seat(0, 100, "ann"), Seat(1, 101, "bo")), state=state,
        to_move=engine.to_move(state),
        legal=tuple(engine.encode_action(a) for a in engine.legal_actions(state)),
        turn=engine.turn(state),
    )  # fmt: skip


def test_by_default_one_view_the_movers_board_since_the_turn_began() -> None:
    turns = nim_turns()
    start, end = turns[-1].start, turns[-1].end
    assert turn_views("nim", end, start, 1) == [{"focus_seat": 1, "since": start}]
    assert turn_views("cantstop", end, start, 0) == [{"focus_seat": 0, "since": start}]


async def test_a_renderer_with_views_gets_one_attachment_each(monkeypatch) -> None:
    turns = nim_turns()
    turn = turns[-1]
    asked = []

    def views(state, since, mover):
        asked.append((state, since, mover))
        return [{"focus_seat": mover, "since": since}, {"focus_seat": 1 - mover}]

    monkeypatch.setattr(renderer("nim"), "views", views, raising=False)
    assert turn_views("nim", turn.end, turn.start, 1)[1] == {"focus_seat": 0}
    message = await turn_message("en", snapshot(turn.end), turns=turns)
    assert asked[-1] == (turn.end, turn.start, 1)
    assert len(message.images) == 2
    tr = translator("en")
    names = ["ann", "bo"]
    for image, view in zip(message.images, views(turn.end, turn.start, 1), strict=True):
        assert image.png == render_png("nim", turn.end, tr, names=names, **view)
        assert image.alt_text == describe("nim", turn.end, tr, names=names, **view)
    files = board_files(message)
    # each named by its place and its picture's digest (an edit keeps an unchanged one)
    digests = [hashlib.sha256(image.png).hexdigest()[:16] for image in message.images]
    assert [f.filename for f in files] == [f"board-{n}-{d}.png" for n, d in enumerate(digests, 1)]
    assert all(f.description for f in files)
    assert "bo took 2 from heap 3." in message.content  # the turn's account


async def test_no_more_views_than_discord_carries(monkeypatch) -> None:
    turns = nim_turns()
    monkeypatch.setattr(
        renderer("nim"), "views", lambda s, since, m: [{}] * 14, raising=False
    )
    assert len(turn_views("nim", turns[-1].end, turns[-1].start, 1)) == 10
    assert render_png("nim", turns[-1].end).startswith(PNG_MAGIC)


async def test_an_edit_keeps_the_pictures_that_did_not_change(monkeypatch) -> None:
    """An edit of a board message uploads only the pictures that changed: one already on the
    message (the same name, so the same picture, and the same alt text) is kept by its id."""
    import discord

    from bot.adapter.outgoing import board_attachments

    turns = nim_turns()
    turn = turns[-1]

    def views(state, since, mover):
        return [{"focus_seat": mover, "since": since}, {"focus_seat": 0}]

    monkeypatch.setattr(renderer("nim"), "views", views, raising=False)
    message = await turn_message("en", snapshot(turn.end), turns=turns)
    files = board_files(message)

    def shown(n: int, filename: str, description: str | None) -> discord.Attachment:
        data = {"id": 900 + n, "filename": filename, "size": 1, "url": "u", "proxy_url": "u"}
        state = SimpleNamespace(http=None)  # what an attachment keeps of the connection
        return discord.Attachment(data={**data, "description": description}, state=state)

    main, other = files
    on_message = [
        shown(1, "board-1-0000000000000000.png", main.description),  # another picture
        shown(2, other.filename, other.description),  # this very picture
    ]
    edit = board_attachments(message, on_message)
    assert isinstance(edit[0], discord.File) and edit[0].filename == main.filename
    assert edit[1] is on_message[1]  # kept: sent as its id, not uploaded again
    assert all(isinstance(a, discord.File) for a in board_attachments(message, []))
    retold = [shown(2, other.filename, "an older alt text")]  # its words changed: sent again
    assert isinstance(board_attachments(message, retold)[1], discord.File)
