"""What every ``bjcalc`` command shares: the group and ``main``, the one-line errors and the
signals, the rule, count and format options, and progress on stderr."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import click

from bjcalc import (
    DEFAULT_GAME,
    BjcalcError,
    Flag,
    InvalidChartError,
    InvalidRulesError,
    Rules,
    game,
    parse_cards,
    rule_flags,
    rules_from_flags,
)


class Stopped(BaseException):
    """A signal asked the run to stop (:data:`STOP_SIGNALS`). It unwinds the run as
    ``KeyboardInterrupt`` would (worker pools end their workers at once on the way:
    :func:`bjcalc.engine.pools.stopping`), but click lets it pass, where it would turn a
    ``KeyboardInterrupt`` into an empty line and "Aborted!"."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = {signal.SIGINT: "SIGINT (Ctrl-C)", signal.SIGTERM: "SIGTERM"}


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """While the command runs, :data:`STOP_SIGNALS` raise :class:`Stopped` (the first one: later
    ones are ignored while the run unwinds); the handlers before are put back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        for each in STOP_SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        raise Stopped(signum)

    previous = {each: signal.signal(each, stop) for each in STOP_SIGNALS}
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


class _OneLineErrors(click.Group):
    """Print every usage or input error as one line and exit 2, never a traceback; a run
    stopped by a signal, one line and exit 128 + its number."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            with _stop_on_signals():
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except Stopped as stopped:
            click.echo(f"Stopped by {STOP_SIGNALS[signal.Signals(stopped.signum)]}.", err=True)
            sys.exit(128 + stopped.signum)
        except click.exceptions.NoArgsIsHelpError as error:  # ``bjcalc`` alone: the help, as click shows it
            error.show()
            sys.exit(error.exit_code)
        except click.ClickException as error:
            click.echo(f"Error: {error.format_message()}", err=True)
            sys.exit(error.exit_code)
        except BjcalcError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except BrokenPipeError:  # the reader went away (``bjcalc chart | head``): not an error
            sys.stderr.close()
            sys.exit(1)
        except OSError as error:
            where = f": {error.filename!r}" if error.filename else ""
            click.echo(f"Error: {error.strerror or error}{where}", err=True)
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)


_Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def _click_option(flag: Flag) -> _Decorator:
    """The click option of a rule's flag (every one defaults to None: the game's rule stands)."""
    kind = click.Choice(list(flag.choices)) if flag.choices is not None else int if flag.whole else None
    return click.option(flag.spelling, flag.dest, type=kind, default=None, metavar=flag.metavar, help=flag.help)


_GAME_OPTION = click.option("--game", "game_name", default=None, metavar="NAME",
                            help=f"Preset game (see 'bjcalc games'); default {DEFAULT_GAME}.")
_FLAG_OPTIONS = {flag.dest: _click_option(flag) for flag in rule_flags()}  # every rule's, as declared
_RULE_OPTIONS: list[_Decorator] = [_GAME_OPTION, *_FLAG_OPTIONS.values()]
_INSURANCE_OFFERED = _FLAG_OPTIONS["insurance"]


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(_RULE_OPTIONS):
        command = option(command)
    return command


def _rule_options_but_insurance(command: Callable[..., Any]) -> Callable[..., Any]:
    """The rule options without ``--insurance/--no-insurance``: in ``eor`` and ``count``,
    ``--insurance`` asks for insurance's own EORs (the round never takes insurance, so whether
    the game offers it changes no number there)."""
    for option in reversed(_RULE_OPTIONS):
        if option is not _INSURANCE_OFFERED:
            command = option(command)
    return command


REMOVED = click.option("--removed", default=None, metavar="CARDS",
                       help="Cards already seen and out of the shoe, e.g. 'A,T,5': every number is for "
                       "the shoe left.")


_COUNT_OPTIONS = [
    click.option("--count", "count_system", default=None, metavar="NAME",
                 help="Numbers for a card counter's shoe: a built-in count (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, "
                 "zen, wong-halves, uston-apc); with --running-count or --true-count and --cards-seen."),
    click.option("--tags", "count_tags", default=None, metavar="T2,...,TT,TA",
                 help="A count of your own for the counter's shoe: ten tags for 2,3,...,9,T,A."),
    click.option("--running-count", "running_count", default=None, metavar="RC",
                 help="The running count of every card seen so far, this round's cards given here (hand, up card) "
                 "included."),
    click.option("--true-count", "true_count", default=None, metavar="TC",
                 help="Instead of --running-count: the running count per deck not yet seen (--divisor)."),
    click.option("--cards-seen", "cards_seen", default=None, type=int, metavar="N",
                 help="How many cards have been seen (discards and this round's cards given here)."),
    click.option("--irc", "count_irc", default="0", metavar="N",
                 help="Initial running count of an unbalanced count such as KO (default 0; a balanced count "
                 "starts at 0)."),
    click.option("--divisor", "count_divisor", type=click.Choice(["exact", "half-deck", "full-deck"]),
                 default="exact", help="Decks left for --true-count and the true count shown: cards left / 52 "
                 "(exact), or estimated to the half deck or the deck."),
]
_COUNT_KEYS = ("count_system", "count_tags", "running_count", "true_count", "cards_seen", "count_irc", "count_divisor")


def count_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The counter's-shoe options (``--count`` ... ``--divisor``)."""
    for option in reversed(_COUNT_OPTIONS):
        command = option(command)
    return command


def pop_count(options: dict[str, Any]) -> dict[str, Any] | None:
    """Take the counter's-shoe options out of a command's options; ``None`` where none is given."""
    given = {key: options.pop(key) for key in _COUNT_KEYS}
    asked = [flag for flag, key in (("--running-count", "running_count"), ("--true-count", "true_count"),
                                    ("--cards-seen", "cards_seen")) if given[key] is not None]
    if given["count_irc"] != "0":
        asked.append("--irc")
    if given["count_system"] is None and given["count_tags"] is None:
        if asked:
            raise click.UsageError(f"{asked[0]} is for a counter's shoe: give the count with --count or --tags")
        return None
    if given["count_system"] is not None and given["count_tags"] is not None:
        _refuse_both(f"--count {given['count_system']}", f"--tags {given['count_tags']}", "give one count")
    if given["running_count"] is not None and given["true_count"] is not None:
        _refuse_both("--running-count", "--true-count", "give one of them")
    if given["running_count"] is None and given["true_count"] is None:
        raise click.UsageError("a counter's shoe needs --running-count or --true-count")
    if given["cards_seen"] is None:
        raise click.UsageError("a counter's shoe needs --cards-seen (how many cards have been seen)")
    if options.get("removed") is not None:
        _refuse_both("--removed", "--count", "a counter knows the count of the cards seen, not their ranks")
    return given


def build_counter(given: dict[str, Any] | None, rules: Rules, hand: str | None = None, up: str | None = None) -> Any:
    """The :class:`bjcalc.Counter` of the options (``None`` without a count), with this round's
    cards given on the command line on the table."""
    if given is None:
        return None
    from bjcalc import Counter, CountSystem, parse_card, parse_tags  # the counting layer, only with a count

    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no count: the cards are drawn with replacement")
    system = (CountSystem("custom", parse_tags(given["count_tags"])) if given["count_tags"] is not None
              else CountSystem.named(given["count_system"]))
    return Counter.of(rules.shoe_counts, system.name, system.tags, given["cards_seen"],
                      running_count=given["running_count"], true_count=given["true_count"],
                      initial_running_count=given["count_irc"], hand=parse_cards(hand) if hand else (),
                      up=parse_card(up) if up is not None else None, divisor=given["count_divisor"])


def seen_cards(removed: str | None) -> tuple[str, ...]:
    """The cards of ``--removed`` as notation, in the order given (``'a,K,5'`` -> A, T, 5)."""
    return tuple(map(str, parse_cards(removed))) if removed is not None and removed.strip() else ()


def build_rules(game_name: str | None = None, removed: str | None = None, **flags: Any) -> Rules:
    """The preset (default game) with every rule flag given on the command line applied
    (:func:`bjcalc.rules_from_flags`), on the shoe left once the ``--removed`` cards are out."""
    name = DEFAULT_GAME if game_name is None else game_name
    rules = rules_from_flags(game(name).rules, flags, name)
    if removed is not None and seen_cards(removed):
        rules = rules.without(removed)
    return rules


def _peek_source(peek: bool | None, game_name: str | None) -> str:
    """What set the hole-card rule: the option, or the game."""
    if peek is not None:
        return "--peek" if peek else "--no-peek"
    return f"the game ({game_name or DEFAULT_GAME})"


def _refuse_both(first: str, second: str, why: str) -> None:
    raise click.UsageError(f"{first} and {second} contradict each other: {why}")


FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                      help="Output format (json: docs/json.md).")
EXACT = click.option("--exact", is_flag=True,
                     help="Exact rational arithmetic; print fractions (JSON: an \"exact\" mirror).")
SD = click.option("--sd", is_flag=True,
                  help="Also the exact standard deviation of the round (resplits included; a few seconds more).")
CLASSIC = click.option("--classic", is_flag=True,
                       help="The classic chart: one play per total for hands of every size, as books and casinos' "
                       "cards print it (default: a two-card hand may play otherwise than a longer one, H/S).")

_TABLE_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]),
                             default="text", help="Output format (json: docs/json.md).")


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bjcalc")
def cli() -> None:
    """bjcalc: exact blackjack analysis: dealer tables, EVs of every action, strategy."""


def _with_counter(text: str, counter: Any) -> str:
    """A text output with the counter's-shoe line first, where the numbers are for one."""
    return text if counter is None else counter.describe() + "\n" + text


def _read_chart(rules: Rules, path: str) -> Any:
    from bjcalc import load_chart

    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise InvalidChartError(f"cannot read chart {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InvalidChartError(f"cannot read chart {path!r}: it is not UTF-8 text (save it as CSV UTF-8)") from None
    except ValueError as error:  # a NUL byte in the name
        raise InvalidChartError(f"cannot read chart {path!r}: {error}") from None
    return load_chart(rules, text, path)


# Off a terminal (a log file, a pipe, a job's output) a bar is not drawn: click would print its
# label each time it changes, a line per step (per running count, per shoe). There a run
# writes a line now and then instead, and a quick run nothing.
QUIET_INTERVAL = 10.0  # seconds between two progress lines off a terminal
_clock = time.monotonic


def _on_terminal() -> bool:
    return sys.stderr.isatty()


class _Ticker:
    """Progress off a terminal: ``label: text`` on stderr at most once every
    :data:`QUIET_INTERVAL` seconds, the first once the work has taken that long."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.last = _clock()

    def __call__(self, text: str) -> None:
        now = _clock()
        if now - self.last >= QUIET_INTERVAL:
            self.last = now
            click.echo(f"{self.label}: {text}", err=True)


@contextlib.contextmanager
def _progress(label: str, after: float = 0.0) -> Iterator[Callable[[str, int], None]]:
    """A progress bar on stderr; yields a callback ``step(name, steps)`` that advances it by
    one step, naming it (``steps``: how many the current stage has; a new stage, a new bar).
    The bar appears with the first step done, so that an error in the first step (a shoe too
    small, say) is still the only line on stderr; with ``after``, only with a step done once the
    work has taken that many seconds (a command that is usually quick stays quiet; its slow
    cases, such as ``--exact``, show where they are). Off a terminal: a :class:`_Ticker` line
    now and then (with ``after``, nothing)."""
    started = _clock()
    stage = [0, 0]  # steps done and steps of the current stage, before a bar is shown
    if not _on_terminal():
        ticker = _Ticker(label)

        def tick(name: str, steps: int) -> None:
            stage[:] = [stage[0] + 1, steps] if stage[0] < stage[1] else [1, steps]
            if not after:
                ticker(f"{name} ({stage[0]} of {steps})")

        yield tick
        return
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def step(name: str, steps: int) -> None:
            if not bars:
                stage[:] = [stage[0] + 1, steps] if stage[0] < stage[1] else [1, steps]
                if _clock() - started < after:
                    return
                bars.append(stack.enter_context(click.progressbar(length=steps, label=name, file=sys.stderr)))
                bars[-1].update(stage[0])
                return
            if bars[-1].pos >= bars[-1].length:
                bars[-1].render_finish()
                bars.append(stack.enter_context(click.progressbar(length=steps, label=label, file=sys.stderr)))
            bars[-1].label = name
            bars[-1].update(1)

        yield step


@contextlib.contextmanager
def _task_progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr for a run of tasks (bjcalc.counting.tasks.run_tasks' ``progress(done,
    total)``), shown only while something is left to compute (a run that finds every task in its
    store prints none); off a terminal, a :class:`_Ticker` line now and then."""
    if not _on_terminal():
        ticker = _Ticker(label)
        yield lambda done, total: ticker(f"{done} of {total} done") if done < total else None
        return
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []
        last = [0]

        def step(done: int, total: int) -> None:
            if not bars and done < total:
                bars.append(stack.enter_context(click.progressbar(length=total, label=label, file=sys.stderr)))
            if bars:
                bars[0].update(done - last[0])
            last[0] = done

        yield step


def echo_as(fmt: str, **render: Callable[[], str]) -> None:
    """Print a command's output in ``fmt`` from its renderer (``json=``, ``csv=``, ...: each
    called only when chosen; ``text`` for a format without its own). CSV and Markdown end with
    their own newline."""
    click.echo(render.get(fmt, render["text"])(), nl=fmt not in ("csv", "markdown"))


def _store_path(store_path: str | None) -> str | None:
    """``--store FILE``: the file, ``none`` for memory only, default bjcalc's cache."""
    from bjcalc import default_store

    return default_store() if store_path is None else None if store_path.lower() == "none" else store_path


def _penetration(text: str) -> Any:
    """``--penetration P``: a share of the shoe above 0 and below 1 (0.75, 3/4)."""
    from fractions import Fraction

    try:
        pen = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"must be a share such as 0.75 or 3/4, not {text!r}",
                                 param_hint="--penetration") from None
    if not 0 < pen < 1:
        raise click.BadParameter(f"must be above 0 and below 1 (a share of the shoe dealt), not {text!r}",
                                 param_hint="--penetration")
    return pen


# exact arithmetic on a shoe larger than this takes minutes on the commands that run many analyses
# (matrix, report, eor, effects, the spread of edge and chart): refused there, with this limit named
EXACT_DECKS_LIMIT = 8


def _refuse_large_exact(rules: Rules, exact: bool, what: str) -> None:
    """``--exact`` on a shoe of more than :data:`EXACT_DECKS_LIMIT` decks, for ``what``: refused."""
    cards = 0 if rules.infinite else sum(rules.shoe_counts)
    if exact and cards > 52 * EXACT_DECKS_LIMIT:
        raise click.UsageError(
            f"--exact with {what} is limited to shoes of {EXACT_DECKS_LIMIT} decks ({52 * EXACT_DECKS_LIMIT} cards), "
            f"not {cards} cards: exact arithmetic on a larger shoe takes minutes; leave out --exact (floating "
            "point agrees with it to about 1e-12)")


def _title(options: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    name = options.get("game_name") or DEFAULT_GAME
    preset = game(name)
    changed = any(v is not None for k, v in options.items() if k not in ("game_name", "removed"))
    seen = seen_cards(options.get("removed"))
    notes = ["with rule changes"] * changed + [f"{len(seen)} seen card{'s' * (len(seen) != 1)} removed"] * bool(seen)
    return (f"{preset.title}" + (f" ({'; '.join(notes)})" if notes else ""), preset.assumed)


def main() -> None:
    cli()
