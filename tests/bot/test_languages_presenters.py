"""Every game's words and controls in every language: controls within Discord's limits (labels
80, options 100, 25 options, 5 rows) and reaching the same legal actions as in English, turn
messages within 2,000 characters, alt text within 1,024, and no placeholder left unfilled."""

from __future__ import annotations

import pytest

from bot.adapter.messages import MAX_CONTENT, fit_content
from bot.present import get_presenter
from bot.service.models import LoggedMove
from engines.base import CHANCE, TERMINAL
from engines.registry import get_engine
from engines.rng import Rng
from i18n import Translator
from render import describe
from tests.bot.controls import check_limits, reachable
from tests.per_game import games, per_game, seat_counts

LANGUAGES = ("en", "ja", "de", "fr")
LONG_NAMES = ["Bartholomew the Magnificent", "Ангелина Васильевна", "高橋みなみ子さん", "Zoë-Léa"]


def playout(game: str, seats: int, seed: int, limit: int = 400):
    """(before, logged moves, after) for each action of a seeded random game, chance included."""
    engine = get_engine(game)
    s = engine.initial_state(seats, {})
    choice = Rng.for_step(seed, 10**6)
    step = 0
    while engine.to_move(s) == CHANCE:
        s = engine.apply(s, engine.sample_chance(s, Rng.for_step(seed, step)))
        step += 1
    for _ in range(limit):
        if engine.to_move(s) == TERMINAL:
            return
        before, seat = s, engine.to_move(s)
        legal = engine.legal_actions(s)
        action = legal[choice.below(len(legal))]
        moves = [LoggedMove(step, seat, engine.encode_action(action))]
        s = engine.apply(s, action)
        step += 1
        while engine.to_move(s) == CHANCE:
            chance = engine.sample_chance(s, Rng.for_step(seed, step))
            moves.append(LoggedMove(step, None, engine.encode_action(chance)))
            s = engine.apply(s, chance)
            step += 1
        yield before, moves, s


@per_game
@pytest.mark.parametrize(("game", "seats"), list(seat_counts()))
def test_words_and_controls_fit_discord_in_every_language(game: str, seats: int) -> None:
    engine, presenter = get_engine(game), get_presenter(game)
    names = LONG_NAMES[:seats]
    mentions = [f"<@{100000000000000000 + k}>" for k in range(seats)]
    for before, moves, after in playout(game, seats, seed=seats * 7 + len(game)):
        legal = [engine.encode_action(a) for a in engine.legal_actions(after)]
        reach: dict[str, set[str]] = {}
        for lang in LANGUAGES:
            lines = presenter.events(before, moves, after, names, lang)
            if engine.to_move(after) not in (CHANCE, TERMINAL):
                lines.append(presenter.prompt(after, mentions, lang))
                rows = presenter.controls(after, legal, lang)
                check_limits(rows)
                reach[lang] = set(reachable(rows))
            content = fit_content("\n".join(lines))
            assert len(content) <= MAX_CONTENT
            assert "{" not in content and "}" not in content, (lang, content)
            alt = describe(game, after, Translator(lang), names=names)
            assert alt and "{" not in alt
            for move in moves:
                assert "{" not in presenter.describe_move(before, move, lang)
        if reach:
            assert all(found == reach["en"] for found in reach.values()), reach


@per_game
@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_fit_an_embed(game: str, lang: str) -> None:
    summary = get_presenter(game).rules_summary(lang)
    assert 0 < len(summary) <= 4000 and "{" not in summary.replace("{{", "")
