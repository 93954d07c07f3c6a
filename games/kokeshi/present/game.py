"""The registered Kokeshi engine and its data, which the presenter decodes and replays with."""

from __future__ import annotations

from engines.registry import get_engine
from games.kokeshi.engine.rules import KokeshiEngine

ENGINE: KokeshiEngine = get_engine("kokeshi")
DATA = ENGINE.data
