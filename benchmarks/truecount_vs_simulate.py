"""``bjcalc truecount`` against ``bjcalc simulate``, figure by figure (issue 44's acceptance table).

For each configuration, both commands run as whole processes with the same game and print JSON;
one table per configuration gives each figure as truecount computes it, as simulate measures it
with its standard error, and ``z = (truecount - simulate) / SE``. The figures: rounds per shoe;
the share of rounds by the cards seen at their start, in simulate's bins of depths (truecount's
depths summed into the same bins; the SE is simulate's own for the bin, which a sum of its
depths' errors cannot give: a shoe's rounds at two depths are correlated); every true count's
frequency where either side puts more than 0.1 % of the rounds; the advantage at those true
counts (basic strategy, over the rounds played there: with wonging, truecount's
``advantage_played`` and simulate's only where he plays); the share of rounds played
(wonging); the average bet, win rate and SD per round dealt; DI and SCORE (per round played).
``--state-moments`` adds truecount's SD, DI and SCORE with ``--moments state`` (each state's own
second moment) for the 1-deck configurations, beside the default's (``--moments shoe``: the full
shoe's E[X^2] at every count).

The configurations (``--configs``, comma-separated names or shell patterns, e.g. ``'1d*'``):
1 deck cut at 50 % and 75 %, 2 and 6 decks at 75 %; 1 and 3 seats; without and with wonging.
The game: ``--game us-shoe --surrender none`` (S17, DAS, 3:2, split to 4 hands, no resplit of
aces, one card to split aces, peek, no card limit) with the decks given; Hi-Lo, exact divisor,
floored true count; basic strategy (the full shoe's chart). Spread ``<=0:1,1:2,2:4,>=3:8`` (1-8)
at 1 and 2 decks, ``<=0:1,1:2,2:4,3:8,>=4:12`` (1-12) at 6. Wonging: at 1 deck the counter sits
from the shoe's start and leaves it at the first round below TC -1 (``--wong-out -1``; a
single-deck game is seldom joined mid-shoe); at 2 and 6 decks he waits for TC +1 and leaves at
the first round below 0 (``--wong-in 1 --wong-out 0``).

    python benchmarks/truecount_vs_simulate.py [--rounds 1e9] [--configs NAMES] [--seed 0]
        [--state-moments] [--store FILE] [--workers N] [--save DIR] [--from DIR]

``--save DIR`` keeps each run's JSON (truecount's without its per-state running counts, which the
table does not read) with the run's wall time and peak memory; ``--from DIR`` prints the
tables again from them without running anything. At the end: per configuration the count of
|z| > 3 and the largest |z|. Timings depend on the machine's load (printed); tests never assert
them. tests/test_truecount_vs_simulate.py makes the same comparison at a size CI affords.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

SHARE_SHOWN = 0.001  # true counts where either side puts more than this share of the rounds


@dataclasses.dataclass(frozen=True)
class Config:
    """One game of the table: the shoe, the cut, the seats and the wonging."""

    decks: int
    penetration: str
    seats: int
    wong: bool

    @property
    def name(self) -> str:
        return f"{self.decks}d{round(100 * float(self.penetration))}-{self.seats}s" + ("-wong" if self.wong else "")

    @property
    def spread(self) -> str:
        return "<=0:1,1:2,2:4,3:8,>=4:12" if self.decks >= 6 else "<=0:1,1:2,2:4,>=3:8"

    @property
    def wonging(self) -> list[str]:
        if not self.wong:
            return []
        return ["--wong-out", "-1"] if self.decks == 1 else ["--wong-in", "1", "--wong-out", "0"]

    def options(self) -> list[str]:
        """The options both commands take."""
        return ["--game", "us-shoe", "--surrender", "none", "--decks", str(self.decks), "--count", "hi-lo",
                "--divisor", "exact", "--rounding", "floor", "--penetration", self.penetration,
                "--seats", str(self.seats), "--strategy", "basic", "--spread", self.spread, *self.wonging,
                "--format", "json"]

    def title(self) -> str:
        wong = {False: "no wonging", True: " ".join(self.wonging)}[self.wong]
        return (f"{self.decks} deck{'s' * (self.decks > 1)}, penetration {self.penetration}, {self.seats} "
                f"seat{'s' * (self.seats > 1)}, {wong}; S17 DAS NS 3:2, split to 4; Hi-Lo, basic strategy, "
                f"spread {self.spread}")


CONFIGS = [Config(decks, pen, seats, wong) for decks, pen in ((1, "0.5"), (1, "0.75"), (2, "0.75"), (6, "0.75"))
           for seats in (1, 3) for wong in (False, True)]


@dataclasses.dataclass(frozen=True)
class Row:
    """One figure: truecount's value, simulate's with its standard error (None: not measured)."""

    figure: str
    truecount: float
    simulate: float | None
    se: float | None

    @property
    def z(self) -> float | None:
        if self.simulate is None or self.se is None:
            return None
        if self.se == 0:
            return 0.0 if self.truecount == self.simulate else math.copysign(math.inf, self.truecount - self.simulate)
        return (self.truecount - self.simulate) / self.se


def compare(truecount: dict[str, Any], simulate: dict[str, Any], *, state: dict[str, Any] | None = None,
            share_shown: float = SHARE_SHOWN) -> list[Row]:
    """The figures of one configuration from the two commands' JSON (``state``: truecount's with
    ``--moments state``, whose SD, DI and SCORE are added). Shares and advantages in %."""
    rows = [Row("rounds per shoe", truecount["rounds_per_shoe"], *_estimate(simulate["rounds_per_shoe"]))]
    by_depth = {d["cards_seen"]: d["share_of_rounds"] for d in truecount["depths"]}
    for b in simulate["depth_bins"]:
        first, last = b["cards_seen_from"], b["cards_seen_to"]
        share = sum(s for n, s in by_depth.items() if first <= n <= last)
        value, se = _estimate(b["share_of_rounds"])
        if share == 0 and value == 0:  # no round starts there (a round takes at least four cards)
            continue
        rows.append(Row(f"rounds at {first}-{last} cards seen, %", 100 * share, _pct(value), _pct(se)))
    if set(by_depth) - set(range(simulate["cut"])):
        raise ValueError(f"truecount starts rounds beyond simulate's cut {simulate['cut']}")
    frequency = {int(f["true_count"]): f["value"] for f in truecount["frequencies"]}
    measured = {t["true_count"]: t for t in simulate["true_counts"]}
    shown = sorted(tc for tc in set(frequency) | set(measured)
                   if max(frequency.get(tc, 0.0), measured[tc]["frequency"]["value"] if tc in measured else 0.0)
                   > share_shown)
    for tc in shown:
        value, se = _estimate(measured[tc]["frequency"]) if tc in measured else (0.0, None)
        rows.append(Row(f"TC {tc:+d} frequency, %", 100 * frequency.get(tc, 0.0), _pct(value), _pct(se)))
    # simulate's advantage is over the rounds played at a count: with wonging, truecount's too
    played = truecount.get("advantage_played")
    over = truecount["advantage"][truecount["win"]["strategy"]] if played is None else played
    advantage = {int(a["true_count"]): a["value"] for a in over}
    for tc in shown:
        if tc in advantage:
            value, se = _estimate(measured[tc]["advantage"]) if tc in measured else (None, None)
            rows.append(Row(f"TC {tc:+d} advantage, %", 100 * advantage[tc], _pct(value), _pct(se)))
    win, measured_win = truecount["win"], simulate["win"]
    figures = [("played", "rounds played, %", 100), ("average_bet", "average bet", 1),
               ("win_per_round", "win per round dealt", 1), ("sd_per_round", "SD per round dealt", 1),
               ("di", "DI", 1), ("score", "SCORE", 1)]
    for key, label, scale in figures:
        if key == "played" and not (truecount["wong_in"] is not None or truecount["wong_out"] is not None):
            continue
        value, se = _estimate(measured_win[key])
        rows.append(Row(label, scale * win[key], _scaled(value, scale), _scaled(se, scale)))
    if state is not None:
        for key, label in (("sd_per_round", "SD per round dealt"), ("di", "DI"), ("score", "SCORE")):
            value, se = _estimate(measured_win[key])
            rows.append(Row(f"{label} (moments state)", state["win"][key], value, se))
    return rows


def _estimate(figure: dict[str, Any] | None) -> tuple[float | None, float | None]:
    return (None, None) if figure is None else (figure["value"], figure["se"])


def _pct(x: float | None) -> float | None:
    return None if x is None else 100 * x


def _scaled(x: float | None, scale: float) -> float | None:
    return None if x is None else scale * x


def table(rows: list[Row]) -> str:
    """The rows as a text table: figure, truecount, simulate +- SE, z."""
    lines = [f"{'figure':<34} {'truecount':>12} {'simulate':>12}  {'+- SE':<10} {'z':>8}"]
    for row in rows:
        measured = ("-" if row.simulate is None else f"{row.simulate:12.6g}")
        se = "" if row.se is None else f"+- {row.se:.2g}"
        z = "" if row.z is None else f"{row.z:+8.1f}"
        lines.append(f"{row.figure:<34} {row.truecount:12.6g} {measured:>12}  {se:<10} {z:>8}")
    return "\n".join(lines)


def summary(rows: list[Row]) -> tuple[int, int, Row | None]:
    """How many figures have a z, how many of them |z| > 3, and the row of the largest |z|."""
    scored = [row for row in rows if row.z is not None]
    worst = max(scored, key=lambda row: abs(row.z or 0.0), default=None)
    return len(scored), sum(abs(row.z or 0.0) > 3 for row in scored), worst


# -- running the commands -----------------------------------------------------------------------


def run(command: str, options: list[str]) -> dict[str, Any]:
    """``bjcalc COMMAND OPTIONS`` as a whole process: its JSON, with the wall time and the peak
    memory of its main process (``bench``; its workers' work is in its own JSON)."""
    argv = [sys.executable, "-c", "from bjcalc.cli import main; main()", command, *options]
    load = os.getloadavg()[0]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err)
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code:
            err.seek(0)
            sys.exit(f"bjcalc {command} failed ({code}): {err.read().decode()[-2000:]}")
    doc = json.loads(out)
    doc["bench"] = {"wall": wall, "peak_mb": usage.ru_maxrss / 1024,
                    "load_at_start": load, "argv": [command, *options]}
    return doc


def trimmed(doc: dict[str, Any]) -> dict[str, Any]:
    """truecount's JSON without each depth's running counts (the bulk of it; the table reads
    only each depth's share)."""
    if doc.get("command") != "truecount":
        return doc
    return {**doc, "depths": [{k: v for k, v in d.items() if k != "running_counts"} for d in doc["depths"]]}


def timing(label: str, doc: dict[str, Any]) -> str:
    """The run's wall time, its work (simulate: the deal's CPU summed over its blocks; truecount:
    its analyses' time as measured where each ran, with how many were computed and how many found
    in the store) and the peak memory of its main process."""
    b, run = doc["bench"], doc["run"]
    if doc.get("simulated"):
        work = f"{doc['rounds']:,} rounds, {doc['cpu_seconds']:.1f} s of CPU dealing"
    else:
        work = f"{run['computed']} analyses computed ({run['compute']:.1f} s), {run['stored']} found in the store"
    return (f"{label}: {b['wall']:.1f} s wall; {work}; peak {b['peak_mb']:.0f} MB (main process); "
            f"load {b['load_at_start']:.1f} at its start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="1e9", help="simulate's rounds (default 1e9)")
    parser.add_argument("--configs", default="*", help="comma-separated names or patterns (default: all); "
                        + ", ".join(c.name for c in CONFIGS))
    parser.add_argument("--seed", default="0")
    parser.add_argument("--state-moments", action="store_true",
                        help="also truecount --moments state, for the 1-deck configurations")
    parser.add_argument("--store", default=None, help="truecount's --store (default: bjcalc's own)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--placement", default=None, choices=["chain", "dealt"],
                        help="truecount's --placement (default: its own, the chain)")
    parser.add_argument("--simulated", default=None, metavar="DIR",
                        help="take simulate's JSON saved there with --save instead of simulating again")
    parser.add_argument("--save", default=None, metavar="DIR", help="keep each run's JSON there")
    parser.add_argument("--from", dest="source", default=None, metavar="DIR",
                        help="print the tables from JSON saved with --save, running nothing")
    args = parser.parse_args()
    patterns = args.configs.split(",")
    chosen = [c for c in CONFIGS if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]
    if not chosen:
        sys.exit(f"--configs {args.configs!r} names none of {', '.join(c.name for c in CONFIGS)}")
    if args.source is None:
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start; simulate "
              f"--rounds {args.rounds} --seed {args.seed}")
    results = []
    for config in chosen:
        docs = _load(args.source, config) if args.source else _runs(config, args)
        if docs is None:
            print(f"\n== {config.name}: nothing saved in {args.source}")
            continue
        truecount, simulate, state = docs
        rows = compare(truecount, simulate, state=state)
        print(f"\n== {config.name}: {config.title()}")
        print(timing("truecount", truecount))
        if state is not None:
            print(timing("truecount --moments state", state))
        print(timing(f"simulate --seed {simulate['seed']}", simulate))
        print(table(rows))
        results.append((config, rows))
    print("\n== |z| > 3 per configuration")
    for config, rows in results:
        scored, over, worst = summary(rows)
        largest = "" if worst is None else f"; largest |z| {abs(worst.z or 0.0):.1f} ({worst.figure})"
        print(f"{config.name:<14} {over:3d} of {scored:3d} figures{largest}")


def _runs(config: Config, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
    common = ["--workers", str(args.workers)]
    store = ["--store", args.store] if args.store else []
    placement = ["--placement", args.placement] if args.placement else []
    truecount = run("truecount", [*config.options(), *common, *store, *placement])
    state = (run("truecount", [*config.options(), *common, *store, *placement, "--moments", "state"])
             if args.state_moments and config.decks == 1 else None)
    saved = _load(args.simulated, config) if args.simulated else None
    simulate = saved[1] if saved else run("simulate", [*config.options(), *common, "--store", "none",
                                                       "--rounds", args.rounds, "--seed", args.seed])
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        for kind, doc in (("truecount", truecount), ("truecount-state", state), ("simulate", simulate)):
            if doc is not None:
                with open(os.path.join(args.save, f"{config.name}.{kind}.json"), "w") as file:
                    json.dump(trimmed(doc), file, separators=(",", ":"))
    return truecount, simulate, state


def _load(folder: str, config: Config) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None] | None:
    def read(kind: str) -> dict[str, Any] | None:
        path = os.path.join(folder, f"{config.name}.{kind}.json")
        if not os.path.exists(path):
            return None
        with open(path) as file:
            return json.load(file)

    truecount, simulate = read("truecount"), read("simulate")
    if truecount is None or simulate is None:
        return None
    return truecount, simulate, read("truecount-state")


if __name__ == "__main__":
    main()
