"""Reproductions of seed 000's stability charts (Figs. 2a-c, 4a-c, 14a) by continuation,
each written as PNG with its data (Parquet) beside it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from scipy.optimize import brentq

from aqmlab.stability.charts import hopf_chart
from aqmlab.stability.plots import plot_chart

__all__ = ["SEED000_FIGURES", "seed000_figure", "threshold_sufficient_curve"]

# name: (model, x, x range, y, y scan range, fixed parameters, paper text)
SEED000_FIGURES = {
    "fig2a": ("ctcp-red", "C", (100, 500), "tau", (0.002, 2.0), {}, "Hopf τ vs C̃, γ = 1e-4 (Section III-A)"),
    "fig2b": ("ctcp-red", "gamma", (1e-4, 5e-2), "tau", (0.005, 2.0), {"C": 100}, "Hopf τ vs γ, C̃ = 100"),
    "fig2c": (
        "ctcp-red",
        "b_min",
        (50, 150),
        "alpha",
        (0.005, 5.0),
        {"C": 100, "tau": 0.0848},
        "Hopf α vs b (minimum threshold), C̃ = 100, τ = 84.8 ms",
    ),
    "fig4a": ("ctcp-red-noavg", "C", (100, 500), "tau", (0.01, 5.0), {}, "Hopf τ vs C̃, no averaging"),
    "fig4b": ("ctcp-red-noavg", "b_min", (50, 150), "tau", (0.01, 5.0), {"C": 100}, "Hopf τ vs b, C̃ = 100"),
    "fig4c": (
        "ctcp-red-noavg",
        "b_min",
        (50, 150),
        "alpha",
        (0.005, 5.0),
        {"C": 100, "tau": 0.273},
        "Hopf α vs b, C̃ = 100, τ = 0.273 s",
    ),
    "fig14a": (
        "ctcp-threshold",
        "q_th",
        (10, 100),
        "alpha",
        (0.001, 10.0),
        {"C": 100, "tau": 1.0},
        "Hopf α vs q_th, threshold policy, C̃ = 100, τ = 1 s",
    ),
}


def threshold_sufficient_curve(q_values, params=None):
    """α on the boundary of sufficient condition (43), α q_th (w*)^(k−1) = π/2, with w*(α)
    from the model's equilibrium (solved for α by Brent's method)."""
    from aqmlab.fluid.models import get_model

    model = get_model("ctcp-threshold")
    out = []
    for q in q_values:

        def f(a, q=q):
            P, _ = model.resolve({**(params or {}), "q_th": q, "alpha": a})
            w = model.equilibrium(P, 1)[0, 0]
            return a * q * w ** (P["k"] - 1) - math.pi / 2  # seed 000 eq. (43)

        out.append(brentq(f, 1e-4, 50.0, xtol=1e-12))
    return np.array(out)


def seed000_figure(name: str, out: str | Path, points: int = 200) -> dict:
    model, x, xr, y, yr, fixed, text = SEED000_FIGURES[name]
    chart = hopf_chart(model, x, xr, y, yr, fixed, points=points)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    table = chart.table()
    extra = {}
    if name == "fig14a":
        qs = np.linspace(xr[0], xr[1], 46)
        suff = threshold_sufficient_curve(qs, fixed)
        extra["sufficient (43)"] = (qs, suff)
        pq.write_table(pa.table({"q_th": qs, "alpha_sufficient_43": suff}), out / f"{name}_sufficient.parquet")
    pq.write_table(table, out / f"{name}.parquet")
    plot_chart(chart, out / f"{name}.png", extra_curves=extra, title=f"seed 000 {name}: {text}")
    meta = {
        "figure": name,
        "model": model,
        "x": x,
        "y": y,
        "fixed": fixed,
        "stable_below": chart.stable_below,
        "points": int(chart.xs.size),
        "complete": chart.meta["complete"],
        "wall_time_s": chart.meta["wall_time_s"],
        "y_first": float(chart.ys[0]),
        "y_last": float(chart.ys[-1]),
    }
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1))
    return meta
