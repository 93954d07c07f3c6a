"""Can't Stop: importing this package registers it; its parts sit beside this file."""

from engines.registry import register
from games.cantstop.engine.rules import CantStopEngine

register(CantStopEngine(), home=__name__)
