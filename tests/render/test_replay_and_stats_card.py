"""The animated replay (frames per ended turn, durations, size, sampling) and the /stats card."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image

from engines.base import CHANCE, TERMINAL
from engines.bots import get_bot
from engines.registry import get_engine
from engines.rng import Rng
from i18n import Translator
from render import replay
from render.stats_card import CardGame, card_png, describe
from tests.per_game import games_with_bots, per_game


@cache
def bot_game(game: str, seats: int, seed: int = 3) -> tuple[str, ...]:
    """The move log of a whole game between easy computer players."""
    engine, bot = get_engine(game), get_bot(game, "easy")
    state, log = engine.initial_state(seats, {}), []
    for step in range(5000):
        mover = engine.to_move(state)
        if mover == TERMINAL:
            return tuple(log)
        rng = Rng.for_step(seed, step)
        action = (
            engine.sample_chance(state, rng) if mover == CHANCE else bot.choose(engine, state, rng)
        )
        log.append(engine.encode_action(action))
        state = engine.apply(state, action)
    raise AssertionError("no end")


def frames_of(data: bytes) -> tuple[str, int, list[int]]:
    image = Image.open(io.BytesIO(data))
    durations = []
    for i in range(image.n_frames):
        image.seek(i)
        image.load()  # WebP reads a frame's duration with the frame
        durations.append(image.info["duration"])
    return image.format, image.n_frames, durations


@per_game
@pytest.mark.parametrize("game", games_with_bots())
def test_one_state_per_ended_turn(game: str) -> None:
    engine = get_engine(game)
    log = bot_game(game, 2)
    states = replay.turn_states(engine, 2, {}, log)
    final = states[-1]
    assert engine.to_move(final) == TERMINAL
    assert [engine.turn(s) for s in states] == list(range(engine.turn(final) + 1))
    assert all(engine.to_move(s) != CHANCE for s in states)


@pytest.mark.parametrize(
    ("game", "fmt"),
    [("cantstop", "gif"), ("cantstop", "webp"), ("kokeshi", "webp"), ("harmonies", "webp")],
)
def test_the_animation_decodes_with_a_frame_per_turn_and_the_last_held(
    game: str, fmt: str
) -> None:
    engine = get_engine(game)
    states = replay.turn_states(engine, 2, {}, bot_game(game, 2))
    made = replay.animate(game, states, Translator(), names=["Ann", "Bo"], fmt=fmt)
    decoded, count, durations = frames_of(made.data)
    assert decoded == fmt.upper() and made.format == fmt
    assert count == made.frames == len(states)
    assert durations == [replay.FRAME_MS] * (count - 1) + [replay.LAST_MS]
    assert len(made.data) < replay.MAX_BYTES
    assert Image.open(io.BytesIO(made.data)).size == made.size
    assert made.size[0] <= replay.WIDTHS[0]


def test_boards_of_different_sizes_become_frames_of_one_size() -> None:
    small = Image.new("P", (4, 3), 1)
    small.putpalette([0, 0, 0, 200, 100, 50] * 128)
    big = Image.new("P", (6, 5), 0)
    big.putpalette(small.getpalette())
    padded = replay.same_size([small, big])
    assert [f.size for f in padded] == [(6, 5), (6, 5)] and padded[1] is big
    assert padded[0].getpixel((5, 4)) == 1 and padded[0].getpalette() == small.getpalette()


def test_auto_sends_the_webp_only_where_it_is_much_smaller() -> None:
    engine = get_engine("cantstop")
    states = replay.turn_states(engine, 2, {}, bot_game("cantstop", 2))[:8]
    gif = replay.animate("cantstop", states, fmt="gif")
    webp = replay.animate("cantstop", states, fmt="webp")
    auto = replay.animate("cantstop", states, fmt="auto")
    expected = "webp" if len(webp.data) * replay.WEBP_GAIN <= len(gif.data) else "gif"
    assert auto.format == expected


def test_a_long_game_is_sampled_to_the_budget_keeping_first_and_last() -> None:
    assert replay.sample(5, 10) == [0, 1, 2, 3, 4]
    picked = replay.sample(1000, 120)
    assert len(picked) == 120 and picked[0] == 0 and picked[-1] == 999
    assert picked == sorted(set(picked))
    engine = get_engine("cantstop")
    states = replay.turn_states(engine, 2, {}, bot_game("cantstop", 2))
    assert len(states) > 12
    made = replay.animate("cantstop", states, budget=12, fmt="gif")
    assert frames_of(made.data)[1] == 12


def test_too_large_a_file_is_drawn_smaller_or_refused() -> None:
    engine = get_engine("cantstop")
    states = replay.turn_states(engine, 2, {}, bot_game("cantstop", 2))[:6]
    big = replay.animate("cantstop", states, fmt="gif")
    small = replay.animate("cantstop", states, fmt="gif", max_bytes=len(big.data) - 1)
    assert small.size[0] < big.size[0] and len(small.data) < len(big.data)
    with pytest.raises(ValueError):
        replay.animate("cantstop", states, fmt="gif", max_bytes=1000)


def test_the_log_replay_job_pickles_its_result() -> None:
    import pickle

    made = replay.replay_log("kokeshi", 2, {}, list(bot_game("kokeshi", 2)), Translator("ja"))
    again = pickle.loads(pickle.dumps(made))
    assert again == made and frames_of(made.data)[1] == made.frames


CARD = [
    CardGame("cantstop", 12, 5, 2.4, 3, 7.26, 10, (0.0, 2.1, 3.5, 7.26), {"busts": 2.26}),
    CardGame("harmonies", 4, 1, 78.5, 96, None, 0, (), {"trees": 12.5, "water": 14.0}),
]


@pytest.mark.parametrize("lang", ["en", "ja", "de", "fr"])
def test_the_stats_card_is_a_png_with_its_numbers_in_the_alt_text(lang: str) -> None:
    tr = Translator(lang)
    png = card_png("Alice", CARD, tr)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == 640 and image.size[1] > 300
    alt = describe("Alice", CARD, tr)
    assert "Alice" in alt and tr.number(7.3) in alt and tr.number(78.5) in alt
    assert tr.number(2.3) in alt  # busts per game (rounded to one decimal)
    assert card_png("Alice", CARD[:1], tr) != png
    assert Image.open(io.BytesIO(card_png("Bob", [], tr))).size[1] < image.size[1]
