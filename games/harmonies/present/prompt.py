"""The line that tells the seat to move what to do now, or the result once the game is over."""

from __future__ import annotations

from collections.abc import Sequence

from games.harmonies.engine.state import HarmoniesState, Phase, TurnStep
from games.harmonies.engine.turn import turn_step
from games.harmonies.present.game import ENGINE
from games.harmonies.words import colours_and, solo_result
from i18n import Translator


def prompt(s: HarmoniesState, names: Sequence[str], tr: Translator) -> str:
    """What the seat to move does now (on the first board, who was drawn to start), or the
    result. Words for any table, Discord's or the terminal's: when the menus leave moves out,
    the Discord message says how to type them (``bot.adapter.messages``)."""
    if s.phase == Phase.OVER:
        if s.seats == 1:
            total = ENGINE.scores(s)[0]
            return tr("harmonies.ui.prompt.solo_over", **solo_result(tr, total, ENGINE.suns(s)))
        winners = [tr.player(w, names) for w in ENGINE.winners(s)]
        return tr("harmonies.ui.prompt.over", players=tr.join(winners))
    if s.phase == Phase.CHANCE:
        return tr("harmonies.ui.prompt.chance")
    player = tr.player(s.active, names)
    legal = [ENGINE.encode_action(a) for a in ENGINE.legal_actions(s)]
    cards = any(c.startswith(("card:", "discard:")) for c in legal)
    cubes = any(c.startswith("cube:") for c in legal)
    more = "_more" if cards or cubes else ""
    params: dict[str, object] = {}
    step = turn_step(s)
    if step is TurnStep.KEEP:
        key = "harmonies.ui.prompt.keep"
    elif step is TurnStep.TAKE:
        key = f"harmonies.ui.prompt.take{more}"
    elif step is TurnStep.PLACE:
        key = f"harmonies.ui.prompt.place{more}"
        params = {"count": len(s.hand), "tokens": colours_and(tr, s.hand)}
    else:
        key = {
            (True, True): "harmonies.ui.prompt.finish",
            (False, True): "harmonies.ui.prompt.finish_no_card",
            (True, False): "harmonies.ui.prompt.finish_card",
            (False, False): "harmonies.ui.prompt.finish_end",
        }[(cards, cubes)]
    text = tr(key, player=player, **params)
    if s.seats > 1 and ENGINE.turn(s) == 0 and not s.steps:  # the game's first board
        text = "\n".join([tr("harmonies.ui.prompt.starts", player=player), text])
    return text
