"""The `aqmlab` command: run, validate, summary; bad input writes nothing."""

import json
from pathlib import Path

import pytest
from aqmlab import _toml as tomllib
from aqmlab.cli import app
from typer.testing import CliRunner

EXAMPLE = Path(__file__).parents[2] / "examples" / "seed000-fig6-rtt10.toml"
runner = CliRunner()


def short_example(tmp_path: Path, **changes) -> Path:
    text = EXAMPLE.read_text().replace('duration = "500s"', 'duration = "4s"').replace('measure_start = "475s"', "")
    data = tomllib.loads(text)
    path = tmp_path / "short.toml"
    for key, value in changes.items():
        text = text.replace(key, value)
    path.write_text(text)
    assert data["duration"] == "4s"
    return path


def test_run_writes_data_summary_and_figure(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(short_example(tmp_path)), "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in out.iterdir())
    assert "figure.png" in names and "summary.json" in names and "link_trace.parquet" in names
    assert "utilisation mean [%]" in result.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["bottleneck"]["window_start_s"] == 2.0

    again = runner.invoke(app, ["summary", str(out)])
    assert again.exit_code == 0 and "queue mean [pkt]" in again.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('rate = "100Mbps"', 'rate = "-100Mbps"'), "topology.bottleneck.rate"),
        (("min_th = 50", "min_th = 150"), "below max_th"),
        (('kind = "red"', 'kind = "no_such_queue"'), "'no_such_queue'"),
        (('rtt = "10ms"', 'rtt = "10 mx"'), "rtt"),
    ],
)
def test_bad_scenarios_fail_clearly_and_write_nothing(tmp_path, change, message):
    scenario = short_example(tmp_path, **{change[0]: change[1]})
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(scenario), "--out", str(out), "--quiet"])
    assert result.exit_code == 2
    assert message in result.output
    assert not out.exists()


def test_bad_scenario_leaves_earlier_results_untouched(tmp_path):
    out = tmp_path / "out"
    assert runner.invoke(app, ["run", str(short_example(tmp_path)), "--out", str(out), "-q"]).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = short_example(tmp_path, **{"count = 60": "count = -1"})
    result = runner.invoke(app, ["run", str(bad), "--out", str(out), "--force", "-q"])
    assert result.exit_code == 2 and "count" in result.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    refused = runner.invoke(app, ["run", str(short_example(tmp_path)), "--out", str(out), "-q"])
    assert refused.exit_code == 2 and "--force" in refused.output


def test_validate_prints_the_resolved_scenario():
    result = runner.invoke(app, ["validate", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    resolved = json.loads(result.stdout)
    assert resolved["topology"]["groups"][0]["rtt_ns"] == 10_000_000
