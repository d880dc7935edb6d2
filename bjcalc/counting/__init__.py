"""Counting: what a card counter's knowledge is worth, built on :class:`bjcalc.Analysis`.

- :mod:`~bjcalc.counting.systems`: the count systems (tags, balance);
- :mod:`~bjcalc.counting.countshoe`: the counter's shoe (what a count says of the cards left)
  and insurance by count;
- :mod:`~bjcalc.counting.eor`: effects of removal of the round and of a play;
- :mod:`~bjcalc.counting.measures` and :mod:`~bjcalc.counting.efficiency`: a system measured
  on the exact EORs (BC, IC, linear indices; playing efficiency);
- :mod:`~bjcalc.counting.indices` and :mod:`~bjcalc.counting.shoeindex`: index numbers at one
  depth and over the shoe;
- :mod:`~bjcalc.counting.truecount`: what a count and a bet spread are worth over the shoe;
- :mod:`~bjcalc.counting.tasks`: the states' tasks in local processes or on Dask, and their
  store.

Nothing here formats text or parses command lines; the public names are the package door's
(``from bjcalc import truecount_analysis``).
"""
