"""How the process's allocator keeps freed memory: for reuse, not given back at once.

An analysis makes and frees arrays of hundreds of kilobytes to megabytes by the hundred (the
player's passes' outputs, the joint dealer pass's tables), and keeps many until it is dropped.
glibc serves each block over its mmap threshold (128 kB, raised only as such blocks are freed)
by ``mmap`` and gives the heap's free top back above its trim threshold, so the next analysis
faults its pages in afresh and the kernel zeroes them: a warm 8-deck shoe's round took 2,600
page faults (about 5 ms of its 38; 2026-12-05, afternoon).

:func:`keep_freed_memory` sets both thresholds: blocks up to 4 MB come from the heap, and up
to 16 MB of it may lie free at the top before it is given back (26 faults a shoe; 37-39 ->
33-38 ms, interleaved, and 46-55 -> 33-38 ms in the machine's slower spells). The resident set
then stays at most 16 MB above what is in use in each heap (the main thread's, and each pool
thread's arena). :func:`for_float_engines` sets them once, when the first float engine is
made: exact analyses keep glibc's defaults (their peaks are measured against float's: 8-deck
``edge --exact`` reads 152-159 MB either way, but held at glibc's starting 128 kB threshold
exact ``effects`` and ``edge --sd`` took 4.0 and 3.7 s instead of 3.0 and 3.2 s). The 256 MB and 512 MB tried on
2026-12-05 in the morning, for the variance's temporaries of tens of megabytes, raised
``report``'s peak close to 300 MB. Other C libraries, other platforms and a process whose own
settings are in ``GLIBC_TUNABLES`` or ``MALLOC_*_`` are left as they are.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 4 * 2**20
TRIM_THRESHOLD = 16 * 2**20


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds (see the module); whether they were set."""
    if not _ours_to_set():
        return False
    mallopt = _mallopt()
    return mallopt is not None and bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) \
        and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _ours_to_set() -> bool:
    """Linux, and no allocator settings of the process's own (``GLIBC_TUNABLES``, ``MALLOC_*_``)."""
    if not sys.platform.startswith("linux") or "GLIBC_TUNABLES" in os.environ:
        return False
    return not any(name.startswith("MALLOC_") and name.endswith("_") for name in os.environ)


def _mallopt() -> Any:
    """glibc's ``mallopt``, or None (musl has none)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return None
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return mallopt


_set = False


def for_float_engines() -> None:
    """:func:`keep_freed_memory`, once per process (its first float engine's)."""
    global _set
    if not _set:
        _set = True
        keep_freed_memory()
