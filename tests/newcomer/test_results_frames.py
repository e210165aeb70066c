"""Python results as a data scientist expects (issue 30 item 5), and `aqmlab study` at 80
columns (item 4)."""

from __future__ import annotations

import io

import aqmlab
import pytest
from aqmlab.experiments.store import Study
from rich.console import Console

from tests.newcomer.conftest import ROOT


def test_study_to_pandas_has_typed_parameter_columns_sorted_with_run_id_last(small_study):
    frame = Study(small_study).to_pandas()
    assert list(frame.columns[:4]) == ["rtt_s", "max_p", "seed", "link"]
    assert frame.columns[-1] == "run_id"
    assert str(frame["rtt_s"].dtype) == "float64" and str(frame["max_p"].dtype) == "float64"
    assert frame["rtt_s"].tolist() == [0.01] * 4 + [0.2] * 4  # "10ms" → 0.01 s, sorted numerically
    assert frame["max_p"].tolist() == [0.1, 0.1, 0.2, 0.2] * 2
    assert frame["seed"].tolist() == [1, 2] * 4
    assert "goodput_bps" in frame.columns and "throughput_bps" not in frame.columns
    pl = pytest.importorskip("polars")
    polars = Study(small_study).to_polars()
    assert polars.columns == list(frame.columns) and polars.schema["rtt_s"] == pl.Float64


def test_link_trace_frames_carry_the_link_name_and_role():
    scenario = aqmlab.Scenario.from_toml(ROOT / "examples" / "seed000-fig6-rtt10.toml")
    results = aqmlab.simulate(scenario.with_changes(duration="1s", measure_start="0.5s"))
    frame = results.to_pandas("link_trace")
    assert list(frame.columns[:4]) == ["time_s", "link", "link_name", "link_role"]
    assert set(frame["link_name"]) == {"bottleneck", "bottleneck_reverse"}
    bottleneck = frame[frame.link_name == "bottleneck"]
    assert bottleneck["time_s"].is_monotonic_increasing and (bottleneck["link"] == 0).all()
    assert "link_name" not in results.link_trace.column_names  # the stored table stays the engine's


def test_the_summed_goodput_is_called_goodput():
    from aqmlab.display import header

    assert header("throughput_bps") == "goodput [Mb/s]"


def test_study_fits_80_columns_with_headers_seed_and_jain(small_study, monkeypatch):
    import aqmlab.experiments.cli as study_cli

    buffer = io.StringIO()

    def terminal(**kwargs):
        kwargs.pop("width", None)
        return Console(file=buffer, width=80, force_terminal=True, color_system=None, **kwargs)

    monkeypatch.setattr(study_cli, "Console", terminal)
    assert study_cli.print_study(small_study)
    text = buffer.getvalue()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, text
    header = next(line for line in lines if "seed" in line)
    for name in ("rtt [ms]", "max_p", "seed", "queue", "loss%", "util%", "goodput", "Jain"):
        assert name in header, text
    assert "…" not in text
    assert "Jain: Jain's fairness index" in text and "goodput: the flows' goodput summed" in text
    rows = [line for line in lines if line.startswith("│")]
    assert len(rows) == 8 and all(cell.strip() for cell in rows[0].strip("│").split("│")), text  # no empty column


def test_many_swept_parameters_wrap_rather_than_cut():
    import json

    import pyarrow as pa
    from aqmlab.experiments.display import print_study_table, study_layout

    rows = 4
    table = pa.table(
        {
            "run_id": [f"r{i}" for i in range(rows)],
            "seed": [1] * rows,
            "link": ["bottleneck"] * rows,
            "param.topology.groups.0.rtt": [json.dumps(v) for v in ["10ms", "20ms", "30ms", "40ms"]],
            "param.topology.bottleneck.rate": [json.dumps("100Mbps")] * rows,
            "param.topology.groups.0.access_rate": [json.dumps("2Mbps")] * rows,
            "param.topology.bottleneck.queue.min_th": ["50"] * rows,
            "param.topology.bottleneck.queue.max_th": ["150"] * rows,
            "queue_mean_packets": [12.5] * rows,
            "loss_percent": [0.5] * rows,
            "utilisation_mean": [0.97] * rows,
            "throughput_bps": [9.5e7] * rows,
            "jain_fairness": [0.99] * rows,
        }
    )
    headers, cells, note, legend = study_layout(table, 80)
    assert note == "link bottleneck" and headers[:6] == ["A", "B", "C", "D", "E", "seed"] and "Jain" in headers
    assert legend[:5] == ["A: rtt [ms]", "B: rate [Mb/s]", "C: access_rate [Mb/s]", "D: min_th", "E: max_th"]
    buffer = io.StringIO()
    assert print_study_table(Console(file=buffer, width=80, force_terminal=True, color_system=None), "s", table)
    text = buffer.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80 and "…" not in text, text
    for name in ("A: rtt [ms]", "C: access_rate", "E: max_th", "seed", "queue", "loss%", "util%", "Jain"):
        assert name in text, text
