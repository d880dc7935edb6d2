"""The engine's door: what the layers above the analysis (counting) take from the engine.

Every other engine module is private to the engine and :mod:`bjcalc.analysis` and what sits
beside it (tests/test_architecture.py checks it); the foundations (:mod:`~bjcalc.engine.pools`,
:mod:`~bjcalc.engine.store`) are every layer's to use.
"""

from bjcalc.engine.batch import shared_stands, stands_together
from bjcalc.engine.codes import Code
from bjcalc.engine.collector import fewer_collections
from bjcalc.engine.drawmodel import DrawModel
from bjcalc.engine.lastcards import may_run_out
from bjcalc.engine.payout import Frame, action_values, reframe
from bjcalc.engine.runout import casino_bound, round_run_out
from bjcalc.engine.walk import Optimal, RoundTotals, round_totals

__all__ = [
    "Code", "DrawModel", "Frame", "Optimal", "RoundTotals", "action_values", "casino_bound", "fewer_collections",
    "may_run_out", "reframe", "round_run_out", "round_totals", "shared_stands", "stands_together",
]
