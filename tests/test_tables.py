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


def test_the_readme_copy_of_the_eor_table_is_the_generated_one():
    readme = (COMMITTED.parent / "README.md").read_text()
    block = readme.split("<!-- generated: tables/effects-of-removal-6-decks.md")[1].split("<!-- end generated -->")[0]
    shown = [line for line in block.splitlines() if line.startswith("|")]
    generated = (COMMITTED / "effects-of-removal-6-decks.md").read_text().split("# Count systems")[0]
    assert shown and shown == [line for line in generated.splitlines() if line.startswith("|")]
