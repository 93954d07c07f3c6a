"""``.ci/run`` and ``make test`` run the same test command (the README's) after the same set-up;
``make run`` and ``make demo`` set up .venv first."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# run under `make test` (as CI does), a nested make would print "Entering directory" lines
OUTSIDE_MAKE = {
    k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")
}


def commands(path: Path) -> list[str]:
    """The non-comment lines of a shell script."""
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def recipe(target: str) -> list[str]:
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{target}:"))
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        body.append(line[1:])
    return body


TEST_COMMAND = "ruff check . && mypy && python -m pytest -p no:cacheprovider -n 3 --dist loadgroup"


def test_ci_and_make_test_run_the_same_test_command() -> None:
    ci = commands(ROOT / ".ci/run")
    assert ci[-1] == TEST_COMMAND
    # the checks are named once in each, and identically
    assert [line for line in ci if any(w in line for w in ("ruff", "mypy", "pytest"))] == [
        TEST_COMMAND
    ]
    assert "pip install --quiet -e '.[test]'" in " ".join(ci)
    assert recipe("test") == [f". $(BIN)/activate && {TEST_COMMAND}"]
    setup = recipe("$(VENV)/.installed")
    assert setup[0] == "python3 -m venv $(VENV)" and "pip install --quiet -e '.[test]'" in setup[2]


def test_ci_sets_up_the_container_test_under_ci() -> None:
    ci = (ROOT / ".ci/run").read_text()
    assert '"${CI:-}" = true' in ci and ".ci/container-setup" in ci
    assert (ROOT / ".ci/container-setup").stat().st_mode & 0o111  # executable


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_sets_up_the_venv_before_each_target() -> None:
    for target, command in (
        ("run", ".venv/bin/boardroom run"),
        ("demo", ".venv/bin/boardroom demo cantstop"),
        ("test", ". .venv/bin/activate && ruff check . && mypy && python -m pytest"),
    ):
        dry = subprocess.run(
            ["make", "-n", "-B", target],
            cwd=ROOT,
            env=OUTSIDE_MAKE,
            capture_output=True,
            text=True,
            check=True,
        )
        lines = dry.stdout.splitlines()
        assert lines[0] == "python3 -m venv .venv" and lines[-1].startswith(command), lines


def test_the_package_declares_what_setuptools_asks_for_without_warnings() -> None:
    """``make demo`` (and every ``pip install -e``) builds the project with setuptools: the
    licence as an SPDX string (a TOML table is deprecated and warned about), a setuptools that
    reads it, and the packages declared at the top of the project, so an editable install is a
    plain .pth file rather than the import finder setuptools warns about."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    requires = project["build-system"]["requires"]
    assert requires == ["setuptools>=77"], requires  # the first to read an SPDX licence
    assert project["tool"]["setuptools"]["package-dir"] == {"": "."}
    assert "license-files" not in project["project"] or all(
        (ROOT / pattern).exists() for pattern in project["project"]["license-files"]
    )
