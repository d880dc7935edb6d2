"""The house edge of a game, exactly: composition-dependent play and the basic-strategy chart.

    python examples/house_edge.py
"""

from bjcalc import Analysis, Rules

rules = Rules(decks=2, hit_soft_17=True, surrender="late")
exact = Analysis(rules, exact=True)
cd = exact.round()
chart = Analysis(rules).chart()
basic = exact.evaluate(chart).round
print(f"CD play ({cd.strategy}): house edge {cd.house_edge_percent:.4f} %  = {cd.house_edge}")
print(f"basic strategy chart: house edge {basic.house_edge_percent:.4f} %")
print("chart, hard 16:", chart.table("hard")["16"])
