"""What lobby and turn messages say and carry, built from service snapshots.

Discord-free: the results are plain data (text, PNG bytes, control specs); ``outgoing`` turns them
into discord.py objects and nothing here sends anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.adapter.rendering import draw_png
from bot.present import get_presenter
from bot.present.base import ControlRows, final_scores
from bot.service import fairness
from bot.service.bots import has_bots
from bot.service.models import GameSnapshot, Outcome
from engines.bots import LEVELS
from engines.registry import get_engine
from i18n import game_title, has, join_list, t, translator
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


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """A board message: ``controls`` act on ``game_id`` at ``version`` (None: nothing to press)."""

    game_id: int
    version: int
    content: str
    png: bytes
    alt_text: str
    controls: ControlRows | None
    #: the label of the Rematch button a finished game's final message carries ("": none)
    rematch: str = ""


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
    """The first board's promise: the SHA-256 of the secret seed (revealed when the game ends)."""
    return t(locale, "game.fairness.commitment", commitment=snap.commitment)


def seed_line(locale: str, snap: GameSnapshot) -> str:
    """The seed of a game that has ended, to check against the commitment shown at its start
    (empty while the game may still run: the seed would predict every die)."""
    if snap.revealed_seed is None:
        return ""
    seed = snap.revealed_seed
    text = fairness.committed_text(snap.game, snap.id, seed)  # what the commitment hashed
    return t(locale, "game.fairness.seed", seed=str(seed), text=text)


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
) -> TurnMessage:
    """After an action: what happened, who is to act, the board and the controls."""
    presenter = get_presenter(snap.game)
    lines: list[str] = []
    if outcome is not None and outcome.before.state is not None:
        lines += presenter.events(
            outcome.before.state, outcome.moves, snap.state, display_names(snap), locale
        )
    # the fairness lines come before the result or the prompt, which stay the message's last words
    first = outcome.before.state is None if outcome is not None else snap.turn == 0
    if first and snap.status == "active" and snap.commitment:
        lines.append(commitment_line(locale, snap))  # the game's first board: the promise
    if snap.status == "finished":
        lines.append(seed_line(locale, snap))  # the seed, to check the dice against
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
    final = with_controls and snap.status == "finished"
    rematch = t(locale, "game.rematch.button") if final else ""
    return TurnMessage(snap.id, snap.version, content, png, alt, controls, rematch)
