"""Sweeps: expansion, local and Dask executors, failures, resume after a kill, cache."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from aqmlab import ScenarioError
from aqmlab.experiments import Study, Sweep, run_sweep

BASE = {
    "name": "quick",
    "duration": "3s",
    "topology": {
        "kind": "dumbbell",
        "bottleneck": {
            "rate": "10Mbps",
            "delay": "5ms",
            "queue": {"kind": "red", "limit": "200p", "min_th": 10, "max_th": 30},
        },
        "groups": [
            {
                "name": "g",
                "count": 4,
                "rtt": "20ms",
                "access_rate": "100Mbps",
                "start": {"kind": "uniform", "low": "0s", "high": "0.5s"},
            }
        ],
    },
    "trace": {"flows": 2},
}


def forty_runs(duration="3s"):
    return {
        "name": "forty",
        "base": BASE,
        "set": {"duration": duration},
        "seeds": [1, 2],
        "grid": {"topology.groups.0.rtt": ["20ms", "40ms", "60ms", "80ms", "100ms"]},
        "zip": {
            "topology.bottleneck.queue.min_th": [5, 10, 15, 20],
            "topology.bottleneck.queue.max_th": [25, 30, 35, 40],
        },
    }


def test_sweep_expands_grid_zip_and_seeds_with_stable_ids():
    sweep = Sweep.from_dict(forty_runs())
    runs = sweep.runs()
    assert len(runs) == 40 and len({run.id for run in runs}) == 40
    assert runs[0].parameters == {
        "topology.groups.0.rtt": "20ms",
        "topology.bottleneck.queue.min_th": 5,
        "topology.bottleneck.queue.max_th": 25,
    }
    assert [run.id for run in Sweep.from_dict(forty_runs()).runs()] == [run.id for run in runs]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"grid": {"topology.groups.3.rtt": ["1ms"]}}, "not an index"),
        ({"grid": {"topology.nothing.rtt": ["1ms"]}}, "topology.nothing: unknown field"),
        ({"zip": {"duration": ["1s", "2s"], "seed": [1]}}, "same length"),
        ({"grid": {"topology.groups.0.rtt": ["1ms"]}}, "twice the one-way delay"),
        ({"seeds": [1], "replications": 2}, "not both"),
    ],
)
def test_bad_sweeps_are_named_before_anything_runs(change, message):
    with pytest.raises(ScenarioError, match=message):
        Sweep.from_dict({**forty_runs(), **change})


def test_local_and_dask_executors_give_identical_summaries(tmp_path):
    pytest.importorskip("distributed")
    sweep = Sweep.from_dict(forty_runs())
    local = run_sweep(sweep, tmp_path / "local", workers=2)
    dask = run_sweep(sweep, tmp_path / "dask", cluster="local", workers=2)
    a = local.table().sort_by([("run_id", "ascending"), ("link", "ascending")])
    b = dask.table().sort_by([("run_id", "ascending"), ("link", "ascending")])
    assert a.num_rows == 40  # one traced link carries data
    assert a.to_pandas().equals(b.to_pandas())  # NaN-aware, value for value


def test_failures_are_recorded_and_do_not_stop_the_sweep(tmp_path):
    spec = forty_runs()
    spec["grid"] = {"topology.groups.0.rtt": ["20ms", "40ms"]}
    spec["zip"] = {"topology.groups.0.tcp": [{"cc": "reno"}, {"cc": "reno", "max_window": 0.5}]}
    with pytest.raises(ScenarioError, match="max_window"):
        Sweep.from_dict(spec)  # caught while validating, before any run
    # Runs that fail inside the engine: the shortest path to an unreachable router is
    # only found out when the network is built.
    spec["base"] = {
        "name": "net",
        "duration": "2s",
        "topology": {
            "kind": "network",
            "routers": ["a", "b", "c"],
            "links": [
                {
                    "name": "ab",
                    "from": "a",
                    "to": "b",
                    "rate": "10Mbps",
                    "delay": "5ms",
                    "queue": {"kind": "drop_tail", "limit": "100p"},
                }
            ],
            "groups": [
                {
                    "name": "g",
                    "count": 2,
                    "rtt": "40ms",
                    "access_rate": "100Mbps",
                    "path": {"kind": "shortest", "from": "a", "to": "b"},
                }
            ],
        },
    }
    spec["set"] = {}
    spec["grid"] = {"topology.groups.0.rtt": ["20ms", "40ms"]}
    spec["zip"] = {"topology.groups.0.path.to": ["b", "c"]}
    sweep = Sweep.from_dict(spec)
    outcomes = []
    study = run_sweep(sweep, tmp_path / "s", workers=1, progress=outcomes.append)
    assert len(outcomes) == 8
    failed = [o for o in outcomes if not o.ok]
    assert failed and len(study.done_ids()) == 8 - len(failed)
    record = json.loads((study.directory / "failures" / f"{failed[0].run_id}.json").read_text())
    assert len(failed) == 4 and "reachable" in record["error"]
    assert record["scenario"]["topology"]["groups"][0]["path"]["to"] == "c"


def test_a_killed_sweep_resumes_without_recomputing(tmp_path):
    spec = forty_runs(duration="20s")
    (tmp_path / "sweep.json").write_text(json.dumps(spec))
    out = tmp_path / "study"
    script = (
        "import json, sys; from aqmlab.experiments import Sweep, run_sweep; "
        f"run_sweep(Sweep.from_dict(json.load(open({str(tmp_path / 'sweep.json')!r}))), {str(out)!r}, "
        "workers=1, resume=True)"
    )
    process = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    study = Study(out)
    deadline = time.time() + 120
    while len(study.done_ids()) < 8 and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    done_before = study.done_ids()
    assert 8 <= len(done_before) < 40
    stamps = {run_id: (study.run_dir(run_id) / "run.json").stat().st_mtime_ns for run_id in done_before}
    outcomes = []
    run_sweep(Sweep.from_dict(spec), out, resume=True, workers=2, progress=outcomes.append)
    assert len(study.done_ids()) == 40
    assert len(outcomes) == 40 - len(done_before)  # nothing finished was run again
    assert all((study.run_dir(i) / "run.json").stat().st_mtime_ns == stamp for i, stamp in stamps.items())
    assert study.table().num_rows == 40


def test_resume_is_required_and_the_cache_skips_recomputation(tmp_path):
    spec = forty_runs()
    spec["grid"] = {"topology.groups.0.rtt": ["20ms"]}
    sweep = Sweep.from_dict(spec)
    first = run_sweep(sweep, tmp_path / "a", workers=1)
    with pytest.raises(Exception, match="--resume"):
        run_sweep(sweep, tmp_path / "a", workers=1)
    outcomes = []
    second = run_sweep(sweep, tmp_path / "b", workers=1, cache=tmp_path / "a", progress=outcomes.append)
    assert len(outcomes) == 8
    assert second.table().sort_by("run_id").to_pandas().equals(first.table().sort_by("run_id").to_pandas())
    assert all(
        (second.run_dir(i) / "run.json").read_text() == (first.run_dir(i) / "run.json").read_text()
        for i in first.done_ids()
    )
