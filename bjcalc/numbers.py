"""Number modes: the engine computes with float64 or with exact integers over common
denominators (:func:`as_numbers`); the API hands out ``float`` or ``sympy.Rational``.

SymPy is imported only here, and only when an exact value is handed out.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np


def quotient(numerator: Any, denominator: Any, exact: bool) -> Fraction | float:
    """``numerator / denominator`` of two engine numbers: a ``Fraction`` in exact mode, where
    both must be integers (a float there has already lost digits, so it is refused rather
    than truncated), else a float."""
    if exact:
        return Fraction(operator.index(numerator), operator.index(denominator))
    return float(numerator) / float(denominator)


def ratio(numerator: Any, denominator: Any, exact: bool) -> Any:
    """``numerator / denominator`` as the API's number type (float, or sympy.Rational in exact
    mode: the front door's results carry the type as their parameter ``N``)."""
    return to_api(quotient(numerator, denominator, exact), exact)


def constant(value: Fraction | int, exact: bool) -> Any:
    if exact:
        import sympy

        value = Fraction(value)
        return sympy.Rational(value.numerator, value.denominator)
    return float(value)


def to_fraction(value: Any) -> Fraction:
    """A sympy.Rational (or int) as a ``fractions.Fraction``."""
    if isinstance(value, float):
        raise TypeError("a float is not exact")
    return Fraction(int(value.p), int(value.q)) if hasattr(value, "p") else Fraction(value)


def to_api(value: Fraction | float, exact: bool) -> Any:
    """An engine number (Fraction or float) as the API's type: sympy.Rational or float."""
    if exact:
        import sympy

        value = Fraction(value)
        return sympy.Rational(value.numerator, value.denominator)
    return float(value)


def as_numbers(array: np.ndarray | Sequence[Any], exact: bool) -> np.ndarray:
    """Integers (an integer array, or nested lists of Python ints) as Python ints in an object
    array (exact mode) or as float64.

    Lists never pass through ``np.asarray`` in exact mode: numpy types ``[2**63, 5]`` as
    float64 (uint64 and int64 promote to float), which silently rounds the big integers.
    """
    if not exact:
        return np.asarray(array).astype(np.float64)
    if isinstance(array, np.ndarray):
        if array.dtype.kind not in "iub" and array.dtype != object:
            raise TypeError(f"exact numbers must be integers, not {array.dtype}")
        return array.astype(object)
    out = np.array(array, dtype=object)
    if not all(isinstance(x, int) for x in out.flat):
        raise TypeError("exact numbers must be integers")
    return out


def falling_left(n: int, k: int) -> int:
    """``max(n, 1) max(n-1, 1) ... max(n-k+1, 1)``: the falling factorial of the cards left,
    each factor at least 1. The engine's denominators for ``k`` more draws from ``n`` cards: where
    a round could take more cards than are left (a shoe dealt to its last cards), the draws past
    the last card have no numerator (a card of no rank is left), and their factor is 1, so every
    denominator stays positive and a path that runs out of cards counts nothing. Equal to
    :func:`falling` wherever ``n >= k``."""
    if n >= k:
        return math.perm(n, k) if k > 0 else 1
    return math.factorial(n) if n > 0 else 1


def falling(n: int, k: int) -> int:
    """``n (n-1) ... (n-k+1)``."""
    if k <= 0:
        return 1
    if n >= k:
        return math.perm(n, k)
    return 0 if n >= 0 else math.prod(range(n, n - k, -1))


