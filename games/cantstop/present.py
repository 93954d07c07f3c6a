"""Can't Stop in words and buttons."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from copy import copy
from typing import Any

import games.cantstop.words as words
from bot.present.base import (
    ACCOUNT_ITEM,
    STEPS_IN_PLACE,
    Button,
    ControlRows,
    PlayedTurn,
    chunk_buttons,
    clip,
)
from bot.service.models import LoggedMove
from engines.registry import get_engine
from games.cantstop.engine.odds import bust_chance
from games.cantstop.engine.state import COLUMNS, CantStopState, Phase
from i18n import Translator, translator

ENGINE = get_engine("cantstop")

_PROMPTS = {
    Phase.ROLL: "cantstop.prompt.roll",
    Phase.MOVE: "cantstop.prompt.move",
    Phase.DECIDE: "cantstop.prompt.decide",
}


def move_label(code: str, tr: Translator) -> str:
    """``move:6+8`` → ``6 + 8``; ``move:5`` → ``5``."""
    columns = code.split(":", 1)[1].split("+")
    if len(columns) == 2:
        return tr("cantstop.move.two", first=columns[0], second=columns[1])
    return tr("cantstop.move.one", column=columns[0])


def dice_text(dice: Sequence[int]) -> str:
    """``4 · 4 · 5 · 6``: a roll as chat messages and the log show it."""
    return " · ".join(map(str, dice))


def _claims(
    tr: Translator, before: CantStopState, after: CantStopState, player: str
) -> list[str]:
    """The line announcing the columns ``after`` claims that ``before`` did not, if any."""
    new = [c for c in COLUMNS if after.owner(c) != before.owner(c)]
    if not new:
        return []
    columns = words.columns(tr, new)
    return [tr("cantstop.event.claimed", count=len(new), player=player, columns=columns)]


#: turns whose story is kept (a few per table that is playing)
STORIES_KEPT = 512
#: an account shows at most this many rolls: the first, "… n rolls", and the last ones
MAX_ROLLS = 5
LAST_ROLLS = 3


class _Story:
    """One turn replayed: its rolls (dice and the move taken), how it ended, the columns it
    claimed, and the mover's places in the columns it ended with."""

    def __init__(self, start: CantStopState, actions: Sequence[str] = ()) -> None:
        self.mover = start.active
        self.rolls: list[tuple[tuple[int, ...], str | None]] = []
        self.bust = False
        self.stopped = False
        self.columns: list[int] = []
        self.start = self.end = start
        for action in actions:
            self._step(action)

    def _step(self, action: str) -> None:
        state = self.end
        nxt = ENGINE.apply(state, ENGINE.decode_action(action))
        kind = action.split(":", 1)[0]
        if kind == "dice":
            self.rolls.append((nxt.dice, None))
            self.bust = self.bust or (nxt.bust and ENGINE.turn(nxt) > ENGINE.turn(state))
        elif kind == "move" and self.rolls:
            self.rolls[-1] = (self.rolls[-1][0], action)
        if nxt.runners:
            self.columns = [c for c, _ in nxt.runners]
        if ENGINE.turn(nxt) > ENGINE.turn(state) and not self.bust:
            self.stopped = True
        self.end = nxt

    def then(self, action: str) -> _Story:
        """This story with one more action (this one unchanged)."""
        story = copy(self)
        story.rolls = list(self.rolls)
        story._step(action)
        return story

    @property
    def claimed(self) -> list[int]:
        return [c for c in COLUMNS if self.end.owner(c) != self.start.owner(c)]

    def places(self, tr: Translator) -> str:
        items = [
            tr("cantstop.account.place", column=c, space=self.end.saved[self.mover][c - 2])
            for c in self.columns
        ]
        return tr.join(items)


#: stories told lately, by (the turn's first state, its actions so far)
_TOLD: OrderedDict[tuple[CantStopState, tuple[str, ...]], _Story] = OrderedDict()


def _told(start: CantStopState, actions: tuple[str, ...]) -> _Story:
    """A turn's story, replayed once: a turn is told in the message after each of its moves
    and again in the next ones' "since your last turn"; the story of a turn one action longer
    than one already told is that one's, one step further."""
    key = (start, actions)
    story = _TOLD.get(key)
    if story is not None:
        _TOLD.move_to_end(key)
        return story
    shorter = _TOLD.get((start, actions[:-1])) if actions else None
    story = shorter.then(actions[-1]) if shorter is not None else _Story(start, actions)
    _TOLD[key] = story
    while len(_TOLD) > STORIES_KEPT:
        _TOLD.popitem(last=False)
    return story


def _story(start: CantStopState, moves: Sequence[LoggedMove]) -> _Story:
    return _told(start, tuple(move.action for move in moves))


def _roll_text(tr: Translator, dice: tuple[int, ...], move: str | None) -> str:
    shown = "-".join(map(str, dice))
    if move is None:
        return tr("cantstop.account.roll", dice=shown)
    return tr("cantstop.account.roll_move", dice=shown, move=move.split(":", 1)[1])


def _steps(tr: Translator, story: _Story) -> list[str]:
    """A turn's rolls (a long turn: the first, "… n more rolls" and the last ones), then how
    it ended: a bust or where the mover stopped."""
    parts = [_roll_text(tr, dice, move) for dice, move in story.rolls]
    if len(parts) > MAX_ROLLS:
        hidden = len(parts) - 1 - LAST_ROLLS
        parts = [parts[0], tr("cantstop.account.more", count=hidden), *parts[-LAST_ROLLS:]]
    if story.bust:
        parts.append(tr("cantstop.account.bust"))
    elif story.stopped:
        parts.append(tr("cantstop.account.stopped", places=story.places(tr)))
    return parts


def _roll_label(state: CantStopState, tr: Translator) -> str:
    """Roll, or Roll again with the exact chance that the roll busts (unless odds is off)."""
    if state.phase != Phase.DECIDE:
        return tr("cantstop.button.roll")
    if not state.options.odds:
        return tr("cantstop.button.roll_again")
    return tr("cantstop.button.roll_again_odds", percent=tr.percent(bust_chance(state)))


class CantStopPresenter:
    steps = STEPS_IN_PLACE

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        tr = translator(locale)
        buttons = []
        for code in legal:
            if code == "roll":
                buttons.append(Button(code, _roll_label(state, tr), "primary", "🎲"))
            elif code == "stop":
                buttons.append(Button(code, tr("cantstop.button.stop"), "success", "✋"))
            else:
                buttons.append(Button(code, move_label(code, tr), "secondary"))
        return ControlRows(chunk_buttons(buttons))

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        tr = translator(locale)
        lines: list[str] = []
        state = before
        for move in moves:
            nxt = ENGINE.apply(state, ENGINE.decode_action(move.action))
            player = names[state.active]
            kind = move.action.split(":", 1)[0]
            if kind == "dice":
                lines.append(tr("cantstop.event.rolled", player=player, dice=dice_text(nxt.dice)))
                if nxt.bust:
                    lines.append(tr("cantstop.event.bust", player=player))
            elif kind == "move":
                label = move_label(move.action, tr)
                lines.append(tr("cantstop.event.moved", player=player, move=label))
                if ENGINE.turn(nxt) > ENGINE.turn(state):  # auto_stop_on_win stopped for them
                    lines.append(tr("cantstop.event.stopped", player=player))
            elif kind == "stop":
                lines.append(tr("cantstop.event.stopped", player=player))
            lines += _claims(tr, state, nxt, player)
            if nxt.phase == Phase.OVER:
                won = words.columns(tr, nxt.claimed_by(nxt.winner))
                lines.append(tr("cantstop.event.won", player=names[nxt.winner], columns=won))
            state = nxt
        return lines

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        tr = translator(locale)
        if state.phase == Phase.OVER:
            return words.game_over(tr, names[state.winner])
        return tr(_PROMPTS[state.phase], player=names[state.active])

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        tr = translator(locale)
        kind, _, rest = move.action.partition(":")
        if kind == "dice":
            return tr("cantstop.log.dice", dice=dice_text([int(d) for d in rest.split("-")]))
        if kind == "move":
            return tr("cantstop.log.move", move=move_label(move.action, tr))
        return tr(f"cantstop.log.{kind}")

    def rules_summary(self, locale: str | None) -> str:
        return translator(locale)("cantstop.rules")

    def turn_account(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        """``alice: rolled 3-4-4-6 → 7+10 · rolled … → stopped: 7 at 9, 10 at 4`` and, below,
        the columns claimed and the win."""
        tr = translator(locale)
        story = _story(start, moves)
        parts = _steps(tr, story)
        player = names[story.mover]
        steps = tr("cantstop.account.sep").join(parts)
        lines = [tr("cantstop.account.turn", player=player, steps=steps)]
        lines += _claims(tr, story.start, story.end, player)
        if story.end.phase == Phase.OVER:
            won = words.columns(tr, story.end.claimed_by(story.end.winner))
            lines.append(tr("cantstop.event.won", player=names[story.end.winner], columns=won))
        return lines

    def turn_summary(
        self,
        start: Any,
        moves: Sequence[LoggedMove],
        end: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> str:
        """``/game log``'s line: ``bob: rolled 1-1-2-2 → 2+4 · rolled 6-6-6-6 · 💥 bust``, the
        columns a turn claimed after how it ended (the dice of every roll told with it)."""
        tr = translator(locale)
        story = _story(start, moves)
        parts = _steps(tr, story)
        if story.claimed:
            columns = words.columns(tr, story.claimed)
            parts.append(tr("cantstop.log.claimed", count=len(story.claimed), columns=columns))
        steps = tr("cantstop.account.sep").join(parts)
        return tr("cantstop.log.turn", player=names[story.mover], steps=steps)

    def recap(
        self, turns: Sequence[PlayedTurn], names: Sequence[str], locale: str | None
    ) -> list[str]:
        tr = translator(locale)
        items = []
        for turn in turns:
            story = _story(turn.start, turn.moves)
            player = names[story.mover]
            if story.claimed:
                columns = words.columns(tr, story.claimed)
                text = tr(
                    "cantstop.recap.claimed",
                    count=len(story.claimed),
                    player=player,
                    columns=columns,
                )
            elif story.bust:
                text = tr("cantstop.recap.bust", count=len(story.rolls), player=player)
            else:
                text = tr("cantstop.recap.stopped", player=player, places=story.places(tr))
            items.append(clip(text, ACCOUNT_ITEM))
        return items


PRESENTER = CantStopPresenter()
