"""Issue 45, "clean edges": each item's reproducer gives one ``Error:`` line on stderr, exit
status 2 and nothing on stdout (the command line), or a :class:`bjcalc.BjcalcError` naming the
field and the value (the library), before any slow work. Grouped by the issue's item number.
"""

import pytest
from click.testing import CliRunner

from bjcalc import BjcalcError, Rules
from bjcalc.cli import cli

TINY = "1,1,1,1,1,1,1,1,1,8"  # a shoe small enough for any command to finish at once


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_one_line_error(result, *words: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == "", f"half-written output: {result.stdout!r}"
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("Error: "), result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)


# -- item 2: numbers too large for floating point ---------------------------------------------------


def test_item2_count_refuses_a_huge_tag():
    assert_one_line_error(run("count", "--decks", "1", "--tags", "1e308,1,1,1,1,0,0,0,-1,-1"), "tags", "1e308")


def test_item2_library_refuses_a_huge_tag():
    from bjcalc import CountSystem, parse_tags
    from bjcalc.counting.tags import as_tags

    with pytest.raises(BjcalcError, match="1e308"):
        parse_tags("1e308,1,1,1,1,0,0,0,-1,-1")
    with pytest.raises(BjcalcError, match="tags"):
        as_tags((float("inf"),) + (1,) * 9)
    with pytest.raises(BjcalcError, match="1000"):
        CountSystem("big", (-1000,) + (1,) * 9)


@pytest.mark.parametrize("value", ["inf", "1e9", "101", "nan", "0.5"])
def test_item2_optimal_spread_out_of_range_is_refused_first(value):
    result = run("truecount", "--shoe", TINY, "--store", "none", "--optimal-spread", value)
    assert_one_line_error(result, "optimal spread", "from 1 to 100")


def test_item2_library_refuses_an_optimal_spread_out_of_range():
    from bjcalc import truecount_analysis
    from bjcalc.counting.systems import SYSTEMS

    rules = Rules(shoe=tuple(int(n) for n in TINY.split(",")))
    for value in (float("inf"), 1e9, float("nan")):
        with pytest.raises(BjcalcError, match="optimal spread"):
            truecount_analysis(rules, "hi-lo", SYSTEMS["hi-lo"], optimal_spread=value)


# -- item 3: a store that cannot be written ---------------------------------------------------------


@pytest.fixture
def read_only_store(tmp_path, monkeypatch):
    """A store file that sqlite opens for reading only, as it does a file its user may not write
    (the tests may run as root, whom file modes do not stop)."""
    import sqlite3

    from bjcalc import TaskStore

    path = tmp_path / "store.sqlite"
    TaskStore(path).close()
    connect = sqlite3.connect

    def read_only(database, *args, **kwargs):
        if str(database) == str(path):
            return connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    return str(path)


def test_item3_library_refuses_a_read_only_store_when_opened(read_only_store):
    from bjcalc import TaskStore

    with pytest.raises(BjcalcError, match="readonly") as caught:
        TaskStore(read_only_store)
    assert repr(read_only_store) in str(caught.value)


@pytest.mark.parametrize("command", [["truecount"], ["index", "--penetration", "0.5"]])
def test_item3_read_only_store_is_refused_before_work(read_only_store, command, monkeypatch):
    import bjcalc

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before the store was checked")

    monkeypatch.setattr(bjcalc, "truecount_analysis", no_work)
    monkeypatch.setattr(bjcalc, "shoe_index_table", no_work)
    result = run(*command, "--shoe", TINY, "--store", read_only_store)
    assert_one_line_error(result, "store", read_only_store, "readonly")


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() == 0,
                    reason="root writes a file whatever its mode")
def test_item3_a_store_file_without_write_permission_is_refused(tmp_path):
    from bjcalc import TaskStore

    path = tmp_path / "store.sqlite"
    TaskStore(path).close()
    path.chmod(0o444)
    assert_one_line_error(run("truecount", "--shoe", TINY, "--store", str(path)), "store")


# -- item 5: an initial running count a count does not start from --------------------------------


@pytest.mark.parametrize("args, words", [
    (["hand", "T,6", "--up", "T", "--decks", "6", "--count", "hi-lo", "--irc", "100", "--running-count", "100",
      "--cards-seen", "104"], ["IRC", "100", "balanced"]),
    (["dealer", "--shoe", TINY, "--count", "hi-lo", "--irc", "1", "--running-count", "1", "--cards-seen", "1"],
     ["IRC", "1", "balanced"]),
    (["insurance-index", "--decks", "1", "--irc", "1e30"], ["IRC", "1" + "0" * 30, "balanced"]),
    (["insurance-index", "--decks", "1", "--count", "ko", "--irc", "1e9"], ["IRC", "1000000000", "-44 to 44"]),
    (["truecount", "--shoe", TINY, "--store", "none", "--irc", "2"], ["IRC", "2", "balanced"]),
    (["truecount", "--shoe", TINY, "--store", "none", "--count", "ko", "--irc", "-1000"], ["IRC", "-1000"]),
    (["hand", "T,6", "--up", "T", "--shoe", TINY, "--irc", "3"], ["--irc", "--count"]),
])
def test_item5_an_irc_the_count_does_not_start_from_is_refused(args, words):
    assert_one_line_error(run(*args), *words)


def test_item5_an_unbalanced_counts_irc_is_still_taken():
    result = run("insurance-index", "--decks", "1", "--count", "ko", "--irc", "-4", "--format", "csv")
    assert result.exit_code == 0, result.output


def test_item5_library_refuses_an_irc_the_count_does_not_start_from():
    from bjcalc import Counter, insurance_table, truecount_analysis
    from bjcalc.counting.systems import SYSTEMS

    one_deck = (4,) * 9 + (16,)
    with pytest.raises(BjcalcError, match=r"IRC\) 2 "):
        Counter.of(one_deck, "hi-lo", SYSTEMS["hi-lo"], 10, running_count=2, initial_running_count=2)
    with pytest.raises(BjcalcError, match=r"IRC\) 1000000000 "):
        insurance_table(one_deck, SYSTEMS["ko"], "", initial_running_count=10 ** 9)
    with pytest.raises(BjcalcError, match=r"IRC\) 1 "):
        truecount_analysis(Rules(shoe=one_deck), "hi-lo", SYSTEMS["hi-lo"], irc=1)


# -- item 6: bjcalc alone ---------------------------------------------------------------------------


def test_item6_bjcalc_alone_prints_the_help_without_error():
    result = run()
    assert result.exit_code == 2  # as click does for a group called with nothing
    assert result.stdout == ""
    assert result.stderr.startswith("Usage: "), result.stderr[:80]
    assert "Error" not in result.stderr
    assert "Commands:" in result.stderr and "truecount" in result.stderr


# -- item 12: a --scheduler where no Dask scheduler answers -----------------------------------------


@pytest.fixture
def server():
    """A local TCP server that answers each connection with ``reply`` (``None``: says nothing,
    as an HTTP server waiting for a request does); yields a function that sets the reply and
    returns the address."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    state = {"reply": None, "stop": False}
    held = []

    def serve():
        while not state["stop"]:
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            held.append(connection)
            if state["reply"] is not None:
                connection.sendall(state["reply"])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()

    def address(reply):
        state["reply"] = reply
        return f"tcp://127.0.0.1:{listener.getsockname()[1]}"

    yield address
    state["stop"] = True
    thread.join()
    for connection in held:
        connection.close()
    listener.close()


@pytest.mark.parametrize("reply, words", [
    (None, ["did not greet it"]),  # an HTTP server: Dask waits for ever
    (b"SSH-2.0-OpenSSH_9.6\r\n", ["not a Dask scheduler"]),  # Dask reads a length of exabytes
    (b"\xff" * 8, ["not a Dask scheduler"]),
])
def test_item12_a_server_that_is_not_a_dask_scheduler_is_refused(server, reply, words):
    pytest.importorskip("distributed")
    address = server(reply)
    result = run("truecount", "--shoe", TINY, "--store", "none", "--scheduler", address)
    assert_one_line_error(result, "scheduler", address, *words)


@pytest.mark.parametrize("address", ["http://127.0.0.1:8786", "tcp://host:port", "::::", "", "tcp://[::1",
                                     "tcp://127.0.0.1:99999", "tcp://h:1/path"])
def test_item12_a_malformed_scheduler_address_is_refused(address):
    pytest.importorskip("distributed")
    result = run("index", "--shoe", TINY, "--penetration", "0.5", "--store", "none", "--scheduler", address)
    assert_one_line_error(result, "scheduler", repr(address))


def test_item12_a_closed_port_is_refused_before_work(monkeypatch):
    pytest.importorskip("distributed")
    import bjcalc.counting.truecount

    def no_work(*args, **kwargs):
        raise AssertionError("the work started before the scheduler was checked")

    monkeypatch.setattr(bjcalc.counting.truecount, "round_start_states", no_work)
    result = run("truecount", "--shoe", TINY, "--store", "none", "--scheduler", "tcp://127.0.0.1:1")
    assert_one_line_error(result, "scheduler", "cannot be reached")


def test_item12_library_refuses_a_scheduler_that_is_not_one(server):
    pytest.importorskip("distributed")
    from bjcalc import TaskStore, run_tasks
    from bjcalc.counting.tasks import Task

    with TaskStore(None) as store, pytest.raises(BjcalcError, match="scheduler"):
        run_tasks([Task("k", abs, (-1,))], store, "job", scheduler=server(b"HTTP/1.1 400 Bad Request\r\n\r\n"))


# -- item 13: two runs sharing one store ------------------------------------------------------------

_OTHER_RUN: dict = {}  # the other run's store and the calls made here


def _meanwhile_the_other_run_stores(key: str, others: tuple[str, ...]) -> str:
    """A task during which another run sharing the store finishes ``others`` (itself among
    them: it computed it too)."""
    _OTHER_RUN["calls"].append(key)
    _OTHER_RUN["store"].put_many([(k, "job", f"theirs {k}", 0.0) for k in others])
    return f"ours {key}"


def test_item13_a_result_another_run_stored_first_does_not_fail_the_run(tmp_path):
    from bjcalc import TaskStore, run_tasks
    from bjcalc.counting.tasks import Task

    path = tmp_path / "shared.sqlite"
    with TaskStore(path) as ours, TaskStore(path) as theirs:
        _OTHER_RUN.update(store=theirs, calls=[])
        stats = run_tasks([Task("a", _meanwhile_the_other_run_stores, ("a", ("a",)))], ours, "job", workers=1)
        assert stats.computed == 1
        assert ours.get("a") == "theirs a"  # the row stored first stays: the same result either way


def test_item13_a_task_another_run_stored_is_taken_not_computed(tmp_path):
    from bjcalc import TaskStore, run_tasks
    from bjcalc.counting.tasks import Task

    path = tmp_path / "shared.sqlite"
    tasks = [Task("a", _meanwhile_the_other_run_stores, ("a", ("b",))),
             Task("b", _meanwhile_the_other_run_stores, ("b", ())),
             Task("c", _meanwhile_the_other_run_stores, ("c", ()))]
    seen = []
    with TaskStore(path) as ours, TaskStore(path) as theirs:
        _OTHER_RUN.update(store=theirs, calls=[])
        stats = run_tasks(tasks, ours, "job", workers=1, batch=1, progress=lambda done, total: seen.append(done))
        assert _OTHER_RUN["calls"] == ["a", "c"]
        assert (stats.computed, stats.stored) == (2, 1)
        assert [ours.get(k) for k in "abc"] == ["ours a", "theirs b", "ours c"]
    assert seen[-1] == 3


# -- item 18: newcomer traps in the documentation --------------------------------------------------


def test_item18_the_readme_says_rules_defaults_are_not_the_cli_default_game():
    import pathlib
    import re

    from bjcalc import DEFAULT_GAME, game

    readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text()
    first = readme.index("Rules(")
    note = readme.index("`Rules()` is not the command line's default game")
    assert note < readme.index("\n## ", first), "the note belongs where Rules() first appears"
    assert "game(DEFAULT_GAME).rules" in readme[note:note + 800]
    spelled = re.findall(r"`(Rules\([^`]*\))`", readme[note:note + 800].replace("\n", " "))[-1]
    assert eval(spelled, {"Rules": Rules}) == game(DEFAULT_GAME).rules != Rules()


def test_item18_the_truecount_docstring_names_the_default_placement():
    import bjcalc.counting.truecount as truecount
    from bjcalc import Analysis
    from bjcalc.counting.systems import SYSTEMS

    doc = " ".join(truecount.__doc__.split())
    assert "``renewal`` (the default)" not in doc
    rules = Rules(shoe=tuple(int(n) for n in TINY.split(",")))
    chosen = truecount.round_start_states(rules, Analysis(rules).chart(), SYSTEMS["hi-lo"], 8).placement
    assert f"The default placement is ``{chosen}``" in doc


# -- items 14 and 15: the library's bad arguments ---------------------------------------------------

ONE_DECK = (4,) * 9 + (16,)


def _hi_lo():
    from bjcalc.counting.systems import SYSTEMS

    return SYSTEMS["hi-lo"]


def _library_calls():
    from bjcalc import Analysis, Counter, CountShoe, Rank, Spread, depth_of, ev_matrix, parse_tags, rule_effects
    from bjcalc import truecount_analysis as truecount
    from bjcalc.actions import Action

    tiny = Rules(shoe=tuple(int(n) for n in TINY.split(",")))
    return [  # (item, call, words the error names)
        (14, lambda: CountShoe(shoe=ONE_DECK, tags=_hi_lo(), running_count=float("inf")), ["running_count", "inf"]),
        (14, lambda: Counter.of(ONE_DECK, "hi-lo", _hi_lo(), 10, running_count=float("inf")), ["running count"]),
        (14, lambda: truecount(tiny, "hi-lo", _hi_lo(), spread=3), ["spread", "3"]),
        (14, lambda: truecount(tiny, "hi-lo", _hi_lo(), spread="<=1:1,nonsense"), ["nonsense"]),
        (14, lambda: truecount(tiny, "hi-lo", _hi_lo(), store=5), ["store", "5"]),
        (14, lambda: Spread.parse(None), ["spread", "None"]),
        (14, lambda: Spread.parse(123), ["spread", "123"]),
        (14, lambda: parse_tags(None), ["tags", "None"]),
        (14, lambda: Rank("Z"), ["'Z'"]),
        (14, lambda: Action("fold"), ["'fold'"]),
        (14, lambda: ev_matrix(None), ["analysis", "None"]),
        (15, lambda: rule_effects(tiny, exact="no"), ["exact", "'no'"]),
        (15, lambda: Analysis(tiny).chart(two_card_plays="no"), ["two_card_plays", "'no'"]),
        (15, lambda: truecount(tiny, "hi-lo", _hi_lo(), wong_in=float("nan")), ["wong_in", "nan"]),
        (15, lambda: Counter.of((24,) * 9 + (96,), "hi-lo", _hi_lo(), 312, true_count=2), ["true count", "312"]),
        (15, lambda: depth_of(None, -1, Rules(decks=1)), ["depth", "-1"]),
        (15, lambda: depth_of(-5, None, Rules(decks=1)), ["cards seen", "-5"]),
        (15, lambda: truecount(tiny, "zero", (0,) * 10), ["same tag"]),
        (15, lambda: Counter.of(ONE_DECK, "zero", (0,) * 10, 10, running_count=0), ["same tag"]),
        (15, lambda: Spread.parse("<=0:1,>=1:1e999"), ["1e999", "at most"]),
    ]


@pytest.mark.parametrize("number", range(len(_library_calls())))
def test_item14_and_15_library_bad_arguments_are_bjcalc_errors(number):
    item, call, words = _library_calls()[number]
    with pytest.raises(BjcalcError) as caught:
        call()
    for word in words:
        assert word in str(caught.value), (item, word, str(caught.value))


def test_item14_truecount_takes_a_store_path_and_spread_text(tmp_path, monkeypatch):
    import bjcalc.counting.truecount
    from bjcalc import truecount_analysis

    class Reached(Exception):
        """The analysis got past its arguments to the work."""

    def work(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(bjcalc.counting.truecount, "round_start_states", work)
    tiny = Rules(shoe=tuple(int(n) for n in TINY.split(",")))
    path = tmp_path / "store.sqlite"
    with pytest.raises(Reached):
        truecount_analysis(tiny, "hi-lo", _hi_lo(), store=str(path), spread="<=0:1,>=1:2", workers=1)
    assert path.exists()


def test_item14_shoe_index_table_takes_a_store_path_and_plays_as_text(tmp_path):
    from bjcalc import TaskStore, play_from_text, shoe_index_table

    tiny = Rules(shoe=tuple(int(n) for n in TINY.split(",")))
    path = tmp_path / "store.sqlite"
    table = shoe_index_table(tiny, "hi-lo", _hi_lo(), "1/4", plays=["16 v T stand hit"], insurance=False,
                             store=str(path), workers=1)
    assert [row.play for row in table.plays] == [play_from_text("16 v T stand hit")]
    with TaskStore(path) as store:
        assert store.rows() >= 1


def test_item14_index_table_takes_a_play_as_text():
    from bjcalc import index_table, play_from_text

    rules = Rules(decks=1)
    as_text = index_table(rules, "hi-lo", _hi_lo(), 26, plays=["16 v T stand hit"], insurance=False, workers=1)
    as_play = index_table(rules, "hi-lo", _hi_lo(), 26, plays=[play_from_text("16 v T stand hit")], insurance=False,
                          workers=1)
    assert as_text.plays == as_play.plays
    with pytest.raises(BjcalcError, match="16 v T"):
        index_table(rules, "hi-lo", _hi_lo(), 26, plays="16 v T stand hit")
