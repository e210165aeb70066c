"""Jupyter display (`_repr_html_`) of `Results`, `Study` and `FluidResult`: a summary table
with units and a small figure, as self-contained HTML (the figure is an inline PNG)."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from aqmlab import display


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return f"<img alt='figure' src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'/>"


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _side_by_side(table: str, image: str, title: str) -> str:
    return (
        f"<div><strong>{html.escape(title)}</strong><div style='display:flex;gap:1em;align-items:flex-start'>"
        f"<div>{table}</div><div>{image}</div></div></div>"
    )


def results_html(results: Any) -> str:
    """The main link's summary (with units) beside its queue over the measurement window."""
    from aqmlab.plots import mark_thresholds, queue_thresholds, trace

    summary = results.summary()
    samples = results.link_samples()
    shown = samples["time_s"] >= results.measure_start_s
    figure = _figure(4.5, 2.6)
    axis = figure.subplots()
    trace(axis, samples["time_s"][shown], samples["queue_packets"][shown], color="tab:blue")
    mark_thresholds(axis, queue_thresholds(results))
    axis.set_xlabel("time (s)")
    axis.set_ylabel("queue (pkts)")
    axis.set_title(results.main_link, fontsize=9)
    window = f"[{results.measure_start_s:g}, {results.end_s:g}] s"
    title = f"Results: {results.scenario.name}, seed {results.seed}, window {window}"
    return _side_by_side(summary._repr_html_(), _png(figure), title)


def study_html(study: Any) -> str:
    """The study's runs as `aqmlab study` prints them (numeric, sorted, with units)."""
    from aqmlab.experiments.display import study_rows

    headers, rows = study_rows(study.table())
    if not rows:
        return f"<p>Study {html.escape(str(study.directory))}: no completed runs</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<p>Study {html.escape(str(study.directory))}: {len(rows)} rows</p><table><tr>{head}</tr>{body}</table>"


def fluid_html(result: Any) -> str:
    """Tail statistics of each state with units, beside the first state's time series."""
    from aqmlab.fluid.plots import axis_label, unit_of

    rows = [("model", result.model), ("points", display.number(result.n_points))]
    try:
        final = result.final()
        for index, name in enumerate(result.state_names[:6]):
            unit = unit_of(result, name)
            values = final[:, index]
            shown = display.number(float(values[0])) if values.size == 1 else f"{values.min():.4g} … {values.max():.4g}"
            rows.append((f"final {name}" + (f" [{unit}]" if unit and unit != "1" else ""), shown))
    except Exception:  # a display must never raise
        pass
    figure = _figure(4.5, 2.6)
    axis = figure.subplots()
    name = result.state_names[0]
    values = result.state(name)
    for point in range(min(values.shape[0], 8)):
        axis.plot(result.times, values[point], lw=0.8)
    axis.set_xlabel("time (RTT steps)" if result.meta.get("time_unit") == "rtt" else "time (s)")
    axis.set_ylabel(axis_label(result, name))
    return _side_by_side(display.html_table(rows), _png(figure), f"FluidResult: {result.model}")
