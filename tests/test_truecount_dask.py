"""bjcalc truecount on a Dask distributed cluster (issue 21): a local cluster of two worker
processes, started here, runs the analyses through ``--scheduler``; the results equal the local
run's, and the store holds one row per task."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from bjcalc import Rules, Spread, TaskStore, truecount_analysis
from bjcalc.cli import cli
from bjcalc.counting.systems import SYSTEMS

distributed = pytest.importorskip("distributed")

GAME = Rules(decks=1, surrender="late", split_hands=2)
ARGS = dict(penetration=Fraction(6, 52), placement="spaced", spread=Spread.parse("<=0:1,>=1:4"),
            indices="published")


@pytest.fixture(scope="module")
def cluster():
    # the scheduler's web server on any free port: the other Dask test may hold 8787 (xdist)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as local:
        yield local


def _figures(result) -> dict:
    return {k: v for k, v in result.to_dict().items() if k != "run"}


def test_a_run_on_the_cluster_equals_the_local_run(cluster, tmp_path):
    local = truecount_analysis(GAME, "hi-lo", SYSTEMS["hi-lo"], workers=1, **ARGS)
    with TaskStore(tmp_path / "dask.sqlite") as store:
        remote = truecount_analysis(GAME, "hi-lo", SYSTEMS["hi-lo"], store=store, scheduler=cluster.scheduler_address,
                                    batch=2, **ARGS)
        assert remote.run.where.startswith("dask") and remote.run.workers == 2
        assert store.rows() == remote.run.computed + remote.run.stored + 1  # + the second moments' row
    assert _figures(remote) == _figures(local)


@pytest.mark.slow  # the library run above checks the results; this the command's wiring
def test_the_command_takes_a_scheduler(cluster, tmp_path):
    args = ["truecount", "--decks", "1", "--split-hands", "2", "--penetration", "6/52", "--format", "csv",
            "--indices", "published"]
    here = CliRunner().invoke(cli, [*args, "--workers", "1", "--store", str(tmp_path / "here.sqlite")])
    there = CliRunner().invoke(cli, [*args, "--scheduler", cluster.scheduler_address, "--store",
                                     str(tmp_path / "there.sqlite")])
    assert here.exit_code == there.exit_code == 0, there.output
    assert here.output == there.output


def test_a_scheduler_that_is_not_there_is_one_line():
    out = CliRunner().invoke(cli, ["truecount", "--decks", "1", "--split-hands", "2", "--penetration", "6/52",
                                   "--store", "none", "--scheduler", "tcp://127.0.0.1:1"])
    assert out.exit_code == 2 and "cannot be reached" in out.output, out.output
