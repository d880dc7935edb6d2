"""One home for a payout, a frame conversion and the blackjack test (issue 19, item 1): the
modules above the engine, and the engine's round walk, find what a hand's plays are worth
through :func:`bjcalc.engine.payout.action_values`, convert frames with
:func:`bjcalc.engine.payout.reframe` and ask :func:`bjcalc.cards.is_blackjack`; none writes that
arithmetic again. Searched for by pattern, as tests/test_architecture.py searches imports.

The engine's backward passes (values, split, moments, dealer) work inside the joint frame on
arrays of numerators and are not searched; split.py's two-card 21 of a split hand (which is
not a blackjack) is the one array test of an ace and a ten left outside."""

import pathlib
import re

PACKAGE = pathlib.Path(__file__).parent.parent / "bjcalc"
SEARCHED = sorted(PACKAGE.glob("*.py")) + [PACKAGE / "engine" / f"{name}.py" for name in ("analyser", "walk", "deal")]

PATTERNS = {
    "the blackjack test": re.compile(r"\[(:, )?ACE\] == 1|\{ACE, TEN\}|\[ACE, TEN\]"),
    "a frame conversion": re.compile(r"1 - (p_bj|blackjack)\b|[-+] p_bj\b"),
    "a payout": re.compile(r"blackjack_pays\s*\*|Fraction\(-1, 2\)|\bhalf\b(?![- ](a )?deck|-integer)"),
}
HOMES = {"the blackjack test": PACKAGE / "cards.py"}


def _copies(path: pathlib.Path) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("#")[0]
        if code.lstrip().startswith(">>>"):
            continue
        for what, pattern in PATTERNS.items():
            if pattern.search(code) and HOMES.get(what) != path:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {what}: {line.strip()}")
    return found


def test_no_second_copy_of_the_payout_or_frame_arithmetic():
    copies = [copy for path in SEARCHED for copy in _copies(path)]
    assert not copies, "arithmetic that belongs in bjcalc/engine/payout.py or bjcalc/cards.py:\n" + "\n".join(copies)


def test_the_patterns_find_the_homes():
    # the search itself: each pattern finds the one copy it guards
    payout = (PACKAGE / "engine" / "payout.py").read_text()
    for what in ("a frame conversion", "a payout"):
        assert PATTERNS[what].search(payout), what
    assert PATTERNS["the blackjack test"].search((PACKAGE / "cards.py").read_text())
    assert PATTERNS["the blackjack test"].search("natural = counts[ACE] == 1 and counts[TEN] == 1")
    assert PATTERNS["a frame conversion"].search("value = value - p_bj")
