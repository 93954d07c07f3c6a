"""What ``/mygames`` and the digest say about a game's time, in every language: a turn whose
time ran out while the table votes says the table is deciding, until when (not "time runs out
… ago"); a resting table says until when it rests; through the real service and database
(both backends) as the lists read them."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from bot.adapter.digest import digest_text
from bot.adapter.mygames_command import mygames_text, time_left
from bot.service.clocks import DEADLINE, VOTE_END, TimeUnits, TurnClock
from bot.service.games import GameService
from bot.service.table import WAIT, Table
from bot.storage import open_store
from i18n import t
from tests.bot.test_rest_words import game
from tests.service.test_turn_clocks import ALICE, BOB, CLOCK, Now, start, timer

LANGUAGES = ("en", "de", "fr", "ja")
DEADLINE_AT = 1_800_000_000  # the deadline of ``game()``


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_table_voting_says_until_when_not_a_deadline_past(lang: str) -> None:
    said = time_left(lang, game(), deciding=1_800_003_600.0)
    assert said == t(lang, "mygames.left.voting", until="<t:1800003600:f>")
    assert f"<t:{DEADLINE_AT}:R>" not in said
    assert said != t(lang, "mygames.left.runs_out", when=f"<t:{DEADLINE_AT}:R>")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_resting_table_says_until_when_then_its_deadline(lang: str) -> None:
    said = time_left(lang, game(resting_until=1_799_990_000.0))
    assert said == t(
        lang, "mygames.left.resting", until="<t:1799990000:f>", when=f"<t:{DEADLINE_AT}:R>"
    )
    assert "<t:1799990000:f>" in said and f"<t:{DEADLINE_AT}:R>" in said
    # not resting: the deadline alone; an away player's stopped clock wins over the rest
    plain = t(lang, "mygames.left.runs_out", when=f"<t:{DEADLINE_AT}:R>")
    assert time_left(lang, game()) == plain
    away = game(resting_until=1_799_990_000.0, deadline=None, clock_left=50.0)
    assert time_left(lang, away) == t(lang, "mygames.left.away")


@pytest.fixture
async def table(database: str, now: Now) -> Any:
    store = open_store(database)  # each backend in turn (tests/conftest.py)
    await store.open()
    service = GameService(store, turn_clock=TurnClock(now=now, units=TimeUnits(hour=100)))
    yield Table(service, now=now)
    await store.close()


@pytest.fixture
def now() -> Now:
    return Now()


async def test_the_lists_say_the_table_decides_while_its_vote_is_open(
    table: Table, now: Now
) -> None:
    runtime: Any = SimpleNamespace(service=table.service)
    client: Any = SimpleNamespace(get_guild=lambda guild_id: None)
    game_id = await start(table)
    passed = (await table.service.game(game_id)).deadline
    assert passed is not None
    runs_out = t("en", "mygames.left.runs_out", when=f"<t:{int(passed)}:R>")
    assert runs_out in await mygames_text(runtime, "en", 1, ALICE)
    now.t += CLOCK + 1  # Alice's time ran out: the table votes
    await table.deadline_passed(await timer(table, game_id, DEADLINE))
    vote_end = await timer(table, game_id, VOTE_END)
    for lang in LANGUAGES:
        voting = t(lang, "mygames.left.voting", until=f"<t:{int(vote_end.due)}:f>")
        for user_id in (ALICE, BOB):  # hers, and Bob's list of games waiting for others
            said = await mygames_text(runtime, lang, 1, user_id)
            assert voting in said and f"<t:{int(passed)}:R>" not in said
        snap = await table.service.game(game_id)
        said = await digest_text(client, runtime, lang, [snap])
        assert voting in said and f"<t:{int(passed)}:R>" not in said
    # the table decides to wait another clock period: a deadline ahead again
    vote_id = json.loads(vote_end.data)["vote_id"]
    await table.cast(vote_id, BOB, WAIT, can_manage=False)
    ahead = (await table.service.game(game_id)).deadline
    assert ahead is not None and ahead > now.t
    said = await mygames_text(runtime, "en", 1, ALICE)
    assert t("en", "mygames.left.runs_out", when=f"<t:{int(ahead)}:R>") in said
    assert "voting" not in said
