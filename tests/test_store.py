"""The compiled-graph store (bjcalc/engine/store.py): a later process loads the arrays a first
one compiled, without networkx, and gets the same numbers; an unreadable file is rebuilt; a
store that cannot be written is skipped."""

import json
import os
import subprocess
import sys

import numpy as np

from bjcalc.engine import dealer, hands, store

_RUN = """
import json, sys
from bjcalc import Analysis, Rules
ev = Analysis(Rules(decks=2, hit_soft_17=True, surrender="late")).round().ev
print(json.dumps({"ev": ev, "networkx": "networkx" in sys.modules}))
"""


def _run(cache: str) -> dict:
    env = dict(os.environ, BJCALC_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_second_process_loads_the_arrays_without_networkx(tmp_path):
    first = _run(str(tmp_path))
    assert first["networkx"]  # compiled here
    assert sorted(p.name.split("-")[0] for p in tmp_path.glob("*.arrays")).count("dealer") == 10
    second = _run(str(tmp_path))
    assert not second["networkx"]
    assert second["ev"] == first["ev"] == _run("off")["ev"]


def test_stored_arrays_read_back_as_the_compiled_graphs():
    for up in (0, 5, 9):
        for h17, limit in ((False, None), (True, 5)):
            built = dealer._compile_dealer(up, h17, limit)
            read = dealer._dealer_from_arrays(up, dealer._dealer_arrays(built))
            assert read.outcomes == built.outcomes and len(read.steps) == len(built.steps)
            for a, b in zip(built.steps, read.steps):
                assert (a.width, a.n_drawing) == (b.width, b.n_drawing)
                assert all(np.array_equal(x, y) for x, y in zip(a.parents + a.children + a.held,
                                                                 b.parents + b.children + b.held))
                assert {o: w.tolist() for o, w in a.stops.items()} == {o: w.tolist() for o, w in b.stops.items()}
                assert np.array_equal(a.stop_counts, b.stop_counts)
    built = hands._compile_hands((4,) * 9 + (16,), 5)
    read = hands._layers_from_arrays(hands._layers_arrays(built), built.key)
    for field in ("counts", "children", "totals", "soft"):
        pairs = zip(getattr(built, field), getattr(read, field))
        assert all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in pairs)


def test_an_unreadable_file_is_rebuilt_and_an_unwritable_store_skipped(tmp_path, monkeypatch):
    monkeypatch.setenv("BJCALC_CACHE", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"x": np.arange(3)}

    def same(arrays):
        return arrays

    def load():
        return store.load_or_build("thing", "d1", build, same, lambda a: {"x": a["x"]})

    assert load()["x"].tolist() == [0, 1, 2] and len(calls) == 1
    assert load()["x"].tolist() == [0, 1, 2] and len(calls) == 1  # read back, not built
    path = tmp_path / "thing-d1.arrays"
    whole = path.read_bytes()
    for damaged in (b"not an arrays file", whole[:-1], whole + b"\0", whole.replace(b'"<i8"', b'"<q9"')):
        path.write_bytes(damaged)
        built = len(calls)
        assert load()["x"].tolist() == [0, 1, 2] and len(calls) == built + 1  # rebuilt (and saved again)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("BJCALC_CACHE", str(blocked / "below"))  # cannot be created
    assert load()["x"].tolist() == [0, 1, 2] and len(calls) == 6
