"""Worker processes that draw boards, driven by the event loop itself.

Each worker is a spawned child process joined to the bot by one pipe (a socket pair). The event
loop writes a job (a pickled call) to an idle worker's pipe and reads the answer as an asyncio
stream, a piece at a time as it arrives, so a worker descheduled halfway through sending a big
picture never holds the loop up. No helper thread sits between them (a ``ProcessPoolExecutor``
keeps a manager thread and a queue feeder thread, which wake each other and the loop for every
board and compete with the loop for the interpreter lock). Jobs wait in order for a free worker.

A worker that dies (killed, out of memory) fails the jobs it had (the one it was drawing and
the next one, already in its pipe) with ``WorkerDied`` and is replaced at once; the other jobs
go on. Workers end with the bot, however
it ends (``_end_with_parent``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1  # prctl option: a signal the kernel sends when the parent process dies

Job = Callable[[], Any]
#: jobs sent to one worker before it answered the first of them
QUEUED_PER_WORKER = 2


class WorkerDied(RuntimeError):
    """The worker drawing this job ended before it answered."""


def _end_with_parent(parent: int) -> None:
    """Exit as soon as the bot process is gone, even if it was killed outright (SIGKILL), so no
    drawing process outlives it."""
    with contextlib.suppress(OSError, AttributeError):  # Linux: the kernel does it at once
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _serve(conn: Connection, parent: int, setup: Job | None) -> None:
    """A worker's life: tie it to the bot, run ``setup``, then answer jobs until the pipe
    closes. An answer is ``(True, result)`` or ``(False, exception)``."""
    _end_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bot decides when its workers stop
    if setup is not None:
        setup()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, job())
        except Exception as exc:  # the job's failure is the caller's to handle
            answer = (False, exc)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send((False, RuntimeError(f"the answer could not be sent back: {exc!r}")))


#: multiprocessing's framing of one message: a 4-byte signed big-endian length (-1: an 8-byte
#: unsigned length follows), then the bytes (``Connection.send_bytes``)
_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")


def _frame(payload: bytes) -> bytes:
    if len(payload) > 0x7FFFFFFF:
        return _SHORT.pack(-1) + _LONG.pack(len(payload)) + payload
    return _SHORT.pack(len(payload)) + payload


async def _read_frame(reader: asyncio.StreamReader) -> bytes:
    (size,) = _SHORT.unpack(await reader.readexactly(_SHORT.size))
    if size == -1:
        (size,) = _LONG.unpack(await reader.readexactly(_LONG.size))
    return await reader.readexactly(size)


@dataclass(eq=False)
class _Worker:
    process: Any  # multiprocessing's SpawnProcess
    sock: socket.socket
    writer: asyncio.StreamWriter | None = None
    #: the jobs sent and not answered yet, in the order the worker answers them
    jobs: deque[asyncio.Future[Any]] = field(default_factory=deque)
    reading: asyncio.Task[None] | None = None


@dataclass(eq=False)
class DrawPool:
    """``count`` worker processes; ``setup`` runs once in each before its first job."""

    count: int
    setup: Job | None = None
    _workers: list[_Worker] = field(default_factory=list)
    _waiting: deque[tuple[Job, asyncio.Future[Any]]] = field(default_factory=deque)
    _closed: bool = False
    _started: bool = False

    @property
    def started(self) -> bool:
        return self._started

    def start(self) -> None:
        """Start the workers now (they load while the bot connects), on the running loop."""
        self._started = True
        for _ in range(self.count):
            self._workers.append(self._spawn())

    def _spawn(self) -> _Worker:
        # Spawned workers are the bot's own children, which lets them follow it when it dies.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=_serve, args=(theirs, os.getpid(), self.setup), name="boardroom-draw"
        )
        process.daemon = True
        process.start()
        theirs.close()
        sock = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        worker = _Worker(process, sock)
        worker.reading = asyncio.get_running_loop().create_task(self._read_answers(worker))
        return worker

    async def _read_answers(self, worker: _Worker) -> None:
        """The worker's answers, as they come; when its pipe ends, its replacement."""
        try:
            reader, writer = await asyncio.open_unix_connection(sock=worker.sock)
            worker.writer = writer
            self._dispatch()
            while True:
                ok, value = pickle.loads(await _read_frame(reader))
                future = worker.jobs.popleft() if worker.jobs else None
                if future is not None and not future.done():
                    (future.set_result if ok else future.set_exception)(value)
                self._dispatch()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._replace(worker)

    async def run(self, job: Job) -> Any:
        """Run ``job`` in a worker and return what it returned (or raise what it raised)."""
        return await self.submit(job)

    def submit(self, job: Job) -> asyncio.Future[Any]:
        """Send ``job`` to a worker now (or queue it for the first free one) and return the
        future of its answer: several jobs submitted together are drawn at once."""
        if self._closed:
            raise RuntimeError("the drawing processes were stopped")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((job, future))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        """Send waiting jobs to the least busy workers, up to ``QUEUED_PER_WORKER`` each: a
        worker finds its next job in its pipe when it answers one, not after the (busy) loop
        has read that answer."""
        while self._waiting:
            ready = [
                w
                for w in self._workers
                if w.writer is not None
                and not w.writer.is_closing()
                and len(w.jobs) < QUEUED_PER_WORKER
            ]
            if not ready:
                return
            worker = min(ready, key=lambda w: len(w.jobs))
            job, future = self._waiting.popleft()
            if future.cancelled():
                continue
            try:
                payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # a job that does not pickle
                future.set_exception(exc)
                continue
            assert worker.writer is not None
            worker.writer.write(_frame(payload))
            worker.jobs.append(future)

    def _replace(self, worker: _Worker) -> None:
        """A worker ended: its job fails, and (unless the pool is closing) another takes its
        place."""
        self._forget(worker)
        for job in worker.jobs:  # the one being drawn, and any sent after it
            if not job.done():
                job.set_exception(WorkerDied("a drawing process ended while drawing"))
        if self._closed:
            return
        log.warning(
            "a drawing process ended (exit code %s); starting another", worker.process.exitcode
        )
        self._workers.append(self._spawn())
        self._dispatch()

    def _forget(self, worker: _Worker) -> None:
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        if worker.writer is not None:
            worker.writer.close()
        else:
            worker.sock.close()

    def close(self) -> None:
        """Stop every worker; jobs still waiting or being drawn fail."""
        self._closed = True
        for worker in list(self._workers):
            self._forget(worker)
            if worker.reading is not None:
                worker.reading.cancel()
            for job in worker.jobs:
                if not job.done():
                    job.set_exception(RuntimeError("the drawing processes were stopped"))
            with contextlib.suppress(Exception):
                worker.process.terminate()
        while self._waiting:
            _job, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(RuntimeError("the drawing processes were stopped"))

    def backlog(self) -> int:
        """Jobs waiting for a worker (beyond those already in the workers' pipes)."""
        return len(self._waiting)

    def pids(self) -> Sequence[int]:
        return [w.process.pid for w in self._workers]
