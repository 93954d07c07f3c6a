"""Kokeshi events in sentences: one seat's stretch of a turn, step by step.

The engine records every step of a turn in ``state.events`` (see ``games.kokeshi.engine.state``);
each becomes a line, flagged when it may be dropped from a long cascade.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.kokeshi.engine.data import is_ach
from games.kokeshi.engine.state import NONE, KokeshiState
from games.kokeshi.present.game import DATA
from games.kokeshi.present.words import column_name, kokeshi_name, tile_short, tile_text, where
from games.kokeshi.words import animal_word, effect_text
from i18n import Translator

Event = tuple[Any, ...]
#: a line, and whether it may be dropped when a long cascade is summarised
Line = tuple[str, bool]


def narrate_turn(
    tr: Translator, player: str, events: Sequence[Event], from_start: bool, state: KokeshiState
) -> list[Line]:
    """Lines for one seat's events (``from_start``: they begin with the seat's own move)."""
    lines: list[Line] = []

    def say(key: str, minor: bool = False, **params: object) -> None:
        lines.append((tr(key, **params), minor))

    first_move = from_start
    i = 0
    n = len(events)
    while i < n:
        ev = events[i]
        kind = ev[0]
        if kind == "move":
            _, column, start, target = ev
            moved = {
                "player": player,
                "kokeshi": kokeshi_name(tr, column),
                "start": where(tr, start),
            }
            if i + 1 < n and events[i + 1][0] == "top":
                key = "kokeshi.ui.event.move_top" if first_move else "kokeshi.ui.event.cascade_top"
                say(key, **moved, count=events[i + 1][2], points=events[i + 1][2])
                i += 1
            else:
                key = "kokeshi.ui.event.move" if first_move else "kokeshi.ui.event.cascade_move"
                say(key, **moved, target=where(tr, target))
            first_move = False
        elif kind == "top":  # a top without its move (only when the move was in an earlier step)
            say(
                "kokeshi.ui.event.cascade_top",
                player=player,
                kokeshi=kokeshi_name(tr, ev[1]),
                start=where(tr, DATA.spaces),
                points=ev[2],
            )
        elif kind == "fire":
            say("kokeshi.ui.event.fire", tile=tile_text(tr, ev[3]))
        elif kind == "side":
            effect = effect_text(tr, DATA.tiles[ev[1]].effects[ev[2]])
            say("kokeshi.ui.event.side", player=player, effect=effect)
        elif kind == "extra":
            _, column, space = ev
            say("kokeshi.ui.event.extra", True, space=space, kokeshi=kokeshi_name(tr, column))
            if (
                i + 1 < n
                and events[i + 1][0] == "move"
                and not (i + 2 < n and events[i + 2][0] == "top")
            ):
                i += 1  # the extra step itself: "one more step up" says it
        elif kind == "empty":
            _, column, space = ev
            kokeshi = kokeshi_name(tr, column)
            say("kokeshi.ui.event.empty", space=space, kokeshi=kokeshi, player=player)
        elif kind == "skip":
            _, tile, index = ev
            if tile == NONE:
                say("kokeshi.ui.event.skip_gain", True, column=column_name(tr, index))
            elif index < 0:
                say("kokeshi.ui.event.skip_side", True, tile=tile_text(tr, tile))
            else:
                effect = effect_text(tr, DATA.tiles[tile].effects[index])
                say("kokeshi.ui.event.skip", True, effect=effect)
        elif kind == "animal":
            _, animal, position = ev
            key = (
                "kokeshi.ui.event.animal_midline"
                if position == DATA.midline
                else "kokeshi.ui.event.animal"
            )
            say(key, player=player, animal=animal_word(tr, animal), position=position)
        elif kind == "bonus":
            animal, tile = ev[1], ev[2]
            say(
                "kokeshi.ui.event.bonus",
                player=player,
                animal=animal_word(tr, animal),
                tile=tile_text(tr, tile),
            )
        elif kind == "gain":
            _, column, tile = ev
            if is_ach(tile):
                say("kokeshi.ui.event.gain_ach", player=player, tile=tile_text(tr, tile))
            else:
                column_words = column_name(tr, column)
                say(
                    "kokeshi.ui.event.gain",
                    player=player,
                    tile=tile_text(tr, tile),
                    column=column_words,
                )
        elif kind == "draw":
            tiles = [tile_short(tr, ev[1])]
            while i + 1 < n and events[i + 1][0] == "draw":
                i += 1
                tiles.append(tile_short(tr, events[i][1]))
            say("kokeshi.ui.event.draw", True, tiles=tr.join(tiles))
        elif kind == "place":
            _, column, space, tile = ev
            tile_words, column_words = tile_short(tr, tile), column_name(tr, column)
            say("kokeshi.ui.event.place", True, tile=tile_words, space=space, column=column_words)
        elif kind == "discard":
            say("kokeshi.ui.event.discard", tile=tile_short(tr, ev[1]))
        elif kind == "trigger":
            last = state.last_round() or 0
            if ev[1] == "achievements":
                count = DATA.trigger[state.seats]
                say(
                    "kokeshi.ui.event.trigger_achievements",
                    player=player,
                    count=count,
                    last=last,
                )
            else:
                say("kokeshi.ui.event.trigger_display", last=last)
        i += 1  # "queue" needs no words: the move itself follows
    return lines
