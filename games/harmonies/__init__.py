"""Harmonies: importing this package registers it; its parts sit beside this file."""

from engines.registry import register
from games.harmonies.engine.rules import HarmoniesEngine

register(HarmoniesEngine(), home=__name__)
