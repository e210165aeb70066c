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

from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.reproduce.seed001 import PAPER, save
from aqmlab.reproduce.seed001_analysis import (
    leaves_region_b,
    max_delay_based_flows,
    network_fixed_points,
    single_bottleneck_equilibria,
)

NETWORKS = {
    "three-route parking lot (model default)": {},
    "Section III-B parking lot (12.5 and 25 Mb/s)": {
        "routing": "1 1; 0 1",
        "rtts": "0.1,0.06",
        "capacities": "1562.5,3125",
    },
}


@reproduction(
    "seed001-lemmas",
    PAPER,
    "Lemmas 4.1-4.3: the homogeneous example C = 100 Mb/s, N = 400, RTT 200 ms",
    "The fluid model (2)-(4) of the example after Lemma 4.1 has one equilibrium in region A, "
    "which is stable (Lemma 4.2), and one in region B, which is unstable (Lemma 4.3).",
    "≈5 s",
)
def lemmas(out: Path, quick: bool) -> Outcome:
    rows = single_bottleneck_equilibria()
    finals = leaves_region_b()
    regions = [row["region"] for row in rows]
    by_region = {row["region"]: row for row in rows}
    n_max_example = max_delay_based_flows(12500.0, 0.2)
    n_max_fig2 = max_delay_based_flows(3125.0, 0.1)
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    delays = np.linspace(0.0051, 0.0999, 600)
    from aqmlab.fluid.models.cx_tcp import backoff

    P = {"delta_min": 0.005, "delta_th": 0.02, "delta_max": 0.1, "p_max": 0.05}
    p = backoff(delays, P)
    axis.plot(1000 * delays, np.sqrt(2.0 / p) * 400 / (0.2 + delays), label="N sqrt(2/p(δ))/(RTT + δ)")
    axis.axhline(12500, color="k", ls="--", lw=0.8, label="C = 12 500 packets/s")
    for row in rows:
        axis.plot(1000 * row["delay_s"], 12500, "o", label=f"region {row['region']} ({1000 * row['delay_s']:.1f} ms)")
    axis.set(xlabel="queueing delay δ (ms)", ylabel="packets/s", yscale="log", title="eqs. (5)-(6), N = 400")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure = save(fig, out, "lemmas.png")
    claims = [
        Claim(
            "the example has one equilibrium in region A and one in region B",
            "C = 100 Mb/s, RTT = 200 ms, N = 400, δmin 5, δth 20, δmax 100 ms, pmax 0.05 "
            "'has the properties claimed' (Comment after Lemma 4.1)",
            "equilibria of eqs. (5)-(6): "
            + ", ".join(f"region {row['region']} at δ = {1000 * row['delay_s']:.2f} ms" for row in rows)
            + " (criterion: exactly one in (5, 20] ms and one in (20, 100) ms)",
            regions == ["A", "B"],
        ),
        Claim(
            "the region-A equilibrium is locally asymptotically stable",
            "Lemma 4.2",
            f"largest real part of the Jacobian's eigenvalues {by_region['A']['max_real_eigenvalue']:.3g} 1/s "
            "(criterion: < 0)"
            if "A" in by_region
            else "no region-A equilibrium",
            bool("A" in by_region and by_region["A"]["max_real_eigenvalue"] < 0),
        ),
        Claim(
            "the region-B equilibrium is unstable",
            "Lemma 4.3",
            (
                f"largest real part of the Jacobian's eigenvalues {by_region['B']['max_real_eigenvalue']:.3g} 1/s; "
                f"from 1 % above it the delay is {1000 * finals['above']:.1f} ms after 60 s, from 1 % below "
                f"{1000 * finals['below']:.1f} ms (criterion: an eigenvalue with positive real part, and the "
                "trajectories leave it: above towards δmax, below to region A)"
            )
            if "B" in by_region
            else "no region-B equilibrium",
            bool(
                "B" in by_region
                and "A" in by_region
                and by_region["B"]["max_real_eigenvalue"] > 0
                and finals["above"] > by_region["B"]["delay_s"] + 0.01
                and abs(finals["below"] - by_region["A"]["delay_s"]) < 1e-3
            ),
        ),
    ]
    note = (
        "Fluid model `cx-tcp` (eqs. 2-4, docs/fluid.md) with the example's parameters; C = 100 Mb/s is "
        "12 500 packets/s of 1000 bytes (Table I's size, ours for Section IV: with 1500-byte packets "
        "there is no region-A equilibrium at N = 400). The paper says the example has 'the properties "
        "claimed in Lemma 4.3'; the properties are Lemma 4.1's (two equilibria), with 4.2-4.3 on their "
        "stability. Stability from the eigenvalues of the Jacobian (the model has no feedback delay). "
        f"The largest N with a region-A equilibrium (Comment after Lemma 4.2) is {n_max_example:.1f} here "
        f"and {n_max_fig2:.1f} at 25 Mb/s, RTT 100 ms — Section III-A1 reports the packet-level switch "
        "between 50 and 55 flows there (seed001-fig2 measures it); the paper calls the fluid model a "
        "coarse approximation ('Model Validation'), so this is not checked as a claim."
    )
    data = {
        "equilibria": [{k: v for k, v in row.items() if k != "state"} for row in rows],
        "delay_after_60s_from_b": finals,
        "max_flows_example": n_max_example,
        "max_flows_25mbps_rtt100": n_max_fig2,
    }
    return Outcome(claims, [figure], note, data)


@reproduction(
    "seed001-theorem44",
    PAPER,
    "Theorem 4.4: one asymptotically stable fixed point in a network of bottlenecks",
    "Every fixed point of eqs. (16), (17), (22) on two parking lots, found by enumeration and "
    "classified by its Jacobian: only the one with every route in region A is stable.",
    "≈20 s",
)
def theorem44(out: Path, quick: bool) -> Outcome:
    claims, data = [], {}
    for label, options in NETWORKS.items():
        points = network_fixed_points(options)
        stable = [point for point in points if point.stable]
        unstable = [point for point in points if point.max_real_eigenvalue > 0]
        all_a = [point for point in points if set(point.branches) == {"A"}]
        data[label] = [
            {
                "branches": "".join(point.branches),
                "bottlenecks": list(point.active),
                "delays_ms": (1000 * point.delays_s).round(3).tolist(),
                "max_real_eigenvalue": point.max_real_eigenvalue,
            }
            for point in points
        ]
        claims.append(
            Claim(
                f"{label}: exactly one fixed point is asymptotically stable, every other one unstable",
                "Theorem 4.4 (with the stable one left of δth for every route)",
                f"{len(points)} fixed points found; stable: "
                + (", ".join("".join(point.branches) for point in stable) or "none")
                + f"; unstable: {len(unstable)} (route regions "
                + ", ".join(sorted({"".join(point.branches) for point in unstable}))
                + ") (criterion: one stable, all routes in region A; all others with an eigenvalue of "
                "positive real part)",
                bool(len(stable) == 1 and stable[0] in all_a and len(unstable) == len(points) - 1),
            )
        )
    fig, axes = plt.subplots(1, len(NETWORKS), figsize=(11, 4), constrained_layout=True)
    for axis, (label, rows) in zip(axes, data.items(), strict=True):
        for row in rows:
            axis.plot(
                row["delays_ms"],
                "o-" if row["max_real_eigenvalue"] < 0 else "x--",
                label=f"{row['branches']} ({'stable' if row['max_real_eigenvalue'] < 0 else 'unstable'})",
            )
        axis.axhline(20, color="k", lw=0.8, ls=":")
        axis.set(xlabel="route", ylabel="route queueing delay δ_i (ms)", title=label)
        axis.set_title(label, fontsize=9)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    figure = save(fig, out, "theorem44.png")
    note = (
        "Fluid model `cx-tcp-network` (eqs. 16, 17, 22; K = pmax/δth, K̃ = pmax/(δmax − δth), "
        "p0 = K̃ δmax). Fixed points: for every choice of eq. (20) or (21) per route and every set of "
        "bottleneck links, eq. (19)'s balance solved from 7^links starts; a point counts when each route's "
        "δ lies in its branch's region and idle links carry at most their capacity. Classified by the "
        "eigenvalues of the Jacobian of eqs. (16)-(17) in the windows and the bottleneck queues. The "
        "theorem's proof also assumes RTT_i + δ_i constant near the equilibria; the model here keeps the "
        "delay in the RTT."
    )
    return Outcome(claims, [figure], note, data)
