"""The ``bjcalc`` command. It only builds :class:`~bjcalc.rules.Rules`, calls the library and
hands the result to :mod:`bjcalc.render`.

Every bad input ends in one line, ``Error: ...``, on stderr and exit status 2. Ctrl-C
(``SIGINT``) and ``SIGTERM`` stop the run at once, worker processes included, with one line and
exit status 130 or 143 (what the store holds stays there).
"""

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
    GAMES,
    BjcalcError,
    Flag,
    InvalidChartError,
    InvalidHandError,
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
    from bjcalc import Counter, CountSystem, parse_card, parse_tags

    if given is None:
        return None
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


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bjcalc")
def cli() -> None:
    """bjcalc: exact blackjack analysis: dealer tables, EVs of every action, strategy."""


@cli.command()
@FORMAT
def games(fmt: str) -> None:
    """List the preset games and their rules (and what was assumed where a text is silent)."""
    from bjcalc.render.jsondoc import games_json
    from bjcalc.render.text import games_text

    presets = list(GAMES.values())
    click.echo(games_json(presets) if fmt == "json" else games_text(presets))


@cli.command()
@click.argument("up", required=False)
@click.option("--peeked", is_flag=True, help="Condition on no dealer blackjack (after the peek).")
@rule_options
@REMOVED
@count_options
@FORMAT
@EXACT
def dealer(up: str | None, peeked: bool, fmt: str, exact: bool, **options: Any) -> None:
    """Dealer final-outcome probabilities for every up card, or for UP."""
    from bjcalc import Analysis, Rank, parse_card
    from bjcalc.render.jsondoc import dealer_json
    from bjcalc.render.text import dealer_text

    count = pop_count(options)
    rules = build_rules(**options)
    if peeked and not rules.peek:
        _refuse_both("--peeked", _peek_source(options.get("peek"), options.get("game_name")),
                     "a dealer with no hole card does not peek")
    counter = build_counter(count, rules, up=up)
    analysis = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis())
    ups = [parse_card(up)] if up is not None else [u for u in Rank if rules.infinite or rules.shoe_counts[u.index]]
    if counter is not None:  # up cards the counter's shoe cannot deal have no table
        ups = [u for u in ups if counter.for_analysis().draw_probability([u])]
    tables = [analysis.dealer(u, peeked=peeked) for u in ups]
    if fmt == "json":
        click.echo(dealer_json(tables, rules, peeked, exact, counter))
    else:
        click.echo(_with_counter(dealer_text(tables, rules, peeked, exact, seen_cards(options["removed"])), counter))


@cli.command()
@click.argument("cards")
@click.option("--up", required=True, metavar="CARD", help="The dealer's up card.")
@rule_options
@REMOVED
@count_options
@FORMAT
@EXACT
def hand(cards: str, up: str, fmt: str, exact: bool, **options: Any) -> None:
    """EV of every action for the hand CARDS (e.g. T6, 10,6, a7) against --up, best first."""
    from bjcalc import Analysis
    from bjcalc.render.jsondoc import hand_json
    from bjcalc.render.text import hand_text

    count = pop_count(options)
    rules = build_rules(**options)
    counter = build_counter(count, rules, hand=cards, up=up)
    result = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis()).hand(cards, up)
    if fmt == "json":
        click.echo(hand_json(result, rules, exact, counter))
    else:
        click.echo(_with_counter(hand_text(result, rules, exact, seen_cards(options["removed"])), counter))


def _with_counter(text: str, counter: Any) -> str:
    """A text output with the counter's-shoe line first, where the numbers are for one."""
    return text if counter is None else counter.describe() + "\n" + text


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]),
              default="text", help="Output format (html: one self-contained page; csv: the file --chart reads).")
@EXACT
@SD
@CLASSIC
def chart(fmt: str, exact: bool, sd: bool, classic: bool, **options: Any) -> None:
    """The basic-strategy chart (total-dependent) for the game, its exact round EV and the
    composition-dependent exceptions. With no options: the default game. To save a chart to
    edit and evaluate: bjcalc chart --format csv > my-chart.csv; bjcalc edge --chart my-chart.csv."""
    from bjcalc import Analysis
    from bjcalc.render.csvfile import chart_csv
    from bjcalc.render.html import chart_html
    from bjcalc.render.jsondoc import chart_json
    from bjcalc.render.markdown import chart_markdown
    from bjcalc.render.text import chart_text

    count = pop_count(options)
    rules = build_rules(**options)
    if sd:
        _refuse_large_exact(rules, exact, "--sd")
    counter = build_counter(count, rules)
    analysis = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis())
    steps = 4 if sd else 3
    with _progress("chart", after=1.0) as step:
        table = analysis.chart(two_card_plays=not classic)
        step("the chart", steps)
        result = analysis.evaluate(table).round
        step("its round", steps)
        unusual = analysis.exceptions(table)
        step("CD exceptions", steps)
        variance = analysis.variance(table) if sd else None
        if sd:
            step("the spread", steps)
    seen = seen_cards(options["removed"])
    line = None if counter is None else counter.describe()
    if fmt == "json":
        click.echo(chart_json(table, result, unusual, exact, variance=variance, counter=counter))
    elif fmt == "csv":
        click.echo(chart_csv(table), nl=False)
    elif fmt == "markdown":
        click.echo(chart_markdown(table, result, unusual, exact, seen, counter=line), nl=False)
    elif fmt == "html":
        click.echo(chart_html(table, result, unusual, seen, counter=line))
    else:
        click.echo(_with_counter(chart_text(table, result, unusual, exact, colour=True, seen=seen), counter))


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


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--strategy", type=click.Choice(["cdz", "cdz-", "cdp1", "cdp", "basic"]), default=None,
              help="CD play with split hands CDZ- (default), CDP1 or CDP; or the basic-strategy chart.")
@click.option("--chart", "chart_file", default=None, metavar="FILE",
              help="Evaluate this chart (JSON or CSV as 'bjcalc chart' writes: bjcalc chart --format csv > "
              "my-chart.csv) and list the cost of each of its deviations from the optimal chart.")
@FORMAT
@EXACT
@SD
@CLASSIC
def edge(strategy: str | None, chart_file: str | None, fmt: str, exact: bool, sd: bool, classic: bool,
         **options: Any) -> None:
    """The house edge of the round (unconditional) and its breakdown by up card."""
    from bjcalc import Analysis
    from bjcalc.render.jsondoc import edge_json
    from bjcalc.render.text import deviations_text, edge_text

    if strategy is not None and chart_file is not None:
        _refuse_both(f"--strategy {strategy}", "--chart", "the chart file is the strategy")
    if classic and strategy != "basic":
        _refuse_both("--classic", "--chart" if chart_file is not None else f"--strategy {strategy or 'cdz'}",
                     "--classic chooses the basic-strategy chart's form (--strategy basic)")
    strategy = strategy or "cdz"
    count = pop_count(options)
    rules = build_rules(**options)
    if sd:
        _refuse_large_exact(rules, exact, "--sd")
    seen = seen_cards(options["removed"])
    counter = build_counter(count, rules)
    shoe = None if counter is None else counter.for_analysis()
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
        analysis = Analysis(rules, exact=exact, shoe=shoe)
        costs = analysis.deviations(chart)
        result = analysis.evaluate(chart).round
        variance = analysis.variance(chart) if sd else None
        if fmt == "json":
            click.echo(edge_json(result, rules, exact, variance, costs, counter=counter))
        else:
            click.echo(_with_counter(edge_text(result, rules, exact, variance=variance, seen=seen) + "\n\n"
                                     + deviations_text(costs), counter))
        return
    with _progress("house edge") as step:
        if strategy == "basic":
            analysis = Analysis(rules, exact=exact, shoe=shoe)
            table = analysis.chart(two_card_plays=not classic)
            result = analysis.evaluate(table).round
        else:
            analysis = Analysis(rules, exact=exact, post_split=strategy, shoe=shoe)
            result = analysis.round()
        variance = None
        if sd:  # a bar for the two steps, naming the one under way
            step("its spread", 2)
            variance = analysis.variance(table) if strategy == "basic" else analysis.variance()
            step("done", 2)
    if fmt == "json":
        click.echo(edge_json(result, rules, exact, variance, counter=counter))
    else:
        click.echo(_with_counter(edge_text(result, rules, exact, variance=variance, seen=seen), counter))


@cli.command()
@rule_options
@click.option("--removed", default="", metavar="CARDS",
              help="Cards already out of the shoe, e.g. 'Ah Kd 7c' (suited), or 'A,T,5' (ranks of unknown "
              "suit: the exact average over their suits; T is the ten, J Q K their own ranks).")
@click.option("--pp-pays", default=None, metavar="P/C/M",
              help="Perfect Pairs pay table: perfect/coloured/mixed, default 25/12/6.")
@click.option("--21+3-pays", "tto_pays", default=None, metavar="ST/SF/3K/S/F",
              help="21+3 pay table: suited trips/straight flush/three of a kind/straight/flush, "
              "default 100/40/30/10/5.")
@FORMAT
@EXACT
def sidebets(removed: str, pp_pays: str | None, tto_pays: str | None, fmt: str, exact: bool,
             **options: Any) -> None:
    """Exact house edges of Perfect Pairs and 21+3 for the game's shoe (full or depleted)."""
    from bjcalc import side_bets
    from bjcalc.render.jsondoc import sidebets_json
    from bjcalc.render.text import sidebets_text

    rules = build_rules(**options)
    if rules.infinite:
        raise InvalidRulesError("side bets are dealt from a shoe of suited cards: give --decks N (a whole number) "
                                "or a --game, not --decks inf (an infinite deck)")
    if rules.decks is None:
        raise InvalidRulesError("side bets need the suits of the cards: give --decks N or a --game, not --shoe "
                                "(counts by rank); seen cards go in this command's --removed")
    result = side_bets(int(rules.decks), removed, pp_pays, tto_pays)
    if fmt == "json":
        click.echo(sidebets_json(result.results, result.removed, rules, exact))
    else:
        click.echo(sidebets_text(result.results, result.cards, exact))


@cli.command()
@rule_options
@REMOVED
@count_options
@click.option("--seated", type=click.Choice(["optimal", "basic", "never-bust", "mimic-dealer"]),
              default=None, help="How the seated player plays: optimal (default), ... (or give --chart).")
@click.option("--chart", "chart_file", default=None, metavar="FILE",
              help="The seated player follows this chart (JSON or CSV as 'bjcalc chart' writes).")
@FORMAT
@EXACT
@SD
def betbehind(seated: str | None, chart_file: str | None, fmt: str, exact: bool, sd: bool, **options: Any) -> None:
    """EV of a Bet Behind, following everything and when doubles and splits cannot be followed."""
    if seated is not None and chart_file is not None:
        _refuse_both(f"--seated {seated}", "--chart", "the seated player follows the chart file")
    seated = seated or "optimal"

    from bjcalc import Analysis, simple_policy
    from bjcalc.render.jsondoc import betbehind_json
    from bjcalc.render.text import betbehind_text

    count = pop_count(options)
    rules = build_rules(**options)
    if sd:
        _refuse_large_exact(rules, exact, "--sd")
    counter = build_counter(count, rules)
    analysis = Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis())
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
    elif seated == "basic":
        chart = analysis.chart()
    elif seated == "optimal":
        chart = None
    else:
        chart = simple_policy(rules, seated)
    with _progress("bet behind", after=1.0) as step:
        result = analysis.bet_behind(chart)
        step("bet behind", 2 if sd else 1)
        variance = analysis.variance(chart) if sd else None
        if sd:
            step("the seated player's spread", 2)
    if fmt == "json":
        click.echo(betbehind_json(result, rules, exact, variance, counter=counter))
    else:
        click.echo(_with_counter(betbehind_text(result, rules, exact, seen_cards(options["removed"]), variance),
                                 counter))


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


@cli.command()
@rule_options
@REMOVED
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default="text",
              help="Output format (html: one self-contained page; json: docs/json.md).")
@EXACT
@CLASSIC
def report(fmt: str, exact: bool, classic: bool, **options: Any) -> None:
    """Everything about a game: rules as understood, house edges, insurance, the chart, its
    exceptions, side bets and Bet Behind."""
    from bjcalc import REPORT_STEPS, build_report
    from bjcalc.render.html import report_html
    from bjcalc.render.jsondoc import report_json
    from bjcalc.render.markdown import report_markdown
    from bjcalc.render.text import report_text

    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "report")
    title, assumed = _title(options)
    # the bar names the step under way (the steps are told when they are done)
    following = dict(zip(REPORT_STEPS, REPORT_STEPS[1:] + ("done",)))
    with _progress("report") as step:
        result = build_report(title, rules, assumed, exact=exact, two_card_plays=not classic,
                              progress=lambda name: step(following[name], len(REPORT_STEPS)))
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(report_json(result))
    else:
        click.echo({"text": report_text, "markdown": report_markdown,
                    "html": report_html}[fmt](result, seen))


@cli.command()
@rule_options
@REMOVED
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              help="Output format (json: docs/json.md).")
@EXACT
def effects(fmt: str, exact: bool, **options: Any) -> None:
    """How much each rule of the game is worth: change one rule at a time (house edge each)."""
    from bjcalc import one_rule_changes, rule_effects
    from bjcalc.render.jsondoc import effects_json
    from bjcalc.render.markdown import effects_markdown
    from bjcalc.render.text import effects_text

    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "effects")
    title, _ = _title(options)
    steps = len(one_rule_changes(rules))
    with _progress("rules") as step:
        result = rule_effects(rules, progress=lambda words: step(words, steps), exact=exact)
    if fmt == "json":
        click.echo(effects_json(title, result, exact))
    else:
        render_fn = effects_markdown if fmt == "markdown" else effects_text
        click.echo(render_fn(title, rules, result.base_percent, result.rows(), result if exact else None,
                             result.run_out))


# -- effects of removal and count systems -------------------------------------------------------

_EOR_STRATEGY = click.option(
    "--strategy", type=click.Choice(["chart", "basic", "cd"]), default=None,
    help="How every shoe is played: chart (default: the starting shoe's basic-strategy chart, held "
    "fixed), basic (re-derived for each shoe) or cd (composition-dependent, split hands by --post-split).")
_EOR_CHART = click.option("--chart", "chart_file", default=None, metavar="FILE",
                          help="Hold this chart fixed (JSON or CSV as 'bjcalc chart' writes).")
_POST_SPLIT = click.option("--post-split", type=click.Choice(["cdz-", "cdp1", "cdp"]), default=None,
                           help="With --strategy cd: split hands CDZ- (default), CDP1 or CDP (the plays' split "
                           "EVs too).")
_PLAYS = click.option("--play", "plays", multiple=True, metavar="'HAND v UP ACTION ACTION'",
                      help="A decision, e.g. 'T,6 v T stand hit': the first play's EV minus the second's "
                      "(actions stand, hit, double, split, surrender). HAND is cards (T,6; A7; a pair: 8,8) or a "
                      "total: 16 or h16 (hard 16: every two-card hard 16 but a pair, T,6 and 9,7, each weighted "
                      "by its chance), s18 or soft18 (A,7). Repeatable.")
_WORKERS = click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
                        help="Processes for the analyses (default: one per core).")
def _task_options(when: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--scheduler`` and ``--store``, the task layer's options (``when``: the help's opening
    condition, e.g. ``"With --penetration: "``)."""
    def sentence(text: str) -> str:
        return text[0].upper() + text[1:]

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option("--store", "store_path", default=None, metavar="FILE",
                               help=sentence(f"{when}SQLite file of results, one row per analysis: a run resumes "
                                             "where it stopped (default: truecount.sqlite in bjcalc's cache; 'none': "
                                             "memory only)."))(command)
        return click.option("--scheduler", default=None, metavar="ADDRESS",
                            help=sentence(f"{when}run the analyses on a Dask distributed cluster (pip install "
                                          "'bjcalc[dask]'), e.g. tcp://10.0.0.5:8786."))(command)
    return apply


_TABLE_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]),
                             default="text", help="Output format (json: docs/json.md).")


def _eor_arguments(strategy: str | None, chart_file: str | None, post_split: str | None, classic: bool, exact: bool,
                   options: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """The rules and the keyword arguments of :func:`bjcalc.eor_table` common to ``eor`` and
    ``count``, the options' contradictions refused."""
    if chart_file is not None and strategy not in (None, "chart"):
        _refuse_both(f"--strategy {strategy}", "--chart", "a chart file is held fixed (--strategy chart)")
    if classic and (chart_file is not None or strategy == "cd"):
        _refuse_both("--classic", "--chart" if chart_file is not None else "--strategy cd",
                     "--classic chooses the form of the basic-strategy chart bjcalc builds")
    strategy = strategy or "chart"
    if post_split is not None and strategy != "cd":
        _refuse_both(f"--post-split {post_split}", f"--strategy {strategy}",
                     "a chart plays split hands by the chart; --post-split is for --strategy cd")
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "eor and count")
    chart = _read_chart(rules, chart_file) if chart_file is not None else None
    return rules, {"strategy": strategy, "chart": chart, "post_split": post_split or "cdz-",
                   "two_card_plays": not classic}


@cli.command()
@_rule_options_but_insurance
@REMOVED
@count_options
@_EOR_STRATEGY
@_EOR_CHART
@_POST_SPLIT
@_PLAYS
@click.option("--insurance", "insurance_row", is_flag=True,
              help="Add insurance's EORs (per unit of insurance bet, off the top with an ace up).")
@_WORKERS
@_TABLE_FORMAT
@EXACT
@CLASSIC
def eor(strategy: str | None, chart_file: str | None, post_split: str | None, plays: tuple[str, ...],
        insurance_row: bool, workers: int | None, fmt: str, exact: bool, classic: bool, **options: Any) -> None:
    """Effects of removal: the round's EV after taking one card of each rank out of the shoe,
    minus the EV before (in % of the initial bet), for a stated strategy; and each --play's.
    With --count: on the counter's shoe, the EV once one more card of the rank is seen (cards
    seen + 1, running count + its tag) minus the EV before; for a --play or --insurance the
    count and cards seen are the counter's at the decision, its hand and up card among them."""
    from bjcalc import eor_table
    from bjcalc.render.csvfile import eor_csv
    from bjcalc.render.jsondoc import eor_json
    from bjcalc.render.markdown import eor_markdown
    from bjcalc.render.text import eor_text

    count = pop_count(options)
    rules, arguments = _eor_arguments(strategy, chart_file, post_split, classic, exact, options)
    counter = build_counter(count, rules)
    with _progress("effects of removal") as step:
        table = eor_table(rules, plays=plays, insurance=insurance_row, exact=exact, workers=workers, progress=step,
                          shoe=None if counter is None else counter.for_analysis(), **arguments)
    result, rows, fixed_chart = table.removal, list(table.plays), table.fixed_chart
    seen = seen_cards(options["removed"])
    line = None if counter is None else counter.describe()
    if fmt == "json":
        click.echo(eor_json(result, rows, table.play_strategy, exact, counter))
    elif fmt == "csv":
        click.echo(eor_csv(result, rows, exact), nl=False)
    elif fmt == "markdown":
        click.echo(eor_markdown(result, rows, table.play_strategy, exact, fixed_chart, seen, counter=line), nl=False)
    else:
        click.echo(_with_counter(eor_text(result, rows, table.play_strategy, exact, fixed_chart, seen), counter))


@cli.command()
@_rule_options_but_insurance
@REMOVED
@click.option("--system", "system_names", multiple=True, metavar="NAME",
              help="A built-in count (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, zen, wong-halves, uston-apc); "
              "repeatable. Default: all of them (or only the --tags given).")
@click.option("--tags", "tag_texts", multiple=True, metavar="T2,...,TT,TA",
              help="A count of your own: ten tags for 2,3,4,5,6,7,8,9,T,A, e.g. '1,1,1,1,1,0,0,0,-1,-1'. "
              "Repeatable.")
@_EOR_STRATEGY
@_EOR_CHART
@_POST_SPLIT
@_PLAYS
@click.option("--insurance", "insurance_row", is_flag=True, help="Each system's insurance index.")
@click.option("--pe", "with_pe", is_flag=True,
              help="Also each system's playing efficiency (Griffin's normal-model estimate, docs/counting.md): the "
              "first play of every two-card hand on the full shoe and on the shoe without each rank, 11 more "
              "analyses (a few seconds for one deck, about 6 s for a shoe).")
@click.option("--exact-index", "exact_index", is_flag=True,
              help="Also each --play's (and with --insurance, insurance's) exact index beside its linear estimate: "
              "where the EVs cross on the exact model of the counter's shoe (as 'bjcalc index'), at --cards-seen "
              "or --depth (default mid-shoe); one analysis per running count and system (seconds for "
              "hi-lo, ko, hi-opt-i; minutes for multi-level counts on 6-8 decks).")
@click.option("--cards-seen", "cards_seen", default=None, type=int, metavar="N",
              help="With --exact-index: cards dealt before the round (default: the shoe's cards / 2).")
@click.option("--depth", default=None, metavar="DECKS", help="With --exact-index: the depth in decks dealt.")
@_WORKERS
@_TABLE_FORMAT
@EXACT
@CLASSIC
def count(system_names: tuple[str, ...], tag_texts: tuple[str, ...], strategy: str | None, chart_file: str | None,
          post_split: str | None, plays: tuple[str, ...], insurance_row: bool, with_pe: bool, exact_index: bool,
          cards_seen: int | None, depth: str | None, workers: int | None, fmt: str, exact: bool, classic: bool,
          **options: Any) -> None:
    """Count systems measured on the game's exact EORs: betting and insurance correlation, the
    advantage per true count and each --play's index (linear estimates); with --pe, the
    playing efficiency (a normal-model estimate); with --exact-index, each play's exact index
    beside its estimate. With --exact, the advantage per true count and the linear indices as
    exact fractions too."""
    from bjcalc import CountSystem, count_table, depth_of, parse_tags
    from bjcalc.render.csvfile import count_csv
    from bjcalc.render.jsondoc import count_json
    from bjcalc.render.markdown import count_markdown
    from bjcalc.render.text import count_text

    systems: list[CountSystem | str] = list(system_names)
    systems += [CountSystem("custom" if len(tag_texts) == 1 else f"custom {i}", parse_tags(text))
                for i, text in enumerate(tag_texts, 1)]
    for name in system_names:
        CountSystem.named(name)  # an unknown name is refused before the rules are built
    if not exact_index and (cards_seen is not None or depth is not None):
        raise click.UsageError(f"{'--cards-seen' if cards_seen is not None else '--depth'} is the depth of "
                               "--exact-index: give --exact-index too")
    if exact_index and not plays and not insurance_row:
        raise click.UsageError("--exact-index: give the plays to index (--play) or --insurance")
    if cards_seen is not None and depth is not None:
        _refuse_both("--cards-seen", "--depth", "give the depth once")
    rules, arguments = _eor_arguments(strategy, chart_file, post_split, classic, exact, options)
    index_depth = None
    if exact_index:
        if rules.infinite:
            raise InvalidRulesError("--exact-index: an infinite deck has no count (the cards are drawn with "
                                    "replacement)")
        index_depth = depth_of(cards_seen if cards_seen is not None or depth is not None
                               else sum(rules.shoe_counts) // 2, depth, rules)
    with _progress("effects of removal") as step:
        table = count_table(rules, systems, plays=plays, insurance=insurance_row, playing_efficiency=with_pe,
                            exact=exact, workers=workers, progress=step, exact_index_depth=index_depth, **arguments)
    eor, rows, figures, indices = table.eor.removal, list(table.eor.plays), list(table.figures), list(table.indices)
    seen = seen_cards(options["removed"])
    found = table.exact_indices
    if fmt == "json":
        click.echo(count_json(eor, rows, table.eor.play_strategy, figures, indices, exact, table.pe_model, found))
    elif fmt == "csv":
        click.echo(count_csv(rows, figures, indices, exact, found), nl=False)
    elif fmt == "markdown":
        click.echo(count_markdown(eor, rows, figures, indices, exact, seen, table.pe_model, found), nl=False)
    else:
        click.echo(count_text(eor, rows, figures, indices, exact, seen, table.pe_model, found))


@cli.command()
@rule_options
@REMOVED
@count_options
@_TABLE_FORMAT
@EXACT
def matrix(fmt: str, exact: bool, **options: Any) -> None:
    """The whole EV matrix: every two-card hand against every up card, each action's EV (the
    best marked) and frame, P(up card and hand), and the best play's chances of a win, a push
    and a loss (exact; a split's is both hands' total, not computed where it could resplit).
    Also the round's EV with CD play and its win/push/loss over the rounds in which no resplit
    happens."""
    from bjcalc import Analysis, ev_matrix
    from bjcalc.render.csvfile import matrix_csv
    from bjcalc.render.jsondoc import matrix_json
    from bjcalc.render.markdown import matrix_markdown
    from bjcalc.render.text import matrix_text

    count = pop_count(options)
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "matrix")
    counter = build_counter(count, rules)
    with _progress("matrix") as step:
        result = ev_matrix(Analysis(rules, exact=exact, shoe=None if counter is None else counter.for_analysis()),
                           progress=step)
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(matrix_json(result, exact, counter=counter))
    elif fmt == "csv":
        click.echo(matrix_csv(result, exact), nl=False)
    elif fmt == "markdown":
        click.echo(matrix_markdown(result, exact, seen, counter=None if counter is None else counter.describe()),
                   nl=False)
    else:
        click.echo(_with_counter(matrix_text(result, exact, seen), counter))


@cli.command()
@click.argument("directory", default="tables")
def tables(directory: str) -> None:
    """Regenerate the charts and house edges in DIRECTORY (default: tables/): written next to it
    first and moved in place when all are done, so an interrupted run changes nothing."""
    from bjcalc import INDEX_TABLES, table_games, write_tables

    steps = len(table_games()) + 1 + len(INDEX_TABLES)  # and the counting table, the index tables
    with _progress("tables") as step:
        written = write_tables(directory, progress=lambda name: step(name, steps))
    click.echo(f"wrote {len(written)} files to {directory}")


def main() -> None:
    cli()


# -- the counter's shoe (issue 20) ----------------------------------------------------------------


def _cards_left_list(text: str | None) -> tuple[int, ...] | None:
    """``--cards-left``: comma-separated whole numbers, or none for the default depths."""
    if text is None:
        return None
    fields = [f for f in text.replace(" ", ",").split(",") if f]
    if not fields or not all(f.isdigit() for f in fields):
        raise click.BadParameter(f"must be whole numbers separated by commas, not {text!r}", param_hint="--cards-left")
    return tuple(int(f) for f in fields)


def _one_system(system_name: str | None, tag_text: str | None) -> Any:
    """The count of ``--count`` or ``--tags`` (default hi-lo), refusing both."""
    from bjcalc import CountSystem, parse_tags

    if system_name is not None and tag_text is not None:
        _refuse_both(f"--count {system_name}", f"--tags {tag_text}", "give one count")
    return (CountSystem("custom", parse_tags(tag_text)) if tag_text is not None
            else CountSystem.named(system_name or "hi-lo"))


def _irc(irc: str) -> Any:
    """``--irc`` as a Fraction."""
    from fractions import Fraction

    try:
        return Fraction(irc.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"must be a number such as -4 or 1/2, not {irc!r}", param_hint="--irc") from None


def _one_count(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--count NAME`` or ``--tags T2,...,TA`` (default hi-lo), for the commands of one count."""
    command = click.option("--tags", "tag_text", default=None, metavar="T2,...,TT,TA",
                           help="A count of your own: ten tags for 2,3,4,5,6,7,8,9,T,A, e.g. "
                           "'1,1,1,1,1,0,0,0,-1,-1'.")(command)
    return click.option("--count", "system_name", default=None, metavar="NAME",
                        help="A built-in count (hi-lo, ko, hi-opt-i, hi-opt-ii, omega-ii, zen, wong-halves, "
                        "uston-apc); default hi-lo.")(command)


@cli.command("insurance-index")
@rule_options
@_one_count
@click.option("--hand", default=None, metavar="CARDS",
              help="The player's two cards, seen and counted with the dealer's ace (default: none, only the ace).")
@click.option("--irc", default="0", metavar="N",
              help="Initial running count (unbalanced counts such as KO; default 0: a balanced count starts at 0).")
@click.option("--cards-left", "cards_left_text", default=None, metavar="N,N,...",
              help="Depths (cards not yet seen); default every half deck.")
@_TABLE_FORMAT
@EXACT
def insurance_index(system_name: str | None, tag_text: str | None, hand: str | None, irc: str,
                    cards_left_text: str | None, fmt: str, exact: bool, **options: Any) -> None:
    """The running count at which insurance turns positive, by cards left, for a hand against
    the dealer's ace: exact, from the counter's shoe (what a counter knows: the count, the cards
    seen and the table; docs/countshoe.md)."""

    from bjcalc import insurance_table
    from bjcalc.render.csvfile import insurance_csv
    from bjcalc.render.jsondoc import insurance_json
    from bjcalc.render.markdown import insurance_markdown
    from bjcalc.render.text import insurance_text

    system = _one_system(system_name, tag_text)
    start = _irc(irc)
    rules = build_rules(**options)
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no count: the cards are drawn with replacement")
    cards = None
    if hand is not None:
        cards = parse_cards(hand)
        if len(cards) != 2:
            raise InvalidHandError(f"--hand must be two cards, not {hand!r}")
    table = insurance_table(rules.shoe_counts, system.tags, cards or (), _cards_left_list(cards_left_text), start,
                            system.name)
    if fmt == "json":
        click.echo(insurance_json(table, rules, exact))
    elif fmt == "csv":
        click.echo(insurance_csv(table, exact), nl=False)
    elif fmt == "markdown":
        click.echo(insurance_markdown(table, rules, exact), nl=False)
    else:
        click.echo(insurance_text(table, rules, exact))


@cli.command("index")
@rule_options
@_one_count
@click.option("--cards-seen", "cards_seen", type=int, default=None, metavar="N",
              help="The depth: cards dealt before the round (default: the shoe's cards / 2).")
@click.option("--depth", "depth", default=None, metavar="DECKS", help="The depth in decks dealt before the round.")
@click.option("--penetration", default=None, metavar="P",
              help="Instead of one depth: every play's index averaged over the rounds of the shoe dealt to the cut "
              "card at share P (e.g. 0.75), each (depth, running count) weighted by how often a round starts there "
              "(as bjcalc truecount places rounds), pooled by true count.")
@click.option("--placement", type=click.Choice(["chain", "renewal", "spaced"]), default=None,
              help="With --penetration: where rounds start along the shoe (docs/truecount.md); default as bjcalc "
              "truecount (chain where it can be followed, else renewal).")
@click.option("--play", "plays", multiple=True, metavar="'HAND v UP PLAY INSTEAD'",
              help="A play of your own, e.g. '16 v T stand hit' or 'A,7 v 2 double stand' (the deviation first); "
              "repeatable. Default: the Illustrious 18 and, with late surrender, the Fab 4.")
@click.option("--all", "every_play", is_flag=True,
              help="Every two-card hand against every up card whose best play the count changes, as a chart: "
              "a grid per hard totals, soft totals and pairs, and the list of every change.")
@click.option("--divisor", type=click.Choice(["exact", "half-deck", "full-deck"]), default="exact",
              help="Decks not seen for the true count: to the card (exact), the half deck or the deck.")
@click.option("--rounding", type=click.Choice(["floor", "truncate", "round", "none"]), default="floor",
              help="How the true count is rounded before comparing with the index (floor: Blackjack Attack).")
@_WORKERS
@_task_options("With --penetration: ")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]), default="text",
              help="Output format (json: docs/json.md; html: one self-contained page).")
@EXACT
def index(system_name: str | None, tag_text: str | None, cards_seen: int | None, depth: str | None,
          penetration: str | None, placement: str | None, plays: tuple[str, ...], every_play: bool, divisor: str,
          rounding: str, workers: int | None, scheduler: str | None, store_path: str | None, fmt: str, exact: bool,
          **options: Any) -> None:
    """Index numbers: the true count at which each play beats the one it replaces, for a count
    and rules, at one depth or (--penetration) averaged over the shoe, from the exact model of
    the counter's shoe (docs/countshoe.md; computed in floating point). --all: every play the
    count changes at one depth, as a chart."""
    from bjcalc import TaskStore, all_indices, convention_of, depth_of, index_table, play_from_text, shoe_index_table
    from bjcalc.render.csvfile import all_index_csv, index_csv
    from bjcalc.render.html import all_index_html, index_html
    from bjcalc.render.jsondoc import index_json
    from bjcalc.render.markdown import all_index_markdown, index_markdown
    from bjcalc.render.text import all_index_text, index_text

    system = _one_system(system_name, tag_text)
    if cards_seen is not None and depth is not None:
        _refuse_both("--cards-seen", "--depth", "give the depth once")
    if every_play and plays:
        _refuse_both("--all", "--play", "--all indexes every hand, --play the plays named")
    if every_play and penetration is not None:
        _refuse_both("--all", "--penetration", "--all indexes every hand at one depth (--cards-seen or --depth)")
    if penetration is not None and (cards_seen is not None or depth is not None):
        _refuse_both("--penetration", "--cards-seen" if cards_seen is not None else "--depth",
                     "averaged over the shoe, or at one depth")
    if penetration is None:
        for name, given in (("--placement", placement), ("--scheduler", scheduler), ("--store", store_path)):
            if given is not None:
                raise click.UsageError(f"{name} goes with --penetration (the average over the shoe): give it too")
    pen = None if penetration is None else _penetration(penetration)
    rules = build_rules(**options)
    if rules.infinite:
        raise InvalidRulesError("an infinite deck has no count: the cards are drawn with replacement")
    _refuse_large_exact(rules, exact, "index")
    asked = [play_from_text(p) for p in plays] or None
    table: Any
    if pen is not None:
        with TaskStore(_store_path(store_path)) as store, _task_progress("index analyses") as steps:
            table = shoe_index_table(rules, system.name, system.tags, pen, asked, convention_of(divisor, rounding),
                                     placement=placement, store=store, workers=workers, scheduler=scheduler,
                                     progress=steps, exact=exact)
    else:
        if cards_seen is None and depth is None:
            cards_seen = sum(rules.shoe_counts) // 2
        seen = depth_of(cards_seen, depth, rules)
        if every_play:
            with _progress("index numbers, every hand") as step:
                table = all_indices(rules, system.name, system.tags, seen, convention_of(divisor, rounding),
                                    workers=workers, progress=step, exact=exact)
        else:
            with _progress("index numbers") as step:
                table = index_table(rules, system.name, system.tags, seen, asked, convention_of(divisor, rounding),
                                    workers=workers, progress=step, exact=exact)
    csv_of, markdown_of, html_of, text_of = ((all_index_csv, all_index_markdown, all_index_html, all_index_text)
                                             if every_play else (index_csv, index_markdown, index_html, index_text))
    if fmt == "json":
        click.echo(index_json(table, rules, exact))
    elif fmt == "csv":
        click.echo(csv_of(table), nl=False)
    elif fmt == "markdown":
        click.echo(markdown_of(table, rules), nl=False)
    elif fmt == "html":
        click.echo(html_of(table, rules))
    else:
        click.echo(text_of(table, rules))


# -- what a count and a spread are worth (issue 21) -------------------------------------------------


@cli.command("truecount")
@rule_options
@_one_count
@click.option("--irc", default="0", metavar="N",
              help="Initial running count (unbalanced counts such as KO; default 0: a balanced count starts at 0).")
@click.option("--penetration", default="0.75", metavar="P",
              help="Share of the shoe dealt before the cut card (default 0.75): a round starts while fewer cards "
              "than that have been dealt.")
@click.option("--seats", type=click.IntRange(1, 7), default=1, help="Hands at the table (they place the rounds).")
@click.option("--divisor", type=click.Choice(["exact", "half-deck", "full-deck"]), default="exact",
              help="Decks not seen for the true count: to the card (exact), the half deck or the deck.")
@click.option("--rounding", type=click.Choice(["floor", "truncate", "round", "none"]), default="floor",
              help="How the true count is rounded (floor: Blackjack Attack).")
@click.option("--strategy", type=click.Choice(["basic", "indices", "cd"]), default="indices",
              help="The play behind the spread's figures (default: basic strategy with the indices).")
@click.option("--spread", "spread_text", default="any:1", metavar="TC:BET,...",
              help="Bets by true count, e.g. '<=1:1,2:2,3:4,4:8,>=5:12' (default: flat, 'any:1').")
@click.option("--wong-in", type=int, default=None, metavar="TC", help="Sit out until the true count reaches TC.")
@click.option("--wong-out", type=int, default=None, metavar="TC",
              help="Leave the shoe at the first round whose true count is below TC.")
@click.option("--bankroll", type=float, default=None, metavar="UNITS", help="Bankroll for the risk of ruin, in units.")
@click.option("--optimal-spread", type=float, default=None, metavar="MAX",
              help="Also the spread with the largest SCORE whose bets run from 1 to MAX (MAX from 1 to 100).")
@click.option("--indices", type=click.Choice(["computed", "published"]), default="computed",
              help="The index plays: computed by bjcalc index at the middle round's depth, or the common Hi-Lo "
              "list (default computed).")
@click.option("--placement", type=click.Choice(["chain", "renewal", "spaced"]), default=None,
              help="Where rounds start along the shoe (docs/truecount.md); default chain where it can be followed, "
              "else renewal (spaced when wonging out; wonging out needs chain or spaced).")
@click.option("--tail", type=float, default=1e-9, show_default=True,
              help="At each depth, the least likely running counts, together at most this share, are not analysed "
              "(their effect is bounded and printed); 0: every one.")
@_WORKERS
@_task_options()
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]), default="text",
              help="Output format (json: docs/json.md; html: one self-contained page with plots).")
@EXACT
def truecount_command(system_name: str | None, tag_text: str | None, irc: str, penetration: str, seats: int,
                      divisor: str, rounding: str, strategy: str, spread_text: str, wong_in: int | None,
                      wong_out: int | None, bankroll: float | None, optimal_spread: float | None,
                      indices: str, placement: str | None, tail: float,
                      workers: int | None, scheduler: str | None, store_path: str | None, fmt: str, exact: bool,
                      **options: Any) -> None:
    """What a count and a bet spread are worth: how often each true count comes, the advantage
    there (basic strategy, with indices, CD), win rate, SD, DI, SCORE, N0 and risk of ruin, from
    exact counter's-shoe analyses (docs/truecount.md says what is exact and what is modelled)."""
    from fractions import Fraction

    from bjcalc import Spread, TaskStore, convention_of, truecount_analysis
    from bjcalc.render.csvfile import truecount_csv
    from bjcalc.render.html import truecount_html
    from bjcalc.render.jsondoc import truecount_json
    from bjcalc.render.markdown import truecount_markdown
    from bjcalc.render.text import truecount_text

    system = _one_system(system_name, tag_text)
    start = _irc(irc)
    try:
        pen = Fraction(penetration.strip())
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"must be a share such as 0.75 or 3/4, not {penetration!r}",
                                 param_hint="--penetration") from None
    rules = build_rules(**options)
    _refuse_large_exact(rules, exact, "truecount")
    spread = Spread.parse(spread_text)
    with TaskStore(_store_path(store_path)) as store, _task_progress("truecount analyses") as step:
        result = truecount_analysis(rules, system.name, system.tags, penetration=pen, seats=seats,
                           convention=convention_of(divisor, rounding), strategy=strategy, spread=spread,
                           wong_in=wong_in, wong_out=wong_out, bankroll=bankroll, optimal_spread=optimal_spread,
                           irc=start, tail=tail, exact=exact, store=store, workers=workers, scheduler=scheduler,
                           progress=step, indices=indices, placement=placement)
    if fmt == "json":
        click.echo(truecount_json(result, rules))
    elif fmt == "csv":
        click.echo(truecount_csv(result), nl=False)
    elif fmt == "markdown":
        click.echo(truecount_markdown(result, rules), nl=False)
    elif fmt == "html":
        click.echo(truecount_html(result, rules))
    else:
        click.echo(truecount_text(result, rules))
