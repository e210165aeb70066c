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


def _segments(branch):
    """Runs of equal stability along an orbit branch: (indices, stable) with shared end points."""
    stable = branch.stable
    runs, start = [], 0
    for i in range(1, len(stable) + 1):
        if i == len(stable) or stable[i] != stable[start]:
            runs.append((np.arange(start, min(i + 1, len(stable))), bool(stable[start])))
            start = i
    return runs


def draw_diagram(fig, diagram, *, critical: float | None = None, predicted=None) -> None:
    """Amplitude (and, with an orbit branch, period) against the parameter: integration as dots,
    the collocated orbit branch (:mod:`aqmlab.stability.orbits`) stable solid, unstable dashed."""
    branch = getattr(diagram, "orbits", None)
    axes = fig.subplots(1, 2) if branch is not None else [fig.subplots()]
    ax = axes[0]
    options = diagram.meta.get("options", {}) if isinstance(diagram.meta, dict) else {}
    ax.plot(diagram.values, diagram.amplitude, "o", ms=3, color="C0", label="integration (half peak-to-peak)")
    if predicted is not None:
        ax.plot(predicted[0], predicted[1], "-", color="C1", lw=0.8, label="normal form K sqrt(p − p_c)")
    if branch is not None and branch.orbits:
        j = branch.state_names.index(diagram.state)
        amp, per, vals = branch.amplitudes(j), branch.periods, branch.values
        for k, (idx, stable) in enumerate(_segments(branch)):
            style = "-" if stable else "--"
            label = None if k > 1 else ("periodic orbits, stable" if stable else "periodic orbits, unstable")
            ax.plot(vals[idx], amp[idx], style, color="C2", label=label)
            axes[1].plot(vals[idx], per[idx], style, color="C2")
        for i in branch.folds:
            ax.plot(vals[i], amp[i], "k^", ms=5, label="fold of cycles" if i == branch.folds[0] else None)
        if branch.orbits[-1].constrained:
            ax.plot(vals[-1], amp[-1], "rx", ms=6, label="box constraint reached")
        axes[1].plot(diagram.values, diagram.period, "o", ms=3, color="C0")
        axes[1].set_xlabel(_labelled(diagram.model, diagram.param, options))
        axes[1].set_ylabel("period (s)")
    if critical is not None:
        for axis in axes:
            axis.axvline(critical, color="k", lw=0.8, ls=":", label="Hopf point" if axis is ax else None)
    ax.set_xlabel(_labelled(diagram.model, diagram.param, options))
    ax.set_ylabel(f"amplitude of {_labelled(diagram.model, diagram.state, options)}")
    ax.legend(fontsize=7)


def plot_diagram(diagram, path: str | Path, *, critical: float | None = None, predicted=None) -> Path:
    branch = getattr(diagram, "orbits", None)
    fig = _figure(10.0 if branch is not None else 6.0, 4.0)
    draw_diagram(fig, diagram, critical=critical, predicted=predicted)
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
