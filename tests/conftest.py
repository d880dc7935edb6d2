import pathlib

DATA = pathlib.Path(__file__).parent / "data"


def read_table(name):
    """Rows of a whitespace data file as dicts keyed by its header; '#' lines are comments."""
    lines = [
        line.split()
        for line in (DATA / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    header, rows = lines[0], lines[1:]
    return [dict(zip(header, row)) for row in rows]


def matches_printed(value, printed: str) -> bool:
    """Whether ``value`` rounds to the ``printed`` figure at its last printed digit.

    Published tables are sometimes double-rounded (rounded to one more digit first, e.g.
    Wizard of Odds prints 16/51 = 0.31372549 as 0.313726); both roundings are accepted,
    nothing looser.
    """
    from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

    target = Decimal(printed)
    exponent = target.as_tuple().exponent
    exact = Decimal(repr(float(value)))
    candidates = set()
    for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN):
        candidates.add(exact.quantize(Decimal(1).scaleb(exponent), rounding=mode))
        finer = exact.quantize(Decimal(1).scaleb(exponent - 1), rounding=mode)
        candidates.add(finer.quantize(Decimal(1).scaleb(exponent), rounding=mode))
    return target in candidates
