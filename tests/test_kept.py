"""bjcalc.kept.Kept: the last few values by key, the least recently used let go first."""

from __future__ import annotations

import threading

import pytest

from bjcalc.kept import Kept


def test_the_least_recently_used_goes_first():
    kept: Kept[int] = Kept(3)
    for i in range(3):
        kept.put(i, i * 10)
    assert kept.get(0) == 0  # now the most recently used
    kept.put(3, 30)
    assert kept.get(1) is None and [kept.get(k) for k in (0, 2, 3)] == [0, 20, 30]
    assert len(kept) == 3


def test_put_again_replaces_without_growing():
    kept: Kept[str] = Kept(2)
    kept.put("a", "x")
    kept.put("a", "y")
    assert len(kept) == 1 and kept.get("a") == "y"


def test_setdefault_makes_once_and_keeps_a_mutable_value():
    kept: Kept[dict] = Kept(2)
    made = []
    first = kept.setdefault("k", lambda: made.append(1) or {})
    first["x"] = 1
    assert kept.setdefault("k", lambda: made.append(1) or {}) == {"x": 1} and made == [1]


def test_cache_clear_and_size():
    kept: Kept[int] = Kept(1)
    kept.put(1, 1)
    kept.cache_clear()
    assert len(kept) == 0 and kept.get(1) is None
    with pytest.raises(ValueError):
        Kept(0)


def test_threads_never_see_more_than_size():
    kept: Kept[int] = Kept(5)
    sizes = []

    def work(offset: int) -> None:
        for i in range(2000):
            kept.put(offset + i % 50, i)
            kept.get(offset + (i * 7) % 50)
            sizes.append(len(kept))

    threads = [threading.Thread(target=work, args=(k * 100,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert max(sizes) <= 5
