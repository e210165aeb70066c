"""`aqmlab fluid MODEL ...`: outputs, batch syntax, and clear errors that write nothing."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest
from aqmlab.fluid.cli import app
from typer.testing import CliRunner

runner = CliRunner()


def test_run_writes_data_and_figures(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(
        app, ["ctcp-threshold", "--set", "q_th=38,45", "--set", "tau=1", "--t-end", "100", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    names = {path.name for path in out.iterdir()}
    assert {
        "timeseries.parquet",
        "params.parquet",
        "summary.parquet",
        "meta.json",
        "timeseries.png",
        "phase.png",
        "figures.json",
    } <= names
    params = pq.read_table(out / "params.parquet").to_pydict()
    assert params["q_th"] == [38.0, 45.0] and params["tau"] == [1.0, 1.0]
    series = pq.read_table(out / "timeseries.parquet")
    assert set(series.column_names) == {"point", "t", "w", "p"}
    meta = json.loads((out / "meta.json").read_text())
    assert meta["model"] == "ctcp-threshold" and meta["points"] == 2


def test_grid_option_and_model_options(tmp_path):
    out = tmp_path / "grid"
    result = runner.invoke(
        app,
        [
            "ctcp-red-noavg",
            "-O",
            "tcp=reno",
            "--set",
            "tau=0.1,0.2",
            "--set",
            "C=100,120",
            "--grid",
            "--t-end",
            "5",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert pq.read_table(out / "params.parquet").num_rows == 4


@pytest.mark.parametrize(
    "args,message",
    [
        (["no-such", "--set", "a=1"], "allowed: ctcp-red"),
        (["ctcp-red", "--set", "gama=0.1"], "'gama' is not a parameter of model ctcp-red; allowed:"),
        (["ctcp-red", "--set", "gamma=abc"], "gamma = 'abc' of model ctcp-red is not a number"),
        (["ctcp-red", "--set", "gamma"], "is not name=value"),
        (["ctcp-red", "--set", "gamma=5"], "out of range; allowed: (0, 1]"),
        (["ctcp-red", "-O", "tcp=cubicc"], "tcp = 'cubicc'; allowed: compound, reno"),
        (["ctcp-red", "-O", "colour=red"], "option 'colour' is not an option of model ctcp-red"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "never"
    result = runner.invoke(app, [*args, "--t-end", "1", "--out", str(out)])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_existing_output_is_kept_without_force(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    result = runner.invoke(app, ["ecn", "--t-end", "1", "--out", str(out)])
    assert result.exit_code == 2 and "exists" in result.output
    assert (out / "keep.txt").read_text() == "x"


def test_mounted_in_the_main_cli(tmp_path):
    import aqmlab.cli as main

    out = tmp_path / "main"
    result = runner.invoke(main.app, ["fluid", "ecn", "--set", "kappa=0.5", "--t-end", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "timeseries.parquet").exists()
