"""Discord-free presentation: what a turn message says and which controls it carries.

A presenter turns engine states and legal action codes into words (through ``i18n``) and
control specs (buttons and select menus carrying action codes). The discord.py adapter only
translates these specs into components, so every game's UI can be tested without Discord.
A game's presenter is found by convention: the ``PRESENTER`` of ``<home>.present``, beside the
game's registration (``games/<game>/present`` for a built-in game).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engines.registry import part_module

PART = "present"


def get_presenter(game: str) -> Any:
    """The presenter module's ``PRESENTER`` object for ``game``."""
    return import_module(part_module(game, PART)).PRESENTER
