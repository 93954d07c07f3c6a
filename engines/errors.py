"""Rule errors raised by engines; the service turns them into player-facing messages."""


class GameError(Exception):
    """Base class of every error an engine raises about an action."""


class IllegalAction(GameError):
    """The action is well formed but not legal in this state."""


class BadActionText(GameError):
    """The action text cannot be parsed at all."""


class BadOptions(GameError):
    """Game options or seat count outside what the engine supports."""


class OldEncoding(GameError):
    """A stored state from before the engine's encoding changed: rebuild it from the move log."""
