"""Local worker processes for independent analyses (each shoe of an EOR, each rule of
``bjcalc effects``): :class:`WorkerPool` and :func:`map_jobs`; the pools themselves are made by
:mod:`bjcalc.engine.pools`."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import numbers
import os
from collections.abc import Callable, Sequence
from typing import Any

from bjcalc.engine import pools
from bjcalc.errors import InvalidRulesError

MAX_WORKERS = 1024  # more processes than any machine bjcalc runs on has cores for


def check_workers(workers: object) -> None:
    """Refuse a worker count that is neither ``None`` (one per core), a :class:`WorkerPool` nor a
    whole number from 1 to :data:`MAX_WORKERS`, before any process is started."""
    if workers is None or isinstance(workers, WorkerPool):
        return
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or not 1 <= int(workers) <= MAX_WORKERS:
        raise InvalidRulesError(
            f"workers must be a whole number from 1 to {MAX_WORKERS} or None (one per core), not {workers!r}")


def _context() -> multiprocessing.context.BaseContext:
    """Worker processes that start clean: a fork server that has imported bjcalc once (never a
    plain fork of this process, whose dealer threads may hold locks), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bjcalc.counting.eor"])
        return context
    return multiprocessing.get_context("spawn")


class WorkerPool:
    """The one place the EOR pipeline's worker processes are made: ``workers`` processes
    (default: one per core; 1 runs every job here), started at the first job that needs them
    and shared by every job until the ``with`` block ends.

    >>> with WorkerPool(1) as pool:
    ...     pool.map(abs, [(-1,), (2,)])
    [1, 2]
    """

    def __init__(self, workers: int | None = None) -> None:
        check_workers(workers)
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            if exc[0] is not None:  # an error or a signal: end the workers now, not after their jobs
                pools.stop(self._pool)
            else:
                self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def map(self, job: Callable[..., Any], arguments: list[tuple], progress: Callable[[str], None] | None = None,
            names: Sequence[str] = ()) -> list[Any]:
        """``job(*a)`` for every ``a``, reporting each finished one to ``progress`` by name."""
        names = list(names) or [str(i) for i in range(len(arguments))]
        if self.workers <= 1 or len(arguments) <= 1:
            return self._here(job, arguments, progress, names)
        try:
            if self._pool is None:
                self._pool = pools.processes(self.workers, _context())
            futures = {self._pool.submit(job, *args): i for i, args in enumerate(arguments)}
            results: list[Any] = [None] * len(arguments)
            for future in concurrent.futures.as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                if progress:
                    progress(names[i])
            return results
        except concurrent.futures.process.BrokenProcessPool:
            # workers could not start (e.g. a __main__ they cannot import): do the work here
            self.workers = 1
            return self._here(job, arguments, progress, names)

    @staticmethod
    def _here(job: Callable[..., Any], arguments: list[tuple], progress: Callable[[str], None] | None,
              names: list[str]) -> list[Any]:
        out = []
        for name, args in zip(names, arguments):
            out.append(job(*args))
            if progress:
                progress(name)
        return out


def map_jobs(job: Callable[..., Any], arguments: list[tuple], workers: int | WorkerPool | None,
         progress: Callable[[str], None] | None, names: list[str]) -> list[Any]:
    """``job(*a)`` for every ``a`` in ``workers`` (a :class:`WorkerPool`, or the number of
    processes of one made for these jobs alone)."""
    if isinstance(workers, WorkerPool):
        return workers.map(job, arguments, progress, names)
    check_workers(workers)
    with WorkerPool(min(workers or os.cpu_count() or 1, max(1, len(arguments)))) as pool:
        return pool.map(job, arguments, progress, names)
