"""What lobby and turn messages say and carry, built from service snapshots.

Discord-free: the results are plain data (text, PNG bytes, control specs); ``outgoing`` turns them
into discord.py objects and nothing here sends anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapter.rendering import draw_png
from bot.present import get_presenter
from bot.present.base import ControlRows, final_scores
from bot.service.bots import has_bots
from bot.service.models import GameSnapshot, Outcome
from engines.bots import LEVELS
from engines.registry import get_engine
from i18n import duration, game_title, has, join_list, t, translator
from render import describe

MAX_CONTENT = 2000


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


def lobby_content(locale: str, snap: GameSnapshot) -> str:
    info = get_engine(snap.game).info
    title = game_title(locale, snap.game)
    players = join_list(locale, mentions(snap))
    lines = [
        f"**{t(locale, 'lobby.title', game=title)}**",
        t(locale, "lobby.host", host=f"<@{snap.host_id}>"),
        t(locale, "lobby.seats", seated=len(snap.seats), capacity=snap.capacity, players=players),
    ]
    clock = (
        duration(locale, snap.clock_seconds)
        if snap.clock_seconds
        else t(locale, "clock.choice.none")
    )
    lines.append(t(locale, "lobby.clock", clock=clock))
    changed = {
        k: v
        for k, v in snap.options.items()
        if any(o.name == k and o.default != v for o in info.options)
    }
    if changed:
        shown = [option_text(locale, snap.game, name, value) for name, value in changed.items()]
        lines.append(t(locale, "lobby.options", options=join_list(locale, shown)))
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


def lobby_message(locale: str, snap: GameSnapshot) -> LobbyMessage:
    controls = [
        LobbyControl(op, t(locale, f"lobby.button.{op}"), style, 0) for op, style in LOBBY_BUTTONS
    ]
    if has_bots(snap.game):
        controls += [
            LobbyControl(f"bot-{level}", t(locale, f"lobby.button.bot_{level}"), "secondary", 1)
            for level in LEVELS
        ]
    return LobbyMessage(snap.id, lobby_content(locale, snap), tuple(controls))


def when(unix: float | None, style: str = "R") -> str:
    """A Discord timestamp: every reader's client shows it in their own language and zone."""
    return f"<t:{int(unix or 0)}:{style}>"


def clock_lines(locale: str, snap: GameSnapshot, away_until: float | None = None) -> list[str]:
    """What a turn message says about the clock and stand-ins of the seat to move."""
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
        return lines
    if snap.clock_left is not None and away_until is not None:
        lines.append(t(locale, "clock.stopped", player=mover.name, until=when(away_until, "f")))
    elif snap.deadline is not None:
        lines.append(t(locale, "clock.runs_out", when=when(snap.deadline)))
    return lines


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """A board message: ``controls`` act on ``game_id`` at ``version`` (None: nothing to press);
    ``back_label``: the *I'm back* button for a player whose seat a computer plays."""

    game_id: int
    version: int
    content: str
    png: bytes
    alt_text: str
    controls: ControlRows | None
    back_label: str | None = None


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


async def board_png(locale: str, snap: GameSnapshot, **kwargs: object) -> tuple[bytes, str]:
    """Render off the event loop (Pillow is CPU-bound)."""
    names = display_names(snap)
    png = await draw_png(snap.game, snap.state, locale, names=names, **kwargs)
    return png, describe(snap.game, snap.state, translator(locale), names=names, **kwargs)


async def turn_message(
    locale: str,
    snap: GameSnapshot,
    outcome: Outcome | None = None,
    *,
    with_controls: bool = True,
    focus_seat: int | None = None,
    away_until: float | None = None,
) -> TurnMessage:
    """After an action: what happened, who is to act, the board and the controls
    (``away_until``: the player to move is away until then)."""
    presenter = get_presenter(snap.game)
    lines: list[str] = []
    if outcome is not None and outcome.before.state is not None:
        lines += presenter.events(
            outcome.before.state, outcome.moves, snap.state, display_names(snap), locale
        )
    if outcome is not None and outcome.before.to_move is not None:
        seat = outcome.before.seats[outcome.before.to_move]
        if seat.stand_in is not None and outcome.ended_turn:  # say who really played
            lines.append(t(locale, "stand_in.played", player=seat.name))
    # the clock and stand-ins before the prompt, which stays the message's last line
    lines += clock_lines(locale, snap, away_until)
    if snap.status == "finished":
        lines.append(result_line(locale, snap))
    elif snap.to_move is not None:
        mover = snap.seats[snap.to_move]
        if mover.is_bot:  # a prompt never addresses a computer opponent
            lines.append(t(locale, "game.bot_thinking", player=mover.name))
        else:
            lines.append(presenter.prompt(snap.state, mentions(snap), locale))
            turn_starts = outcome is not None and (
                outcome.ended_turn or outcome.before.state is None
            )
            if turn_starts and not presenter.public_every_action:
                # the turn's steps come as private answers: say how to get them back
                lines.append(t(locale, "game.controls_back"))
    content = fit_content("\n".join(lines))
    png, alt = await board_png(locale, snap, focus_seat=focus_seat)
    controls = None
    if with_controls and snap.to_move is not None and not snap.seats[snap.to_move].is_bot:
        controls = presenter.controls(snap.state, snap.legal, locale)
    stood_in = snap.status == "active" and any(s.stand_in == "seat" for s in snap.seats)
    back = t(locale, "button.back") if stood_in and with_controls else None
    return TurnMessage(snap.id, snap.version, content, png, alt, controls, back)
