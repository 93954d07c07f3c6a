"""The real bot with an event-loop stall monitor, for the end-to-end benchmark.

``python -m bench.e2e_bot`` runs exactly what ``boardroom run`` (``bot.cli.main(["run"])``)
runs, unmodified, with one addition: the asyncio event loop that ``asyncio.run`` creates gets a
small monitor task. It sleeps 5 ms in a loop and records how late each wake-up is; a late
wake-up means the loop was busy (a blocking call, a long callback, GIL contention) and every
other coroutine of the bot waited that long too. The monitor is installed through an event loop
policy, so no line of the bot changes.

If ``BOARDROOM_STALL_FILE`` is set, the monitor writes JSON there twice a second and when the
loop shuts down: the largest lag, a histogram, and per wall-clock second the largest lag and the
number of lags above 20 and 50 ms (so a reader can keep only the seconds inside a measurement
window), and the count, total and longest time of the garbage collections per generation
(``gc.callbacks``; a full collection of a large heap is one cause of a stall). The file stays
small, so writing it does not itself stall the loop. The bot cannot be
asked to write it on SIGTERM/SIGKILL, hence the periodic writes.

``StallMonitor`` is also used by ``bench.e2e`` to watch its own loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import time
from pathlib import Path
from typing import Any

STALL_FILE_ENV = "BOARDROOM_STALL_FILE"
PROBE_SECONDS = 0.005
WRITE_SECONDS = 0.5
MAX_SECONDS_KEPT = 7200
BUCKETS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


class StallMonitor:
    """Measures how late a periodic 5 ms sleep wakes up on the running loop."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.max_ms = 0.0
        self.max_at = 0.0
        self.samples = 0
        self.histogram = [0] * (len(BUCKETS_MS) + 1)
        self.per_second: dict[int, list[float]] = {}  # wall second -> [max ms, >20 ms, >50 ms]
        self.gc_max_ms = [0.0, 0.0, 0.0]  # longest collection per generation
        self.gc_total_ms = [0.0, 0.0, 0.0]
        self.gc_count = [0, 0, 0]
        self._gc_started = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start probing on the running loop (and timing garbage collections)."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="stall-monitor")
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        generation = info.get("generation", 0)
        ms = (time.perf_counter() - self._gc_started) * 1000
        self.gc_count[generation] += 1
        self.gc_total_ms[generation] += ms
        self.gc_max_ms[generation] = max(self.gc_max_ms[generation], ms)

    async def stop(self) -> None:
        """Stop probing (and write the file one last time)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)

    def record(self, lag_ms: float) -> None:
        """Account one probe's lag."""
        self.samples += 1
        index = next((i for i, edge in enumerate(BUCKETS_MS) if lag_ms < edge), len(BUCKETS_MS))
        self.histogram[index] += 1
        now = time.time()
        if lag_ms > self.max_ms:
            self.max_ms, self.max_at = lag_ms, now
        second = int(now)
        entry = self.per_second.get(second)
        if entry is None:
            if len(self.per_second) >= MAX_SECONDS_KEPT:
                return
            entry = self.per_second[second] = [0.0, 0, 0]
        entry[0] = max(entry[0], round(lag_ms, 2))
        entry[1] += lag_ms > 20
        entry[2] += lag_ms > 50

    def max_between(self, start: float, end: float) -> float:
        """Largest lag (ms) in the whole wall-clock seconds inside [start, end]; 0 if none."""
        return window(self.per_second, start, end)[0]

    def snapshot(self) -> dict[str, Any]:
        """Everything recorded so far, JSON-ready."""
        return {
            "pid": os.getpid(),
            "written_at": time.time(),
            "probe_ms": PROBE_SECONDS * 1000,
            "samples": self.samples,
            "max_ms": round(self.max_ms, 2),
            "max_at": self.max_at,
            "buckets_ms": list(BUCKETS_MS),
            "histogram": self.histogram,
            "per_second": {str(k): v for k, v in self.per_second.items()},
            "gc_max_ms": [round(x, 2) for x in self.gc_max_ms],
            "gc_total_ms": [round(x, 1) for x in self.gc_total_ms],
            "gc_count": self.gc_count,
        }

    def write(self) -> None:
        """Write the snapshot atomically (no-op without a path)."""
        if self.path is None:
            return
        scratch = self.path.with_name(self.path.name + ".tmp")
        scratch.write_text(json.dumps(self.snapshot()))
        os.replace(scratch, self.path)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last_write = loop.time()
        try:
            while True:
                before = loop.time()
                await asyncio.sleep(PROBE_SECONDS)
                after = loop.time()
                self.record(max(0.0, (after - before - PROBE_SECONDS) * 1000))
                if after - last_write >= WRITE_SECONDS:
                    self.write()
                    last_write = after
        finally:
            self.write()


def window(per_second: dict[int, list[float]], start: float, end: float) -> tuple[float, int, int]:
    """(max lag ms, lags > 20 ms, lags > 50 ms) over the whole seconds inside [start, end]."""
    inside = [v for k, v in per_second.items() if k >= start and k + 1 <= end]
    return (
        max((v[0] for v in inside), default=0.0),
        int(sum(v[1] for v in inside)),
        int(sum(v[2] for v in inside)),
    )


def read_stall_file(path: Path) -> dict[str, Any] | None:
    """The monitor's last snapshot, or None if it is missing or half-written."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    data["per_second"] = {int(k): v for k, v in data.get("per_second", {}).items()}
    return data


class _MonitoredPolicy(asyncio.DefaultEventLoopPolicy):
    """Gives the first loop created in this process a StallMonitor."""

    def __init__(self, monitor: StallMonitor) -> None:
        super().__init__()
        self._monitor: StallMonitor | None = monitor

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        monitor, self._monitor = self._monitor, None
        if monitor is not None:
            loop.call_soon(monitor.start)
        return loop


def main() -> int:
    """Install the monitor and run the bot exactly as ``boardroom run`` does."""
    from bot.cli import main as boardroom

    raw = os.environ.get(STALL_FILE_ENV, "").strip()
    asyncio.set_event_loop_policy(_MonitoredPolicy(StallMonitor(Path(raw) if raw else None)))
    return boardroom(["run"])


if __name__ == "__main__":
    raise SystemExit(main())
