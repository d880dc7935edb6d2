"""The house edge of a game, exactly: composition-dependent play and the basic-strategy chart.

    python examples/house_edge.py
"""

from bjcalc import Analysis, Rules
from bjcalc.game import round_ev
from bjcalc.strategy import basic_strategy, evaluate

rules = Rules(decks=2, hit_soft_17=True, surrender="late")
exact = Analysis(rules, exact=True)
cd = round_ev(exact)
chart = basic_strategy(rules)
basic, _ = evaluate(exact, chart)
print(f"CD play ({cd.strategy}): house edge {100 * float(cd.house_edge):.4f} %  = {cd.house_edge}")
print(f"basic strategy chart: house edge {100 * float(basic.house_edge):.4f} %")
print("chart, hard 16:", chart.table("hard")["16"])
