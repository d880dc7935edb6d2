"""Perfect Pairs and 21+3 from a depleted 6-deck shoe (three aces of spades already seen).

    python examples/side_bets.py
"""

from bjcalc import SuitedShoe, perfect_pairs, twenty_one_plus_three

shoe = SuitedShoe.dealt_from(6, "As As As")
for result in (perfect_pairs(shoe), twenty_one_plus_three(shoe)):
    print(f"{result.name}: expected return {float(result.expected_return):+.6f} = {result.expected_return}")
