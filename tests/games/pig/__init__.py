"""Pig, a second small game kept outside the project: roll a die as often as you dare, a 1 loses
the turn's total. It is written exactly as a plugin is (one folder, ``docs/adding-a-game.md``)
and is not loaded by the suite itself: ``tests/test_plugin_checks.py`` runs the per-game checks
with ``BOARDROOM_GAMES=tests.games.pig`` to show a plugin passes them with nothing else failing.
"""

from engines.registry import register
from tests.games.pig.engine import PigEngine

register(PigEngine(), home=__name__)
