"""Fixtures for the container test: the fake Discord of the e2e tests, and the built images.

Locally the test skips when there is no Docker or no image (``.ci/container-setup`` makes
both); with ``CI=true`` it fails instead, so CI can never pass without running it.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.e2e.conftest import fake_discord, fake_discord_options

__all__ = ["docker_image", "fake_discord", "fake_discord_options", "postgres_image"]

#: the images .ci/container-setup builds: the bot's, and PostgreSQL's (docker/postgres)
IMAGE = os.environ.get("BOARDROOM_IMAGE", "boardroom:test")
POSTGRES_IMAGE = os.environ.get("BOARDROOM_POSTGRES_IMAGE", "boardroom-postgres:test")


def docker_missing(image: str) -> str | None:
    """Why the container test cannot run here, or None when it can."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    if info.returncode != 0:
        return f"no Docker daemon answers: {info.stderr.strip()[:200]}"
    found = subprocess.run(
        ["docker", "image", "inspect", image], capture_output=True, text=True, timeout=60
    )
    if found.returncode != 0:
        return f"the image {image} is not built"
    return None


def require_image(image: str) -> str:
    """``image``; skips (fails under CI=true) when Docker or the image is missing."""
    reason = docker_missing(image)
    if reason is not None:
        advice = f"{reason}; run .ci/container-setup (as root) to set it up"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the container test cannot run: {advice}", pytrace=False)
        pytest.skip(advice)
    return image


@pytest.fixture(scope="session")
def docker_image() -> str:
    """The bot's image to test."""
    return require_image(IMAGE)


@pytest.fixture(scope="session")
def postgres_image() -> str:
    """The PostgreSQL image built from Debian's package, for the compose file's db service."""
    return require_image(POSTGRES_IMAGE)
