"""tables/ must be exactly what the code produces now (regenerate with `bjcalc tables`).

One test per game and one for the counting table (so that xdist shares the work out); the
README's rows are checked by each game's test, its order and fixed text by its own."""

import pathlib

import pytest

from bjcalc.tables import (
    COUNTING_NAME,
    INDEX_TABLES,
    counting_tables,
    file_names,
    game_tables,
    index_file_names,
    index_files,
    index_text,
    table_games,
)

COMMITTED = pathlib.Path(__file__).resolve().parent.parent / "tables"
README = (COMMITTED / "README.md").read_text() if (COMMITTED / "README.md").exists() else ""


def _stale(name: str) -> str:
    return f"tables/{name} is stale: run `bjcalc tables`"


def test_committed_tables_are_exactly_the_generated_files():
    names = [n for game in table_games() for n in file_names(game)] + [f"{COUNTING_NAME}.md", "README.md"]
    names += [n for table in INDEX_TABLES for n in index_file_names(table)]
    assert sorted(names) == sorted(p.name for p in COMMITTED.iterdir()), "tables/ has missing or extra files"


@pytest.mark.parametrize("game", list(table_games()))
def test_committed_tables_are_current(game):
    contents, row, extra = game_tables(game)
    for name, content in contents.items():
        assert (COMMITTED / name).read_text() == content, _stale(name)
    lines = README.splitlines()
    assert row in lines, _stale("README.md")
    assert extra is None or extra in lines, _stale("README.md")


def test_committed_counting_table_is_current():
    assert (COMMITTED / f"{COUNTING_NAME}.md").read_text() == counting_tables(), _stale(f"{COUNTING_NAME}.md")


@pytest.mark.slow  # 10-40 s each on two cores: the index tables are checked with --run-slow
@pytest.mark.parametrize("table", list(INDEX_TABLES))
def test_committed_index_tables_are_current(table):
    for name, content in index_files(table).items():
        assert (COMMITTED / name).read_text() == content, _stale(name)


def test_committed_index_is_current():
    """README.md is :func:`index_text` of the games' rows in order (each row's figures are checked
    by that game's test above), and nothing else."""
    lines = README.splitlines()
    rows = [next((line for line in lines if line.startswith(f"| [{game}]({game}.md) |")), f"(no {game})")
            for game in table_games()]
    extras = [next((line for line in lines if line.startswith(f"- {game}: ")), f"(no {game})")
              for game in table_games() if f"{game}-report.md" in file_names(game)]
    assert README == index_text(rows, extras), _stale("README.md")


def test_the_readme_copy_of_the_eor_table_is_the_generated_one():
    readme = (COMMITTED.parent / "README.md").read_text()
    block = readme.split("<!-- generated: tables/effects-of-removal-6-decks.md")[1].split("<!-- end generated -->")[0]
    shown = [line for line in block.splitlines() if line.startswith("|")]
    generated = (COMMITTED / "effects-of-removal-6-decks.md").read_text().split("# Count systems")[0]
    assert shown and shown == [line for line in generated.splitlines() if line.startswith("|")]
