"""tabulate's ``simple`` and ``plain`` tables of text, without importing tabulate for them.

tabulate reads its own version from the installed packages' metadata when it is imported
(``importlib.metadata``): about 30 ms of a whole ``bjcalc edge`` process of 0.3 s, for two small
tables. :func:`tabulate` lays out the tables the text renderer prints itself, the same
characters as tabulate's with ``disable_numparse=True``: every cell a string of printable ASCII
on one line, left-aligned and stripped, each column as wide as its widest cell or its header
and two spaces, two spaces between columns, trailing spaces cut, and in ``simple`` a rule of
dashes under the headers (above and below the rows without headers). Any other table (other
formats or options, other cells, ragged rows) goes to tabulate itself, imported then.
``tests/test_texttable.py`` holds the two to the same output.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

FORMATS = ("simple", "plain")


def tabulate(rows: Iterable[Sequence[Any]], headers: Sequence[Any] | str = (), tablefmt: str = "simple",
             disable_numparse: bool = False, **options: Any) -> str:
    """``tabulate.tabulate(rows, headers, tablefmt, disable_numparse, **options)``, laid out
    here where it can be (see the module).

    >>> print(tabulate([["2", "0.5"], ["T", "-0.25"]], headers=["up", "EV"], disable_numparse=True))
    up    EV
    ----  -----
    2     0.5
    T     -0.25
    """
    table: list[list[Any]] = [list(row) for row in rows]
    header_row = list(headers) if not isinstance(headers, str) else None
    if (disable_numparse and not options and tablefmt in FORMATS and header_row is not None
            and _laid_out_here(table, header_row)):
        return _lay_out(table, header_row, tablefmt)
    import tabulate as full  # only for the tables tabulate lays out itself

    return str(full.tabulate(table, headers=headers, tablefmt=tablefmt, disable_numparse=disable_numparse, **options))


def _plain(cell: object) -> bool:
    """A cell laid out here: text of printable ASCII (tabulate measures no other widths alike
    everywhere: wide characters where wcwidth is installed, colour codes, line breaks)."""
    return isinstance(cell, str) and cell.isascii() and cell.isprintable()


def _laid_out_here(rows: list[list[Any]], headers: list[Any]) -> bool:
    """Whether :func:`_lay_out` gives tabulate's output: rows of one length, headers none or
    one per column, every cell and header plain text."""
    if not rows:
        return False
    width = len(rows[0])
    return (width > 0 and all(len(row) == width for row in rows) and len(headers) in (0, width)
            and all(_plain(cell) for row in rows for cell in row) and all(_plain(h) for h in headers))


def _lay_out(rows: list[list[str]], headers: list[str], tablefmt: str) -> str:
    """The table, once :func:`_laid_out_here` holds."""
    columns = [[cell.strip() for cell in column] for column in zip(*rows)]
    widths = [max(len(cell) for cell in column) for column in columns]
    if headers:
        widths = [max(width, len(header) + 2) for width, header in zip(widths, headers)]

    def line(cells: Iterable[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip()

    rule = line("-" * width for width in widths)
    lines = [line(headers)] if headers else []
    if tablefmt == "simple":
        lines.append(rule)  # under the headers, or above the rows
    lines += [line(row) for row in zip(*columns)]
    if tablefmt == "simple" and not headers:
        lines.append(rule)
    return "\n".join(lines)
