"""The last line of a game: congratulations and the final scores, in the game's own unit."""

from __future__ import annotations

from bot.adapter.messages import result_line
from bot.service.models import GameSnapshot, Seat


def finished(game: str, scores: tuple[int, ...]) -> GameSnapshot:
    return GameSnapshot(
        id=1,
        guild_id=1,
        channel_id=2,
        game=game,
        host_id=5,
        status="finished",
        version=9,
        capacity=2,
        options={},
        seats=(Seat(0, 5, "alice"), Seat(1, 6, "bob")),
        scores=scores,
        winners=(scores.index(max(scores)),),
    )


def test_cantstop_final_scores_are_claimed_columns() -> None:
    line = result_line("en", finished("cantstop", (1, 3)))
    assert line == "Congratulations <@6>! Final scores: alice 1 claimed column, bob 3 claimed columns."
    assert "3列" in result_line("ja", finished("cantstop", (1, 3)))
    assert "3 besetzte Reihen" in result_line("de", finished("cantstop", (1, 3)))
    assert "1 colonne remportée" in result_line("fr", finished("cantstop", (1, 3)))


def test_games_without_a_unit_keep_plain_points() -> None:
    assert "alice 39, bob 41." in result_line("en", finished("harmonies", (39, 41)))


def test_how_an_ended_game_ended() -> None:
    from dataclasses import replace

    from bot.adapter.messages import ended_text

    won = finished("cantstop", (1, 3))
    assert ended_text("en", won) == "This game has ended: <@6> won. Start a new one with `/play`."
    gave_up = replace(won, status="abandoned", winners=(), ended_by=5)
    assert ended_text("en", gave_up).startswith("This game has ended: <@5> abandoned it.")
    assert "abandoned" in ended_text("en", replace(gave_up, ended_by=None))
    assert "<@5>" in ended_text("de", gave_up) and "<@5>" in ended_text("ja", gave_up)
