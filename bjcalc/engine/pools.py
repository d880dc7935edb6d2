"""Every thread and process pool bjcalc uses: they are made here and nowhere else.

Three thread pools, each made at its first use and kept for the life of the process:

- :func:`dealer_threads`: :data:`DEALER_WORKERS` threads (one per core, at most 8), named
  ``bjcalc-dealer``. :func:`in_parts` cuts one large dealer pass (many shoes, in
  :mod:`bjcalc.engine.dealer` and :mod:`bjcalc.engine.jointdealer`) into parts and runs them
  side by side on them; the compiled dealer loop releases the GIL.
- :func:`ahead_thread`: one thread, named ``bjcalc-ahead``. :mod:`bjcalc.engine.batch` starts
  dealer passes on it ahead of need (``DealerBatch.start``, ``JointBatch.start``), so that they
  overlap with the Python work of the next up card.
- :func:`moment_threads`: :data:`DEALER_WORKERS` threads, named ``bjcalc-moments``.
  :meth:`bjcalc.engine.analyser.Engine.prepare_moments` works out the split moments of several
  pairs on them side by side (their pair tables, dealer passes and large numpy sums release
  the GIL); their dealer passes go to the dealer threads, never to these.

One process pool, made per call and never kept:

- :func:`processes`: the worker processes of :mod:`bjcalc.counting.measures` (one analysis of a
  depleted shoe each, for effects of removal); the caller uses it in a ``with`` block, which
  shuts it down and waits for its workers.

The thread pools' threads are joined when the interpreter exits (``concurrent.futures`` does
that for every pool); :func:`shutdown` ends them earlier, and the next use makes new ones. A
child made by ``fork`` does not inherit the parent's threads, so it forgets the pools and makes
its own.
"""

from __future__ import annotations

import concurrent.futures
import gc
import multiprocessing.context
import os
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEALER_WORKERS = max(1, min(os.cpu_count() or 1, 8))

_lock = threading.Lock()
_threads: dict[str, concurrent.futures.ThreadPoolExecutor] = {}  # name -> pool, made at first use


def _thread_pool(name: str, workers: int) -> concurrent.futures.ThreadPoolExecutor:
    pool = _threads.get(name)
    if pool is None:
        with _lock:
            pool = _threads.get(name)
            if pool is None:
                pool = _threads[name] = concurrent.futures.ThreadPoolExecutor(
                    workers, thread_name_prefix=f"bjcalc-{name}")
    return pool


def dealer_threads() -> concurrent.futures.ThreadPoolExecutor:
    """The :data:`DEALER_WORKERS` threads that share one dealer pass (:mod:`bjcalc.engine.dealer`)."""
    return _thread_pool("dealer", DEALER_WORKERS)


_PARTS = DEALER_WORKERS  # the parts a large pass is cut into, one per dealer thread (tests set 1)


def in_parts(run: Callable[[int, int], T], rows: int, least: int) -> list[T]:
    """``run(start, stop)`` over the rows ``0..rows`` of one dealer pass: cut into one part per
    dealer thread (whole blocks of 64 rows), run side by side, when there are at least ``least``
    rows; else one call. The results in the order of the rows."""
    if _PARTS > 1 and rows >= least:
        size = -(-rows // _PARTS // 64) * 64
        return list(dealer_threads().map(lambda start: run(start, min(start + size, rows)), range(0, rows, size)))
    return [run(0, rows)]


def ahead_thread() -> concurrent.futures.ThreadPoolExecutor:
    """The one thread for dealer passes started ahead of need (:mod:`bjcalc.engine.batch`)."""
    return _thread_pool("ahead", 1)


def moment_threads() -> concurrent.futures.ThreadPoolExecutor:
    """The :data:`DEALER_WORKERS` threads that work out split moments side by side
    (:meth:`bjcalc.engine.analyser.Engine.prepare_moments`)."""
    return _thread_pool("moments", DEALER_WORKERS)


def processes(workers: int, context: multiprocessing.context.BaseContext) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes started by ``context``, for the caller to use in a
    ``with`` block (:class:`bjcalc.counting.eor.WorkerPool`, which shuts it down when its own block
    ends); it is not kept here. The workers share the cores: each cuts its dealer passes into
    its share of them (:func:`_start_worker`)."""
    return concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                                  initargs=(workers,))


# a worker's young-generation collection threshold (Python's default: 700 allocations)
WORKER_GC_THRESHOLD = 50_000


def _start_worker(workers: int) -> None:
    """In a worker process, one of ``workers`` on this machine:

    - cut a dealer pass into this process's share of the cores (one part each where there are
      as many workers as cores), not one part per core, which would put twice as many threads
      as cores to work when every worker is busy (a 6-deck ``bjcalc truecount`` state, two
      workers on two cores: 0.19 -> 0.175 s a task);
    - leave what the worker imported out of the garbage collector's scans (``gc.freeze``) and
      collect the young generation every :data:`WORKER_GC_THRESHOLD` allocations: a worker runs
      thousands of short analyses, which free what they hold by reference counting (they make
      no cycles; tests/test_memory.py), and the default threshold scanned their arrays' and
      results' containers thousands of times a task (truecount, two workers side by side:
      0.144 -> 0.140 s a task)."""
    global _PARTS
    _PARTS = max(1, DEALER_WORKERS // max(1, workers))
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


def shutdown() -> None:
    """End the thread pools (waiting for work already submitted); later use makes new ones."""
    with _lock:
        pools = list(_threads.values())
        _threads.clear()
    for pool in pools:
        pool.shutdown(wait=True)


def _forget() -> None:
    """In a forked child: the parent's pool threads are not there, so drop the pools."""
    global _lock
    _lock = threading.Lock()  # the parent may have held it at the fork
    _threads.clear()


os.register_at_fork(after_in_child=_forget)
