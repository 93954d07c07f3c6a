"""The public end-of-turn picture shows the board of the player who just moved, with what
changed since their turn began: drawn with ``focus_seat`` = the mover and ``since`` = the turn's
starting state (``render.turn_views``). Checked byte for byte against the renderer, for the
games whose mover's board differs from the next player's."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.service.models import LoggedMove
from bot.service.turns import last_ended, split_turns
from engines.registry import get_engine
from i18n import translator
from render import describe, render_png, turn_views
from tests.e2e.helpers import (
    assert_board,
    board_after_click,
    open_and_start,
    seat_users,
)
from tests.e2e.test_languages_e2e import choose, offered, press, stored


def logged(db_path: Path) -> tuple[str, dict, list[LoggedMove], int]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        gid, game, options = conn.execute(
            "SELECT id, game, options_json FROM games ORDER BY id DESC"
        ).fetchone()
        moves = [
            LoggedMove(seq, seat, action)
            for seq, seat, action in conn.execute(
                "SELECT seq, seat, action FROM moves WHERE game_id = ? ORDER BY seq", (gid,)
            )
        ]
        seats = conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (gid,)).fetchone()[0]
    finally:
        conn.close()
    return game, json.loads(options), moves, seats


@pytest.mark.parametrize("game", ["kokeshi", "harmonies"])
async def test_the_end_of_turn_picture_is_the_movers_board(
    fake_discord, bot_process, game: str
) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    message = await open_and_start(table, game)
    first_public = message.id
    rnd = random.Random(5)
    engine = get_engine(game)
    checked = 0
    for _ in range(400):
        if checked >= 2:
            break
        codes = offered(message)
        assert codes, message.content
        state, seat_users_ = stored(bot.db_path, game)
        mover = next(u for u in table.users if u.id == seat_users_[engine.to_move(state)])
        code = choose(game, list(codes), rnd)
        rec = await press(fake_discord, mover, message, code, "en-US")
        message = await board_after_click(fake_discord, rec, message)
        if message.ephemeral or message.id == first_public:
            continue
        # a turn just ended: the public message's picture is the mover's board, marked
        _, options, moves, seats = logged(bot.db_path)
        turns = split_turns(game, seats, options, moves)
        turn = last_ended(turns)
        assert turn is not None and turn.mover is not None
        assert engine.to_move(turn.end) != turn.mover  # the next player is someone else
        names = [u.name for u in table.users]
        views = turn_views(game, turn.end, turn.start, turn.mover)
        assert views[0]["focus_seat"] == turn.mover and views[0]["since"] == turn.start
        tr = translator("en-US")
        assert_board(message)
        pictures = [a for a in message.attachments if a.filename.startswith("board")]
        assert len(pictures) == len(views)  # one attachment per view, in order
        for picture, view in zip(pictures, views, strict=True):
            assert picture.data == render_png(game, turn.end, tr, names=names, **view)
            assert picture.description == describe(game, turn.end, tr, names=names, **view)[:1024]
        assert pictures[0].data != render_png(game, turn.end, tr, names=names)  # not the next
        checked += 1
    assert checked >= 2
    fake_discord.assert_no_unknown_routes()
