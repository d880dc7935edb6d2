"""A few values kept by key, the least recently used let go first.

bjcalc keeps some work done for one analysis for the next ones of the same kind: a chart's
plays of split hands (:data:`bjcalc.chart.split_plays`), a chart policy's first plays
(:mod:`bjcalc.chartpolicy`), what registering a hand graph's shoes did to a shoe index
(:attr:`bjcalc.engine.hands.HandLayers.replays`). Each is worth keeping only for the few keys
in use, so each is a :class:`Kept` of a fixed size: memory stays flat however many analyses a
process runs.

>>> kept = Kept(2)
>>> kept.put("a", 1); kept.put("b", 2); kept.get("a"); kept.put("c", 3)
1
>>> kept.get("b") is None, kept.get("a"), len(kept)
(True, 1, 2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """The last ``size`` values put or read, by key; threads may share it."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a Kept holds at least one value, not {size!r}")
        self.size = size
        self._values: dict[Hashable, V] = {}  # the least recently used first
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept under ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            value = self._values.pop(key, None)
            if value is not None:
                self._values[key] = value
            return value

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` under ``key``, letting the least recently used go beyond ``size``."""
        with self._lock:
            self._values.pop(key, None)
            while len(self._values) >= self.size:
                del self._values[next(iter(self._values))]
            self._values[key] = value

    def setdefault(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value under ``key``, made (and kept) by ``make()`` where there is none."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def cache_clear(self) -> None:
        """Let every value go (as ``functools.lru_cache``'s ``cache_clear``)."""
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
