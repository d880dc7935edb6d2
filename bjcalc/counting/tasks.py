"""Independent tasks at any scale: a resumable store and the places they run.

A long counting job (``bjcalc truecount``: one counter's-shoe analysis per depth and running
count) is a list of :class:`Task` values, each a pure function of its arguments. This module
runs them and keeps their results:

- :class:`TaskStore`: an SQLite file in WAL mode, one row per task keyed by a digest of
  everything the result depends on (the job's settings, the task's own arguments and bjcalc's
  version). A task whose row is present is never computed again, so an interrupted run resumes
  where it stopped; a row is written only once its task has finished (a batch's rows in one
  transaction), so nothing is lost or left partly written. ``TaskStore(None)`` keeps the rows
  in memory (no file).
- :func:`run_tasks`: the tasks not yet stored, in local worker processes (default: one per
  core) or on an existing Dask distributed cluster (``scheduler="tcp://host:8786"``, the
  ``bjcalc[dask]`` extra), batched so that scheduling costs little beside the work. A local
  worker that dies has its tasks re-run in a new pool; Dask re-runs the tasks of a lost worker
  itself. Results reach the store as they arrive, in the calling process only.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any, TypeVar, cast

from bjcalc.counting.workers import check_workers
from bjcalc.engine import pools
from bjcalc.engine.door import fewer_collections
from bjcalc.errors import BjcalcError
from bjcalc.rules import check_rules
from bjcalc.version import __version__


class TaskError(BjcalcError):
    """A store that cannot be used, a scheduler that cannot be reached, a task that failed."""


@dataclasses.dataclass(frozen=True)
class Task:
    """``function(*arguments)``; ``key`` names the result in the store (:func:`task_key`)."""

    key: str
    function: Callable[..., Any]
    arguments: tuple


_AS_THEY_ARE = frozenset({float, int, str, bool, type(None)})


def _plain(value: Any) -> Any:
    """JSON for a task's key and result: Fractions as ``"p/q"`` strings, tuples as lists."""
    if type(value) in _AS_THEY_ARE:  # most of a result (not their subclasses: enums go by value)
        return value
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, dict):
        return {"dict": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict())
    if hasattr(value, "value") and isinstance(value.value, str):  # enums
        return value.value
    return value


def _unplain(value: dict[str, Any]) -> Any:
    """:func:`_plain`'s JSON objects back (``json.loads``' object hook: the lists and numbers
    around them are JSON's own, and each object comes here once its members are decoded)."""
    if "fraction" in value:
        return Fraction(value["fraction"])
    if "dict" in value:
        return {_key(k): v for k, v in value["dict"]}
    return value


def _key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def task_key(*parts: Any) -> str:
    """A digest of everything a result depends on (bjcalc's version included)."""
    text = json.dumps([__version__, *(_plain(p) for p in parts)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def default_store() -> str | None:
    """Where ``bjcalc truecount`` keeps its results unless told (``--store``): ``truecount.sqlite``
    in bjcalc's cache directory (``BJCALC_CACHE``, else ``~/.cache/bjcalc``); ``None`` (memory)
    when the cache is off."""
    from bjcalc.engine.store import cache_directory

    folder = cache_directory()
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / "truecount.sqlite")


# seconds a store waits for another run's write to the same file
BUSY_TIMEOUT = 60.0


class TaskStore:
    """Results by task key: an SQLite file in WAL mode (``path``), or memory (``None``). Runs
    may share a file: a result another run stored first is kept (a key's result is the same
    whoever computes it), and :func:`run_tasks` takes it rather than computing it again."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        check_store(path)
        self.path = None if path is None else os.fspath(path)
        if self.path is not None and "\0" in self.path:
            raise TaskError(f"store {self.path!r} cannot be used: embedded null byte")
        try:
            # another run sharing the file may be writing: wait for it rather than fail
            self._db = sqlite3.connect(":memory:" if self.path is None else self.path, timeout=BUSY_TIMEOUT)
            if self.path is not None:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, job TEXT NOT NULL, "
                             "value TEXT NOT NULL, seconds REAL NOT NULL, written REAL NOT NULL)")
            self._db.commit()
            # a file sqlite could open only for reading fails at the first result, after the
            # work: write a row now and take it back
            self._db.execute("INSERT OR REPLACE INTO results VALUES ('', '', '', 0, 0)")
            self._db.rollback()
        except sqlite3.DatabaseError as error:
            raise TaskError(f"store {self.path!r} cannot be used: {error}") from None

    def __enter__(self) -> TaskStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def has(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` are stored."""
        found: set[str] = set()
        keys = list(keys)
        for start in range(0, len(keys), 500):
            part = keys[start:start + 500]
            rows = self._db.execute(f"SELECT key FROM results WHERE key IN ({','.join('?' * len(part))})", part)
            found.update(k for (k,) in rows)
        return found

    def put(self, key: str, job: str, value: Any, seconds: float) -> None:
        """Store a finished task's result (a key already stored keeps its row)."""
        self.put_many([(key, job, value, seconds)])

    def put_many(self, rows: Iterable[tuple[str, str, Any, float]]) -> None:
        """Store finished tasks' results, (key, job, value, seconds) each, in one transaction:
        all or none (a batch's results come together; one commit each cost a sync per task).
        A key already stored (by another run sharing the file) keeps its row."""
        now = time.time()
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?)",
                                 [(key, job, json.dumps(_plain(value)), seconds, now)
                                  for key, job, value, seconds in rows])

    def get(self, key: str) -> Any:
        row = self._db.execute("SELECT value FROM results WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return json.loads(row[0], object_hook=_unplain)

    def rows(self, job: str | None = None) -> int:
        """How many results are stored (for ``job``, or in all)."""
        if job is None:
            return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM results WHERE job = ?", (job,)).fetchone()[0]

    def seconds(self, job: str) -> list[float]:
        """The compute time of each of ``job``'s tasks, as measured where it ran."""
        return [s for (s,) in self._db.execute("SELECT seconds FROM results WHERE job = ?", (job,))]


def check_arguments(rules: object, workers: object = None, store: object = None) -> None:
    """The arguments the pipelines share, refused before any work: ``rules`` (a :class:`Rules`),
    ``workers`` (:func:`~bjcalc.counting.workers.check_workers`) and ``store``."""
    check_rules(rules)
    check_workers(workers)
    check_store(store)


def check_store(store: Any) -> None:
    """Refuse a ``store`` argument that is neither a :class:`TaskStore`, a path nor ``None``."""
    if store is not None and not isinstance(store, (TaskStore, str, os.PathLike)):
        raise TaskError(f"store must be a TaskStore, a file's path or None (memory), not {store!r}")


_Run = TypeVar("_Run", bound=Callable[..., Any])


def opens_store(run: _Run) -> _Run:
    """``run`` (a function with a keyword ``store``) taking ``store`` as a :class:`TaskStore`, a
    file's path (opened for the run and closed after it, as ``--store`` takes it) or ``None``
    (memory), checked before any work."""
    @functools.wraps(run)
    def opened(*args: Any, store: Any = None, **kwargs: Any) -> Any:
        check_store(store)
        if isinstance(store, (str, os.PathLike)):
            with TaskStore(store) as opened_store:
                return run(*args, store=opened_store, **kwargs)
        return run(*args, store=store, **kwargs)
    return cast("_Run", opened)


def _timed(batch: Sequence[tuple[str, Callable[..., Any], tuple]]) -> list[tuple[str, Any, float]]:
    """Run a batch of tasks where it lands (a worker process or a Dask worker)."""
    out = []
    with fewer_collections(), _together(batch):
        for key, function, arguments in batch:
            start = time.perf_counter()
            value = function(*arguments)
            out.append((key, value, time.perf_counter() - start))
    return out


def _together(batch: Sequence[tuple[str, Callable[..., Any], tuple]]) -> contextlib.ExitStack:
    """A batch's tasks of a function that can share work between calls run within its
    ``together(arguments of those calls)``, a context manager, where it has one."""
    by_function: dict[Callable[..., Any], list[tuple]] = {}
    for _, function, arguments in batch:
        by_function.setdefault(function, []).append(arguments)
    stack = contextlib.ExitStack()
    for function, calls in by_function.items():
        together = getattr(function, "together", None)
        if together is not None:
            stack.enter_context(together(calls))
    return stack


@dataclasses.dataclass
class RunStats:
    """What a run did: tasks computed and found stored, its wall time and the summed compute
    time of the tasks it computed (the difference, over the workers, is scheduling overhead)."""

    computed: int = 0
    stored: int = 0
    wall: float = 0.0
    compute: float = 0.0
    workers: int = 1
    where: str = "here"
    restarts: int = 0

    def to_data(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def run_tasks(tasks: Sequence[Task], store: TaskStore, job: str, *, workers: int | None = None,
              scheduler: str | None = None, progress: Callable[[int, int], None] | None = None,
              batch: int | None = None) -> RunStats:
    """Compute every task of ``tasks`` whose key ``store`` lacks and store its result.
    ``progress(done, total)`` hears of every finished batch (stored tasks count as done)."""
    start = time.perf_counter()
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise TaskError("two tasks of one job share a key")
    stored = store.has(keys)
    todo = [t for t in tasks if t.key not in stored]
    stats = RunStats(stored=len(stored))
    done = len(stored)
    if progress:
        progress(done, len(tasks))

    def finished(results: list[tuple[str, Any, float]]) -> None:
        nonlocal done
        store.put_many((key, job, value, seconds) for key, value, seconds in results)
        for _, _, seconds in results:
            stats.compute += seconds
            stats.computed += 1
        done += len(results)
        if progress:
            progress(done, len(tasks))

    def unstored(part: Batch) -> Batch:
        """A batch without the tasks another run sharing the store has stored since: taken."""
        nonlocal done
        now = store.has(key for key, _, _ in part)
        if now:
            stats.stored += len(now)
            done += len(now)
            if progress:
                progress(done, len(tasks))
        return [task for task in part if task[0] not in now]

    if todo:
        if scheduler is not None:
            _on_dask(todo, scheduler, batch, finished, stats)
        else:
            _on_processes(todo, workers, batch, finished, stats, unstored)
    stats.wall = time.perf_counter() - start
    return stats


Batch = list[tuple[str, Callable[..., Any], tuple]]


def _batches(todo: Sequence[Task], size: int) -> list[Batch]:
    flat = [(t.key, t.function, t.arguments) for t in todo]
    return [flat[i:i + size] for i in range(0, len(flat), size)]


def _batch_size(tasks: int, workers: int, asked: int | None) -> int:
    """Batches small enough to spread the work and to lose little when a worker dies, large
    enough that each costs one scheduling round trip among several tasks: about eight per worker."""
    if asked is not None:
        if asked < 1:
            raise TaskError(f"batch must be at least 1, not {asked!r}")
        return asked
    return max(1, min(32, tasks // (8 * max(1, workers))))


# batches in flight per local worker process
IN_FLIGHT = 2


def _on_processes(todo: Sequence[Task], workers: int | None, batch: int | None,
                  finished: Callable[[list[tuple[str, Any, float]]], None], stats: RunStats,
                  unstored: Callable[[Batch], Batch] = list) -> None:
    """The batches in local processes (or here, with one worker), each without the tasks that
    ``unstored`` finds another run has stored by the time it is sent."""
    from bjcalc.counting.workers import _context

    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise TaskError(f"workers must be at least 1, not {count!r}")
    stats.workers, stats.where = count, "local processes" if count > 1 else "here"
    batches = _batches(todo, _batch_size(len(todo), count, batch))
    if count == 1:
        for part in batches:
            part = unstored(part)
            if part:
                finished(_timed(part))
        return
    pending = dict(enumerate(batches))
    while pending:
        progressed = False
        # a signal or an error ends the workers at once (what is stored stays stored)
        with pools.processes(min(count, len(pending)), _context()) as pool, pools.stopping(pool):
            try:
                # a few batches a worker in flight, the next submitted as one is stored: the
                # results waiting to be stored stay few however fast the workers are, and a
                # stored batch's future (and its results) is let go at once
                queue = iter(list(pending))
                futures: dict[concurrent.futures.Future[Any], int] = {}
                _send(IN_FLIGHT * count, pool, queue, pending, futures, unstored)
                while futures:
                    done, _ = concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)
                    for future in done:
                        finished(future.result())
                        del pending[futures.pop(future)]
                        progressed = True
                        _send(1, pool, queue, pending, futures, unstored)
            except concurrent.futures.process.BrokenProcessPool:
                stats.restarts += 1
        if pending and not progressed:
            # the workers could not start (a __main__ they cannot import) or die at once: do
            # the work here
            stats.workers, stats.where = 1, "here"
            for i in sorted(pending):
                finished(_timed(pending.pop(i)))
        # else a worker died (killed, out of memory): what it held is re-run in a new pool


# seconds a scheduler has to accept a connection and to greet it
CONNECT_TIMEOUT = 3.0

# the most a Dask scheduler's greeting (its handshake message) takes, in bytes and frames
_GREETING_BYTES, _GREETING_FRAMES = 1 << 20, 64


def check_scheduler(scheduler: str) -> None:
    """Refuse, within :data:`CONNECT_TIMEOUT` seconds, a ``scheduler`` address that is not
    ``[tcp://|tls://]HOST[:PORT]`` (port 8786 by default) or where no Dask scheduler answers.

    A Dask scheduler greets every connection with its handshake, a frame of a few hundred
    bytes; a server that says nothing (an HTTP server waits for a request: Dask would wait for
    ever) or something else (a length Dask would allocate, exabytes) is not one. Over TLS only
    the connection is tried (the greeting is encrypted)."""
    import importlib.util
    import socket
    import struct
    import urllib.parse

    if importlib.util.find_spec("distributed") is None:
        raise TaskError("--scheduler needs Dask distributed: pip install 'bjcalc[dask]'")
    if not isinstance(scheduler, str):
        raise TaskError(f"scheduler must be an address such as tcp://10.0.0.5:8786, not {scheduler!r}")
    text = scheduler.strip()
    scheme, _, rest = text.rpartition("://") if "://" in text else ("tcp", "", text)
    try:
        parts = urllib.parse.urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port or 8786
    except ValueError:
        host = port = None
    if scheme.lower() not in ("tcp", "tls") or not host or parts.path or parts.query or parts.username:
        raise TaskError(f"scheduler must be an address such as tcp://10.0.0.5:8786, not {scheduler!r}")
    unreachable = f"scheduler {scheduler!r} cannot be reached"
    connected = False
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as connection:
            connected = True
            if scheme.lower() == "tls":
                return
            header = _receive(connection, 8)
            (size,) = struct.unpack("<Q", header)
            if not 16 <= size <= _GREETING_BYTES:
                raise TaskError(f"{unreachable}: something answers at {host}:{port}, but not a Dask scheduler")
            frames = _receive(connection, size)
            (count,) = struct.unpack("<Q", frames[:8])
            if not 1 <= count <= _GREETING_FRAMES or 8 * (count + 1) > size:
                raise TaskError(f"{unreachable}: something answers at {host}:{port}, but not a Dask scheduler")
    except TimeoutError:
        if not connected:
            raise TaskError(f"{unreachable}: no connection to {host}:{port} within {CONNECT_TIMEOUT:g} s") from None
        raise TaskError(f"{unreachable}: {host}:{port} took the connection but did not greet it as a Dask scheduler "
                        f"does within {CONNECT_TIMEOUT:g} s (a web server? the dashboard's port? the scheduler's "
                        "is 8786 by default)") from None
    except OSError as error:
        raise TaskError(f"{unreachable}: {error.strerror or error}") from None


def _receive(connection: Any, size: int) -> bytes:
    """Exactly ``size`` bytes from a socket (its timeout applies to each read)."""
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionResetError("the connection was closed before a Dask scheduler's greeting")
        data += chunk
    return data


def _send(batches: int, pool: Any, queue: Iterator[int], pending: dict[int, Batch],
          futures: dict[concurrent.futures.Future[Any], int], unstored: Callable[[Batch], Batch]) -> None:
    """Send the next ``batches`` batches of ``queue`` to ``pool``, each without the tasks
    another run has stored meanwhile (a batch left empty is done)."""
    for i in queue:
        pending[i] = unstored(pending[i])
        if not pending[i]:
            del pending[i]
            continue
        futures[pool.submit(_timed, pending[i])] = i
        batches -= 1
        if not batches:
            return


def _on_dask(todo: Sequence[Task], scheduler: str, batch: int | None,
             finished: Callable[[list[tuple[str, Any, float]]], None], stats: RunStats) -> None:
    try:
        import distributed
    except ImportError:
        raise TaskError("--scheduler needs Dask distributed: pip install 'bjcalc[dask]'") from None
    check_scheduler(scheduler)
    try:
        client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT:g}s")
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise TaskError(f"scheduler {scheduler!r} cannot be reached: {error}") from None
    try:
        workers = max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))
        stats.workers, stats.where = workers, f"dask {scheduler}"
        batches = _batches(todo, _batch_size(len(todo), workers, batch))
        # pure=False: a batch is never deduplicated against another client's; retries re-run
        # a batch whose worker died before it finished
        completed = distributed.as_completed(client.map(_timed, batches, pure=False, retries=3))
        for future in completed:
            finished(future.result())
            future.release()  # stored: the cluster may forget it (its workers would hold every result)
    finally:
        client.close()
