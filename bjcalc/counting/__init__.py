"""Counting: what a card counter's knowledge is worth, built on :class:`bjcalc.Analysis`.

One job per module:

- :mod:`~bjcalc.counting.systems`: the count systems (tags, balance);
- :mod:`~bjcalc.counting.tags`: what tags say: tag classes, subsets by tag sum, true counts;
- :mod:`~bjcalc.counting.countshoe`: the counter's shoe (what a count says of the cards left)
  and the running count's distribution at a depth;
- :mod:`~bjcalc.counting.insurance`: insurance by count;
- :mod:`~bjcalc.counting.eor` and :mod:`~bjcalc.counting.plays`: effects of removal of the
  round, and of a play or insurance;
- :mod:`~bjcalc.counting.measures` and :mod:`~bjcalc.counting.efficiency`: a system measured
  on the exact EORs (BC, IC, linear indices; playing efficiency);
- :mod:`~bjcalc.counting.indices`, :mod:`~bjcalc.counting.indexgrid` and
  :mod:`~bjcalc.counting.shoeindex`: index numbers at one depth, every hand as a counter's
  chart, and over the shoe;
- true-count economics: :mod:`~bjcalc.counting.spread` (the bet spread),
  :mod:`~bjcalc.counting.roundcards` (the cards a round uses), :mod:`~bjcalc.counting.placement`
  (where rounds start), :mod:`~bjcalc.counting.states` (one state's task),
  :mod:`~bjcalc.counting.economics` (win rate, SD, SCORE) and
  :mod:`~bjcalc.counting.truecount` (the run, step by step);
- :mod:`~bjcalc.counting.workers` and :mod:`~bjcalc.counting.tasks`: local worker processes,
  and the states' tasks on them or on Dask, with their store.

Nothing here formats text or parses command lines; the public names are the package door's
(``from bjcalc import truecount_analysis``).
"""
