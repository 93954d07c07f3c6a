"""``/game log`` as a game record: one numbered line per turn, then the final scores.

A line tells one whole turn, chance steps within it (the dice of a roll, the tokens a refill
brought), in the game's own words: its presenter's ``turn_summary`` when it has one
(``PresenterExtras``), else the default below, so a plugin game gets a record without writing
one. The record is read from the stored move log (``bot.service.turns``); nothing is stored
for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present import get_presenter
from bot.present.base import PlayedTurn, final_scores
from engines.registry import get_engine
from i18n import join_list, t

#: a record line is clipped to this many characters (a turn's summary is far shorter)
LINE_CHARS = 400


def summary(game: str, turn: PlayedTurn, names: Sequence[str], locale: str | None) -> str:
    """One turn in words: the game's ``turn_summary``, or the default."""
    presenter = get_presenter(game)
    own = getattr(presenter, "turn_summary", None)
    if own is not None:
        text: str = own(turn.start, turn.moves, turn.end, names, locale)
        return text
    return default_summary(game, presenter, turn, names, locale)


def default_summary(
    game: str, presenter: Any, turn: PlayedTurn, names: Sequence[str], locale: str | None
) -> str:
    """"alice: rolled the die · the die showed 4 · held (score 12)": every move of the turn,
    chance included, in ``describe_move``'s words, and the player's score after it."""
    engine = get_engine(game)
    state, steps = turn.start, []
    for move in turn.moves:
        steps.append(presenter.describe_move(state, move, locale))
        state = engine.apply(state, engine.decode_action(move.action))
    seat = turn.mover if turn.mover is not None else 0
    return t(
        locale,
        "game.log.default_turn",
        player=names[seat],
        steps=t(locale, "game.log.step_sep").join(steps),
        score=engine.scores(turn.end)[seat],
    )


def record_lines(
    game: str,
    turns: Sequence[PlayedTurn],
    names: Sequence[str],
    locale: str | None,
    *,
    over: bool,
) -> list[str]:
    """The numbered turns: every turn that ended (and, once the game is over, the one it
    stopped in). A turn still being played is left out: its steps may be private until it
    ends, and the board shows it."""
    lines = []
    for turn in turns:
        if turn.mover is None or not (turn.ended or over):
            continue
        said = t(
            locale,
            "game.log.turn",
            number=len(lines) + 1,
            summary=summary(game, turn, names, locale),
        )
        lines.append(said if len(said) <= LINE_CHARS else said[: LINE_CHARS - 1] + "…")
    return lines


def final_line(
    locale: str | None,
    game: str,
    names: Sequence[str],
    scores: Sequence[int],
    winners: Sequence[int],
) -> str:
    """The record's last line: the final scores and who won (none: the game was abandoned)."""
    listed = final_scores(locale, game, names, scores)
    if not winners:
        return t(locale, "game.log.final_abandoned", scores=listed)
    won = join_list(locale, [names[w] for w in winners])
    return t(locale, "game.log.final", scores=listed, winners=won, count=len(winners))
