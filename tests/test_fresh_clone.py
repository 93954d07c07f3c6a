"""A fresh clone and the README's first commands: ``make run`` without a token says what to do
(and offers the demo), ``make demo`` plays a game offline, and ``make test`` is what CI runs.

The clone is of the committed checkout (``git clone <repo root>``), so it holds exactly what a
newcomer gets; it sets up its own .venv (pip reuses its wheel cache: ~30 s here).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

#: one clone (and its .venv) for the module: its tests share one worker under pytest-xdist
pytestmark = pytest.mark.xdist_group("fresh_clone")

ROOT = Path(__file__).resolve().parents[1]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# a developer's shell may carry settings that a newcomer does not have
_SCRUBBED = (
    "DISCORD_TOKEN",
    "DISCORD_API_BASE",
    "BOARDROOM_DB",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "BOARDROOM_GAMES",
    "VIRTUAL_ENV",
    "MAKEFLAGS",
    "MAKELEVEL",
)


def readme_commands() -> dict[str, str]:
    """The commands of the README's first code block, by target: {"run": "make run", ...}."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    found = {}
    for line in block.splitlines():
        command = line.split("#", 1)[0].strip()
        if command.startswith("make "):
            found[command.split()[1]] = command
    return found


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # a checkout owned by another user (CI runs as root) is still ours to clone: git honours
    # safe.directory for a local clone only from a global config, so the clone gets its own
    config = tmp_path_factory.mktemp("git") / "gitconfig"
    config.write_text("[safe]\n\tdirectory = *\n")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": str(config)}
    missing = None
    if shutil.which("git") is None or shutil.which("make") is None:
        missing = "git and make are needed"
    elif subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse"], env=env, capture_output=True
    ).returncode:
        missing = f"{ROOT} is not a git checkout"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the fresh-clone test cannot run: {missing}", pytrace=False)
        pytest.skip(missing)
    target = tmp_path_factory.mktemp("fresh") / "boardroom"
    subprocess.run(
        ["git", "clone", "--quiet", str(ROOT), str(target)], env=env, check=True, timeout=120
    )
    return target


def run(clone: Path, command: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    return subprocess.run(
        shlex.split(command), cwd=clone, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_readme_starts_with_the_three_commands() -> None:
    assert readme_commands() == {"demo": "make demo", "run": "make run", "test": "make test"}


def test_make_run_without_a_token_says_what_to_do(clone: Path) -> None:
    assert not (clone / ".env").exists() and not (clone / ".venv").exists()
    done = run(clone, readme_commands()["run"])
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert (clone / ".venv/bin/boardroom").exists()  # make set up the venv first
    assert "Traceback" not in output, output
    assert "DISCORD_TOKEN is not set" in done.stderr, output
    assert "https://discord.com/developers/applications" in done.stderr
    assert "make demo" in done.stderr  # the way to try it without Discord


def test_make_demo_plays_a_whole_game_offline(clone: Path) -> None:
    done = run(clone, readme_commands()["demo"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "wins" in done.stdout and "Result:" in done.stdout
    boards = sorted((clone / "boards").glob("cantstop-1/*.png"))
    assert len(boards) > 10
    assert all(path.read_bytes().startswith(PNG_MAGIC) for path in boards)


def test_make_test_is_what_ci_runs(clone: Path) -> None:
    ci = [
        line.strip()
        for line in (clone / ".ci/run").read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    assert readme_commands()["test"] == "make test"
    dry = run(clone, "make -n test")
    assert dry.returncode == 0, dry.stderr
    # make test's last line is the very command .ci/run ends with
    assert dry.stdout.splitlines()[-1] == f". .venv/bin/activate && {ci[-1]}"
    assert ci[-1] == "ruff check . && mypy && python -m pytest -p no:cacheprovider -n 3 --dist loadgroup"
