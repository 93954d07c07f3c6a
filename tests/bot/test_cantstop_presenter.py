"""Can't Stop words and controls: exactly the legal actions, and the announcements."""

from __future__ import annotations

from dataclasses import replace

from bot.present import get_presenter
from bot.present.base import Button
from bot.service.models import LoggedMove
from engines.registry import get_engine
from games.cantstop.engine import actions as act
from games.cantstop.engine.state import NO_OWNER, Phase
from tests.bot.controls import check_limits, reachable

ENGINE = get_engine("cantstop")
PRESENTER = get_presenter("cantstop")
NAMES = ["Ann", "Ben"]


def test_controls_are_exactly_the_legal_actions_with_readable_labels() -> None:
    s = replace(
        ENGINE.initial_state(2, {}), phase=Phase.MOVE, dice=(2, 4, 3, 5), runners=((6, 1), (10, 1))
    )
    legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]
    rows = PRESENTER.controls(s, legal, "en")
    assert sorted(reachable(rows)) == sorted(legal)
    labels = {c.action: c.label for row in rows.rows for c in row}
    assert (
        labels["move:6+8"] == "6 + 8" and labels["move:5"] == "5" and labels["move:7+7"] == "7 + 7"
    )
    check_limits(rows)


def test_roll_again_and_stop_after_a_move() -> None:
    s = replace(ENGINE.initial_state(2, {}), phase=Phase.DECIDE, runners=((7, 1),))
    rows = PRESENTER.controls(s, ["roll", "stop"], "en")
    buttons = [c for row in rows.rows for c in row]
    assert all(isinstance(b, Button) for b in buttons)
    assert [b.label for b in buttons] == ["Roll again · 0% bust", "Stop"]  # two runners free


def test_roll_again_shows_the_bust_chance_in_the_locale_unless_odds_is_off() -> None:
    worst = replace(
        ENGINE.initial_state(2, {}), phase=Phase.DECIDE, runners=((2, 1), (3, 1), (12, 1))
    )
    labels = {
        locale: PRESENTER.controls(worst, ["roll", "stop"], locale).rows[0][0].label
        for locale in ("en", "de", "fr", "ja")
    }
    assert labels == {  # 728 of the 1,296 rolls bust
        "en": "Roll again · 56% bust",
        "de": "Weiterwürfeln · 56\u00a0% Aus",
        "fr": "Relancer · 56\u00a0% d’échec",
        "ja": "もう一度振る · バースト 56%",
    }
    quiet = replace(worst, options=replace(worst.options, odds=False))
    assert PRESENTER.controls(quiet, ["roll"], "en").rows[0][0].label == "Roll again"
    first = replace(worst, phase=Phase.ROLL, runners=())
    assert PRESENTER.controls(first, ["roll"], "en").rows[0][0].label == "Roll"


def test_bust_is_announced() -> None:
    s = replace(ENGINE.initial_state(2, {}), phase=Phase.DICE, runners=((2, 1), (3, 1), (12, 1)))
    after = ENGINE.apply(s, act.dice(4, 4, 5, 6))
    lines = PRESENTER.events(s, [LoggedMove(0, None, "dice:4-4-5-6")], after, NAMES, "en")
    assert lines[0] == "Ann rolled 4 · 4 · 5 · 6."
    assert "busts" in lines[1]


def test_claim_and_win_are_announced() -> None:
    owners = [NO_OWNER] * 11
    owners[0] = owners[1] = 0
    s = replace(
        ENGINE.initial_state(2, {}), claimed=tuple(owners), phase=Phase.DECIDE, runners=((4, 7),)
    )
    after = ENGINE.apply(s, act.STOP)
    lines = PRESENTER.events(s, [LoggedMove(5, 0, "stop")], after, NAMES, "en")
    assert "Ann stops" in lines[0]
    assert "claims column 4" in lines[1]
    assert "wins with columns 2, 3 and 4" in lines[2]
    assert PRESENTER.prompt(after, NAMES, "en") == "Game over: Ann wins."


def test_an_automatic_stop_is_announced_with_the_move() -> None:
    owners = [NO_OWNER] * 11
    owners[0] = owners[1] = 0
    s = replace(
        ENGINE.initial_state(2, {"auto_stop_on_win": True}),
        claimed=tuple(owners),
        phase=Phase.MOVE,
        runners=((4, 6),),
        dice=(2, 2, 1, 1),
    )
    after = ENGINE.apply(s, act.move(4))
    lines = PRESENTER.events(s, [LoggedMove(5, 0, "move:4")], after, NAMES, "en")
    assert lines[:2] == ["Ann moves on 4.", "Ann stops and saves their progress."]
    assert "wins with columns 2, 3 and 4" in lines[-1]
    running = replace(s, claimed=(NO_OWNER,) * 11)  # the same step wins nothing yet
    after = ENGINE.apply(running, act.move(2, 4))
    lines = PRESENTER.events(running, [LoggedMove(5, 0, "move:2+4")], after, NAMES, "en")
    assert lines == ["Ann moves on 2 + 4."]


def test_a_story_told_one_step_further_is_the_story_replayed() -> None:
    """Each move's message tells the turn so far by taking the story told at the last move one
    step further: along a whole game it says what replaying the turn from its start says."""
    from engines.base import CHANCE, TERMINAL
    from engines.rng import Rng
    from games.cantstop import present

    CS = get_engine("cantstop")

    state = CS.initial_state(2, {})
    rng = Rng.for_step(11, 0)
    start, actions, told = state, (), 0
    for _ in range(3000):
        if CS.to_move(state) == CHANCE:
            action = CS.sample_chance(state, rng)
        else:
            action = rng.choice(CS.legal_actions(state))
        turn = CS.turn(state)
        state = CS.apply(state, action)
        actions = (*actions, CS.encode_action(action))
        kept, fresh = present._told(start, actions), present._Story(start, actions)
        told_parts = (kept.rolls, kept.bust, kept.stopped, kept.columns, kept.end, kept.claimed)
        replayed = (fresh.rolls, fresh.bust, fresh.stopped, fresh.columns, fresh.end, fresh.claimed)
        assert told_parts == replayed
        told += 1
        if CS.turn(state) > turn:
            start, actions = state, ()
        if CS.to_move(state) == TERMINAL:
            break
    assert told > 50
