"""What people see (issue 18 point 9): the typed summary, notebook display of Results, Study
and fluid results, and figures with units, RED thresholds and min/max envelopes."""

import json
import math
from pathlib import Path

import aqmlab
import numpy as np
import pytest
from aqmlab.summary import Summary

EXAMPLE = Path(__file__).parents[1] / "examples" / "seed000-fig6-rtt10.toml"


@pytest.fixture(scope="module")
def results():
    scenario = aqmlab.Scenario.from_toml(EXAMPLE).with_changes(duration="4s", measure_start="2s")
    return aqmlab.simulate(scenario, seed=1)


def test_summary_is_typed_plain_and_still_a_dict(results):
    summary = results.summary()
    assert isinstance(summary, Summary) and isinstance(summary, dict)
    assert type(summary["queue_mean_packets"]) is float and type(summary.flows) is int and summary.flows == 60
    assert all(type(v) in (float, int, bool) for v in summary.values()) and summary.partial is False
    assert "np.float64" not in repr(summary) and "flows" in repr(summary)
    assert summary.units["throughput_bps"] == "bit/s" and summary.units["queue_mean_packets"] == "packets"
    assert summary.loss_percent == summary["loss_percent"]
    assert json.loads(json.dumps(summary))["flows"] == 60


def test_results_render_in_jupyter_with_units_and_a_figure(results):
    html = results._repr_html_()
    assert "queue mean [pkt]" in html and "goodput [Mb/s]" in html and "data:image/png;base64," in html
    assert "<table>" in Summary(results.summary())._repr_html_()


def test_a_study_renders_in_jupyter(tmp_path):
    from aqmlab.experiments import Sweep, run_sweep

    base = aqmlab.Scenario.from_toml(EXAMPLE).with_changes(duration="2s", measure_start="1s").model_dump(mode="json")
    sweep = Sweep.from_dict({"name": "s", "base": base, "grid": {"topology.groups.0.rtt": ["100ms", "20ms"]}})
    study = run_sweep(sweep, tmp_path / "study", workers=1)
    html = study._repr_html_()
    assert "rtt [ms]" in html and html.index("<td>20</td>") < html.index("<td>100</td>")
    from aqmlab.cli import app
    from typer.testing import CliRunner

    printed = CliRunner().invoke(app, ["study", str(tmp_path / "study")]).stdout
    assert "…" not in printed and "Jain's index" in printed and "goodput [Mb/s]" in printed  # not cut at 80
    rows = [line for line in printed.splitlines() if "bottleneck" in line]
    assert [row.split("│")[1].strip() for row in rows] == ["20", "100"]  # numeric, sorted


def test_a_fluid_result_renders_in_jupyter_with_units():
    from aqmlab.fluid import get_model, integrate

    result = integrate(get_model("ctcp-red"), t_end=2.0)
    html = result._repr_html_()
    assert "final w [packets]" in html and "data:image/png;base64," in html


def test_queue_plots_carry_the_red_thresholds(results):
    from aqmlab.plots import queue_thresholds

    assert queue_thresholds(results) == {"min_th": 50.0, "max_th": 100.0}


def test_dense_traces_are_drawn_as_min_max_envelopes():
    from aqmlab.plots import ENVELOPE_BINS, trace
    from matplotlib.figure import Figure

    axis = Figure().subplots()
    times = np.linspace(0, 100, 50_000)
    values = np.sin(times * 50) * 10 + 20
    (line,) = trace(axis, times, values, color="tab:blue")
    assert len(line.get_xdata()) == ENVELOPE_BINS  # bin means, not 50,000 points
    envelope = axis.collections[0].get_paths()[0].vertices[:, 1]
    assert math.isclose(envelope.max(), 30, abs_tol=0.05) and math.isclose(envelope.min(), 10, abs_tol=0.05)
    sparse = Figure().subplots()
    (line,) = trace(sparse, times[:100], values[:100], color="tab:blue")
    assert len(line.get_xdata()) == 100 and not sparse.collections


def test_fluid_and_stability_axes_carry_units():
    from aqmlab.fluid import get_model, integrate
    from aqmlab.fluid.plots import plot_timeseries
    from aqmlab.stability.plots import _labelled

    figure = plot_timeseries(integrate(get_model("ctcp-red"), t_end=1.0))
    labels = [axis.get_ylabel() for axis in figure.axes] + [figure.axes[-1].get_xlabel()]
    assert labels[0] == "w (packets)" and labels[-1] == "time (s)"
    assert all("(" in label for label in labels)
    assert _labelled("ctcp-red", "tau") == "tau (s)" and _labelled("ctcp-red", "C") == "C (packets/s)"


def test_run_figures_label_every_axis_with_units(results, tmp_path):
    import matplotlib.pyplot as plt
    from aqmlab import plots

    captured = []
    original = plt.close
    plt.close = lambda fig=None: captured.append(fig)
    try:
        plots.plot_run(results, tmp_path / "f.png")
    finally:
        plt.close = original
    figure = captured[0]
    for axis in figure.axes:
        assert "(" in axis.get_ylabel(), axis.get_ylabel()
    assert figure.axes[-1].get_xlabel() == "time (s)"
    legend = figure.axes[0].get_legend()
    assert legend is not None and "min_th = 50 pkts" in [t.get_text() for t in legend.get_texts()]
    original(figure)


def test_display_is_looked_up_by_type_and_its_bases(monkeypatch):
    """aqmlab._repr (issue 32): a type's display by name, found for a subclass too; an
    unregistered type has none (Jupyter falls back to its repr)."""
    from aqmlab import _repr

    monkeypatch.setattr(_repr, "_HTML", {})
    assert _repr.html(object()) is None
    _repr.register_html(f"{__name__}.{_Shown.__qualname__}", f"{__name__}:_render")
    assert _repr.html(_Shown()) == "<b>_Shown</b>" and _repr.html(_ShownToo()) == "<b>_ShownToo</b>"
    with pytest.raises(ValueError, match="module:function"):
        _repr.register_html("x.Y", "html.escape")


def _render(obj: object) -> str:
    return f"<b>{type(obj).__name__}</b>"


class _Shown:
    pass


class _ShownToo(_Shown):
    pass
