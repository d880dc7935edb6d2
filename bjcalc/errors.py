"""The errors bjcalc raises: one class per failure mode, all of them ``ValueError``.

Messages are short, lowercase and quote the offending input, so the command line can print them
as one line.
"""


class BjcalcError(ValueError):
    """Base class of every error bjcalc raises for bad input."""


class InvalidArgumentError(BjcalcError):
    """A library argument of the wrong kind (text for a number, ``1`` for a flag, ``nan``), or
    out of the range its parameter takes (:mod:`bjcalc.arguments`)."""


class InvalidCardError(BjcalcError):
    """A card that is not one of ``A 2 3 4 5 6 7 8 9 T`` (or ``10 J Q K``)."""


class InvalidHandError(BjcalcError):
    """A hand that cannot be analysed (too few cards, already over 21, ...)."""


class CardNotInShoeError(BjcalcError):
    """A card was asked for that the shoe no longer holds."""


class InvalidShoeError(BjcalcError):
    """A shoe composition that is malformed or too small to deal a round from."""


class InvalidRulesError(BjcalcError):
    """A rule value that is out of range, or a contradictory combination of rules."""


class UnknownGameError(BjcalcError):
    """A preset name that bjcalc does not know."""


class InvalidChartError(BjcalcError):
    """A strategy chart that cannot be read or played: a chart file or text that is not one
    (bad CSV or JSON, unknown rows, up cards or codes), or one that lacks a column the shoe
    needs."""


class InvalidPayTableError(BjcalcError):
    """A side bet's pay table with an unknown category or a pay that is not a number in range."""
