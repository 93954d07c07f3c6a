"""What lobby and turn messages say and carry, built from service snapshots.

Discord-free: the results are plain data (text, PNG bytes, control specs); ``outgoing`` turns them
into discord.py objects and nothing here sends anything.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.adapter.rendering import start_drawing
from bot.present import get_presenter
from bot.present.base import STEPS_PRIVATE, ControlRows, final_scores, offered_actions
from bot.present.levels import strength_list
from bot.service import fairness
from bot.service.bots import has_bots
from bot.service.models import GameSnapshot, Outcome
from bot.service.turns import PlayedTurn, in_progress, last_ended, since_last_turn_of
from engines.bots import LEVELS
from engines.registry import get_engine
from i18n import clock_length, game_title, has, join_list, t, time_left, weekdays_text
from render import board_views, turn_views

MAX_CONTENT = 2000
MAX_RECAP = 3  # "since your last turn" names at most this many turns (the newest)


def fit_content(text: str) -> str:
    """A message's text within Discord's 2,000 characters: the newest lines kept, as the end of
    a long turn (its result and the prompt) matters most."""
    if len(text) <= MAX_CONTENT:
        return text
    return "…\n" + text[-(MAX_CONTENT - 2) :]


def option_text(locale: str, game: str, name: str, value: object) -> str:
    """A game option as players read it, e.g. "Board side: B" or "Spirit cards: on"."""
    key = f"{game}.option.{name}"
    label = t(locale, key) if has(key) else name
    if isinstance(value, bool):
        value = t(locale, "option.on" if value else "option.off")
    elif has(f"{key}.{value}"):
        value = t(locale, f"{key}.{value}")
    return t(locale, "option.value", option=label, value=value)


def mention(seat_user_id: int | None, name: str) -> str:
    return f"<@{seat_user_id}>" if seat_user_id else name


def mentions(snap: GameSnapshot) -> list[str]:
    return [mention(s.user_id, s.name) for s in snap.seats]


def display_names(snap: GameSnapshot) -> list[str]:
    return [s.name for s in snap.seats]


def clock_line(locale: str, snap: GameSnapshot) -> str:
    """The lobby's line on its clock: per move, or a time bank."""
    if snap.bank_hours is None or not snap.clock_hours:
        return t(locale, "lobby.clock", clock=clock_length(locale, snap.clock_hours))
    increment, cap = snap.bank_hours
    return t(
        locale,
        "lobby.bank",
        start=clock_length(locale, snap.clock_hours),
        increment=clock_length(locale, increment),
        cap=clock_length(locale, cap),
    )


def lobby_content(locale: str, snap: GameSnapshot) -> str:
    info = get_engine(snap.game).info
    title = game_title(locale, snap.game)
    players = join_list(locale, mentions(snap))
    lines = [
        f"**{t(locale, 'lobby.title', game=title)}**",
        t(locale, "lobby.host", host=f"<@{snap.host_id}>"),
        t(locale, "lobby.seats", seated=len(snap.seats), capacity=snap.capacity, players=players),
    ]
    lines.append(clock_line(locale, snap))
    if snap.rest_days and snap.clock_hours:
        days = weekdays_text(locale, snap.rest_days)
        lines.append(t(locale, "lobby.rest", days=days, timezone=snap.rest_timezone or "UTC"))
    changed = {
        k: v
        for k, v in snap.options.items()
        if any(o.name == k and o.default != v for o in info.options)
    }
    if changed:
        shown = [option_text(locale, snap.game, name, value) for name, value in changed.items()]
        lines.append(t(locale, "lobby.options", options=join_list(locale, shown)))
    if has_bots(snap.game):  # how strong each "Add bot" level is, when it was measured
        strengths = strength_list(locale, snap.game, "lobby.levels")
        if strengths:
            lines.append(strengths)
    lines.append(
        t(
            locale,
            # a lobby for exactly as many players as the game needs: no "2 to 2"
            "lobby.hint" if info.min_seats < snap.capacity else "lobby.hint_exact",
            count=snap.capacity,
            minimum=info.min_seats,
            capacity=snap.capacity,
        )
    )
    return fit_content("\n".join(lines))


@dataclass(frozen=True, slots=True)
class LobbyControl:
    """One lobby button: ``op`` is what pressing it asks for (join, start, bot-easy, ...)."""

    op: str
    label: str
    style: str
    row: int


@dataclass(frozen=True, slots=True)
class LobbyMessage:
    game_id: int
    content: str
    controls: tuple[LobbyControl, ...]


LOBBY_BUTTONS = (
    ("join", "primary"),
    ("leave", "secondary"),
    ("start", "success"),
    ("cancel", "danger"),
)


def lobby_message(locale: str, snap: GameSnapshot, note: str | None = None) -> LobbyMessage:
    """The lobby's text and buttons (``note``: a line more, e.g. who of the seated is away)."""
    controls = [
        LobbyControl(op, t(locale, f"lobby.button.{op}"), style, 0) for op, style in LOBBY_BUTTONS
    ]
    if has_bots(snap.game):
        controls += [
            LobbyControl(f"bot-{level}", t(locale, f"lobby.button.bot_{level}"), "secondary", 1)
            for level in LEVELS
        ]
    content = lobby_content(locale, snap)
    if note:
        content = fit_content(f"{content}\n{note}")
    return LobbyMessage(snap.id, content, tuple(controls))


def when(unix: float | None, style: str = "R") -> str:
    """A Discord timestamp: every reader's client shows it in their own language and zone."""
    return f"<t:{int(unix or 0)}:{style}>"


def clock_lines(
    locale: str, snap: GameSnapshot, away_until: float | None = None, *, rest: bool = True
) -> list[str]:
    """What a turn message says about the clock and stand-ins of the seat to move (``rest``:
    and the table's rest days, after the rest)."""
    lines: list[str] = []
    if snap.status != "active" or snap.to_move is None:
        return lines
    mover = snap.seats[snap.to_move]
    if mover.stand_in == "turn":
        lines.append(t(locale, "stand_in.turn", player=mover.name))
    for seat in snap.seats:
        if seat.stand_in == "seat":
            lines.append(t(locale, "stand_in.seat", player=f"<@{seat.user_id}>"))
    if mover.is_bot:
        return lines + bank_lines(locale, snap)
    if snap.clock_left is not None and away_until is not None:
        lines.append(t(locale, "clock.stopped", player=mover.name, until=when(away_until, "f")))
    elif snap.deadline is not None and snap.bank_hours is not None:
        held = time_left(locale, mover.bank_hours or 0.0)
        lines.append(
            t(
                locale,
                "clock.bank_runs_out",
                player=mover.name,
                when=when(snap.deadline),
                held=held,
            )
        )
    elif snap.deadline is not None:
        lines.append(t(locale, "clock.runs_out", when=when(snap.deadline)))
    return lines + bank_lines(locale, snap) + (rest_lines(locale, snap) if rest else [])


def bank_lines(locale: str, snap: GameSnapshot) -> list[str]:
    """A time bank game: what the banks of the players not to move hold for their next turn,
    in one line."""
    if snap.bank_hours is None:
        return []
    banks = [
        t(locale, "clock.bank_of", player=seat.name, left=time_left(locale, seat.bank_hours))
        for seat in snap.seats
        if seat.seat != snap.to_move and seat.user_id is not None and seat.bank_hours is not None
    ]
    return [t(locale, "clock.banks", banks=join_list(locale, banks))] if banks else []


def rest_lines(locale: str, snap: GameSnapshot) -> list[str]:
    """A resting table's clock stands still on its rest days: say which (and, during a rest,
    until when). Nothing for a table without rest days or a clock."""
    if not snap.rest_days or not snap.clock_seconds or snap.status != "active":
        return []
    days = weekdays_text(locale, snap.rest_days)
    lines = [t(locale, "clock.rest_days", days=days, timezone=snap.rest_timezone or "UTC")]
    if snap.resting_until is not None:
        lines.append(t(locale, "clock.resting", until=when(snap.resting_until, "F")))
    return lines


@dataclass(frozen=True, slots=True)
class BoardImage:
    """One picture of the board and its alt text."""

    png: bytes
    alt_text: str


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """A board message: ``controls`` act on ``game_id`` at ``version`` (None: nothing to press).
    ``images``: one per view of the board (the first is the main one); ``back_label``: the
    *I'm back* button for a player whose seat a computer plays."""

    game_id: int
    version: int
    content: str
    images: tuple[BoardImage, ...]
    controls: ControlRows | None
    back_label: str | None = None
    #: the label of the Rematch button a finished game's final message carries ("": none)
    rematch: str = ""

    @property
    def png(self) -> bytes:
        return self.images[0].png

    @property
    def alt_text(self) -> str:
        return self.images[0].alt_text


def result_line(locale: str, snap: GameSnapshot) -> str:
    """Congratulations (a ping for the winners) and the final scores; the game's own words
    about how the game was won come from its presenter."""
    names = display_names(snap)
    winners = join_list(locale, [mention(snap.seats[w].user_id, names[w]) for w in snap.winners])
    scores = final_scores(locale, snap.game, names, snap.scores)
    return t(locale, "game.result.final", winners=winners, scores=scores)


def ended_text(locale: str, snap: GameSnapshot) -> str:
    """How a game that has ended ended, for an old control of it: who won, or who abandoned it."""
    if snap.status == "abandoned" or not snap.winners:
        if snap.ended_by is None:  # abandoned before the bot remembered who did it
            return t(locale, "error.game_ended_abandoned_by_someone")
        return t(locale, "error.game_ended_abandoned", user=f"<@{snap.ended_by}>")
    names = display_names(snap)
    winners = join_list(locale, [mention(snap.seats[w].user_id, names[w]) for w in snap.winners])
    return t(locale, "error.game_ended_won", winners=winners)


def commitment_line(locale: str, snap: GameSnapshot) -> str:
    """The first board's promise: the SHA-256 of the secret seed (revealed when the game ends),
    as Discord's small subtext (``-#``): the 64-character hash is there to be checked, not read
    on a phone among the turn's words."""
    return "-# " + t(locale, "game.fairness.commitment", commitment=snap.commitment)


def seed_line(locale: str, snap: GameSnapshot) -> str:
    """The seed of a game that has ended, to check against the commitment shown at its start
    (empty while the game may still run: the seed would predict every die)."""
    if snap.revealed_seed is None:
        return ""
    seed = snap.revealed_seed
    text = fairness.committed_text(snap.game, snap.id, seed)  # what the commitment hashed
    return t(locale, "game.fairness.seed", seed=str(seed), text=text)


def start_board_images(
    locale: str, snap: GameSnapshot, views: Sequence[dict[str, Any]]
) -> asyncio.Future[list[tuple[bytes, str]]]:
    """The pictures and their alt texts, worked out off the event loop (Pillow is CPU-bound,
    and a board's description reads the whole state). Every view is sent to be drawn before
    this returns, so they are drawn at once while the caller writes the message's words."""
    names = display_names(snap)
    return asyncio.gather(
        *[start_drawing(snap.game, snap.state, locale, names=names, **view) for view in views]
    )


def played_a_turn(turns: Sequence[PlayedTurn], seat: int) -> bool:
    """Has ``seat`` ended a turn of this game? (``turns`` keeps every seat's newest ended turn.)"""
    return any(turn.mover == seat and turn.ended for turn in turns)


def recap_line(
    locale: str, snap: GameSnapshot, turns: Sequence[PlayedTurn], seat: int
) -> str | None:
    """"Since your last turn" for the seat about to be pinged: the others' turns since that
    seat's previous one, or since the game began. None with fewer than two: the one turn is
    the account just above it (two players), or nothing happened yet."""
    since = since_last_turn_of(turns, seat)
    if len(since) < 2:
        return None
    played_before = played_a_turn(turns, seat)
    items = get_presenter(snap.game).recap(since[-MAX_RECAP:], display_names(snap), locale)
    if not items:
        return None
    key = "game.recap.since" if played_before else "game.recap.before_first"
    return t(locale, key, items=t(locale, "game.recap.sep").join(items))


def turn_lines(
    locale: str,
    snap: GameSnapshot,
    outcome: Outcome | None,
    turns: Sequence[PlayedTurn] | None,
    away_until: float | None = None,
) -> list[str]:
    """What a board message says, in one place: the account of the last turn (from the move
    log when ``turns`` is given, else the outcome's events), the turn so far (a step shown in
    place), the result, the clock and stand-ins, "since your last turn" for the player about to
    act, and the prompt (``away_until``: the player to move is away until then)."""
    presenter = get_presenter(snap.game)
    names = display_names(snap)
    lines: list[str] = []
    if turns is not None:
        for turn in (last_ended(turns), in_progress(turns)):
            if turn is not None and turn.mover is not None:
                lines += presenter.turn_account(turn.start, turn.moves, turn.end, names, locale)
    elif outcome is not None and outcome.before.state is not None:
        lines += presenter.events(outcome.before.state, outcome.moves, snap.state, names, locale)
    if outcome is not None and outcome.before.to_move is not None:
        seat = outcome.before.seats[outcome.before.to_move]
        if seat.stand_in is not None and outcome.ended_turn:  # say who really played
            lines.append(t(locale, "stand_in.played", player=seat.name))
    # the fairness lines, the clock and stand-ins come before the result or the prompt, which
    # stay the message's last words
    first = outcome.before.state is None if outcome is not None else snap.turn == 0
    if first and snap.status == "active" and snap.commitment:
        lines.append(commitment_line(locale, snap))  # the game's first board: the promise
    lines += clock_lines(locale, snap, away_until)
    if snap.status == "finished":
        lines.append(seed_line(locale, snap))  # the seed, to check the dice against
        lines.append(result_line(locale, snap))
    elif snap.to_move is not None:
        mover = snap.seats[snap.to_move]
        if mover.is_bot:  # a prompt never addresses a computer opponent
            lines.append(t(locale, "game.bot_thinking", player=mover.name))
        else:
            if turns is not None and (recap := recap_line(locale, snap, turns, snap.to_move)):
                lines.append(recap)
            lines.append(presenter.prompt(snap.state, mentions(snap), locale))
            turn_starts = outcome is not None and (
                outcome.ended_turn or outcome.before.state is None
            )
            first_turn = turns is not None and not played_a_turn(turns, snap.to_move)
            if turn_starts and first_turn and presenter.steps == STEPS_PRIVATE:
                # the turn's steps come as private answers: say how to get them back, once a
                # game to each player (the move log remembers it, across restarts)
                lines.append(t(locale, "game.controls_back"))
    return lines


def left_out_line(locale: str, legal: Sequence[str], controls: ControlRows) -> list[str]:
    """How to play the legal moves the controls leave out (Discord's limits: at most five rows,
    25 options a menu), when there are any: ``/game move`` takes them. Discord's words only:
    the terminal lists every move."""
    if set(legal) <= offered_actions(controls):
        return []
    return [t(locale, "game.controls_more")]


def views_of(
    snap: GameSnapshot,
    turns: Sequence[PlayedTurn] | None,
    focus_seat: int | None,
    table: bool = False,
) -> list[dict[str, Any]]:
    """Which pictures a board message carries: after a turn ended, the views of that turn (the
    mover's board with its changes, see ``render.turn_views``); else the board as it is
    (``render.board_views``; ``table``: the whole table, for ``/game board``)."""
    if not table and focus_seat is None and turns is not None and in_progress(turns) is None:
        last = last_ended(turns)
        if last is not None and last.mover is not None:
            return turn_views(snap.game, snap.state, last.start, last.mover)
    return board_views(snap.game, snap.state, focus_seat, table)


async def turn_message(
    locale: str,
    snap: GameSnapshot,
    outcome: Outcome | None = None,
    *,
    with_controls: bool = True,
    focus_seat: int | None = None,
    turns: Sequence[PlayedTurn] | None = None,
    away_until: float | None = None,
    table: bool = False,
) -> TurnMessage:
    """After an action: what happened, who is to act, the board and the controls. ``turns``
    (the game's move log in turns, ``bot.service.turns``) is given for public messages: they
    tell the whole last turn and draw it; ``table``: draw the whole table (``/game board``)."""
    drawing = start_board_images(locale, snap, views_of(snap, turns, focus_seat, table))
    try:
        lines = turn_lines(locale, snap, outcome, turns, away_until)
        controls = None
        if with_controls and snap.to_move is not None and not snap.seats[snap.to_move].is_bot:
            controls = get_presenter(snap.game).controls(snap.state, snap.legal, locale)
            lines += left_out_line(locale, snap.legal, controls)
    except BaseException:
        drawing.cancel()
        raise
    images = tuple(BoardImage(*drawn) for drawn in await drawing)
    content = fit_content("\n".join(lines))
    stood_in = snap.status == "active" and any(s.stand_in == "seat" for s in snap.seats)
    back = t(locale, "button.back") if stood_in and with_controls else None
    final = with_controls and snap.status == "finished"
    rematch = t(locale, "game.rematch.button") if final else ""
    return TurnMessage(snap.id, snap.version, content, images, controls, back, rematch)
