"""Small helpers shared by the benchmarks: percentiles and a one-line summary."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary_ms(label: str, seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"{label}: n={len(ms)} median={statistics.median(ms):.2f} ms "
        f"p95={percentile(ms, 95):.2f} ms p99={percentile(ms, 99):.2f} ms max={max(ms):.2f} ms"
    )
