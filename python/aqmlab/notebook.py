"""Jupyter display (`_repr_html_`) of `Results`: the summary table with units beside a small
queue figure, as self-contained HTML (an inline PNG). The helpers here also serve
`FluidResult` (aqmlab.fluid.notebook) and `Study` (aqmlab.experiments.display).

A layer above `Results`: `Results._repr_html_` finds `results_html` through `aqmlab._repr`
(registered in `aqmlab/__init__.py`), never by importing this module."""

from __future__ import annotations

import base64
import html
import io
from typing import Any


def png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=80)
    return f"<img alt='figure' src='data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}'/>"


def new_figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def side_by_side(table: str, image: str, title: str) -> str:
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
    figure = new_figure(4.5, 2.6)
    axis = figure.subplots()
    trace(axis, samples["time_s"][shown], samples["queue_packets"][shown], color="tab:blue")
    mark_thresholds(axis, queue_thresholds(results))
    axis.set_xlabel("time (s)")
    axis.set_ylabel("queue (pkts)")
    axis.set_title(results.main_link, fontsize=9)
    window = f"[{results.measure_start_s:g}, {results.end_s:g}] s"
    title = f"Results: {results.scenario.name}, seed {results.seed}, window {window}"
    return side_by_side(summary._repr_html_(), png(figure), title)


def summary_html(summary: Any) -> str:
    """Jupyter: a `Summary` as a table of statistics with their units."""
    from aqmlab import display

    return display.html_table(summary.rows())
