"""Where a board goes: one decision, made from what happened and how the action arrived.

An action that changes a game ends in a board somewhere: a new public message, the clicked
message edited in place, the game's newest board edited through the channel, a private answer
to the acting player, or a channel message posted by the delivery (``delivery``: retried until
it gets through). ``plan_board`` makes that decision once, from ``Facts``: the action's
``Result`` (a step inside a turn, a turn or the game ended, ...), its ``Arrival`` (a button, a
select, a typed ``/game move``, a computer's turn, ...) and what the sender knows (can the
interaction still be answered; does the game's newest board here show the position the action
was played on). The answer is a ``BoardPlan``: what to show, to whom, by which route, the
interaction's first response, and which older board loses its buttons. Nothing here talks to
Discord; ``handlers.show_outcome`` carries a plan out, and the delivery carries every channel
post.

The rules, in the order ``plan_board`` applies them:

- A refused action shows no board; the actor gets a private answer saying why.
- A computer's move (its own seat, a stand-in, or a timer's default) shows its board in the
  channel through the delivery once its turn ends; the steps inside its turn are not shown.
- ``/game board`` by the player to move (the board as it is) is a private copy with the
  controls; the channel does not count it as seen.
- A step inside a turn of a game that shows its steps in place (Can't Stop's rolls) edits the
  clicked public board; typed as ``/game move`` it edits the game's newest board through the
  channel (when that board shows the position the step was played on) and the command is
  answered privately. A step of a game that answers steps privately (Harmonies, Kokeshi) is a
  private answer to its player.
- Once a turn is played through private controls (a private step's answer, ``/game board``'s
  copy), it stays there: a step clicked on a private message edits that message (one private
  message for the whole turn), and the game's newest public board, while its buttons are live,
  loses them (at the turn's first private step), so a turn never has two live boards.
- Everything else (a turn or the game ended, the first board) is a new public message
  answering the interaction; a click's answer takes the clicked message's buttons off (and,
  from private controls or typed, the live public board's too).
- An edit of the clicked message is the interaction's first response itself (one request:
  the message replaced by the new board). When the board is not ready soon (half a second;
  a busy bot's drawing queue is long) or not in time for that answer, the sender defers the
  update and edits the message once the board is ready.
- When the interaction cannot be answered (too late, or Discord refused its first response),
  the board goes to the channel through the delivery instead, and the clicked public board
  loses its buttons through the channel. A board Discord refuses after the answer (the
  follow-up or the edit) goes the plan's ``fallback`` route.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.service.models import Outcome


class Arrival(Enum):
    """How the action reached the bot."""

    BUTTON = "button"  # a button of a public message
    SELECT = "select"  # a pick from a select of a public message
    PRIVATE_CONTROLS = "private controls"  # a button or select of a private message
    TYPED = "typed"  # /game move
    ASKED = "asked"  # /game board by the player to move: the controls again
    BOT_TURN = "bot turn"  # a computer's own seat
    STAND_IN = "stand-in"  # a computer playing for a person
    TIMER = "timer"  # a clock ran out and its default let a computer play


#: arrivals without an interaction: their board goes to the channel through the delivery
COMPUTERS = (Arrival.BOT_TURN, Arrival.STAND_IN, Arrival.TIMER)
#: a click on a public message
PUBLIC_CLICKS = (Arrival.BUTTON, Arrival.SELECT)


class Result(Enum):
    """What the action did."""

    STARTED = "started"  # the game began: its first board
    STEP = "step"  # a step inside a turn
    TURN_ENDED = "turn ended"
    GAME_ENDED = "game ended"
    AS_IT_IS = "as it is"  # nothing changed: the board asked for again
    REFUSED = "refused"  # the service refused the action: nothing changed


class Reply(Enum):
    """The interaction the action came with, as the sender knows it."""

    OPEN = "open"  # not answered yet, and it still can be
    GIVEN = "given"  # it has its first response already (a started lobby was replaced)
    CLOSED = "closed"  # no answer can reach it: too late, or Discord refused it; no interaction


class Route(Enum):
    """Where the board goes."""

    EDIT_CLICKED = "edit the clicked message"  # a deferred update, then an edit of it
    EDIT_NEWEST = "edit the game's newest board through the channel"
    FOLLOW_UP = "a new message answering the interaction"
    CHANNEL = "a channel message posted by the delivery"
    NONE = "no board"


class Audience(Enum):
    CHANNEL = "channel"  # everyone, in the channel's language
    ACTOR = "actor"  # the acting player alone, in their language
    NOBODY = "nobody"


class Show(Enum):
    """What the board says and draws."""

    TURN = "turn"  # the last ended turn and the turn so far (move log), its views, the controls
    STEP = "step"  # the action's own events, the board as it is, the actor's next controls
    NOTHING = "nothing"


class FirstResponse(Enum):
    """The interaction's first response, given before the board is made."""

    NONE = "none"
    UPDATE_WITH_BOARD = "replace the clicked message with the board itself"
    DEFER_UPDATE = "defer an update of the clicked message"
    STRIP_CLICKED = "take the clicked message's buttons off"
    THINKING_PUBLIC = "defer a public answer"
    THINKING_PRIVATE = "defer a private answer"


class OldBoard(Enum):
    """The board whose buttons belong to an earlier version once this one is shown: it loses
    them in the first response or by the edit, else through the channel."""

    KEPT = "kept"  # nothing to take off (or nothing that can be reached)
    CLICKED = "clicked"  # the clicked message
    NEWEST = "newest"  # the game's newest public board


@dataclass(frozen=True, slots=True)
class BoardPlan:
    """What to show, to whom and how (the fields in this order). ``record``: the post counts as
    seen by its audience (a private copy of the board as it is does not); ``fallback``: the
    route when the board did not go the plan's route (Discord refused it after the answer)."""

    route: Route
    audience: Audience
    show: Show
    first_response: FirstResponse
    old_board: OldBoard
    record: bool
    fallback: Route


@dataclass(frozen=True, slots=True)
class Facts:
    """What the sender knows when it asks for a plan. ``steps_in_place``: the game shows a step
    inside a turn on its public board (else privately); ``newest_here``: the game's newest
    public board is in the interaction's channel and shows the position the action was played
    on, so its buttons are live (only asked for a typed action and a private message's control:
    a turn that went private took them off at its first private step)."""

    arrival: Arrival
    result: Result
    steps_in_place: bool = False
    reply: Reply = Reply.OPEN
    newest_here: bool = False


def result_of(outcome: Outcome | None) -> Result:
    """What a committed action did (None: nothing, the board was asked for again)."""
    if outcome is None:
        return Result.AS_IT_IS
    if outcome.before.state is None:
        return Result.STARTED
    if outcome.after.status != "active":
        return Result.GAME_ENDED
    return Result.TURN_ENDED if outcome.ended_turn else Result.STEP


# shorthands for the plans below
FOLLOW_UP, CHANNEL, ACTOR, TURN = Route.FOLLOW_UP, Audience.CHANNEL, Audience.ACTOR, Show.TURN
KEPT, CLICKED, NEWEST = OldBoard.KEPT, OldBoard.CLICKED, OldBoard.NEWEST
NO_ANSWER = FirstResponse.NONE

#: a refused action: no board, the actor is told why (``handlers.reply_error``)
REFUSAL = BoardPlan(Route.NONE, ACTOR, Show.NOTHING, NO_ANSWER, KEPT, False, Route.NONE)
#: nothing to show (a computer's step inside its turn; an answer that cannot be given)
NO_BOARD = replace(REFUSAL, audience=Audience.NOBODY)
#: the board posted in the channel by the delivery, retried until it gets through
CHANNEL_POST = BoardPlan(Route.CHANNEL, CHANNEL, TURN, NO_ANSWER, KEPT, True, Route.CHANNEL)


def plan_board(facts: Facts) -> BoardPlan:
    """The one decision of where a board goes (see the module's docstring for the rules)."""
    arrival, result, reply = facts.arrival, facts.result, facts.reply
    if result is Result.REFUSED:
        return NO_BOARD if arrival in COMPUTERS else REFUSAL
    if result is Result.AS_IT_IS:
        if reply is Reply.CLOSED:
            return NO_BOARD
        answer = _first(reply, FirstResponse.THINKING_PRIVATE)
        return BoardPlan(FOLLOW_UP, ACTOR, Show.STEP, answer, KEPT, False, Route.NONE)
    if arrival in COMPUTERS:
        return NO_BOARD if result is Result.STEP else CHANNEL_POST
    in_place = result is Result.STEP and facts.steps_in_place
    public = result is not Result.STEP or facts.steps_in_place
    clicked_public = arrival in PUBLIC_CLICKS and result is not Result.STARTED
    if in_place and arrival is Arrival.TYPED and facts.newest_here:
        answer = _first(reply, FirstResponse.THINKING_PRIVATE)
        return BoardPlan(Route.EDIT_NEWEST, CHANNEL, TURN, answer, NEWEST, True, Route.CHANNEL)
    if reply is Reply.CLOSED:
        return replace(CHANNEL_POST, old_board=CLICKED if clicked_public else KEPT)
    if in_place and clicked_public:
        answer = _first(reply, FirstResponse.UPDATE_WITH_BOARD)
        return BoardPlan(Route.EDIT_CLICKED, CHANNEL, TURN, answer, CLICKED, True, Route.CHANNEL)
    from_private = arrival is Arrival.PRIVATE_CONTROLS
    # played away from the public board: that board loses its buttons while it is live
    newest_live = NEWEST if facts.newest_here else KEPT
    if from_private and result is Result.STEP:  # the turn goes on in the clicked message
        answer = _first(reply, FirstResponse.UPDATE_WITH_BOARD)
        return BoardPlan(
            Route.EDIT_CLICKED, ACTOR, Show.STEP, answer, newest_live, True, Route.CHANNEL
        )
    if clicked_public or from_private:
        answer = _first(reply, FirstResponse.STRIP_CLICKED)
    else:
        thinking = FirstResponse.THINKING_PUBLIC if public else FirstResponse.THINKING_PRIVATE
        answer = _first(reply, thinking)
    if from_private or arrival is Arrival.TYPED:
        old = newest_live  # the clicked private message loses its controls by the answer
    else:
        old = CLICKED if answer is FirstResponse.STRIP_CLICKED else KEPT
    if public:
        return BoardPlan(FOLLOW_UP, CHANNEL, TURN, answer, old, True, Route.CHANNEL)
    return BoardPlan(FOLLOW_UP, ACTOR, Show.STEP, answer, old, True, Route.CHANNEL)


def _first(reply: Reply, wanted: FirstResponse) -> FirstResponse:
    """The first response an interaction still needs: none once it has one, or cannot."""
    return wanted if reply is Reply.OPEN else NO_ANSWER
