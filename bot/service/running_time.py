"""Running clock time: the one place where seconds a clock runs become a moment, and the other
way round.

Every turn deadline, reminder, vote end and grace period is ``deadline_after`` a start, and every
"how much of a clock is left / was used" is ``running_between`` two moments. Today a clock runs
all the time, so both are plain arithmetic; a calendar of times when clocks do not run (a
table's rest days) is plugged in here and nowhere else.
"""

from __future__ import annotations


def deadline_after(start: float, seconds: float) -> float:
    """The moment (unix time) at which a clock started at ``start`` with ``seconds`` runs out."""
    return start + seconds


def running_between(start: float, end: float) -> float:
    """How many seconds a clock runs from ``start`` to ``end`` (negative when ``end`` is
    earlier)."""
    return end - start
