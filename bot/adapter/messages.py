"""Message parts for lobbies and turns, built from service snapshots (no sending here)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.adapter.components import LobbyButton, action_view
from bot.adapter.rendering import draw_png
from bot.adapter.words import game_title
from bot.present import get_presenter
from bot.service.bots import has_bots
from bot.service.models import GameSnapshot, Outcome
from engines.bots import LEVELS
from engines.registry import get_engine
from i18n import has, join_list, t, translator
from render import describe

#: mentions only ever ping users, never roles or everyone
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
MAX_CONTENT = 2000


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
    lines.append(t(locale, "lobby.hint", minimum=info.min_seats, capacity=snap.capacity))
    return "\n".join(lines)


LOBBY_BUTTONS = (
    ("join", "primary"),
    ("leave", "secondary"),
    ("start", "success"),
    ("cancel", "danger"),
)


def lobby_view(locale: str, snap: GameSnapshot) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op, style in LOBBY_BUTTONS:
        view.add_item(LobbyButton(snap.id, op, t(locale, f"lobby.button.{op}"), style, row=0))
    if has_bots(snap.game):
        for level in LEVELS:
            label = t(locale, f"lobby.button.bot_{level}")
            view.add_item(LobbyButton(snap.id, f"bot-{level}", label, "secondary", row=1))
    return view


@dataclass(frozen=True, slots=True)
class TurnMessage:
    content: str
    png: bytes
    alt_text: str
    view: discord.ui.View | None

    def file(self) -> discord.File:
        return discord.File(
            io.BytesIO(self.png), filename="board.png", description=self.alt_text[:1024]
        )


def result_line(locale: str, snap: GameSnapshot) -> str:
    """Congratulations (a ping for the winners) and the final scores; the game's own words
    about how the game was won come from its presenter."""
    names = display_names(snap)
    winners = join_list(locale, [mention(snap.seats[w].user_id, names[w]) for w in snap.winners])
    scores = ", ".join(
        t(locale, "game.result.score_item", player=names[i], score=score)
        for i, score in enumerate(snap.scores)
    )
    return t(locale, "game.result.final", winners=winners, scores=scores)


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
    if snap.status == "finished":
        lines.append(result_line(locale, snap))
    elif snap.to_move is not None:
        lines.append(presenter.prompt(snap.state, mentions(snap), locale))
    content = "\n".join(lines)
    if len(content) > MAX_CONTENT:
        content = "…\n" + content[-(MAX_CONTENT - 2) :]
    png, alt = await board_png(locale, snap, focus_seat=focus_seat)
    view = None
    if with_controls and snap.to_move is not None and not snap.seats[snap.to_move].is_bot:
        view = action_view(
            snap.id, snap.version, presenter.controls(snap.state, snap.legal, locale)
        )
    return TurnMessage(content, png, alt, view)
