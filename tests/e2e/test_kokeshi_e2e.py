"""Kokeshi through the real bot process and the fake Discord: a whole game clicked through the
buttons and menus the bot sent, private steps inside a turn, and /rules with its legend."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from engines.registry import get_engine
from games.kokeshi.engine.scoring import achievement_count
from games.kokeshi.engine.state import KokeshiState, Phase
from tests.e2e.helpers import (
    PNG_MAGIC,
    TURN_ID,
    assert_board,
    assert_every_image_described,
    board_after_click,
    open_and_start,
    seat_users,
)
from tests.fakediscord.models import iter_components

ENGINE = get_engine("kokeshi")
DATA = ENGINE.data
SELECT_ID = "brs:"


def controls(message: Any) -> dict[str, tuple[str, bool]]:
    """action code -> (custom_id, is a select option) for every game control on a message."""
    found: dict[str, tuple[str, bool]] = {}
    for comp in iter_components(message.components):
        custom_id = comp.get("custom_id", "")
        if comp.get("type") == 2 and (m := TURN_ID.fullmatch(custom_id)):
            found[m.group(3)] = (custom_id, False)
        elif comp.get("type") == 3 and custom_id.startswith(SELECT_ID):
            for option in comp.get("options") or []:
                found[option["value"]] = (custom_id, True)
    return found


def stored_game(db_path: Path) -> tuple[KokeshiState, dict[int, int]]:
    """The game's state and its seats (seat -> user id), read from the bot's database."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        (state_json,) = conn.execute("SELECT state_json FROM games").fetchone()
        seats = dict(conn.execute("SELECT seat, user_id FROM seats").fetchall())
    finally:
        conn.close()
    return ENGINE.decode_state(json.loads(state_json)), seats


def choose(s: KokeshiState, offered: list[str]) -> str:
    """A player in a hurry: gain tiles, take achievements, run for the animal midlines."""
    kind = offered[0].split(":", 1)[0]
    if kind == "move":
        for code in offered:
            column = int(code.split(":")[1])
            target = s.pos[s.active][column] + 1
            if s.height(s.active, column) < target <= DATA.spaces:
                return code  # an empty space: a tile (perhaps an achievement) for this column
    if kind == "gain":
        achievements = [code for code in offered if "ach" in code]
        if achievements:
            return achievements[-1]
    if kind == "animal":

        def rank(code: str) -> tuple[bool, int]:
            where = s.animal_pos(DATA.animals.index(code.split(":")[1]), s.active)
            return (where < DATA.midline, where)

        return max(offered, key=rank)
    if kind == "side":
        return offered[-1]  # the any-animal side, where there is one
    return offered[0]


async def test_a_whole_game_through_buttons_and_menus(fake_discord, bot_process, tmp_path) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    users = {u.id: u for u in table.users}
    message = await open_and_start(table, "kokeshi")
    public, private, wrong_checked, logged = 0, 0, False, False
    private_messages = 0
    turn_private_messages = 0  # new private messages in the turn being played
    first_mover = stored_game(bot.db_path)
    hinted = [first_mover[1][first_mover[0].active]] if "/game board" in message.content else []
    pngs: list[bytes] = []
    kinds: set[str] = set()
    for _ in range(1000):
        s, seats = stored_game(bot.db_path)
        offered = controls(message)
        if message.ephemeral:
            assert not message.attachments or message.attachments[0].data.startswith(PNG_MAGIC)
        else:
            pngs.append(assert_board(message))
        if s.phase == Phase.OVER:
            assert not offered and not message.ephemeral
            break
        mover = users[seats[s.active]]
        other = next(u for u in table.users if u is not mover)
        assert f"<@{mover.id}>" in message.content, message.content
        assert f"<@{other.id}>" not in message.content, message.content
        legal = {ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)}
        assert set(offered) == legal, (offered, legal)  # every legal action, nothing else
        if not wrong_checked and not message.ephemeral:
            custom_id, is_select = next(iter(offered.values()))
            code = next(iter(offered))
            rec = await (
                fake_discord.select(other, message, custom_id, [code])
                if is_select
                else fake_discord.click(other, message, custom_id)
            )
            await rec.wait_response()
            assert rec.ephemeral and "not your turn" in rec.content, rec.content
            assert stored_game(bot.db_path)[0] == s
            wrong_checked = True
        if not logged and not s.in_setup and not message.ephemeral:
            log = await fake_discord.slash(other, table.channel, "game", {}, subcommand="log")
            await log.wait_response()
            assert log.ephemeral and "Alice: starting tiles: " in log.content, log.content
            assert "\n1. " in log.content and "Bob: starting tiles: " in log.content, log.content
            logged = True
        action = choose(s, sorted(offered))
        kinds.add(action.split(":", 1)[0])
        custom_id, is_select = offered[action]
        if is_select:
            rec = await fake_discord.select(mover, message, custom_id, [action])
        else:
            rec = await fake_discord.click(mover, message, custom_id)
        clicked = message
        message = await board_after_click(fake_discord, rec, clicked)
        assert not rec.rejections, rec.rejections
        after, _ = stored_game(bot.db_path)
        assert after != s
        same_turn = after.phase != Phase.OVER and after.active == s.active
        # steps inside a turn are private; the action that hands the turn on is public
        assert message.ephemeral == same_turn, (action, message.content)
        if same_turn:
            private += 1
            if clicked.ephemeral:  # a later step: the same private message, edited
                assert rec.updated_in_place and message.id == clicked.id
            else:  # the turn's first step: one private message, the public board not live
                private_messages += 1
                turn_private_messages += 1
                assert turn_private_messages == 1  # one private message a turn at most
                assert not controls(fake_discord.message(clicked.id))
        else:
            public += 1
            turn_private_messages = 0
            assert message.content.strip()
            assert "/game board" not in "\n".join(message.content.splitlines()[:-1])
            if "/game board" in message.content:  # how to get lost controls back
                hinted.append(seats[after.active])
    else:
        raise AssertionError("the game did not end")
    assert "wins" in message.content and "Final scoring" in message.content
    winners = [seats[w] for w in ENGINE.winners(s)]
    assert all(f"<@{w}>" in message.content for w in winners)
    assert max(achievement_count(DATA, s, seat) for seat in range(2)) >= 5 or not s.bag
    assert public >= 10 and private >= 5
    assert 0 < private_messages <= public  # every turn ends in public
    assert sorted(hinted) == sorted(users)  # the hint once a game to each player
    assert {"start", "move", "gain"} <= kinds
    fake_discord.assert_no_unknown_routes()
    assert assert_every_image_described(fake_discord) >= public + private_messages  # as last edited
    assert not any(rec.late for rec in fake_discord.interactions)  # none refused as too late
    for name, png in (("first", pngs[0]), ("middle", pngs[len(pngs) // 2]), ("last", pngs[-1])):
        (tmp_path / f"kokeshi-{name}.png").write_bytes(png)


async def test_rules_with_the_legend_image(fake_discord, bot_process) -> None:
    bot = await bot_process()
    table = await seat_users(fake_discord, bot.guild, "Reader")
    (reader,) = table.users
    rec = await fake_discord.slash(reader, table.channel, "rules", {"game": "kokeshi"})
    await rec.wait_response()
    (answer,) = await rec.wait_followups(1, timeout=10)
    assert answer.ephemeral
    (embed,) = answer.embeds
    assert embed["title"] == "Kokeshi"
    assert "cascade" in embed["description"] and len(embed["description"]) < 4000
    assert embed["image"]["url"] == "attachment://legend.png"
    (legend,) = answer.attachments
    assert legend.filename == "legend.png" and legend.data.startswith(PNG_MAGIC)
    # the legend has alt text: what its symbols mean
    assert legend.description and legend.description.startswith("Kokeshi: symbols.")
    assert "move any kokeshi up 2" in legend.description and len(legend.description) <= 1024
