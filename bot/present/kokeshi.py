"""Kokeshi in words, buttons and menus.

Public or private: ``public_every_action`` is False. A Kokeshi turn is one move followed by a
few small choices of the same player (which side of a tile, which kokeshi or animal, which tile
to gain, which column). Posting a board for each of them would bury the channel in pictures, so
those steps are answered privately to the acting player (a preview and the next controls), and
the action that completes the turn posts one public message that tells the whole turn's cascade
step by step (the move, every tile that fired, gains, animal moves, draws, placements, the end
trigger), then the board and the next player's controls. The two starting placements work the
same way: the first privately, the second publicly with both tiles.

Controls are built only from the legal action codes: buttons for short lists (moves, sides,
kokeshi, animals, columns), a select menu for tiles to gain or place (their effects need words)
and for anything longer than one row of buttons.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.present.base import (
    MAX_BUTTONS_PER_ROW,
    MAX_LABEL,
    MAX_ROWS,
    Button,
    Control,
    ControlRows,
    Select,
    SelectOption,
    chunk_buttons,
    chunk_options,
    clip,
)
from bot.service.models import LoggedMove
from engines.kokeshi.data import (
    GAIN_TILE,
    MOVE_ANIMAL,
    MOVE_ANY,
    MOVE_KOKESHI,
    SAME_COLUMN,
    Effect,
    ach_level,
    is_ach,
)
from engines.kokeshi.scoring import best_seats, tiebreak
from engines.kokeshi.state import NONE, KokeshiState, Phase, new_events
from engines.kokeshi.todo import ColumnChoice, EmptyGain, SideChoice, TileEffect, head
from engines.registry import get_engine
from i18n import join_list, t

ENGINE = get_engine("kokeshi")
DATA = ENGINE.data
#: a colour cue on the buttons, in column order (princess .. sumotori)
EMOJI = ("🌸", "🟣", "🔵", "🟢", "🟠")
#: events text stays under this many characters (long cascades are summarised)
MAX_EVENTS = 1500
MAX_DESCRIPTION = 100


# -- names of things -----------------------------------------------------------------------------


def kokeshi_name(locale: str | None, column: int) -> str:
    """``Princess (pink)``."""
    name = DATA.columns[column]
    return t(
        locale,
        "kokeshi.ui.kokeshi",
        name=t(locale, f"kokeshi.kokeshi.{name}"),
        colour=t(locale, f"kokeshi.ui.colour.{name}"),
    )


def column_name(locale: str | None, column: int) -> str:
    """``Princess column``."""
    name = t(locale, f"kokeshi.kokeshi.{DATA.columns[column]}")
    return t(locale, "kokeshi.ui.column", name=name)


def animal_name(locale: str | None, animal: int) -> str:
    return t(locale, f"kokeshi.animal.{DATA.animals[animal]}")


def effect_text(locale: str | None, e: Effect) -> str:
    """One printed effect in words (the renderer's effect keys)."""
    if e.type == MOVE_KOKESHI:
        name = t(locale, f"kokeshi.kokeshi.{DATA.columns[e.kokeshi]}")
        return t(locale, "kokeshi.effect.move_kokeshi", kokeshi=name)
    if e.type == MOVE_ANY:
        return t(locale, f"kokeshi.effect.move_any_{e.steps}")
    if e.type == MOVE_ANIMAL:
        return t(locale, "kokeshi.effect.move_animal", animal=animal_name(locale, e.animal))
    if e.type == GAIN_TILE:
        return t(locale, f"kokeshi.effect.gain_{e.where}")
    return t(locale, f"kokeshi.effect.{e.type}")


def tile_effect(locale: str | None, tile: int) -> str:
    """What a normal tile does: one effect, ``A or B``, or ``A, then B``."""
    kind = DATA.tiles[tile]
    texts = [effect_text(locale, e) for e in kind.effects]
    if len(texts) == 1:
        return texts[0]
    key = "kokeshi.ui.effect.choice" if kind.mode == "choice" else "kokeshi.ui.effect.both"
    return t(locale, key, a=texts[0], b=texts[1])


def _colour(locale: str | None, tile: int) -> str:
    return t(locale, f"kokeshi.kokeshi.{DATA.columns[DATA.colour_of(tile)]}")


def tile_text(locale: str | None, tile: int) -> str:
    """``Samurai tile: move any kokeshi up 1`` or an achievement tile with its level and points."""
    if is_ach(tile):
        level = ach_level(tile)
        return t(
            locale,
            "kokeshi.ui.ach_tile",
            colour=_colour(locale, tile),
            level=level,
            points=DATA.ach_points[level],
        )
    return t(
        locale, "kokeshi.ui.tile", colour=_colour(locale, tile), effect=tile_effect(locale, tile)
    )


def tile_short(locale: str | None, tile: int) -> str:
    """``Samurai tile`` / ``Samurai achievement 2`` (for brief mentions)."""
    if is_ach(tile):
        return t(
            locale, "kokeshi.ui.ach_short", colour=_colour(locale, tile), level=ach_level(tile)
        )
    return t(locale, "kokeshi.ui.tile_short", colour=_colour(locale, tile))


def where(locale: str | None, position: int) -> str:
    """``home`` or ``space 3``."""
    if position <= 0:
        return t(locale, "kokeshi.ui.home")
    return t(locale, "kokeshi.ui.space", space=position)


def _short_pos(locale: str | None, position: int) -> str:
    return t(locale, "kokeshi.ui.home") if position <= 0 else str(position)


def _tile_of(code: str) -> int:
    """The tile int in ``gain:t17`` / ``place:ach:samurai:1`` / ``start:t3:c1``."""
    action = ENGINE.decode_action(code)
    return action.values[0]


# -- controls ------------------------------------------------------------------------------------


def _kokeshi_step_label(locale: str | None, s: KokeshiState, column: int, steps: int) -> str:
    start = s.pos[s.active][column]
    target = start + steps
    if target > DATA.spaces:
        return t(
            locale,
            "kokeshi.ui.button.move_top",
            kokeshi=kokeshi_name(locale, column),
            start=_short_pos(locale, start),
            points=DATA.pass_top,
        )
    return t(
        locale,
        "kokeshi.ui.button.move",
        kokeshi=kokeshi_name(locale, column),
        start=_short_pos(locale, start),
        target=target,
    )


def _pick_steps(s: KokeshiState) -> int:
    return head(s.todo, TileEffect).effect(DATA).steps


def _option(locale: str | None, s: KokeshiState, code: str) -> tuple[str, str | None, str | None]:
    """(label, select description, emoji) for one legal code."""
    kind = code.split(":", 1)[0]
    values = ENGINE.decode_action(code).values
    if kind == "move":
        column = values[0]
        return _kokeshi_step_label(locale, s, column, 1), None, EMOJI[column]
    if kind == "pick":
        column = values[0]
        return _kokeshi_step_label(locale, s, column, _pick_steps(s)), None, EMOJI[column]
    if kind == "side":
        tile = head(s.todo, SideChoice).tile
        effect = effect_text(locale, DATA.tiles[tile].effects[values[0]])
        return t(locale, "kokeshi.ui.button.side", side="AB"[values[0]], effect=effect), None, None
    if kind == "animal":
        animal = values[0]
        start = s.animal_pos(animal, s.active)
        key = (
            "kokeshi.ui.button.animal_bonus"
            if start + 1 == DATA.bonus_index and s.bonus[animal] != NONE
            else "kokeshi.ui.button.animal"
        )
        label = t(locale, key, animal=animal_name(locale, animal), start=start, target=start + 1)
        return label, None, None
    if kind == "col":
        column = values[0]
        label = t(
            locale,
            "kokeshi.ui.button.col",
            column=column_name(locale, column),
            height=s.height(s.active, column),
        )
        return label, None, EMOJI[column]
    if kind == "start":
        column = values[1]
        return (
            t(locale, "kokeshi.ui.button.start", column=column_name(locale, column)),
            None,
            EMOJI[column],
        )
    if kind in ("gain", "place"):
        tile = values[0]
        if is_ach(tile):
            return tile_text(locale, tile), t(locale, "kokeshi.ui.option.ach"), None
        label = tile_text(locale, tile)
        if len(label) > MAX_LABEL:  # the effect is what matters; the colour goes below it
            label = tile_effect(locale, tile)
        key = "kokeshi.ui.option.display" if kind == "gain" else "kokeshi.ui.option.pending"
        description = t(locale, key, tile=tile_short(locale, tile))
        return label, description, EMOJI[DATA.colour_of(tile)]
    return code, None, None


#: kinds whose options carry long tile texts: always a select menu (placeholder keys)
_SELECT_KINDS = {"gain": "kokeshi.ui.select.gain", "place": "kokeshi.ui.select.place"}
_PLACEHOLDERS = {**_SELECT_KINDS, "start": "kokeshi.ui.select.start"}


def _selects(placeholder: str, options: list[SelectOption]) -> tuple[tuple[Control, ...], ...]:
    """One select per 25 options, each alone in its row."""
    return tuple((Select(placeholder, part),) for part in chunk_options(options))


# -- narration -----------------------------------------------------------------------------------

Event = tuple[Any, ...]


class _Turn:
    """One seat's stretch of events, and whether it begins with the seat's own move."""

    def __init__(self, seat: int, from_start: bool) -> None:
        self.seat = seat
        self.from_start = from_start
        self.events: list[Event] = []


def narrate_turn(
    locale: str | None, player: str, events: Sequence[Event], from_start: bool, state: Any
) -> list[tuple[str, bool]]:
    """Lines for one seat's events, each with a flag: may be dropped when summarising."""
    lines: list[tuple[str, bool]] = []
    first_move = from_start
    i = 0
    n = len(events)
    while i < n:
        ev = events[i]
        kind = ev[0]
        if kind == "move":
            _, column, start, target = ev
            top = i + 1 < n and events[i + 1][0] == "top"
            if top:
                key = "kokeshi.ui.event.move_top" if first_move else "kokeshi.ui.event.cascade_top"
                lines.append(
                    (
                        t(
                            locale,
                            key,
                            player=player,
                            kokeshi=kokeshi_name(locale, column),
                            start=where(locale, start),
                            points=events[i + 1][2],
                        ),
                        False,
                    )
                )
                i += 1
            else:
                key = "kokeshi.ui.event.move" if first_move else "kokeshi.ui.event.cascade_move"
                lines.append(
                    (
                        t(
                            locale,
                            key,
                            player=player,
                            kokeshi=kokeshi_name(locale, column),
                            start=where(locale, start),
                            target=where(locale, target),
                        ),
                        False,
                    )
                )
            first_move = False
        elif kind == "top":  # a top without its move (only when the move was in an earlier step)
            lines.append(
                (
                    t(
                        locale,
                        "kokeshi.ui.event.cascade_top",
                        player=player,
                        kokeshi=kokeshi_name(locale, ev[1]),
                        start=where(locale, DATA.spaces),
                        points=ev[2],
                    ),
                    False,
                )
            )
        elif kind == "fire":
            lines.append((t(locale, "kokeshi.ui.event.fire", tile=tile_text(locale, ev[3])), False))
        elif kind == "side":
            effect = effect_text(locale, DATA.tiles[ev[1]].effects[ev[2]])
            lines.append((t(locale, "kokeshi.ui.event.side", player=player, effect=effect), False))
        elif kind == "extra":
            _, column, space = ev
            lines.append(
                (
                    t(
                        locale,
                        "kokeshi.ui.event.extra",
                        space=space,
                        kokeshi=kokeshi_name(locale, column),
                    ),
                    True,
                )
            )
            if (
                i + 1 < n
                and events[i + 1][0] == "move"
                and not (i + 2 < n and events[i + 2][0] == "top")
            ):
                i += 1  # the extra step itself: "one more step up" says it
        elif kind == "empty":
            _, column, space = ev
            lines.append(
                (
                    t(
                        locale,
                        "kokeshi.ui.event.empty",
                        space=space,
                        kokeshi=kokeshi_name(locale, column),
                        player=player,
                    ),
                    False,
                )
            )
        elif kind == "skip":
            _, tile, index = ev
            if tile == NONE:
                text = t(locale, "kokeshi.ui.event.skip_gain", column=column_name(locale, index))
            elif index < 0:
                text = t(locale, "kokeshi.ui.event.skip_side", tile=tile_text(locale, tile))
            else:
                effect = effect_text(locale, DATA.tiles[tile].effects[index])
                text = t(locale, "kokeshi.ui.event.skip", effect=effect)
            lines.append((text, True))
        elif kind == "animal":
            _, animal, position = ev
            key = (
                "kokeshi.ui.event.animal_midline"
                if position == DATA.midline
                else "kokeshi.ui.event.animal"
            )
            lines.append(
                (
                    t(
                        locale,
                        key,
                        player=player,
                        animal=animal_name(locale, animal),
                        position=position,
                    ),
                    False,
                )
            )
        elif kind == "bonus":
            lines.append(
                (
                    t(
                        locale,
                        "kokeshi.ui.event.bonus",
                        player=player,
                        animal=animal_name(locale, ev[1]),
                        tile=tile_text(locale, ev[2]),
                    ),
                    False,
                )
            )
        elif kind == "gain":
            _, column, tile = ev
            if is_ach(tile):
                text = t(
                    locale, "kokeshi.ui.event.gain_ach", player=player, tile=tile_text(locale, tile)
                )
            else:
                text = t(
                    locale,
                    "kokeshi.ui.event.gain",
                    player=player,
                    tile=tile_text(locale, tile),
                    column=column_name(locale, column),
                )
            lines.append((text, False))
        elif kind == "draw":
            tiles = [tile_short(locale, ev[1])]
            while i + 1 < n and events[i + 1][0] == "draw":
                i += 1
                tiles.append(tile_short(locale, events[i][1]))
            lines.append((t(locale, "kokeshi.ui.event.draw", tiles=join_list(locale, tiles)), True))
        elif kind == "place":
            _, column, space, tile = ev
            lines.append(
                (
                    t(
                        locale,
                        "kokeshi.ui.event.place",
                        tile=tile_short(locale, tile),
                        space=space,
                        column=column_name(locale, column),
                    ),
                    True,
                )
            )
        elif kind == "discard":
            lines.append(
                (t(locale, "kokeshi.ui.event.discard", tile=tile_short(locale, ev[1])), False)
            )
        elif kind == "trigger":
            last = state.last_round() or 0
            if ev[1] == "achievements":
                text = t(
                    locale,
                    "kokeshi.ui.event.trigger_achievements",
                    player=player,
                    count=DATA.trigger[state.seats],
                    last=last,
                )
            else:
                text = t(locale, "kokeshi.ui.event.trigger_display", last=last)
            lines.append((text, False))
        i += 1  # "queue" needs no words: the move itself follows
    return lines


def final_lines(locale: str | None, s: KokeshiState, names: Sequence[str]) -> list[str]:
    """The final scoring per step for every seat, and the winner(s) with the tie-break used."""
    lines = [t(locale, "kokeshi.ui.event.final_title")]
    totals = []
    for seat in range(s.seats):
        parts = ENGINE.breakdown(s, seat)
        totals.append(parts["total"])
        lines.append(
            t(
                locale,
                "kokeshi.ui.event.final_line",
                player=names[seat],
                total=parts["total"],
                happiness=parts["happiness"],
                height=parts["height"],
                achievements=parts["achievements"],
                animals=parts["animals"],
                leaders=parts["leaders"],
                pairs=-parts["adjacency"],
            )
        )
    winners = best_seats(DATA, s)
    best = max(totals)
    players = join_list(locale, [names[w] for w in winners])
    key = "kokeshi.ui.event.winner" if len(winners) == 1 else "kokeshi.ui.event.winners"
    lines.append(t(locale, key, players=players, points=best))
    decided_by = tiebreak(DATA, s)
    if decided_by is not None:
        lines.append(t(locale, f"kokeshi.ui.event.tiebreak_{decided_by}"))
    return lines


def summarise(lines: list[tuple[str, bool]], tail: list[str], locale: str | None) -> list[str]:
    """Keep the text under ``MAX_EVENTS``: drop minor lines, then cut the middle."""

    def size(items: list[tuple[str, bool]]) -> int:
        return sum(len(text) + 1 for text, _ in items) + sum(len(x) + 1 for x in tail)

    if size(lines) > MAX_EVENTS:
        lines = [line for line in lines if not line[1]]
    if size(lines) > MAX_EVENTS and len(lines) > 2:
        head, rest = lines[:1], lines[1:]
        dropped = 0
        marker_size = 40
        while rest and size(head + rest) + marker_size > MAX_EVENTS:
            rest = rest[1:]
            dropped += 1
        lines = [*head, (t(locale, "kokeshi.ui.event.more", count=dropped), False), *rest]
    return [text for text, _ in lines] + tail


# -- the presenter -------------------------------------------------------------------------------


class KokeshiPresenter:
    public_every_action = False

    def controls(self, state: Any, legal: Sequence[str], locale: str | None) -> ControlRows:
        s: KokeshiState = state
        if not legal:
            return ControlRows()
        kinds = {code.split(":", 1)[0] for code in legal}
        items = [(code, *_option(locale, s, code)) for code in legal]
        # one row of buttons for short lists; tiles (long effect texts) and longer lists: a menu
        use_select = bool(kinds & set(_SELECT_KINDS)) or len(items) > MAX_BUTTONS_PER_ROW
        if not use_select:
            buttons = [
                Button(
                    code, clip(label), "primary" if code.startswith("move:") else "secondary", emoji
                )
                for code, label, _, emoji in items
            ]
            return ControlRows(chunk_buttons(buttons))
        kind = sorted(kinds)[0]
        key = _PLACEHOLDERS.get(kind, "kokeshi.ui.select.choose")
        options = [
            SelectOption(
                code, clip(label), clip(description, MAX_DESCRIPTION) if description else None
            )
            for code, label, description, _ in items
        ]
        return ControlRows(_selects(t(locale, key), options)[:MAX_ROWS])

    def events(
        self,
        before: Any,
        moves: Sequence[LoggedMove],
        after: Any,
        names: Sequence[str],
        locale: str | None,
    ) -> list[str]:
        try:
            turns, starts = self._replay(before, moves)
        except Exception:  # a log that does not replay: narrate what the state says
            turns, starts = [_Turn(max(after.active, 0), False)], []
            turns[0].events = list(after.events)
        handed_on = after.phase == Phase.OVER or ENGINE.turn(after) > ENGINE.turn(before)
        if (
            turns
            and not self.public_every_action
            and handed_on
            and not before.in_setup
            and before.phase != Phase.MOVE
            and turns[0].seat == before.active
            and not turns[0].from_start
        ):
            turns[0].events = list(before.events) + turns[0].events  # the whole turn, publicly
            turns[0].from_start = True
        lines: list[tuple[str, bool]] = [
            (text, False) for text in self._start_lines(locale, starts, after, names)
        ]
        for turn in turns:
            lines += narrate_turn(locale, names[turn.seat], turn.events, turn.from_start, after)
        if not lines:  # e.g. a tile taken whose column is chosen next: say what was chosen
            lines += [
                (
                    t(
                        locale,
                        "kokeshi.ui.event.chose",
                        player=names[m.seat],
                        action=self.describe_move(before if i == 0 else None, m, locale),
                    ),
                    False,
                )
                for i, m in enumerate(moves)
                if m.seat is not None
            ]
        tail = final_lines(locale, after, names) if after.phase == Phase.OVER else []
        return summarise(lines, tail, locale)

    def _replay(
        self, before: KokeshiState, moves: Sequence[LoggedMove]
    ) -> tuple[list[_Turn], list[tuple[int, int, int, bool]]]:
        """Re-apply the logged moves: each seat's events, and the setup placements made."""
        turns: list[_Turn] = []
        starts: list[tuple[int, int, int, bool]] = []  # seat, tile, column, setup finished
        state = before
        for move in moves:
            nxt = ENGINE.apply(state, ENGINE.decode_action(move.action))
            if state.in_setup:
                if move.action.startswith("start:"):
                    tile, column = ENGINE.decode_action(move.action).values
                    done = ENGINE.turn(nxt) > ENGINE.turn(state)  # its last setup tile
                    starts.append((state.active, tile, column, done))
            else:
                new = new_events(state, nxt)
                if move.action.startswith("move:") or not turns or turns[-1].seat != state.active:
                    turns.append(_Turn(state.active, move.action.startswith("move:")))
                turns[-1].events += list(new)
            state = nxt
        return turns, starts

    def _start_lines(
        self,
        locale: str | None,
        starts: list[tuple[int, int, int, bool]],
        after: KokeshiState,
        names: Sequence[str],
    ) -> list[str]:
        lines: list[str] = []
        finished = {seat for seat, _, _, done in starts if done}
        for seat, tile, column, _ in starts:
            if seat in finished:
                continue
            lines.append(
                t(
                    locale,
                    "kokeshi.ui.event.start_one",
                    player=names[seat],
                    tile=tile_text(locale, tile),
                    column=column_name(locale, column),
                )
            )
        for seat in sorted(finished, key=lambda x: [s for s, *_ in starts].index(x)):
            items = [
                t(
                    locale,
                    "kokeshi.ui.event.start_item",
                    tile=tile_text(locale, col[0]),
                    column=column_name(locale, c),
                )
                for c, col in enumerate(after.boards[seat])
                if col
            ]
            lines.append(
                t(
                    locale,
                    "kokeshi.ui.event.start_all",
                    player=names[seat],
                    tiles=join_list(locale, items),
                )
            )
        return lines

    def prompt(self, state: Any, names: Sequence[str], locale: str | None) -> str:
        s: KokeshiState = state
        if s.phase == Phase.OVER:
            winners = join_list(locale, [names[w] for w in best_seats(DATA, s)])
            return t(locale, "kokeshi.ui.prompt.over", players=winners)
        if s.phase.is_chance:
            return t(locale, "kokeshi.ui.prompt.chance")
        player = names[s.active]
        if s.phase == Phase.START:
            placed = sum(1 for col in s.boards[s.active] if col)
            return t(
                locale,
                "kokeshi.ui.prompt.start",
                player=player,
                tile=tile_text(locale, min(s.hand)),
                number=placed + 1,
                total=DATA.setup_tiles,
            )
        if s.phase == Phase.MOVE:
            text = t(locale, "kokeshi.ui.prompt.move", player=player)
            left = s.turns_left()
            if left is not None:
                last = t(locale, "kokeshi.ui.prompt.last_turns", count=left)
                text = f"{text}\n{last}"
            return text
        if s.phase == Phase.SIDE:
            tile = head(s.todo, SideChoice).tile
            return t(locale, "kokeshi.ui.prompt.side", player=player, tile=tile_text(locale, tile))
        if s.phase == Phase.PICK:
            e = head(s.todo, TileEffect).effect(DATA)
            return t(
                locale,
                "kokeshi.ui.prompt.pick",
                player=player,
                steps=e.steps,
                effect=effect_text(locale, e),
            )
        if s.phase == Phase.ANIMAL:
            return t(locale, "kokeshi.ui.prompt.animal", player=player)
        if s.phase == Phase.GAIN:
            gain = s.todo[0]
            if isinstance(gain, EmptyGain):
                legal = ENGINE.legal_actions(s)
                key = (
                    "kokeshi.ui.prompt.gain_empty"
                    if any(is_ach(a.values[0]) for a in legal)
                    else "kokeshi.ui.prompt.gain_empty_display"
                )
                return t(
                    locale,
                    key,
                    player=player,
                    kokeshi=kokeshi_name(locale, gain.column),
                    column=column_name(locale, gain.column),
                )
            item = head(s.todo, TileEffect)
            if item.effect(DATA).where == SAME_COLUMN:
                return t(
                    locale,
                    "kokeshi.ui.prompt.gain_same",
                    player=player,
                    column=column_name(locale, item.column),
                )
            return t(locale, "kokeshi.ui.prompt.gain_any", player=player)
        if s.phase == Phase.COL:
            if s.todo:
                tile = head(s.todo, ColumnChoice).tile
                return t(
                    locale, "kokeshi.ui.prompt.col", player=player, tile=tile_text(locale, tile)
                )
            return t(
                locale,
                "kokeshi.ui.prompt.col_free",
                player=player,
                tile=tile_text(locale, s.free[0]),
            )
        column = s.place_column()
        if s.phase == Phase.PLACE and column is not None:
            return t(
                locale, "kokeshi.ui.prompt.place", player=player, column=column_name(locale, column)
            )
        return t(locale, "kokeshi.ui.prompt.move", player=player)

    def describe_move(self, state_before: Any, move: LoggedMove, locale: str | None) -> str:
        s: KokeshiState | None = state_before
        kind = move.action.split(":", 1)[0]
        try:
            values = ENGINE.decode_action(move.action).values
        except Exception:
            return t(locale, "kokeshi.ui.log.unknown", action=move.action)
        if kind == "first":
            return t(
                locale,
                "kokeshi.ui.log.first",
                seat=t(locale, "kokeshi.ui.seat", seat=values[0] + 1),
            )
        if kind == "draw":
            return t(locale, "kokeshi.ui.log.draw", tile=tile_text(locale, values[0]))
        if kind == "start":
            return t(
                locale,
                "kokeshi.ui.log.start",
                tile=tile_text(locale, values[0]),
                column=column_name(locale, values[1]),
            )
        if kind == "move":
            column = values[0]
            if s is not None and s.active >= 0:
                start = s.pos[s.active][column]
                return t(
                    locale,
                    "kokeshi.ui.log.move_from",
                    kokeshi=kokeshi_name(locale, column),
                    start=where(locale, start),
                    target=where(locale, start + 1),
                )
            return t(locale, "kokeshi.ui.log.move", kokeshi=kokeshi_name(locale, column))
        if kind == "side":
            side = "AB"[values[0]]
            if s is not None and s.phase == Phase.SIDE and s.todo:
                tile = head(s.todo, SideChoice).tile
                effect = effect_text(locale, DATA.tiles[tile].effects[values[0]])
                return t(locale, "kokeshi.ui.log.side_effect", side=side, effect=effect)
            return t(locale, "kokeshi.ui.log.side", side=side)
        if kind == "pick":
            return t(locale, "kokeshi.ui.log.pick", kokeshi=kokeshi_name(locale, values[0]))
        if kind == "animal":
            return t(locale, "kokeshi.ui.log.animal", animal=animal_name(locale, values[0]))
        if kind == "gain":
            return t(locale, "kokeshi.ui.log.gain", tile=tile_text(locale, values[0]))
        if kind == "col":
            return t(locale, "kokeshi.ui.log.col", column=column_name(locale, values[0]))
        if kind == "place":
            return t(locale, "kokeshi.ui.log.place", tile=tile_text(locale, values[0]))
        return t(locale, "kokeshi.ui.log.unknown", action=move.action)

    def rules_summary(self, locale: str | None) -> str:
        return t(locale, "kokeshi.ui.rules")


PRESENTER = KokeshiPresenter()
