"""Errors a player can fix: each carries a translation key and the values its sentence needs."""

from __future__ import annotations

from bot.service.models import GameSnapshot


class UserFacingError(Exception):
    """Answered privately to the person who caused it; nothing was changed."""

    key = "error.generic"

    def __init__(self, **params: object) -> None:
        super().__init__(self.key, params)
        self.params = params


class UnknownGameType(UserFacingError):
    key = "error.unknown_game_type"


class BadOption(UserFacingError):
    key = "error.bad_option"


class NoActiveGame(UserFacingError):
    key = "error.no_active_game"


class GameNotFound(UserFacingError):
    key = "error.game_not_found"


class ChannelBusy(UserFacingError):
    """Carries ``game_id``, ``game`` and, when known, ``channel_id``/``message_id`` for a link."""

    key = "error.channel_busy"


class NotALobby(UserFacingError):
    key = "error.not_a_lobby"


class LobbyFull(UserFacingError):
    key = "error.lobby_full"


class AlreadySeated(UserFacingError):
    key = "error.already_seated"


class NotInLobby(UserFacingError):
    key = "error.not_in_lobby"


class HostCannotLeave(UserFacingError):
    key = "error.host_cannot_leave"


class NotHost(UserFacingError):
    key = "error.not_host"


class TooFewPlayers(UserFacingError):
    key = "error.too_few_players"


class NotSeated(UserFacingError):
    key = "error.not_seated"


class PlayerNotInGame(UserFacingError):
    key = "error.player_not_in_game"


class NotYourTurn(UserFacingError):
    key = "error.not_your_turn"


class StaleBoard(UserFacingError):
    key = "error.stale_board"


class IllegalMove(UserFacingError):
    key = "error.illegal_move"


class BadActionText(UserFacingError):
    key = "error.bad_action_text"


class NoBotsForGame(UserFacingError):
    key = "error.no_bots_for_game"


class GameNotStarted(UserFacingError):
    key = "error.game_not_started"


class GameOver(UserFacingError):
    key = "error.game_over"


class GameEnded(GameOver):
    """A control of a game that has ended; ``snapshot`` says how (won, or abandoned by whom)."""

    def __init__(self, snapshot: GameSnapshot, **params: object) -> None:
        super().__init__(**params)
        self.snapshot = snapshot


class NotAllowedToAbandon(UserFacingError):
    key = "error.not_allowed_to_abandon"


class WrongChannel(UserFacingError):
    """Carries the game's ``channel_id``: the input came from another channel, guild or a DM."""

    key = "error.wrong_channel"


class StorageUnavailable(UserFacingError):
    """The database could not be reached (e.g. while it restarts); the action was not kept."""

    key = "error.storage_unavailable"
