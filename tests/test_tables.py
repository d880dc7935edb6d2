"""tables/ must be exactly what the code produces now (regenerate with `bjcalc tables`)."""

import pathlib

from bjcalc.tables import generate

COMMITTED = pathlib.Path(__file__).resolve().parent.parent / "tables"


def test_committed_tables_are_current(tmp_path):
    written = generate(tmp_path)
    names = sorted(p.name for p in written)
    assert names == sorted(p.name for p in COMMITTED.iterdir()), "tables/ has missing or extra files"
    for path in written:
        committed = (COMMITTED / path.name).read_text()
        assert committed == path.read_text(), f"tables/{path.name} is stale: run `bjcalc tables`"
