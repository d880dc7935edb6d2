"""Playing efficiency (bjcalc/counting/efficiency.py: strategy_variations, playing_efficiency): the published
PE of eight count systems on Griffin's single-deck game, and the pieces of the normal model each
checked on its own against an independent computation (numerical integration, enumeration of
every subset of a small shoe, hand-worked deal probabilities). docs/counting.md states the model.
"""

import itertools
import json
import math
import pathlib

import jsonschema
import pytest
from click.testing import CliRunner

from bjcalc import Rules
from bjcalc.cli import cli
from bjcalc.counting.efficiency import (
    StrategyVariation,
    even_depths,
    playing_efficiency,
    strategy_variations,
    unit_normal_loss,
    variation_gain,
)
from bjcalc.counting.eor import effects_of_removal
from bjcalc.counting.measures import count_figures
from bjcalc.counting.systems import CountSystem

# Published playing efficiencies, ../shared/reference/counting.md section 2 (blackjackapprenticeship.com
# card-counting systems table; lifesagambol.com from the Blackjack Review encyclopedia and QFIT), all in
# the tradition of Griffin, The Theory of Blackjack ch. 4, single deck. Wong Halves is printed .56 (.57
# elsewhere). Acceptance: within 0.03 of each.
PUBLISHED_PE = {
    "hi-lo": .51, "ko": .55, "hi-opt-i": .61, "hi-opt-ii": .67,
    "omega-ii": .67, "zen": .63, "wong-halves": .56, "uston-apc": .69,
}
TOLERANCE = 0.03
# Griffin's single-deck reading (docs/counting.md): one deck, S17, no double after split, no surrender
GRIFFIN_RULES = Rules(decks=1, double_after_split=False, split_hands=4, surrender="none")
SMALL = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--max-cards", "4", "--split-hands", "1", "--workers", "1")
SCHEMA = json.loads((pathlib.Path(__file__).resolve().parent.parent / "docs" / "bjcalc.schema.json").read_text())


@pytest.fixture(scope="module")
def single_deck() -> list[StrategyVariation]:
    """Every first decision of Griffin's single-deck game (eleven float analyses, a few seconds)."""
    return strategy_variations(GRIFFIN_RULES, workers=1)


@pytest.mark.parametrize("name", sorted(PUBLISHED_PE))
def test_published_playing_efficiencies_on_griffins_single_deck_game(name, single_deck):
    got = playing_efficiency(CountSystem.named(name), single_deck, even_depths(52))
    assert abs(got - PUBLISHED_PE[name]) <= TOLERANCE, (name, round(got, 3), PUBLISHED_PE[name])


# -- the normal model, piece by piece -------------------------------------------------------------

def integral(f, a: float, b: float, steps: int = 4000) -> float:
    """Simpson's rule (``steps`` even): scipy is not a dependency."""
    h = (b - a) / steps
    return h / 3 * (f(a) + f(b) + sum((4 if i % 2 else 2) * f(a + i * h) for i in range(1, steps)))


def normal_pdf(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


@pytest.mark.parametrize("z", [0.0, 0.3, 1.0, 2.0, 3.5])
def test_unit_normal_loss_is_the_integral_it_names(z):
    # G(z) = integral from z to infinity of (t - z) phi(t) dt
    assert unit_normal_loss(z) == pytest.approx(integral(lambda t: (t - z) * normal_pdf(t), z, z + 12), abs=1e-9)


@pytest.mark.parametrize("margin, sd", [(0.0, 0.02), (0.01, 0.02), (0.05, 0.02), (-0.03, 0.1)])
def test_a_variations_gain_is_the_mean_positive_part_of_a_normal_difference(margin, sd):
    # the alternative's EV difference is N(-|margin|, sd^2); deviating when it is positive gains E[max(0, X)]
    mean = -abs(margin)
    expected = integral(lambda x: x * normal_pdf((x - mean) / sd) / sd, 0.0, 12 * sd)
    assert variation_gain(margin, sd) == pytest.approx(expected, abs=1e-10)
    assert variation_gain(margin, 0.0) == 0.0


@pytest.mark.parametrize("seen", [1, 2, 3, 5])
def test_the_spread_of_a_difference_over_random_subsets_of_the_shoe(seen):
    # every subset of `seen` cards of a 7-card shoe, the linear model's change (M - 1) / (M - k) x the
    # sum of the removed cards' EORs: its variance, enumerated, is the finite-population formula's
    counts = (2, 1, 3, 0, 0, 0, 0, 0, 0, 1)
    eor = (0.3, -0.1, 0.05, 0, 0, 0, 0, 0, 0, -0.4)
    cards = [eor[rank] for rank, n in enumerate(counts) for _ in range(n)]
    m = len(cards)
    changes = [(m - 1) / (m - seen) * sum(subset) for subset in itertools.combinations(cards, seen)]
    mean = sum(changes) / len(changes)
    variance = sum((c - mean) ** 2 for c in changes) / len(changes)
    variation = StrategyVariation("x", 0.01, eor, counts, 1.0)
    assert variation.sd(seen) ** 2 == pytest.approx(variance, rel=1e-12)
    assert variation.sd(0) == 0.0 and variation.sd(m) == 0.0


def weighted_orthogonal(tags, vectors, counts):
    """``tags`` less their projections on ``vectors`` in the shoe-weighted inner product (means
    removed): a count uncorrelated with each vector."""
    n = sum(counts)
    w = [c / n for c in counts]

    def centred(v):
        mean = sum(wi * vi for wi, vi in zip(w, v))
        return [vi - mean for vi in v]

    def dot(a, b):
        return sum(wi * ai * bi for wi, ai, bi in zip(w, a, b))

    out = centred(tags)
    basis = []
    for v in vectors:
        v = centred(v)
        for b in basis:
            v = [vi - dot(v, b) / dot(b, b) * bi for vi, bi in zip(v, b)]
        basis.append(v)
    for b in basis:
        out = [oi - dot(out, b) / dot(b, b) * bi for oi, bi in zip(out, b)]
    return out


def weighted_correlation(a, b, counts):
    n = sum(counts)
    w = [c / n for c in counts]
    ma, mb = sum(x * y for x, y in zip(w, a)), sum(x * y for x, y in zip(w, b))
    cov = sum(x * (p - ma) * (q - mb) for x, p, q in zip(w, a, b))
    return cov / math.sqrt(sum(x * (p - ma) ** 2 for x, p in zip(w, a)) * sum(x * (q - mb) ** 2 for x, q in zip(w, b)))


COUNTS = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
E1 = (-0.6, 0.3, 0.4, 0.5, 0.7, 0.4, 0.2, 0.0, -0.2, -0.5)
E2 = (0.9, -0.2, 0.1, -0.3, 0.6, -0.8, 0.5, -0.1, 0.2, -0.1)


def test_a_count_uncorrelated_with_every_play_gains_nothing():
    plays = [StrategyVariation("one", 0.01, E1, COUNTS, 0.3), StrategyVariation("two", 0.002, E2, COUNTS, 0.1)]
    tags = weighted_orthogonal([1, 2, -1, 0, 3, 1, -2, 0, 1, -1], [E1, E2], COUNTS)
    assert max(abs(t) for t in tags) > 0.1  # a real count, not all zeros
    assert playing_efficiency(tags, plays, range(1, 30)) == pytest.approx(0.0, abs=1e-9)


def test_a_count_proportional_to_a_plays_effects_gets_that_plays_whole_gain(single_deck):
    play = next(v for v in single_deck if v.label == "6,T v T: hit - stand")
    for scale, shift in ((2.0, 0.0), (-0.5, 3.0)):  # correlation -1 tells the play just as well
        tags = [scale * e + shift for e in play.eor]
        assert playing_efficiency(tags, [play], even_depths(52)) == pytest.approx(1.0, abs=1e-12)


def test_efficiency_weighs_each_play_by_frequency_and_its_gain_at_each_depth():
    # tags proportional to E1's play and uncorrelated with E2's: the count gets all of play one's
    # gain and none of play two's; each gain integrated numerically from the sd formula's value
    one = StrategyVariation("one", 0.01, E1, COUNTS, 0.3)
    two = StrategyVariation("two", 0.002, E2, COUNTS, 0.1)
    tags = weighted_orthogonal(E1, [E2], COUNTS)
    depths = [5, 20, 35]

    def gain(variation, seen):
        sd = variation.sd(seen)
        return integral(lambda x: x * normal_pdf((x + variation.margin) / sd) / sd, 0.0, 12 * sd, 2000)

    first = sum(one.frequency * gain(one, k) for k in depths)
    second = sum(two.frequency * gain(two, k) for k in depths)
    rho = weighted_correlation(tags, E1, COUNTS)
    assert abs(rho) > 0.5  # the projection keeps most of E1
    # the count's gain on play one: the same integral with the spread scaled by |rho|
    scaled = StrategyVariation("one", 0.01, tuple(abs(rho) * e for e in E1), COUNTS, 0.3)
    captured = sum(one.frequency * gain(scaled, k) for k in depths)
    assert playing_efficiency(tags, [one, two], depths) == pytest.approx(captured / (first + second), rel=1e-6)


# -- the variations of a game ---------------------------------------------------------------------

def test_variation_frequency_and_plays_worked_by_hand(single_deck):
    by_label = {v.label: v for v in single_deck}
    # 6,T v T: a ten up (16 of 52), then T and 6 from 51 cards (15 tens, 4 sixes) in either order,
    # and no ace in the hole (4 aces among the 49 cards left)
    assert by_label["6,T v T: hit - stand"].frequency == pytest.approx(16 / 52 * 2 * 15 * 4 / (51 * 50) * 45 / 49)
    # 5,6 v 6: no hole-card check against a 6
    assert by_label["5,6 v 6: double - hit"].frequency == pytest.approx(4 / 52 * 2 * 4 * 3 / (51 * 50))
    # pairs are played as their totals, soft hands do not double; no natural is a variation
    assert "8,8 v T: hit - stand" in by_label and "A,7 v 4: stand - hit" in by_label
    assert not any(label.startswith("A,T ") for label in by_label)
    assert all(v.margin >= 0 for v in single_deck)
    assert len(single_deck) == 54 * 10  # every non-natural two-card hand against every up card


def test_pairs_and_soft_doubles_when_asked():
    splitting = {v.label for v in strategy_variations(GRIFFIN_RULES, splits=True, soft_doubles=True, workers=1)}
    assert "8,8 v T: split - hit" in splitting and "A,7 v 4: double - stand" in splitting


def test_count_figures_carry_the_playing_efficiency(single_deck):
    small = Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 2, 2, 8), player_max_cards=4, dealer_max_cards=4, split_hands=1)
    eor = effects_of_removal(small, workers=1)
    hi_lo = CountSystem.named("hi-lo")
    assert count_figures(hi_lo, eor).playing_efficiency is None
    with_pe = count_figures(hi_lo, eor, single_deck, even_depths(52))
    assert with_pe.playing_efficiency == playing_efficiency(hi_lo, single_deck, even_depths(52))
    assert with_pe.to_dict()["playing_efficiency"] == with_pe.playing_efficiency


# -- bjcalc count --pe ----------------------------------------------------------------------------

def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, (args, result.output)
    return result.stdout


def test_count_pe_in_every_format():
    out = json.loads(run("count", *SMALL, "--system", "hi-lo", "--system", "ko", "--pe", "--format", "json"))
    assert [e.message for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(out)] == []
    # 26-card shoe: rounds after 0 to 17 seen cards (two thirds of 26, rounded down)
    assert out["playing_efficiency_model"]["cards_seen"] == [0, 17]
    assert all(0 < s["playing_efficiency"] < 1 for s in out["systems"])
    plain = json.loads(run("count", *SMALL, "--system", "hi-lo", "--format", "json"))
    assert plain["playing_efficiency_model"] is None and plain["systems"][0]["playing_efficiency"] is None

    text = run("count", *SMALL, "--system", "hi-lo", "--pe")
    header = next(line for line in text.splitlines() if line.startswith("system "))
    assert header.split()[11:15] == ["balanced", "BC", "IC", "PE"]
    assert "PE (playing efficiency): Griffin's normal-model estimate" in text
    assert "| PE " not in run("count", *SMALL, "--system", "hi-lo", "--format", "markdown")
    assert "| PE " in run("count", *SMALL, "--system", "hi-lo", "--pe", "--format", "markdown")
    csv = run("count", *SMALL, "--system", "hi-lo", "--pe", "--format", "csv").splitlines()
    column = csv[0].split(",").index("playing_efficiency")
    assert 0 < float(csv[1].split(",")[column]) < 1
    assert run("count", *SMALL, "--system", "hi-lo", "--format", "csv").splitlines()[1].split(",")[column] == ""
