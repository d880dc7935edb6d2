"""The test oracles: independent implementations of the rule model (docs/model.md), written
from the rules alone and sharing no code with ``bjcalc``, so that the engine can be compared
with them.

- ``naive_reference``: expectimax over every card sequence of one hand, and dealer tables.
- ``naive_split``: the same for splits (resplits included) and for whole rounds.
- ``naive_faces``: splitting where only tens of the same face may be split.
- ``simulator``: a Monte Carlo player of a chart, for checks within stated standard errors.
"""
