"""Figures: stability charts (boundary, shaded stable/unstable regions, crossing frequency),
bifurcation diagrams and root plots. matplotlib object API with the Agg canvas (no GUI)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_chart", "plot_diagram", "plot_roots"]


def _labelled(model: str, name: str, options: dict | None = None) -> str:
    """'C (packets/s)': a parameter or state name with the model's unit for it."""
    from aqmlab.fluid.models import get_model

    try:
        instance = get_model(model, **(options or {}))
    except Exception:  # an unknown model or options: the bare name is still a label
        return name
    unit = ""
    if name in instance.params:
        unit = instance.params[name].unit
    elif name in instance.state_names and len(instance.units) == len(instance.state_names):
        unit = instance.units[instance.state_names.index(name)]
    if unit in ("", "1", "-"):
        return f"{name} (dimensionless)" if unit else name
    return f"{name} ({unit})"


def _figure(width=6.0, height=4.0, rows=1):
    fig = Figure(figsize=(width, height), dpi=120, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def plot_chart(
    chart, path: str | Path, *, extra_curves: dict | None = None, y_limits=None, title: str | None = None
) -> Path:
    """Boundary y(x) with the stable region shaded; a lower panel shows the period 2π/ω."""
    fig = _figure(6.0, 5.5)
    ax, ax2 = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1])
    xs, ys = chart.xs, chart.ys
    lo, hi = y_limits if y_limits else (0.0, float(np.nanmax(ys)) * 1.3)
    if chart.stable_below is not None:
        stable_fill = (np.full_like(ys, lo), ys) if chart.stable_below else (ys, np.full_like(ys, hi))
        unstable_fill = (ys, np.full_like(ys, hi)) if chart.stable_below else (np.full_like(ys, lo), ys)
        ax.fill_between(xs, *stable_fill, color="#cfe8cf", label="stable")
        ax.fill_between(xs, *unstable_fill, color="#f4d0d0", label="unstable")
    ax.plot(xs, ys, color="k", lw=1.5, label="Hopf boundary")
    for label, (cx, cy) in (extra_curves or {}).items():
        ax.plot(cx, cy, "--", lw=1.2, label=label)
    ax.set_ylim(lo, hi)
    ax.set_xlim(xs[0], xs[-1])
    ax.set_ylabel(_labelled(chart.model, chart.y, chart.options))
    ax.legend(loc="best", fontsize=8)
    ax.set_title(title or f"{chart.model}: Hopf boundary in ({chart.x}, {chart.y})", fontsize=10)
    ax2.plot(xs, chart.period, color="C0")
    ax2.set_ylabel("period 2π/ω (s)")
    ax2.set_xlabel(_labelled(chart.model, chart.x, chart.options))
    path = Path(path)
    fig.savefig(path)
    return path


def plot_diagram(diagram, path: str | Path, *, critical: float | None = None, predicted=None) -> Path:
    fig = _figure()
    ax = fig.subplots()
    ax.plot(diagram.values, diagram.amplitude, "o", ms=3, label="integration (half peak-to-peak)")
    if predicted is not None:
        ax.plot(predicted[0], predicted[1], "-", label="normal form K sqrt(p − p_c)")
    if critical is not None:
        ax.axvline(critical, color="k", lw=0.8, ls=":", label="Hopf point")
    options = diagram.meta.get("options", {}) if isinstance(diagram.meta, dict) else {}
    ax.set_xlabel(_labelled(diagram.model, diagram.param, options))
    ax.set_ylabel(f"amplitude of {_labelled(diagram.model, diagram.state, options)}")
    ax.legend(fontsize=8)
    path = Path(path)
    fig.savefig(path)
    return path


def plot_roots(roots, path: str | Path, title: str = "") -> Path:
    fig = _figure(5, 4)
    ax = fig.subplots()
    r = np.concatenate([roots.roots, roots.roots.conj()])
    ax.plot(r.real, r.imag, "x")
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel("Re λ (1/s)")
    ax.set_ylabel("Im λ (rad/s)")
    ax.set_title(title, fontsize=10)
    path = Path(path)
    fig.savefig(path)
    return path
