"""Small helpers shared by the benchmarks: percentiles and a one-line summary."""

from __future__ import annotations

import math
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


Z95 = 1.959964  # two-sided 95 % normal quantile


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal 95 % interval."""
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def wilson(successes: float, n: int) -> tuple[float, float, float]:
    """Rate and Wilson 95 % interval (``successes`` may hold halves for shared wins)."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return p, centre - half, centre + half


def decision_times(values: Sequence[float], digits: int = 3) -> str:
    """Median, p95, p99 and max of decision times (seconds in, milliseconds out)."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) * 1e3:.{digits}f} ms, "
        f"p95 {p95 * 1e3:.{digits}f} ms, p99 {p99 * 1e3:.{digits}f} ms, "
        f"max {ordered[-1] * 1e3:.1f} ms over {len(ordered)} decisions"
    )
