"""Rule errors raised by engines. The service turns them into player-facing messages."""


class GameError(Exception):
    """Base class of every error an engine raises about an action."""

    #: translation key of the player-facing explanation (see bot/i18n)
    key = "error.illegal_action"


class IllegalAction(GameError):
    """The action is well formed but not legal in this state."""

    key = "error.illegal_action"


class BadActionText(GameError):
    """The action text cannot be parsed at all."""

    key = "error.bad_action_text"


class NotYourTurn(GameError):
    """A seat tried to act while another seat (or chance) is to move."""

    key = "error.not_your_turn"


class GameFinished(GameError):
    """The game is over; no more actions are accepted."""

    key = "error.game_finished"


class BadOptions(GameError):
    """Game options or seat count outside what the engine supports."""

    key = "error.bad_options"
