"""The real bot with an event-loop stall monitor, for the end-to-end benchmark.

``python -m bench.e2e_bot`` runs exactly what ``boardroom run`` (``bot.cli.main(["run"])``)
runs, unmodified, with one addition: the asyncio event loop that ``asyncio.run`` creates is
given a selector that times the loop's turns (``BusySelector``). Between two calls to the
selector the loop runs the callbacks that are ready; that span is how long any event arriving
meanwhile (a gateway message, an HTTP answer, a timer) waited before the loop could look at it:
a blocking call, a long callback or waiting for the interpreter lock all show as one long span.
The monitor is installed through an event loop policy, so no line of the bot changes, and it
costs two clock reads a turn: a periodic probe (a task sleeping 5 ms, as the harness uses for
its own loop) would wake the bot 200 times a second and add that work to the bot's CPU.

If ``BOARDROOM_STALL_FILE`` is set, the monitor writes JSON there twice a second and when the
loop shuts down: the longest span, a histogram, and per wall-clock second the longest span and
the number above 20 and 50 ms (so a reader can keep only the seconds inside a measurement
window), and the count, total and longest time of the garbage collections per generation
(``gc.callbacks``; a full collection of a large heap is one cause of a stall). The file stays
small, so writing it does not itself stall the loop. The bot cannot be
asked to write it on SIGTERM/SIGKILL, hence the periodic writes.

With ``BOARDROOM_PROFILE_FILE`` set, the bot's main thread runs under ``cProfile`` timed by
its CPU clock (``time.thread_time``: waiting is not counted), and the statistics are written there
when the bot exits (``python -m pstats FILE``): where the event loop's CPU goes under load. The
profiler slows the bot down, most in functions made of many small calls; its figures are for
finding the time, not for the table.

``StallMonitor`` is also used by ``bench.e2e`` to watch its own loop, there with the sleep probe
(``start``): how late a 5 ms sleep wakes up.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import cProfile
import gc
import json
import os
import selectors
import time
from pathlib import Path
from typing import Any

STALL_FILE_ENV = "BOARDROOM_STALL_FILE"
PROFILE_FILE_ENV = "BOARDROOM_PROFILE_FILE"
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
        self._writing: asyncio.TimerHandle | None = None
        #: how the lags are measured: "sleep 5 ms" (``start``) or "loop turns" (``BusySelector``)
        self.probe = "loop turns"

    def start(self) -> None:
        """Start probing on the running loop with a 5 ms sleep (and timing garbage
        collections)."""
        self.probe = f"sleep {PROBE_SECONDS * 1000:g} ms"
        self._task = asyncio.get_running_loop().create_task(self._run(), name="stall-monitor")
        self._time_collections()

    def start_writing(self) -> None:
        """Write the file twice a second from the running loop (and time garbage collections);
        the lags come from the loop's ``BusySelector``."""
        self._time_collections()
        self._writing = asyncio.get_running_loop().call_later(WRITE_SECONDS, self._write_again)

    def _write_again(self) -> None:
        self.write()
        self._writing = asyncio.get_running_loop().call_later(WRITE_SECONDS, self._write_again)

    def _time_collections(self) -> None:
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
        if self._writing is not None:
            self._writing.cancel()
            self._writing = None
            self.write()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)

    def record(self, lag_ms: float) -> None:
        """Account one probe's lag (or one loop turn's span)."""
        self.samples += 1
        if lag_ms < BUCKETS_MS[0]:  # the common case, kept cheap: a loop turn is recorded each
            self.histogram[0] += 1
            return
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
            "probe": self.probe,
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


class BusySelector(selectors.DefaultSelector):
    """The platform's selector, timing the loop's turns: the span from one ``select`` returning
    to the next ``select`` being called is the time the loop spent running callbacks."""

    def __init__(self, monitor: StallMonitor) -> None:
        super().__init__()
        self._monitor = monitor
        self._woke: float | None = None

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if self._woke is not None:
            self._monitor.record((time.perf_counter() - self._woke) * 1000)
        try:
            return super().select(timeout)
        finally:
            self._woke = time.perf_counter()


class _MonitoredPolicy(asyncio.DefaultEventLoopPolicy):
    """Gives the first loop created in this process a StallMonitor, fed by its selector."""

    def __init__(self, monitor: StallMonitor) -> None:
        super().__init__()
        self._monitor: StallMonitor | None = monitor

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        monitor, self._monitor = self._monitor, None
        if monitor is None:
            return super().new_event_loop()
        loop = asyncio.SelectorEventLoop(BusySelector(monitor))
        loop.call_soon(monitor.start_writing)
        return loop


def main() -> int:
    """Install the monitor and run the bot exactly as ``boardroom run`` does."""
    from bot.cli import main as boardroom

    raw = os.environ.get(STALL_FILE_ENV, "").strip()
    monitor = StallMonitor(Path(raw) if raw else None)
    atexit.register(monitor.write)  # the last figures, however the loop ended
    asyncio.set_event_loop_policy(_MonitoredPolicy(monitor))
    profile_to = os.environ.get(PROFILE_FILE_ENV, "").strip()
    if profile_to:
        profiler = cProfile.Profile(time.thread_time)  # CPU time, of the event loop's thread
        atexit.register(profiler.dump_stats, profile_to)
        profiler.enable()
    return boardroom(["run"])


if __name__ == "__main__":
    raise SystemExit(main())
