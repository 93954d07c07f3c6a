"""The container test may skip on a developer's machine without Docker or the image, never in CI:
with ``CI=true`` a missing image (or daemon, or docker) makes it fail."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_container_test(**env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("CI", "BOARDROOM_IMAGE")}
    full.update(env, BOARDROOM_IMAGE="boardroom-missing:never-built")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rs",
            "tests/container/test_container.py",
        ],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_the_image_it_skips_locally_and_fails_under_ci() -> None:
    local = run_container_test()
    assert local.returncode == 0, local.stdout
    assert "1 skipped" in local.stdout and ".ci/container-setup" in local.stdout
    ci = run_container_test(CI="true")
    assert ci.returncode != 0, ci.stdout
    assert "skipped" not in ci.stdout and "1 error" in ci.stdout
    assert "CI=true and the container test cannot run" in ci.stdout
