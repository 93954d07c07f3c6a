"""Kokeshi: importing this package registers it; its parts sit beside this file."""

from engines.registry import register
from games.kokeshi.engine.rules import KokeshiEngine

register(KokeshiEngine(), home=__name__)
