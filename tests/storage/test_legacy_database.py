"""A database written before the engines' state encoding gained the turn counter still loads.

``tests/data/legacy-v1.db`` was written by the code of that time: a lobby, games in progress and
finished games of every game. Its states lack ``turn``; the engines refuse to guess
(``OldEncoding``) and the service rebuilds them from their move logs, keeping every version so the
buttons on boards players already see keep working.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore
from engines import errors
from engines.registry import get_engine

LEGACY = Path(__file__).parents[1] / "data" / "legacy-v1.db"


def _rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT id, game, status, version, move_count, state_json FROM games ORDER BY id"
        ).fetchall()


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    path = tmp_path / "boardroom.db"
    shutil.copy(LEGACY, path)
    return path


def test_the_legacy_states_are_an_old_encoding() -> None:
    for _, game, _, _, _, state_json in _rows(LEGACY):
        if state_json is not None:
            with pytest.raises(errors.OldEncoding):
                get_engine(game).decode_state(json.loads(state_json))


async def test_stored_games_of_the_old_encoding_load_and_play_on(legacy: Path) -> None:
    before = _rows(legacy)
    async with SqliteStore(legacy) as store:
        service = GameService(store)
        assert await service.upgrade_stored_states() == sum(1 for r in before if r[5])
        assert await service.upgrade_stored_states() == 0  # once is enough
        for game_id, game, status, version, _, state_json in before:
            snap = await service.game(game_id)
            assert (snap.game, snap.status, snap.version) == (game, status, version)
            assert await service.verify(game_id)
            if status == "active":
                assert snap.legal and snap.to_move is not None
                user = snap.seats[snap.to_move].user_id
                assert user is not None
                outcome = await service.act(game_id, user, snap.legal[0], snap.version)
                assert outcome.after.version == version + 1
                assert await service.verify(game_id)
            if state_json is None:
                assert snap.is_lobby and snap.state is None
    after = {r[0]: r for r in _rows(legacy)}
    for game_id, *_, state_json in before:
        if state_json is not None:
            assert "turn" in json.loads(after[game_id][5])


async def test_the_check_is_skipped_while_the_engines_are_unchanged(legacy: Path) -> None:
    """A start-up reads every stored state only when the engines' code changed since the last
    full check (it takes long on a big database); ``force`` (``boardroom migrate``) always does."""
    old = {r[0]: r[5] for r in _rows(legacy)}
    async with SqliteStore(legacy) as store:
        service = GameService(store)
        rebuilt = await service.upgrade_stored_states()
        assert rebuilt > 0
        with sqlite3.connect(legacy) as conn:  # an old state again, behind the service's back
            game_id = next(i for i, state in old.items() if state)
            conn.execute("UPDATE games SET state_json = ? WHERE id = ?", (old[game_id], game_id))
        assert await service.upgrade_stored_states() == 0  # same engines: not read again
        assert await service.upgrade_stored_states(force=True) == 1
        with sqlite3.connect(legacy) as conn:  # as after an upgrade of the engines' code
            conn.execute("UPDATE meta SET value = 'older engines'")
            conn.execute("UPDATE games SET state_json = ? WHERE id = ?", (old[game_id], game_id))
        assert await service.upgrade_stored_states() == 1
