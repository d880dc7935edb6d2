"""Issue 45, "clean edges", the second batch: items 1 (its insurance-index case), 8, 9, 10, 11,
16 and 17. Command-line errors are one ``Error:`` line on stderr, exit status 2 and nothing on
stdout; the library raises a :class:`bjcalc.BjcalcError` naming the field and the value. Grouped
by the issue's item number.
"""

import pytest
from test_clean_edges import assert_one_line_error, run  # the first batch's contract

from bjcalc import BjcalcError, Rules

TINY = "1,1,1,1,1,1,1,1,1,8"  # a shoe small enough for any command to finish at once
HI_LO = (1, 1, 1, 1, 1, 0, 0, 0, -1, -1)  # tags 2..T, A


# -- item 1: a shoe that leaves no depth to deal ----------------------------------------------------


@pytest.mark.parametrize("args", [["--shoe", "1,0,0,0,0,0,0,0,0,0"],
                                  ["--shoe", "1,0,0,0,0,0,0,0,0,2", "--hand", "T,T"]])
def test_item1_insurance_index_without_a_depth_is_refused(args):
    assert_one_line_error(run("insurance-index", *args), "shoe", args[1], "no card left")


def test_item1_insurance_index_with_one_card_off_the_table_still_works():
    result = run("insurance-index", "--shoe", "1,0,0,0,0,0,0,0,0,1", "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 2  # the header and the one depth


def test_item1_library_refuses_an_insurance_table_without_a_depth():
    from bjcalc import insurance_table

    with pytest.raises(BjcalcError, match="shoe 1,0,0,0,0,0,0,0,0,0 has no card left"):
        insurance_table((1,) + (0,) * 9, HI_LO, "")
    with pytest.raises(BjcalcError, match="cards left"):
        insurance_table((4,) * 9 + (16,), HI_LO, "", ())


# -- item 8: insurance in index's JSON, as docs/json.md names it ------------------------------------


def _follows_the_schema(document: dict) -> None:
    import json
    import pathlib

    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((pathlib.Path(__file__).parent.parent / "docs" / "bjcalc.schema.json").read_text())
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(document)]
    assert not errors, errors


@pytest.mark.parametrize("depth", [["--cards-seen", "2"],
                                   ["--penetration", "0.5", "--store", "none", "--workers", "1"]])
def test_item8_index_json_names_insurance_as_the_docs_do(depth):
    import json

    result = run("index", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--surrender", "none", "--play", "16 v T stand hit",
                 *depth, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    insurance = document["insurance"]
    assert (insurance["play"], insurance["hand"], insurance["hands"], insurance["up"]) == ("insurance v A", "", [], "A")
    assert (insurance["deviation"], insurance["instead"]) == ("insure", ["no insurance"])
    _follows_the_schema(document)


def test_item8_the_docs_name_insurance_as_index_writes_it():
    import pathlib

    docs = (pathlib.Path(__file__).parent.parent / "docs" / "json.md").read_text()
    section = docs[docs.index("### index"):]
    assert '"insurance": {"play": "insurance v A"' in section
    assert '`"deviation": "insure"`' in section and '`"instead": ["no insurance"]`' in section


# -- item 9: progress off a terminal -----------------------------------------------------------------

SMALL = ["--shoe", "2,2,2,2,2,2,2,2,2,8", "--surrender", "none", "--play", "16 v T stand hit"]
# commands that report progress, each quick on a small shoe (CliRunner's stderr is no terminal)
PROGRESS_RUNS = {
    "edge": ["edge", "--shoe", TINY],
    "eor": ["eor", "--shoe", TINY, "--workers", "1"],
    "count": ["count", "--shoe", TINY, "--workers", "1"],
    "index": ["index", *SMALL, "--cards-seen", "2", "--workers", "1"],
    "index --penetration": ["index", *SMALL, "--penetration", "0.5", "--store", "none", "--workers", "1"],
}


@pytest.fixture
def clock(monkeypatch):
    """The progress clock, set to move ``step`` seconds at every reading (0: time stands still,
    so only what does not wait for time prints); returns the readings taken."""
    import itertools

    import bjcalc.cli.common

    ticks = itertools.count()

    def setting(step: float):
        monkeypatch.setattr(bjcalc.cli.common, "_clock", lambda: step * next(ticks))
        return ticks

    return setting


@pytest.mark.parametrize("name", PROGRESS_RUNS)
def test_item9_off_a_terminal_a_run_writes_no_line_per_step(name, clock):
    clock(0.0)
    result = run(*PROGRESS_RUNS[name])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


@pytest.mark.parametrize("name", ["index", "index --penetration"])
def test_item9_off_a_terminal_a_long_run_writes_a_line_now_and_then(name, clock):
    import bjcalc.cli.common

    ticks = clock(3.0)
    result = run(*PROGRESS_RUNS[name])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    elapsed = 3.0 * next(ticks)
    assert 1 <= len(lines) <= elapsed / bjcalc.cli.common.QUIET_INTERVAL, (elapsed, lines)
    assert all(line.startswith("index ") and ": " in line and "\r" not in line for line in lines), lines


def test_item9_the_progress_helpers_space_their_lines_off_a_terminal(clock, capsys):
    from bjcalc.cli.common import QUIET_INTERVAL, _progress, _task_progress

    ticks = clock(1.0)
    with _progress("work") as step:
        for n in range(1000):
            step(f"step {n}", 1000)
    with _task_progress("tasks") as done:
        for n in range(1000):
            done(n, 1000)
    elapsed = next(ticks)
    lines = capsys.readouterr().err.splitlines()
    assert 1 <= len(lines) <= elapsed / QUIET_INTERVAL + 2, (elapsed, len(lines))
    assert "work: step 9 (10 of 1000)" in lines
    assert any(line.startswith("tasks: ") and line.endswith(" of 1000 done") for line in lines), lines


def test_item9_every_command_draws_its_progress_through_the_helpers():
    import inspect
    import pathlib

    import bjcalc.cli.common

    source = "".join(path.read_text() for path in pathlib.Path(bjcalc.cli.common.__file__).parent.glob("*.py"))
    helpers = inspect.getsource(bjcalc.cli.common._progress) + inspect.getsource(bjcalc.cli.common._task_progress)
    assert source.count("click.progressbar(") == helpers.count("click.progressbar(")


# -- items 10 and 11: signals end every process a run started ---------------------------------------

# a run that keeps two workers busy for well over ten seconds
BUSY_RUN = ["truecount", "--decks", "1", "--penetration", "0.5", "--store", "none", "--workers", "2"]


def _group(pgid: int) -> dict[int, int]:
    """pid -> parent pid of every live (not zombie) process of the process group ``pgid``."""
    import pathlib

    out = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            out[int(stat.parent.name)] = int(fields[1])
    return out


def _wait_for(condition, timeout: float, every: float = 0.1):
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(every)
    return condition()


@pytest.fixture
def busy_run():
    """A real ``bjcalc truecount`` in a session (and process group) of its own, once its two
    workers are at work; yields (process, pids of the group then); ends whatever is left."""
    import os
    import signal
    import subprocess
    import sys

    if not os.path.isdir("/proc/self"):
        pytest.skip("looks for the run's processes in /proc")
    command = [sys.executable, "-c", "import sys; from bjcalc.cli import main; sys.argv[0] = 'bjcalc'; main()"]
    process = subprocess.Popen(command + BUSY_RUN, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        # the workers: grandchildren (multiprocessing's fork server makes them), two of them
        def workers():
            group = _group(process.pid)
            return [pid for pid, parent in group.items() if parent != process.pid and pid != process.pid][:2]

        assert len(_wait_for(lambda: len(workers()) == 2 and workers(), 25) or []) == 2, _group(process.pid)
        started = _group(process.pid)
        yield process, started
    finally:
        for pid in _group(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.wait(10)
        process.stdout.close()
        process.stderr.close()


def _assert_no_process_is_left(process) -> None:
    left = _wait_for(lambda: not _group(process.pid), 10)
    assert left, f"processes of the run still there: {_group(process.pid)}"


@pytest.mark.parametrize("signal_name, status, words", [("SIGTERM", 143, "SIGTERM"), ("SIGINT", 130, "SIGINT")])
def test_item10_a_signal_stops_the_run_and_every_worker_at_once(busy_run, signal_name, status, words):
    import signal

    process, started = busy_run
    assert len(started) >= 3  # the run, the fork server, two workers (and the resource tracker)
    process.send_signal(getattr(signal, signal_name))
    assert process.wait(15) == status
    stderr = process.stderr.read()
    assert process.stdout.read() == ""
    _assert_one_stop_line(stderr, words)
    _assert_no_process_is_left(process)


def test_item10_ctrl_c_to_the_whole_group_stops_the_run_with_one_line(busy_run):
    import os
    import signal

    process, _ = busy_run
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to every process of the group
    assert process.wait(15) == 130
    stderr = process.stderr.read()
    _assert_one_stop_line(stderr, "SIGINT")
    _assert_no_process_is_left(process)


def _assert_one_stop_line(stderr: str, words: str) -> None:
    """One line says the run stopped, after nothing but the run's progress lines (off a terminal,
    one now and then: a run slowed by a busy machine may have printed one before the signal)."""
    import re

    lines = stderr.splitlines()
    assert lines and words in lines[-1] and "Traceback" not in stderr, stderr
    assert all(re.fullmatch(r"[a-z ]+: \d+ of \d+ done", line) for line in lines[:-1]), stderr


def test_item11_workers_end_when_the_run_is_killed(busy_run):
    import signal

    process, started = busy_run
    process.send_signal(signal.SIGKILL)
    assert process.wait(15) == -signal.SIGKILL
    _assert_no_process_is_left(process)


def test_item10_a_stopped_pool_ends_its_workers_mid_task():
    import concurrent.futures
    import time

    from bjcalc.counting.workers import WorkerPool

    class Stop(BaseException):
        """As a signal's exception unwinds the run."""

    with pytest.raises(Stop), WorkerPool(2) as pool:
        pool.map(abs, [(-1,), (2,)])  # the workers are up
        workers = list(pool._pool._processes.values())
        future = pool._pool.submit(time.sleep, 20)
        assert _wait_for(future.running, 10)  # handed to the workers
        time.sleep(0.3)  # and taken by one
        raise Stop
    assert all(not worker.is_alive() for worker in workers)
    # killed mid-task, not waited for
    assert isinstance(future.exception(0), concurrent.futures.process.BrokenProcessPool)


# -- item 16: no cache keyed by an object's address ---------------------------------------------------


def test_item16_the_engine_keys_no_cache_by_id():
    import ast
    import pathlib

    import bjcalc.engine

    calls = [f"{path.name}:{node.lineno}" for path in pathlib.Path(bjcalc.engine.__file__).parent.glob("*.py")
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "id"]
    assert not calls, calls


def test_item16_the_architecture_check_sees_id_in_a_digest():
    import ast

    from tests.test_architecture import _id_keys

    assert _id_keys(ast.parse("digest.update(repr((id(joint.joint), joint.depths)).encode())")) == [1]


# -- item 17: pages -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def truecount_page() -> str:
    result = run("truecount", "--decks", "1", "--penetration", "0.15", "--store", "none", "--workers", "1",
                 "--format", "html")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_item17_one_penetration_draws_no_plot_against_penetration(truecount_page):
    assert "against penetration" not in truecount_page.split("<table")[0]  # no plot (the table stays)
    assert truecount_page.count("<figure") == 2
    assert "By penetration" in truecount_page


def test_item17_several_penetrations_are_still_plotted():
    from bjcalc.render import plots

    svg = plots.lines("Win per 100 rounds against penetration", {"win": [(50, 0.1), (75, 0.9)]}, "penetration %",
                      "win /100")
    assert svg.count("<circle") == 2


def _cells(page: str) -> list[tuple[str, str]]:
    import re

    return re.findall(r'<td( class="num")?>([^<]*)</td>', page)


@pytest.mark.parametrize("page", ["truecount", "index"])
def test_item17_signed_numbers_are_set_right_in_tabular_figures(page, truecount_page):
    import re

    if page == "index":
        result = run("index", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--surrender", "none", "--cards-seen", "2",
                     "--format", "html")
        assert result.exit_code == 0, result.output
        text = result.stdout
    else:
        text = truecount_page
    signed = [(css, value) for css, value in _cells(text) if re.fullmatch(r"[+-]\d+(\.\d+)?( \*)?", value)]
    assert signed, "the page has signed numbers"
    assert all(css for css, _ in signed), [value for css, value in signed if not css][:5]
    assert re.search(r"td\.num \{[^}]*text-align: right;[^}]*font-variant-numeric: tabular-nums", text)


def test_item17_plot_text_is_at_least_11_px_at_400_px_wide():
    import re

    from bjcalc.render import plots

    svg = plots.bars("rounds", [(0, 1.0), (1, 2.0)], "true count", "rounds %")
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    size = float(re.search(r'font-size="([\d.]+)"', svg).group(1))
    assert size * 400 / width >= 11, (size, width)
    assert not re.search(r"<text[^>]*font-size", svg)  # no text drawn smaller than the plot's


def test_item4_three_seats_follow_the_counts_own_classes():
    """truecount --decks 1 --seats 3 spent minutes before its first state working out a round's
    cards with the aces apart (four classes, over a million vectors): with three seats the chain
    follows the count's three classes; one or two seats keep the aces apart."""
    from fractions import Fraction

    from bjcalc.counting.placement import _with_aces_apart
    from bjcalc.counting.tags import TagClasses, as_tags

    shoe = Rules(decks=1).shoe_counts
    classes = TagClasses.of(as_tags([Fraction(t) for t in (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)]))
    assert [len(_with_aces_apart(classes, shoe, seats).values) for seats in (1, 2, 3, 7)] == [4, 4, 3, 3]


# -- the sweep's first finds (tests/test_bad_input_sweep.py is on branch sweep-45: see issue 45) ------


@pytest.mark.parametrize("call", [
    lambda: __import__("bjcalc").truecount_analysis("6 decks", "hi-lo", HI_LO),
    lambda: __import__("bjcalc").effects_of_removal({"decks": 1}),
    lambda: __import__("bjcalc").index_table(None, "hi-lo", HI_LO, 10),
])
def test_sweep_a_rules_argument_that_is_not_rules_is_refused(call):
    with pytest.raises(BjcalcError, match="rules must be a bjcalc.Rules"):
        call()


@pytest.mark.parametrize("workers", [0, -1, 10 ** 100, "two", 2.5, True])
def test_sweep_a_bad_worker_count_is_refused_before_any_process(workers):
    from bjcalc import effects_of_removal

    with pytest.raises(BjcalcError, match="workers must be a whole number"):
        effects_of_removal(Rules(shoe=(1,) * 9 + (8,)), workers=workers)


def test_sweep_a_store_path_with_a_nul_byte_is_one_line():
    from bjcalc import TaskStore

    with pytest.raises(BjcalcError):
        TaskStore("a\0b")
    assert_one_line_error(run("truecount", "--shoe", TINY, "--store", "a\0b"))
