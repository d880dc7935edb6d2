"""bjcalc.render.texttable lays out tabulate's ``simple`` and ``plain`` tables of text itself
(tabulate's import reads the installed packages' metadata): the same characters as tabulate's
own, for random tables of the cells it takes, and tabulate's output for everything it passes on."""

import pytest
import tabulate as reference
from hypothesis import given
from hypothesis import strategies as st

from bjcalc.render import texttable

# printable ASCII with spaces at either end (tabulate strips cells, not headers), the words
# tabulate reads as booleans, and empty cells (a column of them has no type)
CELLS = st.one_of(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12),
                  st.sampled_from(["", " ", "True", "False", "-0.5", "1,000", "  x  "]))


@st.composite
def tables(draw):
    columns = draw(st.integers(1, 5))
    rows = draw(st.lists(st.lists(CELLS, min_size=columns, max_size=columns), min_size=1, max_size=6))
    headers = draw(st.one_of(st.just([]), st.lists(CELLS, min_size=columns, max_size=columns)))
    return rows, headers


@given(tables(), st.sampled_from(texttable.FORMATS))
def test_laid_out_as_tabulate_lays_it_out(table, tablefmt):
    rows, headers = table
    assert texttable._laid_out_here(rows, headers)
    ours = texttable.tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)
    assert ours == reference.tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)


def test_a_table_of_the_edge_command():
    rows = [["2", "0.076923", "0.092259"], ["T", "0.307692", "-0.171037"]]
    assert texttable.tabulate(rows, headers=["up", "P(up)", "EV given up (unconditional)"],
                              disable_numparse=True).splitlines() == [
        "up    P(up)     EV given up (unconditional)",
        "----  --------  -----------------------------",
        "2     0.076923  0.092259",
        "T     0.307692  -0.171037",
    ]


@pytest.mark.parametrize("case", [
    ([["a", 1]], ["x", "y"], "simple", {}),  # a number
    ([["a\nb", "c"]], ["x", "y"], "simple", {}),  # a line break
    ([["\x1b[31mred\x1b[0m", "c"]], [], "plain", {}),  # a colour code
    ([["é", "c"]], ["x", "y"], "simple", {}),  # not ASCII
    ([["a", "b"], ["c"]], [], "simple", {}),  # ragged
    ([["a", "b"]], ["x"], "simple", {}),  # fewer headers than columns
    ([["a", "b"]], "firstrow", "simple", {}),
    ([["a", "b"]], ["x", "y"], "github", {}),
    ([["a", "b"]], ["x", "y"], "simple", {"colalign": ("right", "left")}),
    ([], ["x", "y"], "simple", {}),
])
def test_every_other_table_goes_to_tabulate(case):
    rows, headers, tablefmt, options = case
    ours = texttable.tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True, **options)
    assert ours == reference.tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True, **options)


def test_numbers_parsed_go_to_tabulate():
    rows = [["1.5", "x"], ["10", "y"]]
    assert texttable.tabulate(rows, headers=["n", "s"]) == reference.tabulate(rows, headers=["n", "s"])
