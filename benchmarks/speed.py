"""The speed table of issue 10 (README figures come from it).

For 1, 2, 6 and 8 decks, S17, DAS, split to 4 hands, late surrender, CD play with CDZ- split
hands, the whole round:

- **cold**: ``bjcalc edge`` as a whole process (median of runs; the compiled graphs already in
  the on-disk store, as after the first run; ``first run`` is with an empty store);
- **warm**: in one process that has analysed the full shoe, one more depleted shoe (one to
  six cards gone): its round EV and every two-card hand's CD EVs against every up card
  (median over fifteen shoes: single shoes vary by 20 ms and more on a shared machine; then
  the median over ``--runs`` such processes, whose medians differ by 10-15 %);
- **exact**: ``bjcalc edge --exact`` as a whole process;
- peak memory (resident set) of the cold float and exact processes.

bjcalc's modules are byte-compiled first, as ``pip install`` does.

    python benchmarks/speed.py [--decks 1 2 6 8] [--runs 3] [--no-exact]
    python benchmarks/speed.py --acceptance [--runs 5]

``--acceptance`` prints only issue 46's two figures, at 8 decks: one more depleted shoe in a warm
process (goal 0.020 s) and the cold ``bjcalc edge`` (goal 0.25 s), each as the median and the
least of ``--runs`` processes with its CPU time (every thread's; the machine may be shared, and
CPU time moves less with its load than wall time) and the peak memory, and the load average
before and after. Tests never assert these times; run it on an idle machine.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

_CLI = """
import resource, sys, time
started = time.perf_counter()
from bjcalc.cli import main
sys.argv = ["bjcalc"] + {args!r}
try:
    main()
except SystemExit:
    pass
usage = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write("BENCH %.4f %.1f %.4f\\n" % (time.perf_counter() - started, usage.ru_maxrss / 1024,
                 usage.ru_utime + usage.ru_stime))
"""

_WARM = """
import itertools, json, random, resource, statistics, time
from bjcalc import Analysis, Rules
options = dict(surrender="late", split_hands=4, double_after_split=True)
full = [4 * {decks}] * 9 + [16 * {decks}]
Analysis(Rules(shoe=full, **options)).round()
times, cpus = [], []
rng = random.Random(1)
for _ in range(15):
    shoe = list(full)
    for _ in range(rng.randint(1, 6)):  # one to six cards gone, three of each rank left
        rank = rng.randrange(10)
        shoe[rank] -= shoe[rank] > 3
    started, cpu = time.perf_counter(), time.process_time()
    analysis = Analysis(Rules(shoe=shoe, **options))
    analysis.round()
    for up in "A23456789T":
        for a, b in itertools.combinations_with_replacement("A23456789T", 2):
            analysis.hand(a + b, up)
    times.append(time.perf_counter() - started)
    cpus.append(time.process_time() - cpu)  # every thread's
print(json.dumps({{"warm": statistics.median(times), "warm_cpu": statistics.median(cpus),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def _process(args: list[str], cache: str, cpu: bool = False) -> tuple[float, ...]:
    """Wall seconds of the whole process (interpreter start included) and its peak RSS (MB);
    with ``cpu``, its CPU seconds too (every thread's, the interpreter's start included)."""
    env = dict(os.environ, BJCALC_CACHE=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _CLI.format(args=args)], env=env, capture_output=True,
                         text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(x for x in out.stderr.splitlines() if x.startswith("BENCH"))
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return (wall, float(line.split()[2]), used) if cpu else (wall, float(line.split()[2]))


_EDGE = ["edge", "--decks", "{decks}", "--s17", "--das", "--split-hands", "4", "--surrender", "late", "--game",
         "us-shoe"]


def _warm(decks: int, cache: str) -> dict:
    """One process's medians over fifteen depleted shoes (_WARM)."""
    out = subprocess.run([sys.executable, "-c", _WARM.format(decks=decks)],
                         env=dict(os.environ, BJCALC_CACHE=cache), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def acceptance(runs: int, cache: str) -> None:
    """Issue 46's two figures at 8 decks (see the module), the processes interleaved."""
    load = os.getloadavg()
    args = [a.format(decks=8) for a in _EDGE]
    _process(args, cache)  # the store filled, the files in the page cache
    cold, warm = [], []
    for _ in range(runs):
        cold.append(_process(args, cache, cpu=True))
        warm.append(_warm(8, cache))
    times = [w["warm"] for w in warm]
    print(f"one more depleted 8-deck shoe, warm (round + 550 hands' EVs): {statistics.median(times) * 1e3:.1f} ms "
          f"median, {min(times) * 1e3:.1f} ms least of {runs} processes; CPU "
          f"{statistics.median(w['warm_cpu'] for w in warm) * 1e3:.1f} ms; peak "
          f"{max(w['rss'] for w in warm):.0f} MB (goal 20 ms)")
    print(f"cold 8-deck `bjcalc edge`, whole process: {statistics.median(c[0] for c in cold):.3f} s median, "
          f"{min(c[0] for c in cold):.3f} s least of {runs}; CPU {statistics.median(c[2] for c in cold):.3f} s; "
          f"peak {max(c[1] for c in cold):.0f} MB (goal 0.25 s)")
    after = os.getloadavg()
    print(f"load average before {' '.join(f'{x:.2f}' for x in load)}, after {' '.join(f'{x:.2f}' for x in after)}")


def measure(decks: int, runs: int, exact: bool, cache: str) -> dict:
    args = [a.format(decks=decks) for a in _EDGE]
    with tempfile.TemporaryDirectory() as empty:
        first, _ = _process(args, empty)
    cold = [_process(args, cache) for _ in range(runs)]
    row = {
        "decks": decks,
        "first_run_s": round(first, 2),
        "cold_s": round(statistics.median(t for t, _ in cold), 2),
        "cold_mb": round(max(m for _, m in cold)),
    }
    warm = []
    for _ in range(runs):  # one process's median moves by 10-15 % from process to process
        warm.append(_warm(decks, cache)["warm"])
    row["warm_s"] = round(statistics.median(warm), 3)
    if exact:
        wall, mb = _process(args + ["--exact"], cache)
        row["exact_s"], row["exact_mb"] = round(wall, 1), round(mb)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, nargs="+", default=[1, 2, 6, 8])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-exact", action="store_true")
    parser.add_argument("--acceptance", action="store_true", help="only issue 46's two 8-deck figures")
    options = parser.parse_args()
    # bytecode, as pip compiles it when it installs a package: this environment may set
    # PYTHONDONTWRITEBYTECODE, and an editable install would then recompile every module of
    # bjcalc in every process (about 0.1 s)
    import bjcalc
    from bjcalc.engine.kernels import dealer_kernel_available, exact_dealer_kernel_available
    from bjcalc.engine.store import cache_directory

    compileall.compile_dir(os.path.dirname(bjcalc.__file__), quiet=1)
    cache = str(cache_directory() or tempfile.mkdtemp())
    if options.acceptance:
        acceptance(options.runs, cache)
        return
    print(f"dealer loop: {'compiled' if dealer_kernel_available() else 'numpy'}"
          f"{' (exact in 128-bit integers)' if exact_dealer_kernel_available() else ''}; store: {cache}; "
          f"{os.cpu_count()} cores")
    header = ["decks", "first run", "cold", "warm (+1 shoe)", "exact", "peak MB float / exact"]
    print(" | ".join(header))
    for decks in options.decks:
        r = measure(decks, options.runs, not options.no_exact, cache)
        exact = f"{r['exact_s']} s" if "exact_s" in r else "-"
        print(f"{decks} | {r['first_run_s']} s | {r['cold_s']} s | {r['warm_s']} s | {exact} | "
              f"{r['cold_mb']} / {r.get('exact_mb', '-')}", flush=True)


if __name__ == "__main__":
    main()
