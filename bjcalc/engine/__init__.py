"""The engine: bjcalc's private machinery, below everything a user calls.

Data flows rules -> up-card context -> dealer -> hands -> values -> splits -> the walk:

- :mod:`~bjcalc.engine.dealer`: the dealer's state graph and outcome probabilities for many
  shoes in one pass (with the optional compiled loop, ``_dealer_kernel.c``);
- :mod:`~bjcalc.engine.hands`: the player's hand graph, compiled to layers;
- :mod:`~bjcalc.engine.batch`: the shoes the hands leave, and the dealer evaluated on them;
- :mod:`~bjcalc.engine.context`: one up card's shoe, dealer and dealer batch;
- :mod:`~bjcalc.engine.values`: stand/hit/double values of every hand, one backward pass;
- :mod:`~bjcalc.engine.split`: split values for CDZ-, CDP1, CDP or a chart;
- :mod:`~bjcalc.engine.moments`: second moments (variance) of hands and splits;
- :mod:`~bjcalc.engine.analyser`: per up card, the cached values of one rule set;
- :mod:`~bjcalc.engine.payout`: what each play is worth for a hand under a policy, in which
  frame: the one home of the payouts and of the conversions between frames;
- :mod:`~bjcalc.engine.deal` and :mod:`~bjcalc.engine.walk`: every two-card hand, and one
  walk over the deal for any policy (round EV, charts, Bet Behind, variance);
- :mod:`~bjcalc.engine.codes`: the one code for a play in the arrays.

Nothing here formats text or parses command lines (tests/test_architecture.py checks it).
"""
