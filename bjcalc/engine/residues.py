"""Exact integers too large for the loops' machine words, and how they are carried there.

The dealer's exact numerators (:mod:`bjcalc.engine.dealer`) are non-negative integers below
their denominator ``ff(cards left, depth)``. Two ways keep them out of Python's big integers
inside the loops:

- **Residues**: the numpy loop computes each numerator modulo enough primes below ``2**31``
  (:func:`primes_above`) in int64 arithmetic, and :func:`from_residues` rebuilds it by the
  Chinese remainder theorem.
- **128-bit halves**: the compiled exact loop holds each numerator in a 128-bit integer while
  :func:`fits_128_bits` (the joint pass of every up card: :func:`joint_fits_128_bits`),
  returned as two uint64 halves that :func:`join_halves` joins.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

# Residues are below 2**31 and are multiplied by card counts and summed over ten ranks, so int64
# holds every intermediate while a shoe has fewer than 2**63 / 2**31 / 10 > 2**28 cards
# (rules.MAX_CARDS stays below this; a test checks it).
EXACT_CARD_LIMIT = 2**28


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for ``n < 2**32`` (the bases 2, 7 and 61 suffice there)."""
    if n < 2 or n % 2 == 0:
        return n == 2
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 7, 61):
        if a % n == 0:
            continue
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


@functools.lru_cache(maxsize=8)
def primes_below_2_31(count: int) -> tuple[int, ...]:
    """The ``count`` largest primes below ``2**31``.

    >>> primes_below_2_31(2)
    (2147483647, 2147483629)
    """
    primes: list[int] = []
    n = 2**31 - 1
    while len(primes) < count:
        if _is_prime(n):
            primes.append(n)
        n -= 2
    return tuple(primes)


def primes_above(bound: int) -> list[int]:
    """The fewest primes below ``2**31`` whose product exceeds ``bound`` (for the Chinese
    remainder theorem: every numerator is below its denominator, which is at most ``bound``)."""
    count = bound.bit_length() // 30 + 1  # each prime is above 2**30
    return list(primes_below_2_31(count))


def from_residues(residues: np.ndarray, primes: Sequence[int]) -> np.ndarray:
    """The integers (Python ints, an object array) whose residues modulo ``primes[i]`` are
    ``residues[i]``, each below the product of the primes.

    >>> from_residues(np.array([[1, 0], [2, 1]]), [3, 5]).tolist()
    [7, 6]
    """
    product = math.prod(primes)
    # Chinese remainder theorem: x = sum_i r_i * (M / p_i) * ((M / p_i)^-1 mod p_i)  (mod M)
    weights = [(product // p) * pow(product // p, -1, p) for p in primes]
    total = np.zeros(residues.shape[1], dtype=object)
    for i, weight in enumerate(weights):
        total = total + np.array(residues[i].tolist(), dtype=object) * weight
    return total % product


def fits_128_bits(shoe: tuple[int, ...], removed: np.ndarray, depth: int) -> bool:
    """Whether the exact compiled loop can run: every partial sum is at most a shoe's
    denominator ``ff(cards left, depth)``, which must stay below 2**127 (8 decks: about 2**96)."""
    most = sum(shoe) - int(removed.sum(axis=1).min(initial=0))
    return math.perm(max(most, 0), depth) < 2**127 if most >= depth else True


def joint_fits_128_bits(shoe: tuple[int, ...], removed: np.ndarray, depths: Sequence[int]) -> bool:
    """Whether the exact joint pass (every up card at once) can run for the shoes ``shoe -
    removed`` (``shoe`` before the up card): its sums carry the up card's count too, each at
    most ``ff(cards, depth + 1)``, ``T_u`` times an up card's denominator (8 decks: about
    2**105)."""
    return fits_128_bits(shoe, removed, max(depths, default=-1) + 1)


def join_halves(halves: np.ndarray) -> np.ndarray:
    """Python ints (an object array) from 128-bit integers held as [high, low] uint64 pairs
    (the last axis).

    >>> join_halves(np.array([[1, 5]], dtype=np.uint64)).tolist()
    [18446744073709551621]
    """
    return halves[..., 0].astype(object) * 2**64 + halves[..., 1].astype(object)
