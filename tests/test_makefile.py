"""``make test`` runs exactly what CI runs; ``make run`` and ``make demo`` set up .venv first."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def ci_checks() -> list[str]:
    """The commands of .ci/run after its set-up (the venv and the pip installs)."""
    lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    commands = [line for line in lines if line and not line.startswith("#")]
    last_install = max(i for i, line in enumerate(commands) if "pip install" in line)
    return commands[last_install + 1 :]


def recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        body.append(line[1:])
    return body


def test_make_test_is_what_ci_runs() -> None:
    assert ci_checks() == ["ruff check .", "mypy", "python -m pytest -p no:cacheprovider"]
    assert recipe("test") == [". $(BIN)/activate && " + " && ".join(ci_checks())]
    setup = recipe("$(VENV)/.installed")
    assert setup[0] == "python3 -m venv $(VENV)" and "pip install --quiet -e '.[test]'" in setup[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_sets_up_the_venv_before_each_target() -> None:
    for target, command in (
        ("run", ".venv/bin/boardroom run"),
        ("demo", ".venv/bin/boardroom demo cantstop"),
    ):
        dry = subprocess.run(
            ["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True, check=True
        )
        lines = dry.stdout.splitlines()
        assert lines[0] == "python3 -m venv .venv" and lines[-1].startswith(command), lines
