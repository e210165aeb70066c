"""Figures for fluid results: time series and phase portraits (x(t) against x(t − τ), as seed
000 Fig. 3). Built on matplotlib's object API (no pyplot, no GUI backend: Agg)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

if TYPE_CHECKING:  # annotations only (this display layer sits above the results)
    from aqmlab.fluid.result import FluidResult

__all__ = ["plot_timeseries", "plot_phase"]

MAX_LINES = 8


def _points(result: FluidResult, points: Sequence[int] | None) -> list[int]:
    if points is None:
        count = result.n_points
        return (
            list(range(count)) if count <= MAX_LINES else sorted({int(i) for i in np.linspace(0, count - 1, MAX_LINES)})
        )
    return [int(p) for p in points]


def _label(result: FluidResult, point: int) -> str:
    varying = [key for key, value in result.params.items() if np.any(value != value[0])]
    if not varying:
        return f"point {point}"
    return ", ".join(f"{key}={result.params[key][point]:.4g}" for key in varying[:3])


def unit_of(result: FluidResult, name: str) -> str:
    """The unit of a state (the model's `units`) or derived quantity (probabilities, delays)."""
    units = result.meta.get("units", {})
    if name in units:
        return units[name]
    if name.startswith("p") and name[1:].isdigit() or name == "p":
        return "probability"
    if name.startswith("delay"):
        return "s"
    return ""


def axis_label(result: FluidResult, name: str) -> str:
    unit = unit_of(result, name)
    return f"{name} ({unit})" if unit and unit != "1" else (f"{name} (dimensionless)" if unit == "1" else name)


def _figure(width=7.0, height=4.0):
    figure = Figure(figsize=(width, height), dpi=120, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def plot_timeseries(
    result: FluidResult,
    path: str | Path | None = None,
    *,
    names: Sequence[str] | None = None,
    points: Sequence[int] | None = None,
) -> Figure:
    """One panel per quantity (default: every state), one line per parameter point."""
    names = list(names or result.state_names[:6])
    figure = _figure(7.0, 1.9 * len(names) + 0.6)
    axes = figure.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    chosen = _points(result, points)
    time_label = "time (RTT steps)" if result.meta.get("time_unit") == "rtt" else "time (s)"
    for axis, name in zip(axes, names, strict=True):
        values = result.state(name)
        for point in chosen:
            axis.plot(result.times, values[point], lw=0.9, label=_label(result, point))
        axis.set_ylabel(axis_label(result, name))
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel(time_label)
    if len(chosen) > 1:
        axes[0].legend(fontsize=7, ncol=2, loc="best")
    axes[0].set_title(f"{result.model}", fontsize=10)
    if path is not None:
        figure.savefig(path)
    return figure


def plot_phase(
    result: FluidResult,
    path: str | Path | None = None,
    *,
    name: str | None = None,
    delay=None,
    points: Sequence[int] | None = None,
) -> Figure:
    """Phase portrait: ``name`` (default: the first state) at t against t − delay (default: the
    model's feedback delay), as in seed 000 Fig. 3."""
    name = name or result.state_names[0]
    lagged = result.lagged(name, delay)
    values = result.state(name)
    figure = _figure(5.0, 4.6)
    axis = figure.subplots()
    for point in _points(result, points):
        axis.plot(values[point], lagged[point], lw=0.7, label=_label(result, point))
    unit = "RTT" if result.meta.get("time_unit") == "rtt" else "s"
    tau = result.phase_delay[0] if delay is None else np.ravel(delay)[0]
    state_unit = unit_of(result, name)
    suffix = f" ({state_unit})" if state_unit and state_unit != "1" else ""
    axis.set_xlabel(f"{name}(t){suffix}")
    axis.set_ylabel(f"{name}(t − {tau:.4g} {unit}){suffix}")
    axis.grid(alpha=0.3)
    if result.n_points > 1:
        axis.legend(fontsize=7)
    axis.set_title(f"{result.model}: phase portrait", fontsize=10)
    if path is not None:
        figure.savefig(path)
    return figure
