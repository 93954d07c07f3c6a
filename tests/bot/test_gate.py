"""The interaction gate counts interactions and their age: one that waited too long to be
answered is still carried out if it changes something (its result goes to the channel), and
dropped if it only looks; a host clock that is off is corrected from the interactions."""

from __future__ import annotations

import datetime as dt
import itertools
from types import SimpleNamespace

import discord

from bot.adapter.runtime import START_BY, InteractionGate

ids = itertools.count(1)


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def made(at: float) -> SimpleNamespace:
    """An interaction as the gate sees it: an id, its creation time, a response state, and what
    the metrics name it by (a click on a move button)."""
    created_ms = round(at * 1000) - discord.utils.DISCORD_EPOCH
    return SimpleNamespace(
        id=(created_ms << 22) | (next(ids) & 0x3FFFFF),  # a snowflake: its time, then a serial
        created_at=dt.datetime.fromtimestamp(at, tz=dt.UTC),
        response=SimpleNamespace(is_done=lambda: False),
        type=discord.InteractionType.component,
        data={"custom_id": "br:1:1:roll"},
    )


async def no_error(interaction, error) -> None:
    raise AssertionError(error)


async def test_late_interactions_change_but_do_not_answer() -> None:
    clock = Clock()
    gate = InteractionGate(10, no_error, clock=clock)
    seen: list[tuple[bool, float]] = []

    def work(interaction):
        async def run() -> None:
            seen.append((gate.ticket(interaction).late, gate.time_left(interaction)))

        return run()

    fresh = made(clock.now - 0.1)
    await gate.run(fresh, work(fresh))
    stale = made(clock.now - 3.5)  # e.g. the process was stopped for 3.5 s
    await gate.run(stale, work(stale))
    look = made(clock.now - 3.5)
    await gate.run(look, work(look), reads_only=True)
    assert seen[0][0] is False and 2.7 < seen[0][1] < 2.9
    assert seen[1] == (True, 0.0)
    assert len(seen) == 2  # the late look was dropped unrun
    assert gate.in_flight == 0


async def test_a_clock_that_is_off_is_corrected_from_the_interactions() -> None:
    clock = Clock()
    gate = InteractionGate(10, no_error, clock=clock)
    ages = []

    async def nothing() -> None:
        return None

    for _ in range(5):  # this host's clock runs 10 s ahead of Discord's
        interaction = made(clock.now - 10.05)
        await gate.run(interaction, nothing())
        ages.append(gate.age(interaction))
    assert ages[-1] < START_BY and gate.can_answer(interaction)
    stalled = made(clock.now - 13.6)
    assert gate.age(stalled) > START_BY
    behind = InteractionGate(10, no_error, clock=clock)  # ... or 5 s behind it
    for _ in range(3):
        await behind.run(made(clock.now + 4.95), nothing())
    assert abs(behind.age(made(clock.now + 4.95))) < 0.01
    assert behind.age(made(clock.now + 1.0)) > START_BY
