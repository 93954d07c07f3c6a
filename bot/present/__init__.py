"""Discord-free presentation: what a turn message says and which controls it carries.

A presenter turns engine states and legal action codes into words (through ``i18n``) and
control specs (buttons and select menus carrying action codes). The discord.py adapter only
translates these specs into components, so every game's UI can be tested without Discord.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_PRESENTERS = {
    "cantstop": "bot.present.cantstop",
    "kokeshi": "bot.present.kokeshi",
    "harmonies": "bot.present.harmonies",
}


def get_presenter(game: str) -> Any:
    """The presenter module's ``PRESENTER`` object for ``game``."""
    return import_module(_PRESENTERS[game]).PRESENTER
