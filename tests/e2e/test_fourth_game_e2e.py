"""The test suite's own fourth game (Nim, under tests/games/) through the real bot process and
the fake Discord: registered only by ``BOARDROOM_GAMES``, it gets its /play subcommand, a lobby,
buttons and menus from its legal actions, a PNG per turn and a winner, like the built-in games."""

from __future__ import annotations

from tests.e2e.helpers import (
    action_ids,
    assert_board,
    assert_every_image_described,
    open_and_start,
    seat_users,
)
from tests.fakediscord.models import iter_components

NIM = {"BOARDROOM_GAMES": "tests.games.nim"}


def offered(message) -> dict[str, tuple[str, bool]]:
    """action code -> (custom_id, chosen from a menu) for every game control on a message."""
    found = {code: (custom_id, False) for code, custom_id in action_ids(message).items()}
    for comp in iter_components(message.components):
        if comp.get("type") == 3 and comp.get("custom_id", "").startswith("brs:"):
            for option in comp.get("options") or []:
                found[option["value"]] = (comp["custom_id"], True)
    return found


async def test_nim_is_played_end_to_end(fake_discord, bot_process) -> None:
    bot = await bot_process(**NIM)
    play = next(c for c in fake_discord.commands(bot.guild) if c["name"] == "play")
    nim = next(o for o in play["options"] if o["name"] == "nim")
    assert {o["name"] for o in nim["options"]} == {
        *("players", "clock", "thread", "rest_days", "timezone"),  # every game's
        *("heaps", "misere"),  # Nim's own
    }

    table = await seat_users(fake_discord, bot.guild, "Alice", "Bob")
    alice, bob = table.users
    turn = await open_and_start(table, "nim", heaps="1-3-5-7")
    boards = 0
    for _ in range(20):
        assert_board(turn)
        boards += 1
        controls = offered(turn)
        if not controls:
            break
        # heaps 1-3-5-7: one row per heap, the heap of seven as a menu
        assert sum(int(code.split(":")[2]) == 1 for code in controls) == len(
            {code.split(":")[1] for code in controls}
        )
        prompt = turn.content.splitlines()[-1]
        mover = alice if f"<@{alice.id}>" in prompt else bob
        other = bob if mover is alice else alice
        code = max(controls, key=lambda c: int(c.split(":")[2]))  # greedy: empty a heap
        custom_id, from_menu = controls[code]
        wrong = await (
            fake_discord.select(other, turn, custom_id, [code])
            if from_menu
            else fake_discord.click(other, turn, custom_id)
        )
        await wrong.wait_response()
        assert wrong.ephemeral and "not your turn" in wrong.content
        rec = await (
            fake_discord.select(mover, turn, custom_id, [code])
            if from_menu
            else fake_discord.click(mover, turn, custom_id)
        )
        await rec.wait_response()
        (turn,) = await rec.wait_followups(1, timeout=10)
    assert not offered(turn)
    # whoever took the last stick won (heaps without misère), and the board says so
    assert f"Congratulations <@{mover.id}>" in turn.content, turn.content
    main = next(a for a in turn.attachments if a.filename.startswith("board-1-"))
    assert "won" in main.description
    assert boards == 5  # the first board and one per emptied heap
    fake_discord.assert_no_unknown_routes()
    assert_every_image_described(fake_discord)
    bot.assert_token_not_logged()
