"""/play is generated from each game's GameInfo: one subcommand per game, its options, its words."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.adapter.play_command import build_play_group
from bot.service.clocks import CLOCK_CHOICES
from engines.registry import game_names, get_engine
from i18n import has
from tests.per_game import games, per_game

CHOICE_TYPE, BOOL_TYPE, INT_TYPE = 3, 5, 4


async def _no_lobby(*args: object) -> None:
    raise AssertionError("not called")


@pytest.fixture(scope="module")
def payload() -> dict[str, dict]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    group = build_play_group(_no_lobby)
    tree.add_command(group)
    return {c["name"]: c for c in group.to_dict(tree)["options"]}


@per_game
def test_one_subcommand_per_registered_game(payload: dict[str, dict]) -> None:
    assert sorted(payload) == sorted(game_names())


@per_game
@pytest.mark.parametrize("game", games())
def test_parameters_follow_the_game_info(game: str, payload: dict[str, dict]) -> None:
    info = get_engine(game).info
    params = {p["name"]: p for p in payload[game]["options"]}
    players = params.pop("players")
    assert (players["type"], players["min_value"], players["max_value"]) == (
        INT_TYPE,
        info.min_seats,
        info.max_seats,
    )
    clock = params.pop("clock")  # every game has a turn clock
    assert [c["value"] for c in clock["choices"]] == list(CLOCK_CHOICES)
    thread = params.pop("thread")
    assert thread["type"] == BOOL_TYPE and 0 < len(thread["description"]) <= 100
    rest_days, timezone = params.pop("rest_days"), params.pop("timezone")  # every table may rest
    for option in (rest_days, timezone):
        assert option["type"] == CHOICE_TYPE and option["max_length"] == 60  # a string
    assert timezone["autocomplete"] and not rest_days.get("autocomplete")
    assert not any(p["required"] for p in payload[game]["options"])
    assert sorted(params) == sorted(o.name for o in info.options)
    for spec in info.options:
        param = params[spec.name]
        if spec.kind == "bool":
            assert param["type"] == BOOL_TYPE and "choices" not in param
        else:
            assert param["type"] == CHOICE_TYPE
            assert [c["value"] for c in param["choices"]] == list(spec.choices)
        assert has(f"{game}.option.{spec.name}.help"), spec.name
        assert has(f"{game}.option.{spec.name}"), spec.name
        assert 0 < len(param["description"]) <= 100
    assert has(f"{game}.command.description") and has(f"{game}.title")


async def test_a_subcommand_passes_plain_option_values_to_the_lobby() -> None:
    calls: list[tuple] = []

    async def open_lobby(interaction, game, players, options, thread) -> None:
        calls.append((game, players, options, thread))

    group = build_play_group(open_lobby)
    command = group.get_command("harmonies")
    assert isinstance(command, app_commands.Command)
    side = app_commands.Choice(name="B", value="B")
    await command.callback(None, players=2, side=side, spirits=True)  # type: ignore[arg-type]
    await command.callback(None, thread=True)  # type: ignore[arg-type]
    assert calls == [
        ("harmonies", 2, {"side": "B", "spirits": True}, False),
        ("harmonies", None, {}, True),
    ]
