import pathlib

import pytest
from hypothesis import HealthCheck, settings

DATA = pathlib.Path(__file__).parent / "data"

# Hypothesis profiles: ``bjcalc`` (loaded by default, what CI runs) and ``thorough``, ten times the
# examples of every property test: ``python3 -m pytest --hypothesis-profile thorough``.
_QUIET = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.register_profile("bjcalc", max_examples=100, **_QUIET)
settings.register_profile("thorough", max_examples=1000, **_QUIET)
settings.load_profile("bjcalc")


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``--run-slow`` (or when ``-m`` selects them). Each is
    a check of an oracle that the default run also makes against the engine."""
    if config.getoption("--run-slow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def examples(n: int) -> int:
    """``n`` examples under the ``bjcalc`` profile, scaled with the loaded profile (``thorough``:
    ten times as many). Property tests size their runs with it, not with fixed counts."""
    return max(1, n * settings.default.max_examples // 100)


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


def both_player_loops(monkeypatch, build):
    """``build()`` with the compiled player loop, then with the numpy / Python-integer loop
    (``BJCALC_NUMPY_PLAYER=1``)."""
    from bjcalc.engine import kernels

    monkeypatch.delenv("BJCALC_NUMPY_PLAYER", raising=False)
    assert kernels.player_kernel_available()
    compiled = build()
    monkeypatch.setenv("BJCALC_NUMPY_PLAYER", "1")
    assert not kernels.player_kernel_available()
    return compiled, build()
