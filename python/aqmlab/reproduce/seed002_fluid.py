"""Seed 002 Section V-E's Matlab simulation, Scalable TCP with E-RED (Fig. 10), as a
deterministic declaration on the `primal-dual` fluid model (docs/fluid.md)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Computed
from aqmlab.reproduce.seed002 import PACKET_BYTES

#: Theorem III.2's sufficient slow-adaptation bound on α for TCP-Reno ("α = 1/2 is suggested in
#: Theorem III.2", Section V-D).
RENO_BOUND = 0.5


def fig10(out: Path, quick: bool) -> Computed:
    from aqmlab.fluid import get_model, integrate
    from aqmlab.stability import find_hopf

    # Section V-E: 3 users, 10 Mb/s of capacity each, RTT 200 ms; Scalable TCP is the window law
    # a·w^n / b·w^m of Section IV-A with n = 0, m = 1 (Kelly's a = 0.01, b = 0.125: ours).
    capacity = 3 * 10e6 / (8 * PACKET_BYTES)
    options = {"link": "ered-iq", "rtts": "0.2,0.2,0.2", "capacities": f"{capacity:.1f}"}
    params = {"a": 0.01, "n": 0.0, "b": 0.125, "m": 1.0, "gamma": 0.95, "p_min": 1e-4}
    hopf = find_hopf("primal-dual", "alpha", 0.05, 100.0, params, options=options)
    # E-RED's gain is κ = α/(c·D): the Hopf α is proportional to the normalising delay D, which the paper
    # does not give (D = the 200 ms RTT here); shown at D = 0.1 and 0.05 s.
    scaled = {
        d: find_hopf("primal-dual", "alpha", 0.01, 100.0, {**params, "delay_scale": d}, options=options).value
        for d in (0.1, 0.05)
    }
    # Theorem III.2's slow-adaptation condition for Reno is α ≤ 1/2 (Section V-D); the model's defaults
    # are Reno (a = 1, n = −1, b = 1/2, m = 1) on one E-RED-iq link.
    reno = find_hopf("primal-dual", "alpha", 0.05, 100.0, {}, options={"link": "ered-iq"})
    model = get_model("primal-dual", **options)
    alphas = [0.9, 1.0, 0.5 * hopf.value, 2.0 * hopf.value]
    t_end = 100.0 if quick else 400.0
    result = integrate(model, {**params, "alpha": alphas}, t_end=t_end)
    relative = result.amplitude("w0") / result.mean("w0")
    window = result.state("w0")
    early = (result.times >= 0.25 * t_end) & (result.times < 0.5 * t_end)
    growth = np.ptp(window[:, result.times >= 0.75 * t_end], axis=1) / np.ptp(window[:, early], axis=1)
    fig, axes = plt.subplots(len(alphas), 1, figsize=(10, 8), sharex=True, constrained_layout=True)
    rate = result.state("w0") / 0.2 * PACKET_BYTES * 8 / 1e6
    for axis, alpha, series in zip(axes, alphas, rate, strict=True):
        axis.plot(result.times, series, lw=0.8)
        axis.set(ylabel="rate (Mb/s)", title=f"α = {alpha:.3g}")
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.savefig(out / "scalable-rates.png", dpi=110)
    plt.close(fig)
    values = {
        "hopf_alpha": hopf.value,
        "hopf_alpha_d0.1": scaled[0.1],
        "hopf_alpha_d0.05": scaled[0.05],
        "reno_hopf_alpha": reno.value,
        "reno_hopf_over_bound": reno.value / RENO_BOUND,
        "omega": hopf.omega,
        **{f"amplitude_{name}": float(v) for name, v in zip(("a09", "a1", "half", "double"), relative, strict=True)},
        **{f"swing_{name}": float(g) for name, g in zip(("a09", "a1", "half", "double"), growth, strict=True)},
    }
    notes = (
        "Fluid model `primal-dual` (docs/fluid.md) with the E-RED-iq link law (eqs. 34-35) with time in units of the "
        "round-trip time, ṗ = (α/(c·T))·p·(y − γc) (docs/queues/ered.md); Scalable TCP's a = 0.01 and b = 0.125 and "
        "p_min = 1e-4 are ours (the paper's values were lost; p_min = 0.0005 lies above this network's equilibrium "
        "price 3.5e-4). Scalable TCP sits in the slow-source limit of the loop, where the Hopf α is (1 − p*)/γ "
        "times a factor between 1 and π/2 that a and b barely move. Integrated for "
        f"{t_end:.0f} s from a 10 % perturbation of the equilibrium; α*/2 = {alphas[2]:.3g}, 2α* = {alphas[3]:.3g}."
    )
    return Computed(values, ["scalable-rates.png"], notes)


declare("seed002-fig10", compute=fig10)
