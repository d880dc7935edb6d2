"""bjcalc.engine.batch.ShoeIndex numbers the shoes the hands leave: every distinct removal row
gets the next column the first time any registration holds it, and the same column ever after.
Checked against a dict that numbers the rows by first appearance, over many registrations of
random rows (new rows merged among the known ones, rows seen again, repeats within one)."""

import numpy as np

from bjcalc.engine.batch import ShoeIndex


def test_columns_number_rows_by_first_appearance():
    rng = np.random.default_rng(46)
    index, seen = ShoeIndex(), {}
    for _ in range(60):
        rows = rng.integers(0, 3, size=(int(rng.integers(1, 200)), 10))
        before = len(index)
        columns, added = index._columns(rows)
        expected = [seen.setdefault(tuple(row), len(seen)) for row in rows.tolist()]
        assert columns.tolist() == expected
        # the rows added: those first seen here, in the order of their new columns
        assert [tuple(r) for r in added.tolist()] == [row for row, c in seen.items() if c >= before]
        index._chunks.append(added)
        index._count += len(added)
    assert np.all(np.diff(index._keys) > 0)  # the keys stay sorted, each once
    assert len(index._keys) == len(seen)
