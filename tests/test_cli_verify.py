"""``boardroom verify`` and ``boardroom replay`` on a real export, run as a user runs them."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path

import pytest
from PIL import Image

from bot.service import fairness, history
from bot.service.games import GameService
from bot.storage.sqlite import SqliteStore
from engines.registry import get_engine
from engines.replay import replay
from tests.service.after_game import GUILD, open_game, play_out
from tests.test_cli import boardroom


def exported(tmp_path: Path, game: str) -> dict:
    async def make() -> dict:
        async with SqliteStore(tmp_path / "export.db") as store:
            service = GameService(store)
            game_id = await open_game(service, game)
            await play_out(service, game_id)
            return await history.export(service, game_id, GUILD)

    return asyncio.run(make())


def write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_bytes(history.export_json(data))
    return path


@pytest.mark.parametrize("game", ["cantstop", "harmonies", "kokeshi"])
def test_verify_accepts_the_export_and_refuses_a_tampered_one(tmp_path: Path, game: str) -> None:
    data = exported(tmp_path, game)
    ok = boardroom("verify", str(write(tmp_path, "game.json", data)), cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith(f"Verified: game #{data['game_id']} is fair.")
    assert str(data["seed"]) in ok.stdout

    chance = next(i for i, m in enumerate(data["moves"]) if m["seat"] is None and i > 2)
    moved = copy.deepcopy(data)
    swapped = next(
        m["action"]
        for m in data["moves"]
        if m["seat"] is None and m["action"] != data["moves"][chance]["action"]
    )
    moved["moves"][chance]["action"] = swapped  # a chance outcome the seed did not give
    bad = boardroom("verify", str(write(tmp_path, "moved.json", moved)), cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith(f"NOT verified: the chance outcome of move {chance + 1}")

    reseeded = copy.deepcopy(data)
    reseeded["seed"] = data["seed"] ^ 1
    bad = boardroom("verify", str(write(tmp_path, "seed.json", reseeded)), cwd=tmp_path)
    assert bad.returncode == 1
    assert "does not match the commitment" in bad.stderr

    reseeded["commitment"] = fairness.commitment(game, data["game_id"], reseeded["seed"])
    bad = boardroom("verify", str(write(tmp_path, "seed2.json", reseeded)), cwd=tmp_path)
    assert bad.returncode == 1 and "but the seed gives" in bad.stderr


def test_verify_says_why_a_file_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "junk.json").write_text("{not json")
    result = boardroom("verify", str(tmp_path / "junk.json"), cwd=tmp_path)
    assert result.returncode == 2 and "could not be read as JSON" in result.stderr
    (tmp_path / "other.json").write_text(json.dumps({"hello": 1}))
    result = boardroom("verify", str(tmp_path / "other.json"), cwd=tmp_path)
    assert result.returncode == 1 and "not a Boardroom export" in result.stderr


def test_replay_writes_one_board_per_turn(tmp_path: Path) -> None:
    data = exported(tmp_path, "kokeshi")
    out = tmp_path / "boards"
    result = boardroom(
        "replay", str(write(tmp_path, "game.json", data)), "--out", str(out), cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    engine = get_engine("kokeshi")
    final = replay(engine, len(data["seats"]), data["options"], (m["action"] for m in data["moves"]))
    boards = sorted(out.glob("*.png"))
    assert len(boards) == engine.turn(final) + 1  # after the setup, then after every turn
    assert f"{len(boards)} boards written to {out}" in result.stdout
    assert [b.name for b in boards[:2]] == ["000.png", "001.png"]
    with Image.open(boards[-1]) as last:
        assert last.format == "PNG" and last.width > 100
