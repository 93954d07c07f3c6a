"""Control specs and the presenter contract every game implements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.service.models import LoggedMove
from i18n import has, t

#: Discord limits the adapter must respect
MAX_BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25
MAX_LABEL = 80


@dataclass(frozen=True, slots=True)
class Button:
    """One button; clicking it submits ``action`` (an engine action code)."""

    action: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class SelectOption:
    action: str
    label: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu (at most 25 options); choosing an option submits its action code."""

    placeholder: str
    options: tuple[SelectOption, ...]


Control = Button | Select


@dataclass(frozen=True, slots=True)
class ControlRows:
    """Rows of controls: each row is either up to 5 buttons or exactly one select."""

    rows: tuple[tuple[Control, ...], ...] = field(default=())


class PlayedTurn(Protocol):
    """One turn read from the move log (``bot.service.turns.PlayedTurn``): the state it began
    from, its moves (the player's and chance), the state it ended in, who played it and
    whether it ended (False: the turn still being played)."""

    @property
    def start(self) -> Any: ...

    @property
    def moves(self) -> tuple[LoggedMove, ...]: ...

    @property
    def end(self) -> Any: ...

    @property
    def mover(self) -> int | None: ...

    @property
    def ended(self) -> bool: ...


#: what ``Presenter.steps`` may be: how the steps inside a turn are shown
Steps = Literal["in_place", "private"]
STEPS_IN_PLACE: Steps = "in_place"  # the clicked public message is updated (Can't Stop rolls)
STEPS_PRIVATE: Steps = "private"  # a private preview with the next controls (Harmonies, Kokeshi)


class Presenter(Protocol):
    """Per-game words and controls: the ``PRESENTER`` of a game's ``present`` part, the whole
    contract (``bot/games.py`` checks every member, its kind and its parameters at start-up).
    ``names[seat]`` are display names or mentions; ``locale`` is a language code or ``None``
    (English). The adapter passes every parameter by position, in the order written here.

    Either way only the action that hands the turn to another seat (or ends the game) posts a
    new public message, and that message tells the whole turn (``turn_account``)."""

    #: ``STEPS_IN_PLACE`` or ``STEPS_PRIVATE``: how a step that does not end the turn is shown
    steps: Steps

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        """Controls for exactly the legal actions of the seat to move."""
        ...

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        """Sentences announcing what just happened (moves, busts, claims, the win)."""
        ...

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        """The line that tells the seat to move what to do now (or the result when it is over)."""
        ...

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        """One move in words (the record's default line for a game without ``turn_summary``
        is made of them); ``state_before`` may be ``None`` (the move alone)."""
        ...

    def rules_summary(self, locale: str | None) -> str:
        """``/rules <game>``: a short summary (markdown, under 4000 characters)."""
        ...

    def turn_account(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        """A short account of one whole turn (or of the turn so far), from the state it began
        in and its logged moves: the first line tells the turn, further lines what the table
        must not miss (a column claimed, the win, the final scoring). Long turns are clipped."""
        ...

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        """"Since your last turn": one short item per turn (e.g. "bob busted after 3 rolls")."""
        ...


class PresenterExtras(Protocol):
    """Words a game may add; a game without one gets the default ``bot.present.turn_log`` gives
    (``bot/games.py`` checks a member that is present like the required ones)."""

    def turn_summary(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> str:
        """One line of ``/game log`` for one whole turn: who played it and what it did (rolls,
        busts, placements, cards, points), its chance steps told within the moves they served
        (default: the player, each move in ``describe_move``'s words and their score after it)."""
        ...


ACCOUNT_ITEM = 160  # a recap item is clipped to this many characters


def plain(text: str) -> str:
    """``text`` without the bold markers of a chat line (for a short recap item)."""
    return text.replace("**", "")


def offered_actions(rows: ControlRows) -> set[str]:
    """Every action code a player can submit through ``rows`` (a game may leave legal actions
    out when Discord's limits are reached; they can still be typed)."""
    found: set[str] = set()
    for row in rows.rows:
        for control in row:
            if isinstance(control, Button):
                found.add(control.action)
            else:
                found |= {option.action for option in control.options}
    return found


def chunk_buttons(buttons: Sequence[Button]) -> tuple[tuple[Control, ...], ...]:
    """Lay buttons out in rows of five (Discord's limit)."""
    return tuple(
        tuple(buttons[i : i + MAX_BUTTONS_PER_ROW])
        for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW)
    )


def clip(text: str, limit: int = MAX_LABEL) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (Discord rejects longer labels)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def chunk_options(options: Sequence[SelectOption]) -> list[tuple[SelectOption, ...]]:
    """Options in parts of at most 25, one select menu each."""
    return [
        tuple(options[i : i + MAX_SELECT_OPTIONS])
        for i in range(0, len(options), MAX_SELECT_OPTIONS)
    ]


def final_scores(
    locale: str | None, game: str, names: Sequence[str], scores: Sequence[int]
) -> str:
    """"Ann 3 claimed columns, Bo 1 claimed column": a game may name its score's unit in
    ``<game>.result.score_item`` (a plural key); otherwise the plain ``game.result.score_item``."""
    own = f"{game}.result.score_item"
    item = own if has(own) else "game.result.score_item"
    return t(locale, "list.sep").join(
        t(locale, item, player=names[i], score=score, count=score) for i, score in enumerate(scores)
    )
