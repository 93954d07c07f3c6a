"""The registered Harmonies engine, the one every part of the presenter asks."""

from __future__ import annotations

from engines.registry import get_engine

ENGINE = get_engine("harmonies")
