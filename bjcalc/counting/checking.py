"""The check of a counting pipeline's arguments before any work: :func:`checked_rules_first`."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from bjcalc.arguments import checked
from bjcalc.rules import check_rules

F = TypeVar("F", bound=Callable[..., Any])


def checked_rules_first(function: F) -> F:
    """:func:`bjcalc.arguments.checked` ``function``, its ``rules`` argument checked first as every
    pipeline checks it (``rules must be a bjcalc.Rules``: arguments given in the wrong order are
    named by the rules)."""
    inner = checked(function)
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind_partial(*args, **kwargs)
        except TypeError:
            return inner(*args, **kwargs)  # checked names what is wrong with the call
        if "rules" in bound.arguments:
            check_rules(bound.arguments["rules"])
        return inner(*args, **kwargs)
    return typing.cast(F, wrapper)
