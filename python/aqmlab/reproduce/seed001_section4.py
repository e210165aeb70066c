"""Seed 001 Section IV (mathematical analysis) as reproductions: the example after Lemma 4.1 with
Lemmas 4.2-4.3, and Theorem 4.4 on a parking lot. Fluid computations only
(`seed001_analysis.py`); quick and full versions are the same.

Ours, where the paper is silent: 1000-byte packets (Table I's size; the example gives C in
Mb/s), so C = 100 Mb/s is 12 500 packets/s; the network of Theorem 4.4 is the `cx-tcp-network`
model's parking lot (two links of 1250 packets/s, a route over both and one over each, RTTs
100, 80 and 120 ms) and the Section III-B parking lot (12.5 and 25 Mb/s, a route over both and
one over the second, RTTs 100 and 60 ms), with eq. (22)'s δ_th = 20 ms, δ_max = 100 ms, p_max = 0.05.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.fluid.models.cx_tcp import backoff
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed
from aqmlab.reproduce.seed001 import save
from aqmlab.reproduce.seed001_analysis import (
    leaves_region_b,
    max_delay_based_flows,
    network_fixed_points,
    single_bottleneck_equilibria,
)

NETWORKS = {
    "lot3": ("three-route parking lot (model default)", {}),
    "lot2": (
        "Section III-B parking lot (12.5 and 25 Mb/s)",
        {"routing": "1 1; 0 1", "rtts": "0.1,0.06", "capacities": "1562.5,3125"},
    ),
}


def lemmas(out: Path, quick: bool) -> Computed:
    rows = single_bottleneck_equilibria()
    finals = leaves_region_b()
    by_region = {row["region"]: row for row in rows}
    a, b = by_region.get("A"), by_region.get("B")
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    delays = np.linspace(0.0051, 0.0999, 600)
    p = backoff(delays, {"delta_min": 0.005, "delta_th": 0.02, "delta_max": 0.1, "p_max": 0.05})
    axis.plot(1000 * delays, np.sqrt(2.0 / p) * 400 / (0.2 + delays), label="N sqrt(2/p(δ))/(RTT + δ)")
    axis.axhline(12500, color="k", ls="--", lw=0.8, label="C = 12 500 packets/s")
    for row in rows:
        axis.plot(1000 * row["delay_s"], 12500, "o", label=f"region {row['region']} ({1000 * row['delay_s']:.1f} ms)")
    axis.set(xlabel="queueing delay δ (ms)", ylabel="packets/s", yscale="log", title="eqs. (5)-(6), N = 400")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure = save(fig, out, "lemmas.png")
    nan = float("nan")
    values = {
        "equilibria_in_a": float(sum(row["region"] == "A" for row in rows)),
        "equilibria_in_b": float(sum(row["region"] == "B" for row in rows)),
        "delay_a_ms": 1000 * a["delay_s"] if a else nan,
        "delay_b_ms": 1000 * b["delay_s"] if b else nan,
        "eigen_a": a["max_real_eigenvalue"] if a else nan,
        "eigen_b": b["max_real_eigenvalue"] if b else nan,
        "delay_from_above_ms": 1000 * finals["above"],
        "delay_from_below_minus_a_ms": 1000 * (finals["below"] - a["delay_s"]) if a else nan,
        "max_flows_example": max_delay_based_flows(12500.0, 0.2),
        "max_flows_25mbps": max_delay_based_flows(3125.0, 0.1),
    }
    notes = (
        f"The largest N with a region-A equilibrium (Comment after Lemma 4.2) is {values['max_flows_example']:.1f} "
        f"here and {values['max_flows_25mbps']:.1f} at 25 Mb/s, RTT 100 ms, where Section III-A1 reports the "
        "packet-level switch between 50 and 55 flows (seed001-fig2 measures it); the paper calls the fluid model a "
        "coarse approximation ('Model Validation'), so this is not a claim."
    )
    return Computed(
        values, [figure], notes, {"equilibria": [{k: v for k, v in r.items() if k != "state"} for r in rows]}
    )


declare(
    "seed001-lemmas",
    compute=lemmas,
    notes="Fluid model `cx-tcp` (eqs. 2-4, docs/fluid.md) with the example's parameters; C = 100 Mb/s is 12 500 "
    "packets/s of 1000 bytes (Table I's size, ours for Section IV: with 1500-byte packets there is no region-A "
    "equilibrium at N = 400). Stability from the eigenvalues of the Jacobian (the model has no feedback delay).",
)


def theorem44(out: Path, quick: bool) -> Computed:
    values, data = {}, {}
    fig, axes = plt.subplots(1, len(NETWORKS), figsize=(11, 4), constrained_layout=True)
    for axis, (key, (label, options)) in zip(axes, NETWORKS.items(), strict=True):
        points = network_fixed_points(options)
        stable = [point for point in points if point.stable]
        values[f"{key}_fixed_points"] = float(len(points))
        values[f"{key}_stable"] = float(len(stable))
        values[f"{key}_stable_all_a"] = float(sum(set(point.branches) == {"A"} for point in stable))
        others = [point.max_real_eigenvalue for point in points if not point.stable]
        values[f"{key}_least_unstable"] = float(min(others)) if others else float("nan")
        data[key] = [
            {
                "branches": "".join(point.branches),
                "bottlenecks": list(point.active),
                "delays_ms": (1000 * point.delays_s).round(3).tolist(),
                "max_real_eigenvalue": point.max_real_eigenvalue,
            }
            for point in points
        ]
        for row in data[key]:
            stable_row = row["max_real_eigenvalue"] < 0
            axis.plot(
                row["delays_ms"],
                "o-" if stable_row else "x--",
                label=f"{row['branches']} ({'stable' if stable_row else 'unstable'})",
            )
        axis.axhline(20, color="k", lw=0.8, ls=":")
        axis.set(xlabel="route", ylabel="route queueing delay δ_i (ms)")
        axis.set_title(label, fontsize=9)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    notes = "; ".join(
        f"{NETWORKS[key][0]}: "
        + ", ".join(f"{row['branches']} (max Re λ {row['max_real_eigenvalue']:.3g})" for row in rows)
        for key, rows in data.items()
    )
    return Computed(values, [save(fig, out, "theorem44.png")], "Fixed points found: " + notes + ".", data)


declare(
    "seed001-theorem44",
    compute=theorem44,
    notes="Fluid model `cx-tcp-network` (eqs. 16, 17, 22; K = pmax/δth, K̃ = pmax/(δmax − δth), p0 = K̃ δmax). "
    "Fixed points: for every choice of eq. (20) or (21) per route and every set of bottleneck links, eq. (19)'s "
    "balance solved from 7^links starts; a point counts when each route's δ lies in its branch's region and idle "
    "links carry at most their capacity. Classified by the eigenvalues of the Jacobian of eqs. (16)-(17) in the "
    "windows and the bottleneck queues. The theorem's proof also assumes RTT_i + δ_i constant near the "
    "equilibria; the model keeps the delay in the RTT.",
)
