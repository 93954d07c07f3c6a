"""Nim, the test suite's own game: proof that a game is new files plus one registration call.

Importing this package registers it (``BOARDROOM_GAMES=tests.games.nim`` makes a bot process do
so); its renderer, presenter, bots and catalogue sit beside it and are found by convention.
"""

from engines.registry import register
from tests.games.nim.engine import NimEngine

register(NimEngine(), home=__name__)
