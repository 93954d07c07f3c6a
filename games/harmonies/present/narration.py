"""Harmonies events in sentences: what a turn did, told once to everyone."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import LoggedMove
from games.harmonies.engine import scoring
from games.harmonies.engine.cards import CARDS
from games.harmonies.engine.state import HarmoniesState, Phase
from games.harmonies.engine.turn import ends_turn, turn_start
from games.harmonies.present.game import ENGINE
from games.harmonies.present.log import describe_code
from games.harmonies.present.results import final_lines
from games.harmonies.words import card_name, colour_word, colours_and
from i18n import Translator


class _Lines:
    """Collects a turn's sentences, grouping consecutive token and cube placements."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr
        self.lines: list[str] = []
        self.places: list[str] = []
        self.cubes: list[str] = []
        self.player = ""

    def flush(self) -> None:
        tr = self.tr
        if self.places:
            text = tr.join(self.places)
            self.lines.append(tr("harmonies.ui.event.place", player=self.player, placements=text))
        if self.cubes:
            text = tr.join(self.cubes)
            self.lines.append(
                tr("harmonies.ui.event.cube", count=len(self.cubes), player=self.player, cubes=text)
            )
        self.places, self.cubes = [], []

    def add(self, line: str) -> None:
        self.flush()
        self.lines.append(line)

    def step(self, s: HarmoniesState, code: str, player: str) -> HarmoniesState:
        """Describe one player step taken in ``s`` and return the state after it."""
        tr = self.tr
        nxt = ENGINE.apply(s, ENGINE.decode_action(code))
        kind, _, rest = code.partition(":")
        if player != self.player:
            self.flush()
            self.player = player
        if kind == "take":
            slot = int(rest) - 1
            tokens = colours_and(tr, s.central[slot])
            self.add(tr("harmonies.ui.event.take", player=player, number=rest, tokens=tokens))
        elif kind == "place":
            colour, _, hex_code = rest.partition(":")
            if self.cubes:
                self.flush()
            self.places.append(
                tr(
                    "harmonies.ui.event.place_item",
                    colour=colour_word(tr, colour),
                    hex=hex_code,
                )
            )
        elif kind == "cube":
            if self.places:
                self.flush()
            self.cubes.append(cube_item(tr, s, nxt, code))
        elif kind in ("card", "discard", "keep"):
            card = card_name(tr, int(rest))
            self.add(tr(f"harmonies.ui.event.{kind}", player=player, card=card))
        elif kind == "undo":
            step = describe_code(s, s.steps[-1], tr) if s.steps else ""
            self.add(tr("harmonies.ui.event.undo", player=player, step=step))
        return nxt


def cube_item(tr: Translator, s: HarmoniesState, nxt: HarmoniesState, code: str) -> str:
    """One cube placed (``code``, taken in ``s``, giving ``nxt``): its card, where, and the
    points the card gives now (or that it is a spirit's)."""
    num, _, hex_code = code.partition(":")[2].partition(":")
    cid = int(num)
    card = card_name(tr, cid)
    if CARDS[cid].spirit:
        return tr("harmonies.ui.event.spirit_item", card=card, hex=hex_code)
    placed = nxt.players[s.active].placed(cid)
    points = scoring.card_points(cid, placed)
    key = (
        "harmonies.ui.event.cube_item_done"
        if placed == len(CARDS[cid].track)
        else "harmonies.ui.event.cube_item"
    )
    return tr(key, count=points, card=card, hex=hex_code, points=points)


def narrate(
    before: HarmoniesState,
    moves: Sequence[LoggedMove],
    after: HarmoniesState,
    names: Sequence[str],
    tr: Translator,
) -> list[str]:
    """Sentences for the logged ``moves`` from ``before`` to ``after``: a turn's steps grouped,
    the whole turn retold at End turn when its steps were private, then refills, new cards
    and, when the game ends, the final scoring."""
    out = _Lines(tr)
    refills: dict[int, list[str]] = {}
    deals: list[str] = []
    steps_here = 0
    state = before
    for move in moves:
        kind = move.action.partition(":")[0]
        if move.seat is None or state.phase == Phase.CHANCE:
            if kind == "draw":
                space, _, colour = move.action.partition(":")[2].partition(":")
                refills.setdefault(int(space), []).append(colour)
            elif kind == "deal":
                deals.append(card_name(tr, int(move.action.partition(":")[2])))
            state = ENGINE.apply(state, ENGINE.decode_action(move.action))
            continue
        player = tr.player(state.active, names)
        action = ENGINE.decode_action(move.action)
        if ends_turn(action):
            if not steps_here:  # the steps were private: tell everyone the whole turn
                replay = turn_start(state)
                for code in state.steps:
                    replay = out.step(replay, code, player)
            nxt = ENGINE.apply(state, action)
            score = ENGINE.scores(nxt)[state.active]
            if nxt.phase == Phase.OVER:  # the result line gives the final scores
                out.add(tr("harmonies.ui.event.end_final", player=player))
            else:
                out.add(tr("harmonies.ui.event.end", player=player, score=score))
            if nxt.triggered and not state.triggered and nxt.phase != Phase.OVER:
                out.add(tr("harmonies.ui.event.triggered"))
            steps_here = 0
            state = nxt
        else:
            state = out.step(state, move.action, player)
            steps_here += 1
    out.flush()
    lines = out.lines
    if refills:
        spaces = [
            tr(
                "harmonies.ui.event.refill_item",
                number=n,
                tokens=colours_and(tr, colours),
            )
            for n, colours in sorted(refills.items())
        ]
        joined = tr("harmonies.ui.event.refill_sep").join(spaces)
        lines.append(tr("harmonies.ui.event.refill", spaces=joined))
    if deals:
        lines.append(tr("harmonies.ui.event.deal", cards=tr.join(deals)))
    if after.phase == Phase.OVER and before.phase != Phase.OVER:
        lines += final_lines(after, names, tr)
    return lines
