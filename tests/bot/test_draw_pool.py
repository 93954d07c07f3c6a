"""The drawing processes, driven by the event loop: jobs run in real spawned workers, answers
and failures come back, a worker that dies is replaced, and closing fails what is left."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from functools import partial

import pytest

from bot.adapter.draw_pool import DrawPool, WorkerDied


def slow_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def fails() -> None:
    raise ValueError("a board that cannot be drawn")


async def test_jobs_run_in_the_workers_and_their_answers_come_back() -> None:
    pool = DrawPool(2)
    pool.start()
    try:
        pids = await asyncio.wait_for(
            asyncio.gather(*(pool.run(partial(slow_pid, 0.05)) for _ in range(8))), 60
        )
        assert set(pids) == set(pool.pids()) and os.getpid() not in pids  # both worked
        assert await pool.run(partial(sum, [1, 2, 3])) == 6
        with pytest.raises(ValueError, match="cannot be drawn"):
            await pool.run(fails)
        assert await pool.run(partial(sum, [4])) == 4  # a failed job leaves the worker working
    finally:
        pool.close()


async def test_a_worker_that_dies_fails_its_job_and_is_replaced() -> None:
    pool = DrawPool(1)
    pool.start()
    try:
        (first,) = pool.pids()
        assert await asyncio.wait_for(pool.run(os.getpid), 60) == first
        drawing = asyncio.ensure_future(pool.run(partial(slow_pid, 30)))
        in_its_pipe = asyncio.ensure_future(pool.run(os.getpid))  # sent to it already
        waiting = asyncio.ensure_future(pool.run(os.getpid))  # still in the pool's queue
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)
        for job in (drawing, in_its_pipe):
            with pytest.raises(WorkerDied):
                await asyncio.wait_for(job, 30)
        second = await asyncio.wait_for(waiting, 60)  # the waiting job went to the new worker
        assert second != first and pool.pids() == [second]
    finally:
        pool.close()


async def test_closing_fails_the_jobs_left() -> None:
    pool = DrawPool(1)
    pool.start()
    drawing = asyncio.ensure_future(pool.run(partial(slow_pid, 30)))
    waiting = asyncio.ensure_future(pool.run(os.getpid))
    await asyncio.sleep(0.1)
    pool.close()
    for job in (drawing, waiting):
        with pytest.raises(RuntimeError, match="stopped"):
            await job
    with pytest.raises(RuntimeError, match="stopped"):
        await pool.run(os.getpid)


def big_answer(size: int) -> bytes:
    return bytes(range(256)) * (size // 256)


async def test_a_big_answer_arrives_whole_in_pieces() -> None:
    """A picture larger than the pipe holds comes back intact, read as it arrives."""
    pool = DrawPool(1)
    pool.start()
    try:
        size = 8 * 1024 * 1024
        answer = await asyncio.wait_for(pool.run(partial(big_answer, size)), 60)
        assert answer == big_answer(size)
    finally:
        pool.close()


def wait_for_file(path: str, seconds: float) -> bool:
    """Whether ``path`` appeared within ``seconds`` (another worker writes it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.01)
    return False


def touch(path: str) -> bool:
    with open(path, "w"):
        return True


async def test_jobs_submitted_together_are_drawn_at_once(tmp_path: object) -> None:
    """``submit`` sends a job before it returns: the second of two jobs submitted back to back
    runs while the first is still running (it waits for a file the second one writes)."""
    pool = DrawPool(2)
    pool.start()
    try:
        await asyncio.wait_for(asyncio.gather(pool.run(os.getpid), pool.run(os.getpid)), 60)
        flag = os.path.join(str(tmp_path), "second-ran")
        first = pool.submit(partial(wait_for_file, flag, 20))
        second = pool.submit(partial(touch, flag))
        assert await asyncio.wait_for(asyncio.gather(first, second), 60) == [True, True]
    finally:
        pool.close()
