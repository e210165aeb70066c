"""Sweeps under failure (issue 17): a panic in a worker is a failed run, not the end of the
sweep; an unreachable Dask scheduler fails fast and leaves nothing; sweeps over any field,
`name` included, keep every point."""

from __future__ import annotations

import json
import time

import aqmlab.simulation
import pytest
from aqmlab.experiments import Sweep, run_sweep
from aqmlab.experiments.executors import ExecutorError
from robust_helpers import short


def base() -> dict:
    data = short("seed000-fig6-rtt10.toml", "0.5s")
    data["topology"]["groups"][0]["count"] = 2
    return data


def test_a_sweep_over_name_keeps_its_points(tmp_path):
    sweep = Sweep.from_dict({"base": base(), "grid": {"name": ["a", "b", "c"], "description": ["x", "y"]}})
    runs = sweep.runs()
    assert len({run.id for run in runs}) == 6
    study = run_sweep(sweep, tmp_path / "study", workers=1)
    assert len(study.done_ids()) == 6
    assert study.table().num_rows == 6  # one traced link carrying data per run


class FakePanic(BaseException):
    """Stands for pyo3_runtime.PanicException, which derives from BaseException."""


def test_a_panic_in_a_worker_is_recorded_as_a_failed_run(tmp_path, monkeypatch):
    real = aqmlab.simulation.simulate

    def panicking(scenario, **kwargs):
        if isinstance(scenario, dict) and scenario["topology"]["bottleneck"]["rate"] == "50Mbps":
            raise FakePanic("engine panicked")
        return real(scenario, **kwargs)

    monkeypatch.setattr(aqmlab.simulation, "simulate", panicking)
    sweep = Sweep.from_dict({"base": base(), "grid": {"topology.bottleneck.rate": ["50Mbps", "100Mbps"]}})
    outcomes = []
    study = run_sweep(sweep, tmp_path / "study", workers=1, progress=outcomes.append)
    assert sorted(o.ok for o in outcomes) == [False, True]
    failed = next(o for o in outcomes if not o.ok)
    assert "FakePanic" in failed.error
    record = json.loads((study.directory / "failures" / f"{failed.run_id}.json").read_text())
    assert "engine panicked" in record["error"]


def test_an_unreachable_dask_scheduler_fails_fast_and_leaves_nothing(tmp_path):
    pytest.importorskip("distributed")
    sweep = Sweep.from_dict({"base": base()})
    out = tmp_path / "study"
    began = time.perf_counter()
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler"):
        run_sweep(sweep, out, cluster="tcp://127.0.0.1:9")
    assert time.perf_counter() - began < 5 + 3  # the timeout, and the import of distributed
    assert not out.exists()
    # A retry without --resume is not blocked.
    assert len(run_sweep(sweep, out, workers=1).done_ids()) == 1


def test_the_sweep_cli_maps_an_unreachable_scheduler_to_one_line(tmp_path):
    pytest.importorskip("distributed")
    from aqmlab.cli import app
    from robust_helpers import to_toml
    from typer.testing import CliRunner

    path = tmp_path / "sweep.toml"
    path.write_text(to_toml({"base": base()}))
    result = CliRunner().invoke(
        app, ["sweep", str(path), "--out", str(tmp_path / "s"), "--cluster", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 2 and result.output.count("error:") == 1, result.output
    assert "Traceback" not in result.output and not (tmp_path / "s").exists()


def test_oversized_points_are_refused_when_the_sweep_is_read(monkeypatch):
    monkeypatch.setenv("AQMLAB_MAX_WORK", "1e6")
    with pytest.raises(aqmlab.ScenarioError, match="too large"):
        Sweep.from_dict({"base": base(), "grid": {"duration": ["0.5s", "1000s"]}})
    assert len(Sweep.from_dict({"base": base(), "allow_large": True, "grid": {"duration": ["0.5s", "1000s"]}}).runs())
