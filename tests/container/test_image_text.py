"""Names in Arabic are shaped inside the built image: Pillow's libraqm layout needs GNU FriBidi
at run time, which the image must carry (issue 23). The probe (``shaping_probe.py``) runs in a
throwaway container of the image, with the project as installed there."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

#: one Docker daemon and image for every container test: under pytest-xdist they share one
#: worker, one after another (`--dist loadgroup`)
pytestmark = [pytest.mark.container, pytest.mark.xdist_group("container")]

PROBE = Path(__file__).with_name("shaping_probe.py")


def run_probe(image: str) -> dict[str, bool]:
    done = subprocess.run(
        ["docker", "run", "--rm", "-i", "--network", "none", "--entrypoint", "python", image, "-"],
        input=PROBE.read_text(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, bool] = json.loads(done.stdout)
    return result


def test_an_arabic_name_is_drawn_joined_in_the_image(docker_image: str) -> None:
    assert run_probe(docker_image) == {
        "raqm": True,
        "shaping": True,
        "fitted_whole": True,
        "drawn_joined": True,
        "drawn_isolated": False,
    }
