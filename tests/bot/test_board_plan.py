"""Where a board goes, for every way an action arrives and everything it can end in: the one
decision (``board_plan.plan_board``), against plans written out by hand."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from bot.adapter.board_plan import (
    Arrival,
    Audience,
    BoardPlan,
    Facts,
    FirstResponse,
    OldBoard,
    Reply,
    Result,
    Route,
    Show,
    plan_board,
)

A, R = Arrival, Result
KEPT = OldBoard.KEPT
OPEN, GIVEN, CLOSED = Reply.OPEN, Reply.GIVEN, Reply.CLOSED
IN_PLACE, PRIVATE = True, False  # how the game shows a step inside a turn

# The plans, written out: route, audience, what is shown, first response, the old board,
# recorded as seen, the route when Discord refuses the board after the answer.
EDIT_CLICKED = BoardPlan(
    Route.EDIT_CLICKED,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.UPDATE_WITH_BOARD,
    OldBoard.CLICKED,
    True,
    Route.CHANNEL,
)
PUBLIC_AFTER_CLICK = BoardPlan(
    Route.FOLLOW_UP,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.STRIP_CLICKED,
    OldBoard.CLICKED,
    True,
    Route.CHANNEL,
)
PRIVATE_AFTER_CLICK = BoardPlan(
    Route.FOLLOW_UP,
    Audience.ACTOR,
    Show.STEP,
    FirstResponse.STRIP_CLICKED,
    OldBoard.CLICKED,
    True,
    Route.CHANNEL,
)
PUBLIC_AFTER_PRIVATE_BOARD_GONE = BoardPlan(
    Route.FOLLOW_UP,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.STRIP_CLICKED,
    OldBoard.KEPT,
    True,
    Route.CHANNEL,
)
PRIVATE_STEP = BoardPlan(
    Route.EDIT_CLICKED,
    Audience.ACTOR,
    Show.STEP,
    FirstResponse.UPDATE_WITH_BOARD,
    OldBoard.KEPT,
    True,
    Route.CHANNEL,
)
PUBLIC_AFTER_PRIVATE = BoardPlan(
    Route.FOLLOW_UP,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.STRIP_CLICKED,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
PRIVATE_STEP_PUBLIC_OFF = BoardPlan(
    Route.EDIT_CLICKED,
    Audience.ACTOR,
    Show.STEP,
    FirstResponse.UPDATE_WITH_BOARD,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
PUBLIC_AFTER_TYPED = BoardPlan(
    Route.FOLLOW_UP,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.THINKING_PUBLIC,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
PRIVATE_AFTER_TYPED = BoardPlan(
    Route.FOLLOW_UP,
    Audience.ACTOR,
    Show.STEP,
    FirstResponse.THINKING_PRIVATE,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
EDIT_NEWEST = BoardPlan(
    Route.EDIT_NEWEST,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.THINKING_PRIVATE,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
EDIT_NEWEST_UNANSWERED = BoardPlan(
    Route.EDIT_NEWEST,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.NONE,
    OldBoard.NEWEST,
    True,
    Route.CHANNEL,
)
FIRST_BOARD = BoardPlan(
    Route.FOLLOW_UP,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.NONE,
    OldBoard.KEPT,
    True,
    Route.CHANNEL,
)
CHANNEL = BoardPlan(
    Route.CHANNEL,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.NONE,
    OldBoard.KEPT,
    True,
    Route.CHANNEL,
)
CHANNEL_UNBUTTON_CLICKED = BoardPlan(
    Route.CHANNEL,
    Audience.CHANNEL,
    Show.TURN,
    FirstResponse.NONE,
    OldBoard.CLICKED,
    True,
    Route.CHANNEL,
)
PRIVATE_COPY = BoardPlan(
    Route.FOLLOW_UP,
    Audience.ACTOR,
    Show.STEP,
    FirstResponse.THINKING_PRIVATE,
    OldBoard.KEPT,
    False,
    Route.NONE,
)
REFUSAL = BoardPlan(
    Route.NONE, Audience.ACTOR, Show.NOTHING, FirstResponse.NONE, OldBoard.KEPT, False, Route.NONE
)
NO_BOARD = BoardPlan(
    Route.NONE, Audience.NOBODY, Show.NOTHING, FirstResponse.NONE, OldBoard.KEPT, False, Route.NONE
)

# (arrival, result, steps, reply, newest board here shows the position played on) -> plan.
# ``CLOSED`` is "Discord refused the answer": the first response was refused (the plan is
# asked again with it), or the interaction came too late to be answered at all.
CASES: list[tuple[Arrival, Result, bool, Reply, bool, BoardPlan]] = [
    # a button of the public board
    (A.BUTTON, R.STEP, IN_PLACE, OPEN, False, EDIT_CLICKED),
    (A.BUTTON, R.STEP, PRIVATE, OPEN, False, PRIVATE_AFTER_CLICK),
    (A.BUTTON, R.TURN_ENDED, IN_PLACE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.BUTTON, R.TURN_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.BUTTON, R.GAME_ENDED, IN_PLACE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.BUTTON, R.GAME_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.BUTTON, R.REFUSED, IN_PLACE, OPEN, False, REFUSAL),
    (A.BUTTON, R.STEP, IN_PLACE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.BUTTON, R.STEP, PRIVATE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.BUTTON, R.TURN_ENDED, IN_PLACE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.BUTTON, R.GAME_ENDED, PRIVATE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    # the lobby's Start: its answer replaced the lobby message already
    (A.BUTTON, R.STARTED, IN_PLACE, GIVEN, False, FIRST_BOARD),
    (A.BUTTON, R.STARTED, PRIVATE, GIVEN, False, FIRST_BOARD),
    (A.BUTTON, R.STARTED, IN_PLACE, CLOSED, False, CHANNEL),
    # a select of the public board
    (A.SELECT, R.STEP, IN_PLACE, OPEN, False, EDIT_CLICKED),
    (A.SELECT, R.STEP, PRIVATE, OPEN, False, PRIVATE_AFTER_CLICK),
    (A.SELECT, R.TURN_ENDED, IN_PLACE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.SELECT, R.TURN_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.SELECT, R.GAME_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_CLICK),
    (A.SELECT, R.REFUSED, PRIVATE, OPEN, False, REFUSAL),
    (A.SELECT, R.STEP, IN_PLACE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.SELECT, R.STEP, PRIVATE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.SELECT, R.TURN_ENDED, PRIVATE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    (A.SELECT, R.GAME_ENDED, IN_PLACE, CLOSED, False, CHANNEL_UNBUTTON_CLICKED),
    # the controls of a private message (/game board's copy, a private step's answer): a step
    # edits that message, one private message for the turn, and the public board loses its
    # buttons; the turn's end is public, the clicked message loses its buttons by the answer
    # (a private message cannot be reached through the channel)
    # ("newest here": the public board shows the position played on, its buttons still live)
    (A.PRIVATE_CONTROLS, R.STEP, IN_PLACE, OPEN, True, PRIVATE_STEP_PUBLIC_OFF),
    (A.PRIVATE_CONTROLS, R.STEP, PRIVATE, OPEN, True, PRIVATE_STEP_PUBLIC_OFF),
    (A.PRIVATE_CONTROLS, R.STEP, PRIVATE, OPEN, False, PRIVATE_STEP),
    (A.PRIVATE_CONTROLS, R.STEP, IN_PLACE, OPEN, False, PRIVATE_STEP),
    (A.PRIVATE_CONTROLS, R.TURN_ENDED, IN_PLACE, OPEN, True, PUBLIC_AFTER_PRIVATE),
    (A.PRIVATE_CONTROLS, R.TURN_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_PRIVATE_BOARD_GONE),
    (A.PRIVATE_CONTROLS, R.GAME_ENDED, PRIVATE, OPEN, True, PUBLIC_AFTER_PRIVATE),
    (A.PRIVATE_CONTROLS, R.GAME_ENDED, PRIVATE, OPEN, False, PUBLIC_AFTER_PRIVATE_BOARD_GONE),
    (A.PRIVATE_CONTROLS, R.REFUSED, PRIVATE, OPEN, False, REFUSAL),
    (A.PRIVATE_CONTROLS, R.STEP, IN_PLACE, CLOSED, False, CHANNEL),
    (A.PRIVATE_CONTROLS, R.STEP, PRIVATE, CLOSED, False, CHANNEL),
    (A.PRIVATE_CONTROLS, R.TURN_ENDED, PRIVATE, CLOSED, False, CHANNEL),
    (A.PRIVATE_CONTROLS, R.GAME_ENDED, IN_PLACE, CLOSED, False, CHANNEL),
    # /game move
    (A.TYPED, R.STEP, IN_PLACE, OPEN, True, EDIT_NEWEST),
    (A.TYPED, R.STEP, IN_PLACE, OPEN, False, replace(PUBLIC_AFTER_TYPED, old_board=KEPT)),
    (A.TYPED, R.STEP, PRIVATE, OPEN, True, PRIVATE_AFTER_TYPED),
    (A.TYPED, R.STEP, PRIVATE, OPEN, False, replace(PRIVATE_AFTER_TYPED, old_board=KEPT)),
    (A.TYPED, R.TURN_ENDED, IN_PLACE, OPEN, True, PUBLIC_AFTER_TYPED),
    (A.TYPED, R.TURN_ENDED, PRIVATE, OPEN, False, replace(PUBLIC_AFTER_TYPED, old_board=KEPT)),
    (A.TYPED, R.GAME_ENDED, IN_PLACE, OPEN, True, PUBLIC_AFTER_TYPED),
    (A.TYPED, R.GAME_ENDED, PRIVATE, OPEN, False, replace(PUBLIC_AFTER_TYPED, old_board=KEPT)),
    (A.TYPED, R.REFUSED, IN_PLACE, OPEN, True, REFUSAL),
    (A.TYPED, R.STEP, IN_PLACE, CLOSED, True, EDIT_NEWEST_UNANSWERED),
    (A.TYPED, R.STEP, IN_PLACE, CLOSED, False, CHANNEL),
    (A.TYPED, R.STEP, PRIVATE, CLOSED, True, CHANNEL),
    (A.TYPED, R.TURN_ENDED, IN_PLACE, CLOSED, True, CHANNEL),
    (A.TYPED, R.GAME_ENDED, PRIVATE, CLOSED, False, CHANNEL),
    # /game board by the player to move: the board as it is, privately, not counted as seen
    (A.ASKED, R.AS_IT_IS, IN_PLACE, OPEN, False, PRIVATE_COPY),
    (A.ASKED, R.AS_IT_IS, PRIVATE, OPEN, True, PRIVATE_COPY),
    (A.ASKED, R.AS_IT_IS, PRIVATE, CLOSED, False, NO_BOARD),
    (A.ASKED, R.REFUSED, PRIVATE, OPEN, False, REFUSAL),
    # a computer's move: no interaction; the delivery posts its turn once it ends
    *[
        (arrival, result, steps, CLOSED, False, plan)
        for arrival in (A.BOT_TURN, A.STAND_IN, A.TIMER)
        for steps in (IN_PLACE, PRIVATE)
        for result, plan in (
            (R.STEP, NO_BOARD),
            (R.TURN_ENDED, CHANNEL),
            (R.GAME_ENDED, CHANNEL),
            (R.REFUSED, NO_BOARD),
        )
    ],
]


def case_id(case: tuple[Arrival, Result, bool, Reply, bool, BoardPlan]) -> str:
    arrival, result, steps, reply, newest, _ = case
    words = [arrival.value, result.value, "in place" if steps else "private", reply.value]
    return "-".join([*words, "newest here"] if newest else words)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_board_goes_where_the_plan_says(
    case: tuple[Arrival, Result, bool, Reply, bool, BoardPlan],
) -> None:
    arrival, result, steps, reply, newest, expected = case
    assert plan_board(Facts(arrival, result, steps, reply, newest)) == expected


def test_every_arrival_meets_every_result_in_the_table() -> None:
    covered = {(arrival, result) for arrival, result, *_ in CASES}
    outcomes = {R.STEP, R.TURN_ENDED, R.GAME_ENDED, R.REFUSED}
    wanted = {(a, r) for a in Arrival if a is not A.ASKED for r in outcomes}
    assert wanted <= covered
    # and Discord refusing the answer, for each way an interaction arrives
    closed = {arrival for arrival, _, _, reply, *_ in CASES if reply is CLOSED}
    assert set(Arrival) <= closed


ALL_FACTS = [
    Facts(arrival, result, steps, reply, newest)
    for arrival, result, steps, reply, newest in itertools.product(
        Arrival, Result, (True, False), Reply, (True, False)
    )
]


@pytest.mark.parametrize("facts", ALL_FACTS)
def test_what_no_plan_ever_does(facts: Facts) -> None:
    plan = plan_board(facts)
    if facts.reply is not Reply.OPEN:  # no second first response, none to a closed interaction
        assert plan.first_response is FirstResponse.NONE
    if plan.audience is Audience.ACTOR:  # a private board never tells the channel's turn
        assert plan.show is not Show.TURN
    if plan.route is Route.CHANNEL:  # the delivery's post is public and counts as seen
        assert (plan.audience, plan.show, plan.record) == (Audience.CHANNEL, Show.TURN, True)
    if plan.route is Route.NONE:
        assert plan.show is Show.NOTHING and plan.old_board is OldBoard.KEPT
    if facts.arrival is Arrival.PRIVATE_CONTROLS and facts.reply is Reply.OPEN:
        # a turn played privately: one private message edited step by step, and no public
        # board keeps live buttons beside it
        if facts.result is Result.STEP:
            assert plan.route is Route.EDIT_CLICKED and plan.audience is Audience.ACTOR
        if plan.route is not Route.NONE and facts.result is not Result.AS_IT_IS:
            live = facts.newest_here
            assert plan.old_board is (OldBoard.NEWEST if live else OldBoard.KEPT)
    if plan.audience is Audience.ACTOR and plan.record:  # a private step is never a new
        # message where the clicked private message can carry it
        assert not (facts.arrival is Arrival.PRIVATE_CONTROLS and plan.route is Route.FOLLOW_UP)
    if facts.result is Result.AS_IT_IS:  # a copy never stands in for the channel's board
        assert not plan.record and plan.audience is not Audience.CHANNEL
