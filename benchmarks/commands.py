"""Every command as a new user runs it (issue 22): whole process, default options, float, and
with ``--exact`` (on 2 decks for the commands that run many analyses, as exact is refused
above 8 decks and takes minutes there), wall time and peak memory (resident set of the
process or of its largest worker process).

    python benchmarks/commands.py [--only report matrix] [--no-exact]

The compiled graphs are in the on-disk store first (one unmeasured run of each command), as
after a first run. Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import threading
import time

# (name, arguments): each command's default run, then its exact one
COMMANDS: list[tuple[str, list[str], list[str] | None]] = [
    ("edge", ["edge"], ["edge", "--exact"]),
    ("edge --sd", ["edge", "--sd"], ["edge", "--sd", "--exact"]),
    ("chart", ["chart"], ["chart", "--exact"]),
    ("dealer", ["dealer"], ["dealer", "--exact"]),
    ("hand", ["hand", "T,6", "--up", "T"], ["hand", "T,6", "--up", "T", "--exact"]),
    ("betbehind", ["betbehind"], ["betbehind", "--exact"]),
    ("sidebets", ["sidebets"], None),
    ("matrix", ["matrix"], ["matrix", "--decks", "2", "--exact"]),
    ("matrix --decks inf", ["matrix", "--decks", "inf"], None),
    ("report", ["report"], ["report", "--decks", "2", "--exact"]),
    ("effects", ["effects"], ["effects", "--decks", "2", "--exact"]),
    ("eor", ["eor"], ["eor", "--decks", "2", "--exact"]),
    ("count", ["count"], None),
    ("index", ["index", "--decks", "6", "--surrender", "late"], None),
    ("insurance-index", ["insurance-index"], None),
]


_CLI = """
import resource, sys, time
started = time.perf_counter()
from bjcalc.cli import main
sys.argv = ["bjcalc"] + {args!r}
try:
    main()
except SystemExit:
    pass
peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
sys.stderr.write("BENCH %.1f\\n" % (peak / 1024))
"""


def _tree_peak(root: int) -> float:
    """The largest high-water resident memory (MB) among ``root`` and its descendants now
    (Linux /proc; 0 elsewhere)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    peak = 0.0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) / 1024)
        except OSError:
            continue
    return peak


def run(args: list[str]) -> tuple[float, float]:
    """Wall seconds of the whole process (interpreter start included) and the peak resident
    memory (MB) of the process or of its largest worker process: the larger of what the
    process reads of itself and its finished workers at the end, and the high-water marks of
    the process tree read every 100 ms while it runs (worker processes a pool ends without
    waiting for them count too)."""
    wall, peak, _ = run_with_output(args, keep=False)
    return wall, peak


def run_with_output(args: list[str], keep: bool = True) -> tuple[float, float, str]:
    """:func:`run`, and what the command printed (``keep``; else nothing is kept)."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", _CLI.format(args=args)],
                             stdout=subprocess.PIPE if keep else subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peaks: list[float] = []
    watcher = threading.Thread(target=lambda: peaks.extend(_watch(child)), daemon=True)
    watcher.start()
    out, err = child.communicate()
    wall = time.perf_counter() - started
    watcher.join()
    if child.returncode:
        sys.exit(f"bjcalc {' '.join(args)} failed:\n{err}")
    line = next(x for x in err.splitlines() if x.startswith("BENCH"))
    return wall, max([float(line.split()[1]), *peaks]), out or ""


def _watch(child: subprocess.Popen[str]) -> list[float]:
    peaks = []
    while child.poll() is None:
        peaks.append(_tree_peak(child.pid))
        time.sleep(0.1)
    return peaks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=None, help="Only these rows (by name).")
    parser.add_argument("--no-exact", action="store_true")
    options = parser.parse_args()
    import bjcalc

    compileall.compile_dir(os.path.dirname(bjcalc.__file__), quiet=1)
    print(f"{os.cpu_count()} cores; MB: the peak resident memory of the command's process or its largest worker")
    print(f"{'command':<22} {'float s':>8} {'MB':>6} {'exact s':>8} {'MB':>6}  exact against float")
    for name, float_args, exact_args in COMMANDS:
        if options.only and name not in options.only:
            continue
        run(float_args)  # the store warm
        wall, mb = run(float_args)
        line = f"{name:<22} {wall:8.2f} {mb:6.0f}"
        if exact_args is not None and not options.no_exact:
            exact_wall, exact_mb = run(exact_args)
            same = [a for a in exact_args if a != "--exact"]  # the float run of the same shoe
            base, base_mb = (wall, mb) if same == float_args else run(same)
            line += (f" {exact_wall:8.1f} {exact_mb:6.0f}  {exact_wall / base:.1f}x time, "
                     f"{exact_mb / base_mb:.1f}x memory of float on the same shoe ({' '.join(exact_args[1:])}"
                     f"{'' if same == float_args else f': float {base:.2f} s, {base_mb:.0f} MB'})")
        print(line, flush=True)


if __name__ == "__main__":
    main()
