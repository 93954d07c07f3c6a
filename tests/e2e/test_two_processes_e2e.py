"""Two bot processes on one PostgreSQL database, both connected for the same guild: every click
of a double click reaches a different process, and exactly one of each pair is applied; the
other is answered privately and changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.service.games import GameService
from bot.storage.postgres import PostgresStore
from tests.e2e.helpers import (
    action_ids,
    assert_board,
    board_after_click,
    open_and_start,
    seat_users,
)


async def test_double_clicks_on_two_processes_apply_once(
    fake_discord, bot_process, pg_url, tmp_path: Path
) -> None:
    first = await bot_process(BOARDROOM_DB=pg_url, BOARDROOM_STATE_DIR=str(tmp_path / "one"))
    second = await bot_process(
        first.guild, BOARDROOM_DB=pg_url, BOARDROOM_STATE_DIR=str(tmp_path / "two")
    )
    await fake_discord.fake.wait_until(lambda: len(fake_discord.fake.ready_sessions()) == 2)
    table = await seat_users(fake_discord, first.guild, "Alice", "Bob")
    turn = await open_and_start(table)
    applied = 0
    for _ in range(12):
        buttons = action_ids(turn)
        if not buttons:
            break
        mover = next(u for u in table.users if f"<@{u.id}>" in turn.content.splitlines()[-1])
        action = buttons[sorted(buttons)[0]]
        records = await fake_discord.click_on_every_session(mover, turn, action)
        assert len(records) == 2
        for rec in records:
            await rec.wait_response(timeout=10)
        public = [r for r in records if not r.ephemeral]
        private = [r for r in records if r.ephemeral]
        assert len(public) == 1 and len(private) == 1, [r.content for r in records]
        # the stale-board answer, or the one for a click whose move the other click just saved
        assert any(
            words in private[0].content for words in ("from an earlier turn", "already saved")
        ), private[0].content
        turn = await board_after_click(fake_discord, public[0], turn)
        assert_board(turn)
        applied += 1
    assert applied >= 6
    async with PostgresStore(pg_url, pool_size=1) as store:
        service = GameService(store)
        snap = await service.current(table.channel.id)
        moves = await store.moves(snap.id)
        assert sum(1 for m in moves if m.seat is not None) == applied
        assert await service.verify(snap.id)
    for bot in (first, second):
        bot.assert_no_traceback()
    fake_discord.assert_no_unknown_routes()
