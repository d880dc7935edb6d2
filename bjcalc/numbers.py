"""Number modes: the engine computes with float64 or with exact integers over common
denominators; the API hands out ``float`` or ``sympy.Rational``.

SymPy is imported only here, and only when an exact value is handed out.
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any

Number = float | Any  # float, or sympy.Rational in exact mode


def quotient(numerator: Any, denominator: Any, exact: bool) -> Fraction | float:
    """``numerator / denominator`` of two engine numbers: a ``Fraction`` in exact mode, where
    both must be integers (a float there has already lost digits, so it is refused rather
    than truncated), else a float."""
    if exact:
        return Fraction(operator.index(numerator), operator.index(denominator))
    return float(numerator) / float(denominator)


def ratio(numerator: Any, denominator: Any, exact: bool) -> Number:
    """``numerator / denominator`` as the API's number type."""
    return to_api(quotient(numerator, denominator, exact), exact)


def constant(value: Fraction | int, exact: bool) -> Number:
    if exact:
        import sympy

        value = Fraction(value)
        return sympy.Rational(value.numerator, value.denominator)
    return float(value)


def to_fraction(value: Number) -> Fraction:
    """A sympy.Rational (or int) as a ``fractions.Fraction``."""
    if isinstance(value, float):
        raise TypeError("a float is not exact")
    return Fraction(int(value.p), int(value.q)) if hasattr(value, "p") else Fraction(value)


def to_api(value: Fraction | float, exact: bool) -> Number:
    """An engine number (Fraction or float) as the API's type: sympy.Rational or float."""
    if exact:
        import sympy

        value = Fraction(value)
        return sympy.Rational(value.numerator, value.denominator)
    return float(value)
