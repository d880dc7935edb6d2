"""The commands about games: ``games``, ``report``, ``effects``, ``sidebets`` and ``tables``."""

from __future__ import annotations

from typing import Any

import click

from bjcalc import (
    GAMES,
    InvalidRulesError,
)
from bjcalc.cli.common import (
    CLASSIC,
    EXACT,
    FORMAT,
    REMOVED,
    _progress,
    _refuse_large_exact,
    _title,
    build_rules,
    cli,
    rule_options,
    seen_cards,
)


@cli.command()
@FORMAT
def games(fmt: str) -> None:
    """List the preset games and their rules (and what was assumed where a text is silent)."""
    from bjcalc.render.jsondoc import games_json
    from bjcalc.render.text import games_text

    presets = list(GAMES.values())
    click.echo(games_json(presets) if fmt == "json" else games_text(presets))


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
