"""A game registered with nothing beside its engine: start-up must name what it lacks."""

from dataclasses import replace

from engines.registry import register
from tests.games.nim.engine import NimEngine


class BrokenEngine(NimEngine):
    info = replace(NimEngine.info, name="broken", title="Broken")


register(BrokenEngine(), home=__name__)
