"""bjcalc.engine.collector: the collector runs less often while bjcalc computes, and is as it
was once the last holder lets go, whatever the nesting or the threads."""

from __future__ import annotations

import gc
import threading

from bjcalc import Analysis, Rules
from bjcalc.engine import collector


def test_held_nested_and_let_go():
    before = gc.get_threshold()
    with collector.fewer_collections():
        assert gc.get_threshold() == collector.THRESHOLDS
        with collector.fewer_collections():
            assert gc.get_threshold() == collector.THRESHOLDS
        assert gc.get_threshold() == collector.THRESHOLDS  # the outer hold is still on
    assert gc.get_threshold() == before


def test_threads_that_overlap_leave_it_as_it_was():
    before = gc.get_threshold()
    inside, go = threading.Barrier(3), threading.Event()

    def hold() -> None:
        with collector.fewer_collections():
            inside.wait()
            go.wait()

    threads = [threading.Thread(target=hold) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait()  # both hold it
    with collector.fewer_collections():
        pass  # a third comes and goes
    assert gc.get_threshold() == collector.THRESHOLDS
    go.set()
    for thread in threads:
        thread.join()
    assert gc.get_threshold() == before


def test_an_error_inside_lets_go():
    before = gc.get_threshold()
    try:
        with collector.fewer_collections():
            raise ValueError("inside")
    except ValueError:
        pass
    assert gc.get_threshold() == before


def test_a_round_leaves_the_collector_as_it_was():
    before = gc.get_threshold()
    gc.set_threshold(900, 11, 12)
    try:
        Analysis(Rules(decks=2)).round()
        assert gc.get_threshold() == (900, 11, 12)
    finally:
        gc.set_threshold(*before)
