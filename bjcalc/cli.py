"""The ``bjcalc`` command. It only builds :class:`~bjcalc.rules.Rules`, calls the library and
hands the result to :mod:`bjcalc.render`.

Every bad input ends in one line, ``Error: ...``, on stderr and exit status 2.
"""

from __future__ import annotations

import contextlib
import math
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import click

from bjcalc.errors import BjcalcError, InvalidChartError, InvalidHandError, InvalidRulesError
from bjcalc.presets import DEFAULT_GAME, GAMES, game
from bjcalc.rules import (  # noqa: F401
    BLACKJACK_TAKES,
    FEWEST_CARDS,
    MAX_DECKS,
    MOST_CARDS,
    Doubling,
    HoleCard,
    Rules,
    Surrender,
    parse_payout,
)
from bjcalc.shoe import Shoe


class _OneLineErrors(click.Group):
    """Print every usage or input error as one line and exit 2, never a traceback."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
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


_INSURANCE_OFFERED = click.option("--insurance/--no-insurance", default=None, help="Insurance offered.")
_RULE_OPTIONS = [
    click.option("--game", "game_name", default=None, metavar="NAME",
                 help=f"Preset game (see 'bjcalc games'); default {DEFAULT_GAME}."),
    click.option("--decks", default=None, metavar="N|inf",
                 help="Number of decks, or inf: the infinite deck (every card drawn with replacement)."),
    click.option("--shoe", "shoe_text", default=None, metavar="COUNTS",
                 help="Ten comma-separated counts A..T of the shoe before the deal."),
    click.option("--h17/--s17", "hit_soft_17", default=None, help="Dealer hits / stands on soft 17."),
    click.option("--bj-pays", default=None, metavar="A:B", help="Blackjack payout, e.g. 3:2, 6:5."),
    click.option("--double", "double", type=click.Choice([d.value for d in Doubling]), default=None,
                 help="Which two-card hands may double."),
    click.option("--soft-double/--no-soft-double", "double_soft", default=None,
                 help="Whether soft hands may double."),
    click.option("--das/--no-das", "double_after_split", default=None, help="Double after split."),
    click.option("--split-hands", type=int, default=None,
                 help="Most hands from splitting (1 = no splitting)."),
    click.option("--resplit-aces/--no-resplit-aces", default=None, help="Resplit aces."),
    click.option("--hit-split-aces/--no-hit-split-aces", default=None,
                 help="Hit split aces (otherwise one card each)."),
    click.option("--unlike-tens/--no-unlike-tens", "split_unlike_tens", default=None,
                 help="Split unlike ten-valued cards (J-Q)."),
    click.option("--surrender", type=click.Choice([s.value for s in Surrender]), default=None),
    _INSURANCE_OFFERED,
    click.option("--peek/--no-peek", default=None,
                 help="Dealer peeks under A and T / no hole card."),
    click.option("--bj-takes", "blackjack_takes", type=click.Choice(list(BLACKJACK_TAKES)),
                 default=None,
                 help="No hole card: what a dealer blackjack takes of doubles and splits "
                 "(all; original bet only; live = doubles v A all, v T original, splits all)."),
    click.option("--charlie", type=int, default=None, help="N-card Charlie (0 = none)."),
    click.option("--max-cards", type=int, default=None,
                 help="Cards after which a hand stands, player and dealer (0 = no limit)."),
    click.option("--player-max-cards", type=int, default=None,
                 help="Cards after which the player's hand stands (0 = no limit)."),
    click.option("--dealer-max-cards", type=int, default=None,
                 help="Cards after which the dealer's hand stands (0 = no limit)."),
]


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


def seen_cards(removed: str | None) -> tuple[str, ...]:
    """The cards of ``--removed`` as notation, in the order given (``'a,K,5'`` -> A, T, 5)."""
    from bjcalc.cards import parse_cards

    return tuple(map(str, parse_cards(removed))) if removed is not None and removed.strip() else ()


def _decks(text: str) -> int | float:
    """``--decks``: a whole number, or ``inf`` for the infinite deck."""
    if text.strip().lower() in ("inf", "infinite", "infinity"):
        return math.inf
    try:
        return int(text)  # Rules checks the range and names the field
    except ValueError:
        raise InvalidRulesError(
            f"--decks must be a whole number from 1 to {MAX_DECKS} or inf (the infinite deck), not {text!r}"
        ) from None


def build_rules(
    game_name: str | None,
    decks: str | None,
    shoe_text: str | None,
    bj_pays: str | None,
    peek: bool | None,
    charlie: int | None,
    max_cards: int | None,
    player_max_cards: int | None = None,
    dealer_max_cards: int | None = None,
    removed: str | None = None,
    **fields: Any,
) -> Rules:
    """The preset (default game) with every option given on the command line applied, on the
    shoe left once the ``--removed`` cards are out."""
    base = game(DEFAULT_GAME if game_name is None else game_name).rules
    changes: dict[str, Any] = {k: v for k, v in fields.items() if v is not None}
    if decks is not None and shoe_text is not None:
        raise InvalidRulesError(f"give --decks or --shoe, not both (--decks {decks}, --shoe {shoe_text!r})")
    if decks is not None:
        changes.update(decks=_decks(decks), shoe=None)
    if shoe_text is not None:
        changes.update(shoe=Shoe.parse(shoe_text).counts, decks=None)
    if bj_pays is not None:
        changes["blackjack_pays"] = parse_payout(bj_pays, "--bj-pays")
    if peek is not None:
        changes["hole_card"] = HoleCard.PEEK if peek else HoleCard.NONE
    for option, one in (("--player-max-cards", player_max_cards), ("--dealer-max-cards", dealer_max_cards)):
        if max_cards is not None and one is not None:
            _refuse_both(f"--max-cards {max_cards}", f"{option} {one}", "--max-cards sets both card limits")
    for option, value in (("--charlie", charlie), ("--max-cards", max_cards), ("--player-max-cards", player_max_cards),
                          ("--dealer-max-cards", dealer_max_cards)):
        if value is not None and value != 0 and not FEWEST_CARDS <= value <= MOST_CARDS:
            raise InvalidRulesError(
                f"{option} must be 0 (none) or a whole number from {FEWEST_CARDS} to {MOST_CARDS}, not {value}"
            )
    if charlie is not None:
        changes["charlie"] = charlie or None
    if max_cards is not None:
        changes["player_max_cards"] = changes["dealer_max_cards"] = max_cards or None
    if player_max_cards is not None:
        changes["player_max_cards"] = player_max_cards or None
    if dealer_max_cards is not None:
        changes["dealer_max_cards"] = dealer_max_cards or None
    rules = base.replace(**changes)
    if fields.get("blackjack_takes") is not None and rules.peek:
        _refuse_both(f"--bj-takes {fields['blackjack_takes']}", _peek_source(peek, game_name),
                     "a peeking dealer's blackjack ends the round before any double or split")
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


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bjcalc")
def cli() -> None:
    """bjcalc: exact blackjack analysis: dealer tables, EVs of every action, strategy."""


@cli.command()
@FORMAT
def games(fmt: str) -> None:
    """List the preset games and their rules (and what was assumed where a text is silent)."""
    from bjcalc import render

    presets = list(GAMES.values())
    click.echo(render.games_json(presets) if fmt == "json" else render.games_text(presets))


@cli.command()
@click.argument("up", required=False)
@click.option("--peeked", is_flag=True, help="Condition on no dealer blackjack (after the peek).")
@rule_options
@REMOVED
@FORMAT
@EXACT
def dealer(up: str | None, peeked: bool, fmt: str, exact: bool, **options: Any) -> None:
    """Dealer final-outcome probabilities for every up card, or for UP."""
    from bjcalc import render
    from bjcalc.analysis import Analysis
    from bjcalc.cards import RANK_NOTATION, parse_card

    rules = build_rules(**options)
    if peeked and not rules.peek:
        _refuse_both("--peeked", _peek_source(options.get("peek"), options.get("game_name")),
                     "a dealer with no hole card does not peek")
    analysis = Analysis(rules, exact=exact)
    ups = [parse_card(up)] if up is not None else [parse_card(r) for r in RANK_NOTATION]
    tables = [analysis.dealer(u, peeked=peeked) for u in ups]
    if fmt == "json":
        click.echo(render.dealer_json(tables, rules, peeked, exact))
    else:
        click.echo(render.dealer_text(tables, rules, peeked, exact, seen_cards(options["removed"])))


@cli.command()
@click.argument("cards")
@click.option("--up", required=True, metavar="CARD", help="The dealer's up card.")
@rule_options
@REMOVED
@FORMAT
@EXACT
def hand(cards: str, up: str, fmt: str, exact: bool, **options: Any) -> None:
    """EV of every action for the hand CARDS (e.g. T6, 10,6, a7) against --up, best first."""
    from bjcalc import render
    from bjcalc.analysis import Analysis

    rules = build_rules(**options)
    result = Analysis(rules, exact=exact).hand(cards, up)
    if fmt == "json":
        click.echo(render.hand_json(result, rules, exact))
    else:
        click.echo(render.hand_text(result, rules, exact, seen_cards(options["removed"])))


@cli.command()
@rule_options
@REMOVED
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json", "html"]),
              default="text", help="Output format (html: one self-contained page).")
@EXACT
@SD
def chart(fmt: str, exact: bool, sd: bool, **options: Any) -> None:
    """The basic-strategy chart (total-dependent) for the game, its exact round EV and the
    composition-dependent exceptions. With no options: the default game."""
    from bjcalc import render
    from bjcalc.analysis import Analysis

    rules = build_rules(**options)
    analysis = Analysis(rules, exact=exact)
    table = analysis.chart()
    result = analysis.evaluate(table).round
    unusual = analysis.exceptions(table)
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(render.chart_json(table, result, unusual, exact, variance=analysis.variance(table) if sd else None))
    elif fmt == "csv":
        click.echo(render.chart_csv(table), nl=False)
    elif fmt == "markdown":
        click.echo(render.chart_markdown(table, result, unusual, exact, seen), nl=False)
    elif fmt == "html":
        click.echo(render.chart_html(table, result, unusual, seen))
    else:
        click.echo(render.chart_text(table, result, unusual, exact, colour=True, seen=seen))


def _read_chart(rules: Rules, path: str):
    from bjcalc.strategy import load_chart

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
@click.option("--strategy", type=click.Choice(["cdz", "cdz-", "cdp1", "cdp", "basic"]), default=None,
              help="CD play with split hands CDZ- (default), CDP1 or CDP; or the basic-strategy chart.")
@click.option("--chart", "chart_file", default=None, metavar="FILE",
              help="Evaluate this chart (JSON or CSV as 'bjcalc chart' writes) and list the cost "
              "of each of its deviations from the optimal chart.")
@FORMAT
@EXACT
@SD
def edge(strategy: str | None, chart_file: str | None, fmt: str, exact: bool, sd: bool, **options: Any) -> None:
    """The house edge of the round (unconditional) and its breakdown by up card."""
    from bjcalc import render
    from bjcalc.analysis import Analysis

    if strategy is not None and chart_file is not None:
        _refuse_both(f"--strategy {strategy}", "--chart", "the chart file is the strategy")
    strategy = strategy or "cdz"
    rules = build_rules(**options)
    seen = seen_cards(options["removed"])
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
        analysis = Analysis(rules, exact=exact)
        costs = analysis.deviations(chart)
        result = analysis.evaluate(chart).round
        variance = analysis.variance(chart) if sd else None
        if fmt == "json":
            click.echo(render.edge_json(result, rules, exact, variance, costs))
        else:
            click.echo(render.edge_text(result, rules, exact, variance=variance, seen=seen) + "\n\n"
                       + render.deviations_text(costs))
        return
    if strategy == "basic":
        analysis = Analysis(rules, exact=exact)
        table = analysis.chart()
        result = analysis.evaluate(table).round
        variance = analysis.variance(table) if sd else None
    else:
        analysis = Analysis(rules, exact=exact, post_split=strategy)
        result = analysis.round()
        variance = analysis.variance() if sd else None
    if fmt == "json":
        click.echo(render.edge_json(result, rules, exact, variance))
    else:
        click.echo(render.edge_text(result, rules, exact, variance=variance, seen=seen))


@cli.command()
@rule_options
@click.option("--removed", default="", metavar="CARDS",
              help="Suited cards already out of the shoe, e.g. 'Ah Kd 7c' (depleted shoe).")
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
    from bjcalc import render
    from bjcalc import sidebets as bets

    rules = build_rules(**options)
    if rules.decks is None or rules.infinite:
        raise InvalidRulesError("side bets need suits: give --decks (or a --game), not --shoe")
    decks = int(rules.decks)
    shoe = bets.SuitedShoe.dealt_from(decks, removed) if removed else bets.SuitedShoe.of_decks(decks)
    results = [
        bets.perfect_pairs(shoe, bets.parse_pays(pp_pays, bets.PERFECT_PAIRS_CATEGORIES) if pp_pays else None),
        bets.twenty_one_plus_three(
            shoe, bets.parse_pays(tto_pays, bets.TWENTY_ONE_PLUS_THREE_CATEGORIES) if tto_pays else None
        ),
    ]
    if fmt == "json":
        gone = [str(card) for card in bets.parse_suited_cards(removed)] if removed else []
        click.echo(render.sidebets_json(results, gone, rules, exact))
    else:
        click.echo(render.sidebets_text(results, len(shoe), exact))


@cli.command()
@rule_options
@REMOVED
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

    from bjcalc import render
    from bjcalc.analysis import Analysis
    from bjcalc.strategy import simple_policy

    rules = build_rules(**options)
    analysis = Analysis(rules, exact=exact)
    if chart_file is not None:
        chart = _read_chart(rules, chart_file)
    elif seated == "basic":
        chart = analysis.chart()
    elif seated == "optimal":
        chart = None
    else:
        chart = simple_policy(rules, seated)
    result = analysis.bet_behind(chart)
    if fmt == "json":
        click.echo(render.betbehind_json(result, rules, exact, analysis.variance(chart) if sd else None))
    else:
        click.echo(render.betbehind_text(result, rules, exact, seen_cards(options["removed"])))


@contextlib.contextmanager
def _progress(length: int, label: str, lazy: bool = False) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr; yields a callback that advances it, naming the step. ``lazy``:
    the bar appears with the first step done, so that an error in the first step (a shoe too
    small, say) is still the only line on stderr."""
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def start() -> Any:
            if not bars:
                bars.append(stack.enter_context(click.progressbar(length=length, label=label, file=sys.stderr)))
            return bars[0]

        def step(name: str) -> None:
            bar = start()
            bar.label = name
            bar.update(1)

        if not lazy:
            start()
        yield step


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
def report(fmt: str, exact: bool, **options: Any) -> None:
    """Everything about a game: rules as understood, house edges, insurance, the chart, its
    exceptions, side bets and Bet Behind."""
    from bjcalc import render
    from bjcalc.report import build_report

    rules = build_rules(**options)
    title, assumed = _title(options)
    result = build_report(title, rules, assumed, exact=exact)
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(render.report_json(result))
    else:
        click.echo({"text": render.report_text, "markdown": render.report_markdown,
                    "html": render.report_html}[fmt](result, seen))


@cli.command()
@rule_options
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              help="Output format (json: docs/json.md).")
@EXACT
def effects(fmt: str, exact: bool, **options: Any) -> None:
    """How much each rule of the game is worth: change one rule at a time (house edge each)."""
    from bjcalc import render
    from bjcalc.report import one_rule_changes, rule_effects

    rules = build_rules(**options)
    title, _ = _title(options)
    with _progress(len(one_rule_changes(rules)), "rules", lazy=True) as step:
        result = rule_effects(rules, progress=step, exact=exact)
    if fmt == "json":
        click.echo(render.effects_json(title, result, exact))
    else:
        render_fn = render.effects_markdown if fmt == "markdown" else render.effects_text
        click.echo(render_fn(title, rules, result.base_percent, result.rows()))


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
_PLAYS = click.option("--play", "plays", multiple=True, metavar="'CARDS v UP ACTION ACTION'",
                      help="A decision, e.g. 'T,6 v T stand hit': the first play's EV minus the second's "
                      "(actions stand, hit, double, split, surrender). Repeatable.")
_WORKERS = click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
                        help="Processes for the analyses (default: one per core).")
_TABLE_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "markdown", "csv", "json"]),
                             default="text", help="Output format (json: docs/json.md).")


def _eor_setup(strategy: str | None, chart_file: str | None, post_split: str | None, plays: tuple[str, ...],
               options: dict[str, Any]) -> tuple[Rules, str, Any, str, list[Any]]:
    """The rules, strategy, fixed chart (or None), post-split strategy and parsed plays of
    ``eor`` and ``count``, every play checked before the work begins."""
    from bjcalc.analysis import Analysis
    from bjcalc.counting import parse_play

    if chart_file is not None and strategy not in (None, "chart"):
        _refuse_both(f"--strategy {strategy}", "--chart", "a chart file is held fixed (--strategy chart)")
    strategy = strategy or "chart"
    if post_split is not None and strategy != "cd":
        _refuse_both(f"--post-split {post_split}", f"--strategy {strategy}",
                     "a chart plays split hands by the chart; --post-split is for --strategy cd")
    rules = build_rules(**options)
    decisions = [parse_play(text) for text in plays]
    chart = _read_chart(rules, chart_file) if chart_file is not None else None
    post_split = post_split or "cdz-"
    analysis = Analysis(rules, post_split=post_split)
    for text, (cards, up, first, second) in zip(plays, decisions):
        evs = analysis.hand(cards, up).evs  # refuses cards the shoe cannot deal
        for action in (first, second):
            if action not in evs:
                raise InvalidHandError(f"{action.key} is not a play for {','.join(map(str, cards))} against {up} "
                                       f"under these rules, in --play {text!r}")
    return rules, strategy, chart, post_split, decisions


def _effects(rules: Rules, strategy: str, chart: Any, post_split: str, decisions: list[Any], insurance: bool,
             workers: int | None, exact: bool) -> tuple[Any, list[Any], Any]:
    """The round's EORs, each play's (and insurance's) and the plays' strategy, with a progress
    bar on stderr."""
    from bjcalc.analysis import Analysis
    from bjcalc.cards import Rank
    from bjcalc.counting import effects_of_removal, insurance_effects, play_effects

    if insurance and not rules.shoe_counts[Rank.ACE.index]:
        raise InvalidHandError("--insurance needs an ace up, and the shoe holds no ace")
    extra = [insurance_effects(rules)] if insurance else []  # exact and quick: before the bar
    steps = 1 + sum(1 for n in rules.shoe_counts if n) + len(decisions)
    with _progress(steps, "effects of removal", lazy=True) as step:
        result = effects_of_removal(rules, strategy, chart=chart, exact=exact, post_split=post_split,
                                    workers=workers, progress=step)
        plays = []
        for cards, up, first, second in decisions:
            plays.append(play_effects(rules, cards, up, first, second, exact=exact, post_split=post_split,
                                      workers=workers))
            step(plays[-1].label)
    return result, plays + extra, Analysis(rules, post_split=post_split).cd


@cli.command()
@_rule_options_but_insurance
@REMOVED
@_EOR_STRATEGY
@_EOR_CHART
@_POST_SPLIT
@_PLAYS
@click.option("--insurance", "insurance_row", is_flag=True,
              help="Add insurance's EORs (per unit of insurance bet, off the top with an ace up).")
@_WORKERS
@_TABLE_FORMAT
@EXACT
def eor(strategy: str | None, chart_file: str | None, post_split: str | None, plays: tuple[str, ...],
        insurance_row: bool, workers: int | None, fmt: str, exact: bool, **options: Any) -> None:
    """Effects of removal: the round's EV after taking one card of each rank out of the shoe,
    minus the EV before (in % of the initial bet), for a stated strategy; and each --play's."""
    from bjcalc import render

    rules, strategy, chart, post_split, decisions = _eor_setup(strategy, chart_file, post_split, plays, options)
    result, rows, play_strategy = _effects(rules, strategy, chart, post_split, decisions, insurance_row, workers,
                                           exact)
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(render.eor_json(result, rows, play_strategy, exact))
    elif fmt == "csv":
        click.echo(render.eor_csv(result, rows, exact), nl=False)
    elif fmt == "markdown":
        click.echo(render.eor_markdown(result, rows, play_strategy, exact, strategy == "chart", seen), nl=False)
    else:
        click.echo(render.eor_text(result, rows, play_strategy, exact, strategy == "chart", seen))


def _index(system: Any, play: Any, exact: bool) -> tuple[Any, bool | None]:
    """A play's linear-estimate index for ``system`` and whether the first play is the better
    above it (the sign of the play's slope per true count)."""
    from bjcalc.counting import play_index

    found = play_index(system, play)
    if found is None:
        return None, None
    value, above = found
    return (value if exact else float(value)), above


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
@_WORKERS
@_TABLE_FORMAT
@EXACT
def count(system_names: tuple[str, ...], tag_texts: tuple[str, ...], strategy: str | None, chart_file: str | None,
          post_split: str | None, plays: tuple[str, ...], insurance_row: bool, with_pe: bool, workers: int | None,
          fmt: str, exact: bool, **options: Any) -> None:
    """Count systems measured on the game's exact EORs: betting and insurance correlation, the
    advantage per true count and each --play's index (linear estimates); with --pe, the
    playing efficiency (a normal-model estimate)."""
    from bjcalc import render
    from bjcalc.counting import (
        SYSTEMS,
        CountSystem,
        count_figures,
        even_depths,
        parse_tags,
        playing_efficiency_model,
        strategy_variations,
    )

    systems = [CountSystem.named(name) for name in system_names]
    systems += [CountSystem("custom" if len(tag_texts) == 1 else f"custom {i}", parse_tags(text))
                for i, text in enumerate(tag_texts, 1)]
    systems = systems or [CountSystem.named(name) for name in SYSTEMS]
    rules, strategy, chart, post_split, decisions = _eor_setup(strategy, chart_file, post_split, plays, options)
    result, rows, play_strategy = _effects(rules, strategy, chart, post_split, decisions, insurance_row, workers,
                                           exact)
    variations = model = None
    if with_pe:
        depths = even_depths(sum(rules.shoe_counts))
        with _progress(1 + sum(1 for n in rules.shoe_counts if n), "strategy variations", lazy=True) as step:
            variations = strategy_variations(rules, post_split=post_split, workers=workers, progress=step)
        model = playing_efficiency_model(variations, depths)
    figures = [count_figures(system, result, variations) for system in systems]
    indices = [[_index(system, play, exact) for play in rows] for system in systems]
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(render.count_json(result, rows, play_strategy, figures, indices, exact, model))
    elif fmt == "csv":
        click.echo(render.count_csv(rows, figures, indices, exact), nl=False)
    elif fmt == "markdown":
        click.echo(render.count_markdown(result, rows, figures, indices, exact, seen, model), nl=False)
    else:
        click.echo(render.count_text(result, rows, figures, indices, exact, seen, model))


@cli.command()
@rule_options
@REMOVED
@_TABLE_FORMAT
@EXACT
def matrix(fmt: str, exact: bool, **options: Any) -> None:
    """The whole EV matrix: every two-card hand against every up card, each action's EV (the
    best marked) and frame, P(up card and hand), and the best play's chances of a win, a push
    and a loss (exact; a split's is both hands' total, not computed where it could resplit).
    Also the round's EV with CD play and its win/push/loss over the rounds in which no resplit
    happens."""
    from bjcalc import render
    from bjcalc.analysis import Analysis
    from bjcalc.matrix import ev_matrix

    rules = build_rules(**options)
    result = ev_matrix(Analysis(rules, exact=exact))
    seen = seen_cards(options["removed"])
    if fmt == "json":
        click.echo(render.matrix_json(result, exact))
    elif fmt == "csv":
        click.echo(render.matrix_csv(result, exact), nl=False)
    elif fmt == "markdown":
        click.echo(render.matrix_markdown(result, exact, seen), nl=False)
    else:
        click.echo(render.matrix_text(result, exact, seen))


@cli.command()
@click.argument("directory", default="tables")
def tables(directory: str) -> None:
    """Regenerate the charts and house edges in DIRECTORY (default: tables/)."""
    import pathlib

    from bjcalc.tables import generate, table_games

    target = pathlib.Path(directory)
    try:  # refuse an unusable directory before the work, not after it
        if target.exists() and not target.is_dir():
            raise NotADirectoryError(0, "it is not a directory")
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=target):
            pass
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        reason = getattr(error, "strerror", None) or str(error)
        raise click.UsageError(f"cannot write tables to {directory!r}: {reason}") from None
    names = list(table_games())
    with _progress(len(names), "tables") as step:
        written = generate(target, progress=step)
    click.echo(f"wrote {len(written)} files to {directory}")


def main() -> None:
    cli()
