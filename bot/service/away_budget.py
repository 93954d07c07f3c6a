"""The vacation budget: how much away time (``/away``) a player has left on a server.

- A year is rolling: an away period counts against the budget, whole, for 365 days (of game
  time) from the moment it started, then no longer. Nothing resets on a calendar date.
- An away period ended early (``/away off``, or a new ``/away`` replacing the one under way)
  counts only as long as it really lasted: the unused time comes back at once.
- The budget is the server's choice (``/settings server``), 21 days a year unless set; 0 turns
  away mode off on the server.
- The budget is nearly spent when at most two days are left: the ``/away`` answer says so, and
  so does the player's next reminder after the away period that made it so (once).

Because the budget bounds it, an away player's clock truly stands still (``bot.service.clocks``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.clocks import TimeUnits
from bot.storage.base import AwayPeriodRow

DEFAULT_AWAY_DAYS = 21
AWAY_DAYS_RANGE = (0, 365)
#: how long an away period counts against the budget
YEAR_DAYS = 365
#: at most this much left: the budget is nearly spent
LOW_BUDGET_HOURS = 48


def year_seconds(units: TimeUnits) -> float:
    return units.hours(24 * YEAR_DAYS)


@dataclass(frozen=True, slots=True)
class AwayBudget:
    """A player's away budget on a server at ``now`` (seconds of scaled game time)."""

    total: float
    spent: float
    #: the away period under way (None: not away)
    current: AwayPeriodRow | None
    #: the newest period that counts (None: none does)
    newest: AwayPeriodRow | None
    low_mark: float

    @property
    def left(self) -> float:
        return max(0.0, self.total - self.spent)

    @property
    def is_low(self) -> bool:
        """Nearly spent (a player who spent none of it is never told so)."""
        return self.newest is not None and self.left <= self.low_mark


def budget_of(
    periods: Sequence[AwayPeriodRow], now: float, total: float, units: TimeUnits
) -> AwayBudget:
    """The budget left of ``total`` after ``periods`` (those older than a year do not count)."""
    counted = [p for p in periods if p.since > now - year_seconds(units)]
    spent = sum(max(0.0, p.until - p.since) for p in counted)
    current = next((p for p in counted if p.since <= now < p.until), None)
    return AwayBudget(
        total=total,
        spent=spent,
        current=current,
        newest=max(counted, key=lambda p: p.since, default=None),
        low_mark=units.hours(LOW_BUDGET_HOURS),
    )


def with_current_ended(budget: AwayBudget, now: float) -> AwayBudget:
    """The budget as it is once the period under way ends now (its unused time given back)."""
    if budget.current is None:
        return budget
    unused = max(0.0, budget.current.until - now)
    return AwayBudget(
        budget.total, budget.spent - unused, None, budget.newest, budget.low_mark
    )


def fits(budget: AwayBudget, seconds: float) -> bool:
    """Is ``seconds`` of away time within what is left (the rounding of stored unix times
    aside: a millisecond, or a millionth of the budget)?"""
    return seconds <= budget.left + 1e-6 * max(1000.0, budget.total)
