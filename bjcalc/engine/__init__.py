"""The engine: bjcalc's private machinery, below everything a user calls.

Data flows rules -> up-card context -> dealer -> hands -> values -> splits -> the walk:

- :mod:`~bjcalc.engine.dealer`: when the dealer stops, its state graph and outcome
  probabilities for many shoes in one pass;
- :mod:`~bjcalc.engine.jointdealer`: every up card's dealer graph as one, one pass per shoe;
- :mod:`~bjcalc.engine.hands`: the player's hand graph, compiled to layers;
- :mod:`~bjcalc.engine.batch`: the shoes the hands leave, and the dealer evaluated on them;
- :mod:`~bjcalc.engine.context`: one up card's shoe, dealer and dealer batch;
- :mod:`~bjcalc.engine.values`: stand/hit/double values of every hand, one backward pass;
- :mod:`~bjcalc.engine.split`: split values for CDZ-, CDP1, CDP or a chart;
- :mod:`~bjcalc.engine.moments`: second moments (variance) of hands and splits, and a split's
  win/push/loss;
- :mod:`~bjcalc.engine.chances`: win/push/loss of every unsplit hand, one backward pass;
- :mod:`~bjcalc.engine.analyser`: per up card, the cached values of one rule set;
- :mod:`~bjcalc.engine.payout`: what each play is worth for a hand under a policy, in which
  frame: the one home of the payouts and of the conversions between frames;
- :mod:`~bjcalc.engine.deal` and :mod:`~bjcalc.engine.walk`: every two-card hand, and one
  walk over the deal for any policy (round EV, charts, Bet Behind, variance);
- :mod:`~bjcalc.engine.codes`: the one code for a play in the arrays.

Beneath them all, importing no other engine module: :mod:`~bjcalc.engine.kernels` loads the
optional compiled loops (``_dealer_kernel.c``, ``_player_kernel.c``, ``_pairs_kernel.c``),
:mod:`~bjcalc.engine.residues` carries exact integers too large for machine words (residues,
128-bit halves), :mod:`~bjcalc.engine.store` keeps compiled graphs on disk and :mod:`~bjcalc.engine.pools` makes
every thread and process pool. :mod:`~bjcalc.engine.allocator` keeps freed memory for reuse
(set once, when the first float engine is made).

Nothing here formats text or parses command lines (tests/test_architecture.py checks it).
"""
