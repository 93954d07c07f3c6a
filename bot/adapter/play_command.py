"""``/play <game>``: one subcommand per registered game, generated from its ``GameInfo``.

Each subcommand takes ``players`` (bounded by the game's seat range), ``thread`` (open the game in
a thread of its own) and one optional parameter per game option: ``bool`` options become Discord
booleans, ``choice`` options a string with fixed choices. Descriptions come from the game's
catalogue (``<game>.command.description``, ``<game>.option.<name>.help``, choice names from
``<game>.option.<name>.<value>`` when present), so a new game needs no code here.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Optional

import discord
from discord import app_commands

from bot.adapter.words import clock_choice_name, text
from bot.service.clocks import CLOCK_CHOICES
from bot.service.quiet import timezones_like
from engines.base import GameInfo, OptionSpec
from engines.registry import game_names, get_engine
from i18n import has

#: opens the lobby: (interaction, game, players or None, {option: value or None}, in a thread)
OpenLobby = Callable[[discord.Interaction, str, int | None, dict[str, Any], bool], Awaitable[None]]

PLAYERS = "players"
#: the turn clock, offered by every game's /play: per move or a time bank
#: (``bot.service.clocks.CLOCK_CHOICES``)
CLOCK = "clock"
THREAD = "thread"
#: the weekdays the table rests on, and the time zone they are read in (``bot.service.rest_time``)
REST = "rest_days"
TIMEZONE = "timezone"
#: what a player may type for them, at most
REST_TEXT = app_commands.Range[str, 1, 60]


def _annotation(spec: OptionSpec) -> Any:
    if spec.kind == "bool":
        return Optional[bool]  # noqa: UP045 (discord.py reads the typing form at run time)
    if spec.kind == "choice":
        return Optional[app_commands.Choice[str]]  # noqa: UP045
    raise ValueError(f"option {spec.name!r}: /play cannot offer options of kind {spec.kind!r}")


def _choices(game: str, spec: OptionSpec) -> list[app_commands.Choice[str]]:
    choices = []
    for value in spec.choices:
        key = f"{game}.option.{spec.name}.{value}"
        name: str | app_commands.locale_str = text(key) if has(key) else value
        choices.append(app_commands.Choice(name=name, value=value))
    return choices


def _signature(info: GameInfo) -> inspect.Signature:
    keyword = inspect.Parameter.KEYWORD_ONLY
    players = app_commands.Range[int, info.min_seats, info.max_seats]
    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_ONLY, annotation=discord.Interaction
        ),
        inspect.Parameter(PLAYERS, keyword, default=None, annotation=Optional[players]),  # noqa: UP045
        inspect.Parameter(
            CLOCK,
            keyword,
            default=None,
            annotation=Optional[app_commands.Choice[str]],  # noqa: UP045
        ),
        inspect.Parameter(THREAD, keyword, default=None, annotation=Optional[bool]),  # noqa: UP045
        inspect.Parameter(REST, keyword, default=None, annotation=Optional[REST_TEXT]),  # noqa: UP045
        inspect.Parameter(TIMEZONE, keyword, default=None, annotation=Optional[REST_TEXT]),  # noqa: UP045
    ]
    params += [
        inspect.Parameter(spec.name, keyword, default=None, annotation=_annotation(spec))
        for spec in info.options
    ]
    return inspect.Signature(params)


async def timezone_suggestions(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Time zone names while the host types one (``Europe/Ber`` ...)."""
    if not isinstance(current, str):
        return []
    return [app_commands.Choice(name=z, value=z) for z in timezones_like(current[:60])]


def play_subcommand(info: GameInfo, open_lobby: OpenLobby) -> app_commands.Command[Any, Any, Any]:
    """The ``/play <game>`` subcommand of one game."""
    game = info.name

    async def play(interaction: discord.Interaction, **given: Any) -> None:
        players = given.pop(PLAYERS, None)
        thread = bool(given.pop(THREAD, None))
        options = {
            name: value.value if isinstance(value, app_commands.Choice) else value
            for name, value in given.items()
        }
        await open_lobby(interaction, game, players, options, thread)

    play.__signature__ = _signature(info)  # type: ignore[attr-defined]
    play.__qualname__ = play.__name__ = f"play_{game}"
    described = app_commands.describe(
        **{
            PLAYERS: text("command.play.players"),
            CLOCK: text("command.play.clock"),
            THREAD: text("command.play.thread"),
            REST: text("command.play.rest"),
            TIMEZONE: text("command.play.timezone"),
        },
        **{spec.name: text(f"{game}.option.{spec.name}.help") for spec in info.options},
    )(play)
    described = app_commands.rename(
        **{
            PLAYERS: text("command.play.players.name"),
            CLOCK: text("command.play.clock.name"),
            THREAD: text("command.play.thread.name"),
            REST: text("command.play.rest.name"),
            TIMEZONE: text("command.play.timezone.name"),
        },
        **{
            spec.name: text(f"{game}.option.{spec.name}.param")
            for spec in info.options
            if has(f"{game}.option.{spec.name}.param")
        },
    )(described)
    clocks = [
        app_commands.Choice(name=clock_choice_name(value), value=value)
        for value in CLOCK_CHOICES
    ]
    chosen = app_commands.choices(
        **{CLOCK: clocks},
        **{s.name: _choices(game, s) for s in info.options if s.kind == "choice"},
    )(described)
    chosen = app_commands.autocomplete(**{TIMEZONE: timezone_suggestions})(chosen)
    return app_commands.Command(
        name=game, description=text(f"{game}.command.description"), callback=chosen
    )


def build_play_group(open_lobby: OpenLobby) -> app_commands.Group:
    """One /play subcommand per registered game, with that game's options."""
    group = app_commands.Group(
        name=text("command.play.name"), description=text("command.play.description")
    )
    for game in game_names():
        group.add_command(play_subcommand(get_engine(game).info, open_lobby))
    return group
