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
  shuts it down and waits for its workers, and :func:`stopping` (or :func:`stop`) ends them at
  once when the block ends in an error or a signal (Ctrl-C, ``SIGTERM``) instead of waiting
  for their tasks. A worker ignores ``SIGINT`` (Ctrl-C reaches the whole process group: the
  process that made the pool decides) and ends itself when that process is gone, even killed
  with ``SIGKILL`` (:func:`_watch_owner`): the workers are children of multiprocessing's fork
  server, not of that process, so they are not told.

The thread pools' threads are joined when the interpreter exits (``concurrent.futures`` does
that for every pool); :func:`shutdown` ends them earlier, and the next use makes new ones. A
child made by ``fork`` does not inherit the parent's threads, so it forgets the pools and makes
its own.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import gc
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # a process pool's context: imported by its callers, only when they make one
    import multiprocessing.context

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
    ``with`` block (:class:`bjcalc.counting.workers.WorkerPool`, which shuts it down when its own block
    ends); it is not kept here. The workers share the cores: each cuts its dealer passes into
    its share of them (:func:`_start_worker`)."""
    return concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                                  initargs=(workers, os.getpid()))


def stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End ``pool`` now: kill its workers mid-task (their results would be thrown away),
    cancel what is queued, and reap them."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    for worker in workers:
        with contextlib.suppress(OSError, ValueError):
            worker.kill()
    pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def stopping(pool: concurrent.futures.ProcessPoolExecutor) -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    """``with stopping(pool):`` a block whose error or signal (any exception, Ctrl-C's
    ``KeyboardInterrupt`` included) ends ``pool``'s workers at once (:func:`stop`) rather than
    after their tasks."""
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise


# a worker's young-generation collection threshold (Python's default: 700 allocations)
WORKER_GC_THRESHOLD = 50_000


def _start_worker(workers: int, owner: int) -> None:
    """In a worker process, one of ``workers`` on this machine, for the process ``owner``:

    - ignore ``SIGINT``: Ctrl-C reaches every process of the terminal's group, and ``owner``
      stops the pool (:func:`stopping`); a worker's ``KeyboardInterrupt`` would only print a
      traceback;
    - end when ``owner`` is gone (:func:`_watch_owner`, on a thread of its own);

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
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_owner, args=(owner,), name="bjcalc-watch-owner", daemon=True).start()
    _PARTS = max(1, DEALER_WORKERS // max(1, workers))
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])


# seconds between two looks for the owner where the system cannot wait for a process's end
OWNER_POLL = 0.5


def _watch_owner(owner: int) -> None:
    """End this process as soon as the process ``owner`` has ended (for any reason, SIGKILL
    included): wait on a pidfd where Linux has them, else look every :data:`OWNER_POLL`
    seconds."""
    try:
        handle = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # not Linux (>= 5.3): look now and then
        while True:
            time.sleep(OWNER_POLL)
            try:
                os.kill(owner, 0)
            except ProcessLookupError:
                os._exit(1)
            except OSError:  # alive, but not ours to signal
                pass
    select.select([handle], [], [])  # readable once the owner has ended
    os._exit(1)


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
