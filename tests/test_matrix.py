"""bjcalc matrix (bjcalc.matrix.ev_matrix): every cell against an independent call of the front
door, the probabilities adding up to exactly 1, the cells' best plays adding up to the round's
EV exactly, and the win/push/loss chances against facts they must satisfy (a unit bet's EV is
P(win) - P(loss); a stand's chances are the dealer's table). Tiny shoes, exact arithmetic."""

import csv
import functools
import io
import itertools
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from bjcalc import Action, Analysis, Rank, Rules
from bjcalc.cli import cli
from bjcalc.cli.common import build_rules
from bjcalc.matrix import ev_matrix
from bjcalc.numbers import to_fraction

TWOS = (2,) * 9 + (8,)  # 26 cards
GAMES = {
    # peek, late surrender, split to 2, unlike tens may not split: the pair of tens comes twice (the card
    # limits of the CLI's default game, so that the CLI's run below has the same rules)
    "peek": Rules(shoe=TWOS, split_hands=2, surrender="late", split_unlike_tens=False, player_max_cards=11,
                  dealer_max_cards=11),
    # no hole card, early surrender (unconditional EVs), H17, 4-card charlie
    "no hole card": Rules(shoe=TWOS, split_hands=2, hole_card="none", surrender="early", hit_soft_17=True,
                          charlie=4, blackjack_takes="original"),
    # no splits: the round's win/push/loss cover every round
    "no splits": Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 3, 2, 8), split_hands=1, surrender="none", double="10-11"),
}


@functools.lru_cache(maxsize=len(GAMES))
def exact_matrix(rules):
    return ev_matrix(Analysis(rules, exact=True))


@pytest.fixture(params=list(GAMES))
def game(request):
    rules = GAMES[request.param]
    return rules, exact_matrix(rules)


F = to_fraction


def dealable(full, split_unlike_tens=True):
    """(hand, same face, up card) of every two-card hand the shoe ``full`` can deal with each up card."""
    wanted = set()
    for up in range(10):
        for a, b in itertools.combinations_with_replacement(range(10), 2):
            left = list(full)
            for card in (up, a, b):
                left[card] -= 1
            if min(left) >= 0:
                hand = f"{Rank.from_index(a)},{Rank.from_index(b)}"
                wanted.add((hand, True, str(Rank.from_index(up))))
                if a == b == 9 and not split_unlike_tens:
                    wanted.add((hand, False, str(Rank.from_index(up))))
    return wanted


def test_every_cell_is_the_front_doors_hand(game):
    rules, matrix = game
    fresh = Analysis(rules, exact=True)
    seen = set()
    for cell in matrix.cells:
        cards = "K,Q" if not cell.same_face else cell.cards
        expected = fresh.hand(cards, cell.up)
        assert cell.hand.evs == expected.evs, (cell.label, cell.up)
        assert (cell.best, cell.frame, cell.hand.dealer_blackjack) == (expected.best, expected.frame,
                                                                       expected.dealer_blackjack)
        seen.add((cell.cards, cell.same_face, str(cell.up)))
    # every hand the shoe can deal against every up card, once (tens twice where unlike ones may not split)
    wanted = dealable(rules.shoe_counts, rules.split_unlike_tens)
    assert seen == wanted
    assert len(matrix.cells) == len(wanted)
    ups = [str(u) for u in matrix.ups]
    assert ups == sorted(ups, key="23456789TA".index)


def test_probabilities_add_up_to_one_and_by_up_card(game):
    rules, matrix = game
    assert sum(F(c.probability) for c in matrix.cells) == 1
    n = sum(rules.shoe_counts)
    for up in matrix.ups:
        assert sum(F(c.probability) for c in matrix.cells if c.up is up) == Fraction(rules.shoe_counts[up.index], n)
    # a literal: A,T v 2: P(2 up), then an ace and a ten in either order from the n - 1 cards left
    aces, twos, tens = rules.shoe_counts[0], rules.shoe_counts[1], rules.shoe_counts[9]
    assert F(matrix.cell("A,T", "2").probability) == Fraction(twos, n) * Fraction(2 * aces * tens, (n - 1) * (n - 2))


def test_the_best_plays_add_up_to_the_rounds_ev(game):
    rules, matrix = game
    total = Fraction(0)
    for cell in matrix.cells:
        ev, p_bj = F(cell.hand.evs[cell.best]), F(cell.hand.dealer_blackjack)
        if cell.frame == "conditioned":  # E[result | no blackjack] -> unconditional
            ev = ev * (1 - p_bj) - (0 if cell.hand.is_blackjack else p_bj)
        assert F(cell.best_unconditional) == ev
        total += F(cell.probability) * ev
    assert total == F(matrix.round.ev) == F(Analysis(rules, exact=True).round().ev)


def test_win_push_loss_are_probabilities_that_give_the_ev(game):
    rules, matrix = game
    for cell in matrix.cells:
        chances = cell.chances
        w, p, lo = F(chances.win), F(chances.push), F(chances.loss)  # splits too: two hands at most here
        assert min(w, p, lo) >= 0 and w + p + lo == 1, (cell.label, cell.up)
        ev = F(cell.hand.evs[cell.best])
        if cell.hand.is_blackjack:
            assert lo == 0 and p == (0 if cell.frame == "conditioned" else F(cell.hand.dealer_blackjack))
        elif cell.best is Action.SURRENDER:
            assert lo == 1
        elif cell.best in (Action.STAND, Action.HIT):  # a unit bet: +1, 0 or -1
            assert ev == w - lo, (cell.label, cell.up, cell.best)
        elif cell.best is Action.DOUBLE and rules.peek:  # a doubled bet: +2, 0 or -2
            assert ev == 2 * (w - lo), (cell.label, cell.up)
    chances = matrix.chances
    assert F(chances.win) + F(chances.push) + F(chances.loss) == 1 and F(matrix.split) == 0
    if rules.split_hands == 1:
        assert F(chances.win) - F(chances.loss) < F(matrix.round.ev)  # blackjacks pay 3:2, doubles 2


def test_splits_that_could_resplit_are_not_broken_down():
    rules = Rules(shoe=(2, 2, 2, 2, 2, 2, 2, 4, 2, 8), split_hands=3, surrender="none")  # four 8s
    matrix = exact_matrix(rules)
    splits = [c for c in matrix.cells if c.best is Action.SPLIT]
    for cell in splits:  # a resplit needs a third card of the rank (and aces are not resplit here)
        pair = Rank(cell.cards.split(",")[0])
        left = rules.shoe_counts[pair.index] - 2 - (cell.up is pair)
        assert (cell.chances is None) == (pair is not Rank.ACE and left > 0), (cell.label, cell.up)
    assert any(c.chances is None for c in splits) and any(c.chances is not None for c in splits)
    total = F(matrix.chances.win) + F(matrix.chances.push) + F(matrix.chances.loss)
    assert 0 < F(matrix.split) < 1 and total + F(matrix.split) == 1


def test_a_splits_chances_against_every_ordering_of_a_tiny_shoe():
    """Both split hands' total against brute force: every distinct ordering of a shoe without
    aces (dealt player, up, player, hole, draws) is played by tests/test_variance.py's oracle
    (naive best first play, naive CDZ- split hands, no resplit), and the orderings that deal
    each split cell are counted by the sign of the round's result."""
    from test_variance import brute_force_with_splits, naive

    shoe = (0, 2, 0, 1, 0, 1, 0, 1, 0, 6)
    rules = Rules(shoe=shoe, split_hands=2, surrender="none", double="any", double_after_split=True)
    signs: dict = {}

    def record(order, result, hands):
        key = (tuple(sorted((order[0], order[2]))), order[1])
        counts = signs.setdefault(key, [0, 0, 0])
        counts[0 if result > 0 else 1 if result == 0 else 2] += 1

    brute_force_with_splits(shoe, naive.rules_with(split_hands=2), 2, record)
    matrix = exact_matrix(rules)
    checked = 0
    for cell in matrix.cells:
        if cell.best is not Action.SPLIT:
            continue
        pair, up = Rank(cell.cards.split(",")[0]).index + 1, cell.up.index + 1
        counts = signs[(pair, pair), up]
        expected = [Fraction(c, sum(counts)) for c in counts]
        assert [F(cell.chances.win), F(cell.chances.push), F(cell.chances.loss)] == expected, (cell.label, cell.up)
        checked += 1
    assert checked >= 2


def test_the_rounds_chances_leave_out_only_the_rounds_that_resplit():
    """Resplitting to 3 hands on a tiny shoe: the round's win/push/loss against brute force over
    every ordering, counting only the orderings in which no resplit happens; ``split`` is the
    share of those that do."""
    from test_variance import brute_force_with_splits, naive

    shoe = (0, 0, 0, 1, 0, 0, 0, 3, 1, 6)
    rules = Rules(shoe=shoe, split_hands=3, surrender="none", double="any", double_after_split=True)
    tally = [0, 0, 0, 0]  # win, push, loss without a resplit; rounds with one

    def record(order, result, hands):
        tally[3 if hands > 2 else 0 if result > 0 else 1 if result == 0 else 2] += 1

    brute_force_with_splits(shoe, naive.rules_with(split_hands=3), 3, record)
    assert tally[3] > 0
    matrix = exact_matrix(rules)
    got = [F(matrix.chances.win), F(matrix.chances.push), F(matrix.chances.loss), F(matrix.split)]
    assert got == [Fraction(t, sum(tally)) for t in tally]


def test_a_stands_chances_are_the_dealers_table():
    rules = GAMES["peek"]
    matrix = exact_matrix(rules)
    cell = matrix.cell("T,9", "T")
    assert cell.best is Action.STAND and cell.frame == "conditioned"
    dealer = Analysis(rules, exact=True).dealer("T", peeked=True, removed="T,9")
    below = [o for o in dealer if o.total is not None and o.total < 19]
    assert F(cell.chances.win) == F(dealer["bust"]) + sum(F(dealer[o]) for o in below)
    assert F(cell.chances.push) == F(dealer["19"])
    assert F(cell.chances.loss) == F(dealer["20"]) + F(dealer["21"])


def test_same_face_and_unlike_tens_differ_only_in_the_split():
    matrix = exact_matrix(GAMES["peek"])
    same, unlike = matrix.cell("T,T", "6"), matrix.cell("T,T", "6", same_face=False)
    assert Action.SPLIT in same.hand.evs and Action.SPLIT not in unlike.hand.evs
    assert unlike.label == "T,T (unlike)" and unlike.to_data()["split"] is None
    assert F(same.probability) + F(unlike.probability) == Fraction(2, 26) * Fraction(8 * 7, 25 * 24)


CLI_RULES = ("--shoe", "2,2,2,2,2,2,2,2,2,8", "--split-hands", "2", "--surrender", "late", "--no-unlike-tens")
TINY = ("--shoe", "1,1,1,1,1,1,1,1,1,8", "--split-hands", "1")  # 17 cards, no splits: quick


def _run(*args):
    result = CliRunner().invoke(cli, ["matrix", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_command_prints_text_and_markdown():
    text = _run(*TINY)
    assert text.startswith("EV matrix   counts A..T 1,1,1,1,1,1,1,1,1,8")
    assert "up card T: P(up) 0.470588, EVs conditioned on no dealer blackjack" in text
    assert "up card 2: P(up) 0.058824, EVs unconditional" in text
    line = next(row for row in text.splitlines() if row.startswith("A,T "))
    assert "1.500000*" in line and line.rstrip().endswith("1.000000  0.000000  0.000000")
    assert "a resplit (not broken down) 0.000000" in text
    markdown = _run(*TINY, "--format", "markdown")
    assert markdown.startswith("# EV matrix:") and "## up card A:" in markdown and "| 6,T " in markdown


def test_the_command_shows_its_progress_on_stderr_only(monkeypatch):
    monkeypatch.setattr("bjcalc.cli.common._on_terminal", lambda: True)  # off a terminal, no line per up card
    result = CliRunner().invoke(cli, ["matrix", *TINY, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "up card A" in result.stderr and "up card T" in result.stderr
    assert json.loads(result.stdout)["command"] == "matrix"


def test_the_command_writes_every_cell_as_csv_and_json():
    rows = list(csv.DictReader(io.StringIO(_run(*CLI_RULES, "--format", "csv", "--exact"))))
    matrix = exact_matrix(GAMES["peek"])  # the default game with the options above
    assert matrix.rules == build_rules(game_name=None, decks=None, shoe_text="2,2,2,2,2,2,2,2,2,8", bj_pays=None,
                                       peek=None, charlie=None, max_cards=None, split_hands=2, surrender="late",
                                       split_unlike_tens=False)
    assert len(rows) == len(matrix.cells) == 541 + 10  # 55 hands x 10 up cards, less X,X v X; T,T twice
    for row, cell in zip(rows, matrix.cells):
        assert (row["hand"], row["up"], row["best"], row["frame"]) == (cell.cards, str(cell.up), cell.best.key,
                                                                       cell.frame)
        assert row["same_face"] == ("yes" if cell.same_face else "no")
        assert Fraction(row["probability"]) == F(cell.probability)
        for action in Action:
            value = cell.hand.evs.get(action)
            assert row[action.key] == ("" if value is None else str(F(value)))
        for key in ("win", "push", "loss"):
            value = getattr(cell.chances, key) if cell.chances is not None else None
            assert row[key] == ("" if value is None else str(F(value)))
    out = json.loads(_run(*TINY, "--format", "json"))
    assert out["command"] == "matrix"
    assert {(c["hand"], c["same_face"], c["up"]) for c in out["cells"]} == dealable((1,) * 9 + (8,))
    assert len(out["cells"]) == len(dealable((1,) * 9 + (8,)))


def test_the_command_refuses_bad_input_in_one_line():
    result = CliRunner().invoke(cli, ["matrix", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--removed", "A,A,A"])
    assert result.exit_code == 2 and result.output.startswith("Error: ") and result.output.count("\n") == 1
