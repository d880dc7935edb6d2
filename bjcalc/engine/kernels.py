"""The optional compiled loops, loaded here and nowhere else, and whether each may run.

``setup.py`` builds them as optional extensions; where there is no C compiler they are missing
and bjcalc runs the numpy code they replace, with the same numbers:

- ``_dealer_kernel.c`` (:data:`dealer_kernel`): the dealer's outcome numerators for many shoes
  (:mod:`bjcalc.engine.dealer`) in floats or, where the compiler has 128-bit integers, exactly;
  and the joint pass of every up card (:mod:`bjcalc.engine.jointdealer`), in floats and exactly.
  ``BJCALC_NUMPY_DEALER=1`` switches it off.
- ``_player_kernel.c`` (:data:`player_kernel`): the player's backward pass, in floats and in exact residues
  (:mod:`bjcalc.engine.values`). ``BJCALC_NUMPY_PLAYER=1`` switches it off.
- ``_pairs_kernel.c`` (:data:`pairs_kernel`): a split's two hands counted pair by pair, by the
  multiset both drew and the sign of their total result, or the product of their results (the
  variance's second moment; :mod:`bjcalc.engine.moments`), integers in both modes.
  ``BJCALC_NUMPY_PAIRS=1`` switches it off.

The switches are read at each call, so that a test can set them for one analysis.
"""

from __future__ import annotations

import os

import numpy as np

try:
    from bjcalc.engine import _dealer_kernel as dealer_kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    dealer_kernel = None
try:
    from bjcalc.engine import _player_kernel as player_kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    player_kernel = None
try:
    from bjcalc.engine import _pairs_kernel as pairs_kernel  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    pairs_kernel = None


def _switched_on(variable: str) -> bool:
    return os.environ.get(variable, "") in ("", "0")


def dealer_kernel_available() -> bool:
    """Whether the compiled dealer loop is built and not switched off."""
    return dealer_kernel is not None and _switched_on("BJCALC_NUMPY_DEALER")


def _has_exact_pass() -> bool:
    """Whether the compiled dealer loop has its 128-bit exact pass (a compiler with 128-bit
    integers)."""
    if dealer_kernel is None or not hasattr(dealer_kernel, "numerators_exact"):
        return False
    try:  # an empty batch: raises NotImplementedError where the build has no 128-bit integers
        empty = np.zeros(1, dtype=np.int32)
        dealer_kernel.numerators_exact(empty, empty, empty, empty, empty, empty, empty, empty, 0, 0, 0,
                                       np.zeros((0, 10), dtype=np.int64), np.zeros(0, dtype=np.uint64),
                                       np.zeros(0, dtype=np.uint64))
    except NotImplementedError:
        return False
    return True


HAS_EXACT_PASS = _has_exact_pass()


def exact_dealer_kernel_available() -> bool:
    """Whether exact dealer passes can run in the compiled loop (shoes up to about 2**127)."""
    return dealer_kernel_available() and HAS_EXACT_PASS


def joint_kernel_available() -> bool:
    """Whether the compiled dealer loop has the joint float pass and its gather (and is not
    switched off)."""
    return dealer_kernel_available() and hasattr(dealer_kernel, "joint") and hasattr(dealer_kernel, "gather")


def joint_exact_available() -> bool:
    """Whether the compiled dealer loop has the joint exact pass (128-bit integers; a build
    older than it has not) and is not switched off."""
    return exact_dealer_kernel_available() and hasattr(dealer_kernel, "joint_exact")


def player_kernel_available() -> bool:
    """Whether the compiled player loop is built and not switched off."""
    return player_kernel is not None and _switched_on("BJCALC_NUMPY_PLAYER")


def pairs_kernel_available() -> bool:
    """Whether the compiled pair tables are built and not switched off."""
    return pairs_kernel is not None and _switched_on("BJCALC_NUMPY_PAIRS")
