"""``boardroom health`` and ``boardroom backup`` as an operator runs them, on real files."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from pathlib import Path

from tests.test_cli import boardroom


def test_health_says_in_one_line_whether_the_bot_is_connected(tmp_path: Path) -> None:
    db = tmp_path / "boardroom.db"
    env = {"BOARDROOM_DB": str(db)}
    beat = tmp_path / "boardroom.db.heartbeat"

    missing = boardroom("health", cwd=tmp_path, env=env)
    assert missing.returncode == 1 and missing.stdout.count("\n") == 1
    assert missing.stdout.startswith("Not healthy") and "not running" in missing.stdout

    beat.write_text(str(int(time.time()) - 600))
    stale = boardroom("health", cwd=tmp_path, env=env)
    # the command takes a moment to start on a busy machine: 600 s, or a second or two more
    age = re.search(r"(\d+) s old", stale.stdout)
    assert stale.returncode == 1 and age and 600 <= int(age.group(1)) <= 610, stale.stdout
    assert stale.stdout.count("\n") == 1

    beat.write_text(str(int(time.time())))
    fresh = boardroom("health", cwd=tmp_path, env=env)
    assert fresh.returncode == 0 and fresh.stdout.startswith("Healthy"), fresh.stdout
    assert fresh.stdout.count("\n") == 1


def test_backup_is_a_consistent_copy_taken_while_a_connection_writes(tmp_path: Path) -> None:
    db = tmp_path / "boardroom.db"
    env = {"BOARDROOM_DB": str(db)}
    assert boardroom("migrate", cwd=tmp_path, env=env).returncode == 0
    writer = sqlite3.connect(db, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")
    # each commit writes a pair of rows; a consistent copy never holds half a pair
    writer.execute("CREATE TABLE pairs (n INTEGER, half INTEGER)")
    writer.commit()
    stop = threading.Event()
    written = [0]

    def write() -> None:
        while not stop.is_set():
            n = written[0]
            writer.executemany("INSERT INTO pairs VALUES (?, ?)", [(n, 0), (n, 1)])
            writer.commit()
            written[0] = n + 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        time.sleep(0.2)
        result = boardroom("backup", str(tmp_path / "copy.db"), cwd=tmp_path, env=env)
    finally:
        stop.set()
        thread.join()
        writer.close()
    assert result.returncode == 0, result.stderr
    assert "Backed up" in result.stdout and "(0 games)" in result.stdout
    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    rows = copy.execute("SELECT count(*), count(DISTINCT n) FROM pairs").fetchone()
    assert rows[0] == 2 * rows[1] and 0 < rows[1] <= written[0]
    assert copy.execute("SELECT count(*) FROM schema_version").fetchone()[0] > 0
    copy.close()
    assert not (tmp_path / "copy.db.partial").exists()


def test_backup_mistakes_are_sentences(tmp_path: Path) -> None:
    env = {"BOARDROOM_DB": str(tmp_path / "nothing-here.db")}
    missing = boardroom("backup", str(tmp_path / "copy.db"), cwd=tmp_path, env=env)
    assert missing.returncode == 2 and "no database" in missing.stderr
    assert not (tmp_path / "nothing-here.db").exists() and not (tmp_path / "copy.db").exists()

    db = tmp_path / "boardroom.db"
    assert boardroom("migrate", cwd=tmp_path, env={"BOARDROOM_DB": str(db)}).returncode == 0
    same = boardroom("backup", str(db), cwd=tmp_path, env={"BOARDROOM_DB": str(db)})
    assert same.returncode == 2 and "database itself" in same.stderr
    (tmp_path / "a-file").write_text("not a folder")
    nowhere = boardroom(
        "backup", str(tmp_path / "a-file" / "copy.db"), cwd=tmp_path, env={"BOARDROOM_DB": str(db)}
    )
    assert nowhere.returncode == 1 and "failed" in nowhere.stderr
    assert "Traceback" not in same.stderr + nowhere.stderr + missing.stderr
