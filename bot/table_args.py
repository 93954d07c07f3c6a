"""The table ``boardroom play`` and ``boardroom demo`` set up, checked before anything runs:
every bad argument is one sentence (``BadArguments``) and the command exits with status 2,
like argparse's own refusals."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from engines.base import GameInfo
from engines.bots import LEVELS
from engines.registry import get_engine
from i18n import game_title, player_name, t

LOCALE = "en"


class BadArguments(Exception):
    """A command line that cannot be played; ``str()`` is the sentence that says why."""


@dataclass(frozen=True, slots=True)
class TableArgs:
    """The seats and options of a terminal game: people (or random players) first, then the
    computer opponents; ``out``: the folder for the boards (created), or None."""

    game: str
    people: tuple[str, ...]
    bots: tuple[tuple[str, str], ...]  # (name, level)
    options: dict[str, str]
    out: Path | None


def bot_levels(text: str) -> list[str]:
    levels = [level.strip() for level in text.split(",") if level.strip()]
    bad = [level for level in levels if level not in LEVELS]
    if bad:
        raise BadArguments(
            t(LOCALE, "cli.args.bots", levels=", ".join(LEVELS), bad=", ".join(bad))
        )
    return levels


def option_pairs(info: GameInfo, pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` pairs, checked against the game's options."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadArguments(t(LOCALE, "cli.args.option_form", value=pair))
        options[key.strip()] = value.strip()
    try:
        info.normalize_options(options)
    except ValueError as problem:
        raise BadArguments(bad_option(info, str(problem))) from None
    return options


def bad_option(info: GameInfo, detail: str) -> str:
    if not info.options:
        title = game_title(LOCALE, info.name)
        return t(LOCALE, "cli.args.no_options", game=title, detail=detail)
    offered = [
        f"{spec.name}={'|'.join(spec.choices) if spec.kind == 'choice' else 'on|off'}"
        for spec in info.options
    ]
    title = game_title(LOCALE, info.name)
    return t(LOCALE, "cli.args.option", game=title, detail=detail, options=", ".join(offered))


def boards_folder(text: str | None) -> Path | None:
    """The folder for the boards, created now so a bad one is said before the game."""
    if text is None:
        return None
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise BadArguments(t(LOCALE, "cli.args.out_file", path=folder))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        raise BadArguments(t(LOCALE, "cli.args.out", path=folder, reason=reason)) from None
    return folder


def table_args(args: argparse.Namespace, *, keyboard: bool) -> TableArgs:
    """The table of ``play`` (``keyboard``: people type their moves; at least one) or ``demo``
    (random players, none by default when computer opponents are named)."""
    info = get_engine(args.game).info
    levels = bot_levels(args.bots or "")
    lowest = 1 if keyboard else 0
    count = args.players
    if count is None:
        count = (1 if keyboard else 0) if levels else 2
    if count < lowest:
        key = "cli.args.people" if keyboard else "cli.args.random_players"
        raise BadArguments(t(LOCALE, key, value=count))
    seats = count + len(levels)
    if not info.min_seats <= seats <= info.max_seats:
        raise BadArguments(
            t(
                LOCALE,
                "cli.args.seats",
                game=game_title(LOCALE, info.name),
                minimum=info.min_seats,
                maximum=info.max_seats,
                count=seats,
            )
        )
    people = tuple(player_name(LOCALE, i, None) for i in range(count))
    bots = tuple(
        (t(LOCALE, f"bot.name.{level}", number=count + i + 1), level)
        for i, level in enumerate(levels)
    )
    options = option_pairs(info, list(args.option))
    return TableArgs(args.game, people, bots, options, boards_folder(args.out))


__all__ = ["BadArguments", "TableArgs", "bad_option", "boards_folder", "table_args"]
