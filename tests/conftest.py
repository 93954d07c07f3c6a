"""The whole suite sees the test suite's own fourth game, registered the way a plugin is."""

import tests.games.nim  # noqa: F401 (importing it registers Nim)
