"""What the library's public functions check of their arguments before any work.

A public function or class says what each parameter takes in its annotations; :func:`checked`
(for functions and methods) and :func:`check_fields` (for a dataclass's ``__post_init__``) hold
every argument to its annotation, so that a wrong kind of value (text for a number, a number
for a sequence, ``1`` or ``"no"`` for a flag, ``nan`` or ``inf`` for a number) is refused with
an :class:`InvalidArgumentError` naming the parameter and the value, instead of escaping as a
``TypeError`` deep inside, or being taken as something it does not mean. What a type cannot say
(ranges, vocabularies) each function checks itself, with :func:`check_whole`,
:func:`check_number` and :func:`check_choice`.

What an annotation means here:

- ``bool``: ``True`` or ``False`` only;
- ``int``: an integer, not a bool;
- ``float`` (and ``Fraction``): a finite real number, not a bool (an int or a Fraction is a
  float's value too: ``0.75`` and ``3/4`` mean the same penetration);
- ``str``: text; ``Literal[...]``: one of its values;
- ``Sequence[X]`` / ``tuple[X, ...]`` / ``Iterable[X]``: a sequence that is not text, each item an ``X``;
- ``Mapping[K, V]``: a mapping; ``Callable``: a callable;
- a class: an instance of it; ``X | Y``: either; ``Any``: anything.

>>> @checked
... def deal(decks: int, penetration: float = 0.75, peek: bool = True) -> int:
...     return decks
>>> deal(6)
6
>>> deal(6, peek=1)
Traceback (most recent call last):
...
bjcalc.errors.InvalidArgumentError: deal: peek must be True or False, not 1
>>> deal("6")
Traceback (most recent call last):
...
bjcalc.errors.InvalidArgumentError: deal: decks must be a whole number, not '6'
>>> deal(6, penetration=float("nan"))
Traceback (most recent call last):
...
bjcalc.errors.InvalidArgumentError: deal: penetration must be a finite number, not nan
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import inspect
import math
import numbers
import os
import types
import typing
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, TypeVar

from bjcalc.errors import InvalidArgumentError

__all__ = ["InvalidArgumentError", "check_choice", "check_fields", "check_flag", "check_number", "check_whole",
           "checked", "shown"]

F = TypeVar("F", bound=Callable[..., Any])


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages (a huge number or sequence
    stays one readable line).

    >>> shown(10 ** 100)
    '100000000000000000000000000000000000000000000000000000000...'
    """
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the error being reported
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- checks by kind: each returns the value (normalised where said) or raises -------------------


def check_flag(value: object, name: str) -> bool:
    """``True`` or ``False``: not ``1``, ``"no"`` or ``None``."""
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be True or False, not {shown(value)}")
    return value


def check_whole(value: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (not a bool) from ``low`` to ``high`` (either end open when ``None``).

    >>> check_whole(3, "seats", 1, 7)
    3
    >>> check_whole(0, "seats", 1, 7)
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidArgumentError: seats must be from 1 to 7, not 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be a whole number, not {shown(value)}")
    _check_range(int(value), name, low, high)
    return int(value)


def check_number(value: object, name: str, low: float | Fraction | None = None,
                 high: float | Fraction | None = None, *, above: bool = False) -> float | Fraction:
    """A finite real number (not a bool) from ``low`` to ``high``; ``above``: strictly above
    ``low``. Returns the value as given (an int, float or Fraction)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a number, not {shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgumentError(f"{name} must be a finite number, not {shown(value)}")
    number: float | Fraction = value if isinstance(value, (float, Fraction)) else Fraction(value)  # type: ignore[call-overload]
    if above and low is not None and number <= low:
        raise InvalidArgumentError(f"{name} must be above {low}, not {shown(value)}")
    _check_range(number, name, None if above else low, high)
    return number


def check_choice(value: object, name: str, choices: Iterable[str]) -> str:
    """One of ``choices`` (text).

    >>> check_choice("cd", "strategy", ("basic", "indices", "cd"))
    'cd'
    >>> check_choice("zzz", "strategy", ("basic", "indices", "cd"))
    Traceback (most recent call last):
    ...
    bjcalc.errors.InvalidArgumentError: strategy must be one of basic, indices, cd, not 'zzz'
    """
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        raise InvalidArgumentError(f"{name} must be one of {', '.join(options)}, not {shown(value)}")
    return value


def _check_range(value: Any, name: str, low: Any, high: Any) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            where = f"from {low} to {high}"
        elif low is not None:
            where = f"at least {low}"
        else:
            where = f"at most {high}"
        raise InvalidArgumentError(f"{name} must be {where}, not {shown(value)}")


# -- checks from annotations --------------------------------------------------------------------

_Check = Callable[[object, str], None]


def _kind(annotation: Any) -> tuple[_Check, str]:
    """A check for values of ``annotation`` and what to call such a value in a message."""
    if annotation is Any or annotation is object or isinstance(annotation, TypeVar):
        return (lambda value, name: None), "anything"
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return _union(typing.get_args(annotation))
    if origin is typing.Literal:
        allowed = typing.get_args(annotation)
        words = ", ".join(map(repr, allowed))

        def literal(value: object, name: str) -> None:
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise InvalidArgumentError(f"{name} must be one of {words}, not {shown(value)}")
        return literal, f"one of {words}"
    if annotation is None or annotation is type(None):
        return _instance(type(None), "None")
    if annotation is bool:
        return _discard(check_flag), "True or False"
    if annotation is int:
        return _discard(check_whole), "a whole number"
    if annotation in (float, Fraction, numbers.Real, numbers.Rational):
        return _discard(check_number), "a number"
    if annotation is str:
        return _instance(str, "text")
    if origin is not None:
        return _generic(origin, typing.get_args(annotation))
    if annotation in (collections.abc.Callable, Callable):
        return _callable()
    if isinstance(annotation, type):
        return _instance(annotation, _a(annotation.__name__))
    return (lambda value, name: None), "anything"  # an annotation this does not read: no check


def _discard(check: Callable[[object, str], object]) -> _Check:
    def checks(value: object, name: str) -> None:
        check(value, name)
    return checks


def _a(name: str) -> str:
    """``a Rule``, ``an IndexPlay``."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _plural(what: str) -> str:
    """What a sequence holds: ``a whole number`` -> ``whole numbers``, ``text`` -> ``text``,
    ``a Rank, text or a whole number`` -> ``Ranks, text or whole numbers``."""
    def one(part: str) -> str:
        for article in ("a ", "an "):
            if part.startswith(article):
                return part[len(article):] + "s"
        return part
    head, _, last = what.rpartition(" or ")
    parts = [p.strip() for p in head.split(",")] + [last] if head else [last]
    words = [one(p) for p in parts]
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def _instance(cls: type, what: str) -> tuple[_Check, str]:
    def check(value: object, name: str) -> None:
        if not isinstance(value, cls) or (cls is not bool and isinstance(value, bool) and cls in (int, float)):
            raise InvalidArgumentError(f"{name} must be {what}, not {shown(value)}")
    return check, what


def _callable() -> tuple[_Check, str]:
    def check(value: object, name: str) -> None:
        if not callable(value):
            raise InvalidArgumentError(f"{name} must be callable, not {shown(value)}")
    return check, "callable"


_SEQUENCES = {tuple, list, collections.abc.Sequence, collections.abc.Iterable, collections.abc.Collection,
              collections.abc.Set, frozenset, set, collections.abc.Iterator}
_MAPPINGS = {dict, collections.abc.Mapping}


def _generic(origin: Any, args: tuple[Any, ...]) -> tuple[_Check, str]:
    if origin in (collections.abc.Callable,):
        return _callable()
    if origin in _MAPPINGS:
        return _instance(collections.abc.Mapping, "a mapping")
    if origin is os.PathLike:
        return _instance(os.PathLike, "a path")
    if origin is type:
        return _instance(type, "a class")
    if origin not in _SEQUENCES:
        return _instance(origin, _a(str(getattr(origin, "__name__", origin))))
    fixed = origin is tuple and Ellipsis not in args  # tuple[X, Y]: its items are not checked one by one
    item_check, item_what = ((lambda value, name: None), "anything") if fixed or not args else _kind(args[0])
    container = collections.abc.Iterable if origin in (collections.abc.Iterable, collections.abc.Iterator) else (
        collections.abc.Set if origin in (collections.abc.Set, frozenset, set) else collections.abc.Collection)
    what = "a tuple" if fixed else f"a sequence of {_plural(item_what)}" if item_what != "anything" else "a sequence"

    def check(value: object, name: str) -> None:
        if isinstance(value, (str, bytes)) or not isinstance(value, container):
            raise InvalidArgumentError(f"{name} must be {what}, not {shown(value)}")
        if container is collections.abc.Iterable and not isinstance(value, collections.abc.Collection):
            return  # a one-pass iterator: its items are checked where it is read
        for item in value:  # type: ignore[attr-defined]
            try:
                item_check(item, name)
            except InvalidArgumentError:
                raise InvalidArgumentError(f"{name} must be {what}, not {shown(value)}") from None
    return check, what


def _union(members: tuple[Any, ...]) -> tuple[_Check, str]:
    kinds = [_kind(m) for m in members]
    if any(what == "anything" for _, what in kinds):
        return (lambda value, name: None), "anything"
    whats = list(dict.fromkeys(what for _, what in kinds))
    what = ", ".join(whats[:-1]) + f" or {whats[-1]}" if len(whats) > 1 else whats[0]

    def check(value: object, name: str) -> None:
        for one, _ in kinds:
            try:
                one(value, name)
                return
            except InvalidArgumentError:
                continue
        raise InvalidArgumentError(f"{name} must be {what}, not {shown(value)}")
    return check, what


@functools.cache
def _checks_of(function: Callable[..., Any]) -> tuple[inspect.Signature, dict[str, _Check]]:
    signature = inspect.signature(function)
    hints = typing.get_type_hints(function)
    checks = {}
    for parameter in signature.parameters.values():
        if parameter.name in ("self", "cls") or parameter.name not in hints:
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        check, what = _kind(hints[parameter.name])
        if what != "anything":
            checks[parameter.name] = check
    return signature, checks


def checked(function: F) -> F:
    """``function`` with every argument held to its annotation before the call (module
    docstring); the message starts with the function's name."""
    label = function.__qualname__.replace(".__init__", "")

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        signature, checks = _checks_of(function)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise InvalidArgumentError(f"{label}: {error}") from None
        for name, value in bound.arguments.items():
            check = checks.get(name)
            if check is not None:
                try:
                    check(value, name)
                except InvalidArgumentError as error:
                    raise InvalidArgumentError(f"{label}: {error}") from None
        return function(*args, **kwargs)
    return typing.cast(F, wrapper)


@functools.cache
def _field_checks(cls: type) -> dict[str, _Check]:
    hints = typing.get_type_hints(cls)
    checks = {}
    for field in dataclasses.fields(cls):
        if not field.init or field.name not in hints:
            continue
        check, what = _kind(hints[field.name])
        if what != "anything":
            checks[field.name] = check
    return checks


def check_fields(instance: Any, skip: Iterable[str] = ()) -> None:
    """Hold each field of a dataclass ``instance`` to its annotation (call it first thing in
    ``__post_init__``); ``skip``: fields the class normalises itself (text it parses, say)."""
    left_out = set(skip)
    label = type(instance).__name__
    for name, check in _field_checks(type(instance)).items():  # type: ignore[arg-type]
        if name not in left_out:
            try:
                check(getattr(instance, name), name)
            except InvalidArgumentError as error:
                raise InvalidArgumentError(f"{label}: {error}") from None
