"""Seed 000 Table I (window-update functions of other TCPs) and Section VI-D (the threshold
policy with TCP Reno, eq. 44), as declarations.

Table I gives functional forms and default values, no results: "One may use these functional
forms to repeat the analysis, we conduct for Compound TCP in the later sections". The
reproduction therefore checks (i) the rows as printed against aqmlab's window laws
(`aqmlab.fluid.models.window_laws`), (ii) the AFRICA row's HighSpeed functions at the ends of
their range, and (iii) that the analysis of Sections III-IV runs for every row: an
equilibrium and a Hopf point in τ of eqs. (1), (3)-(9) with each variant's i(w), d(w). The
extraction kept the Compound, Illinois and AFRICA rows (Reno is the Section VI-D special
case); other rows, if the table had any, are lost.

Section VI-D: Reno (i = 1/w, d = w/2, "Compound with α = 1, k = 0, β = 1/2") with the threshold
policy p(w) = (w/(C̃τ))^q_th (eq. 36). Substituting into (42)-(43) gives the necessary and
sufficient condition (1/w*) sqrt(q_th² − 4(1 − p*)²) < cos⁻¹(−2(1 − p*)/q_th) and the
sufficient condition (44) q_th/w* < π/2 (`aqmlab.stability.conditions.seed000_reno_44`). The
paper's statements are checked against the characteristic roots of the linearised system on
a grid of thresholds and RTTs (C̃ = 100 packets/s as in Section VI-A).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from aqmlab.fluid.models import get_model
from aqmlab.fluid.models.window_laws import window_law
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed
from aqmlab.stability.conditions import seed000_reno_44
from aqmlab.stability.hopf import find_hopf
from aqmlab.stability.linearise import linearise
from aqmlab.stability.roots import characteristic_roots

PAPER = "seed 000 (Compound TCP with RED)"
#: Windows (packets) at which the rows are compared.
WINDOWS = np.array([1.0, 5.0, 17.0, 38.0, 100.0, 1000.0, 83000.0])
VARIANTS = ("compound", "reno", "illinois", "africa")


def printed_rows(w: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Table I as printed (defaults in the last column), independently of window_laws.py."""
    b = -0.4 * (np.log(np.clip(w, 38.0, 83000.0)) - math.log(38.0)) / (math.log(83000.0) - math.log(38.0)) + 0.5
    a = 0.156 * w**2 * b / ((2.0 - b) * w**1.2)  # a(w) as printed: 0.156 w² b(w) / ((2 − b(w)) w^1.2)
    return {
        "compound": (0.125 * w ** (0.75 - 1.0), 0.5 * w),  # α w^(k−1), β w; α = 0.125, k = 0.75, β = 0.5
        "reno": (1.0 / w, w / 2.0),  # Section VI-D: i = 1/w, d = w/2
        "illinois": (10.0 / w, 0.125 * w),  # α_max/w, β_min w; α_max = 10, β_min = 0.125
        "africa": (a / w, w * b),  # a(w)/w, w b(w)
    }


def figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def table1(out: Path, quick: bool) -> Computed:
    values: dict[str, float] = {}
    rows = printed_rows(WINDOWS)
    largest = 0.0
    for name in VARIANTS:
        model = get_model("ctcp-red", tcp=name)
        P, _ = model.resolve({})
        for printed, implemented in zip(
            rows[name], (model.law.increase(WINDOWS, P), model.law.decrease(WINDOWS, P)), strict=True
        ):
            largest = max(largest, float(np.max(np.abs(implemented - printed) / np.abs(printed))))
    values["rows_relative_difference"] = largest
    africa = get_model("ctcp-red", tcp="africa").law
    ends = np.array([38.0, 83000.0])
    b = africa.decrease(ends, {}) / ends
    values["africa_b_38"], values["africa_b_83000"] = float(b[0]), float(b[1])
    values["africa_a_38"] = float(africa.increase(np.array([38.0]), {})[0] * 38.0)
    hopf = {}
    for name in VARIANTS:
        for model, label in (("ctcp-red", "averaging"), ("ctcp-red-noavg", "no_averaging")):
            point = find_hopf(model, "tau", 0.001, 20.0, {"C": 100.0}, options={"tcp": name})
            values[f"{name}_hopf_tau_{label}_s"] = point.value
            hopf[(name, label)] = point.value
    values["hopf_tau_smallest_s"] = min(hopf.values())
    fig = figure(10, 3.8)
    left, right = fig.subplots(1, 2)
    grid = np.geomspace(1, 1e4, 200)
    for name in VARIANTS:
        i, d = printed_rows(grid)[name]
        left.loglog(grid, i, label=name)
        right.loglog(grid, d, label=name)
    for axis, label in ((left, "increase i(w)"), (right, "decrease d(w)")):
        axis.set_xlabel("window w (packets)")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3, which="both")
        axis.legend(fontsize=8)
    fig.savefig(out / "table1.png")
    notes = "Hopf τ (s) at C̃ = 100 with the Section III-A defaults, with / without averaging: " + "; ".join(
        f"{name} {hopf[(name, 'averaging')]:.4g} / {hopf[(name, 'no_averaging')]:.4g}" for name in VARIANTS
    )
    return Computed(values, ["table1.png"], notes + ".")


declare("seed000-table1", compute=table1)


def reno_grid(quick: bool) -> tuple[np.ndarray, np.ndarray]:
    """Thresholds (packets) and RTTs (s): C̃ = 100 packets/s."""
    thresholds = np.array([5.0, 10.0, 20.0, 40.0, 80.0]) if quick else np.array([5.0, 10, 15, 20, 30, 40, 60, 80])
    return thresholds, np.geomspace(0.02, 5.0, 8 if quick else 20)


def reno(out: Path, quick: bool) -> Computed:
    # Compound's law evaluated at α = 1, k = 0, β = 1/2 (outside the model's k ∈ (0, 2], so unchecked).
    compound, reno_law = window_law("compound"), window_law("reno")
    P = {"alpha": 1.0, "k": 0.0, "beta": 0.5}
    w = WINDOWS
    special = max(
        float(np.max(np.abs(compound.increase(w, P) - reno_law.increase(w, {})))),
        float(np.max(np.abs(compound.decrease(w, P) - reno_law.decrease(w, {})))),
    )
    thresholds, taus = reno_grid(quick)
    exact = np.zeros((thresholds.size, taus.size), dtype=bool)
    sufficient = np.zeros_like(exact)
    stable = np.zeros_like(exact)
    w_star = np.zeros(exact.shape)
    for i, q in enumerate(thresholds):
        for j, tau in enumerate(taus):
            params = {"q_th": float(q), "tau": float(tau), "C": 100.0}
            ns, suf = seed000_reno_44(params)
            exact[i, j], sufficient[i, j] = ns.holds, suf.holds
            stable[i, j] = (
                characteristic_roots(linearise("ctcp-threshold", params, options={"tcp": "reno"}), count=1).abscissa < 0
            )
            w_star[i, j] = q / suf.lhs  # (44): lhs = q_th / w*

    def losses(mask: np.ndarray) -> int:
        """(q_th, τ) points where the condition holds at one RTT and fails at a larger one."""
        return int(sum(np.sum(row[:-1] & ~row[1:]) for row in mask))

    hopf = find_hopf("ctcp-threshold", "q_th", 2.0, 400.0, {"C": 100.0, "tau": 1.0}, options={"tcp": "reno"})
    ns_at, suf_at = [], []
    bounds = np.arange(1.0, 401.0)
    for q in bounds:
        ns, suf = seed000_reno_44({"q_th": float(q), "tau": 1.0, "C": 100.0})
        ns_at.append(ns.holds)
        suf_at.append(suf.holds)
    suf_at = np.array(suf_at)
    largest_44 = float(bounds[suf_at].max()) if suf_at.any() else 0.0
    values = {
        "special_case_difference": special,
        "exact_disagreements": float(np.sum(exact != stable)),
        "unstable_points": float(np.sum(~stable)),
        "grid_points": float(stable.size),
        "sufficient_but_unstable": float(np.sum(sufficient & ~stable)),
        "w_star_steps_not_increasing": float(np.sum(np.diff(w_star, axis=1) <= 0)),
        "stability_lost_with_rtt": float(losses(stable)),
        "sufficient_lost_with_rtt": float(losses(sufficient)),
        "largest_q_th_44": largest_44,
        "hopf_q_th": hopf.value,
        "hopf_minus_44_bound": hopf.value - largest_44,
    }
    fig = figure(6.5, 4.5)
    axis = fig.subplots()
    for mask, marker, label in ((stable, "o", "stable (roots)"), (sufficient, "x", "(44) holds")):
        qq, tt = np.meshgrid(thresholds, taus, indexing="ij")
        axis.scatter(tt[mask], qq[mask], marker=marker, s=25, label=label)
    axis.set_xscale("log")
    axis.set_xlabel("RTT τ (s)")
    axis.set_ylabel("threshold q_th (packets)")
    axis.set_title("TCP Reno with the threshold policy, C̃ = 100 packets/s", fontsize=10)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.savefig(out / "reno-threshold.png")
    notes = (
        f"Grid: q_th ∈ {thresholds.tolist()} packets × {taus.size} RTTs in [{taus[0]:g}, {taus[-1]:g}] s, C̃ = 100. "
        f"At τ = 1 s: (44) holds up to q_th = {largest_44:g}, the roots' Hopf point is q_th = {hopf.value:.2f}."
    )
    return Computed(values, ["reno-threshold.png"], notes)


declare("seed000-reno-threshold", compute=reno)
