"""The dealer's final-total probabilities for every up card, one deck, S17, before the peek,
as exact fractions that sum to exactly 1.

    python examples/dealer_table.py
"""

from bjcalc import Analysis, Rules

analysis = Analysis(Rules(decks=1), exact=True)
for up in "23456789TA":
    table = analysis.dealer(up)
    assert sum(table.values()) == 1
    cells = "  ".join(f"{outcome} {float(p):.6f}" for outcome, p in table.items())
    print(f"up {up}: {cells}")
