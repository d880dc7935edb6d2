"""The exact EV of every action for one hand: 16 (T,6) against a ten, 6 decks, H17, late surrender.

    python examples/hand_ev.py
"""

from bjcalc import Analysis, Rules

rules = Rules(decks=6, hit_soft_17=True, surrender="late")
result = Analysis(rules, exact=True).hand("T,6", "T")
frame = "conditioned on no dealer blackjack" if result.conditioned else "unconditional"
print(f"T,6 v T ({frame}, {result.strategy}):")
for action, ev in result.ranked:
    print(f"  {action.key:<9} {float(ev):+.6f}   = {ev}")
print("best:", result.best.key)
