"""Seed 002, the results the paper reports without figures: RED on a virtual queue (Section V-A,
after Table I) and the γ thresholds 0.93 / 0.97 (Section V-D). Settings as seed002.py (its
docstring); added here, ours where the paper is silent:

* REDvq: RED with the real queue's parameters (min_th = buffer/5, max_th = 3 min_th, max_p 0.1,
  automatic q_weight, ECN) on the virtual queue served at γ = 0.95 C, and the same with both
  thresholds 120 times larger; the large-capacity scenario of Section V-A (1 Gb/s, 2000 flows).
  "Stable" is judged as for E-RED (seed002.py's STABLE_CV: the virtual queue's coefficient of
  variation after the transient at most 0.05).
* γ: E-RED-iq with α = 1, p_min 0.0005, p_max 0.1 (Section V-D's other parameters), RTTs
  uniform in [20, 100] ms (as Fig. 8), 5 ms bottleneck, 40 s, statistics over the last two thirds, γ from
  0.90 to 0.99 in steps of 0.01 (the paper's thresholds have two decimals). Stable as above.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run
from aqmlab.reproduce.figures import saved
from aqmlab.reproduce.seed002 import (
    LC_NOTE,
    PACKET_BYTES,
    SCALED,
    STABLE_CV,
    buffer_packets,
    dumbbell,
    ered_queue,
    measures,
    network,
    reno_group,
)
from aqmlab.reproduce.seed002_analysis import (
    gamma_threshold,
    red_thresholds,
    redvq_chain,
)
from aqmlab.results import Results

#: The large-capacity scenario's largest RTT: E-RED's gain normalisation (docs/queues/ered.md).
LC_DELAY_SCALE = "100ms"


def ered_gain_per_packet(rate_bps: float, alpha: float = 1.0, delay_scale: str = LC_DELAY_SCALE) -> float:
    """κ of aqmlab's E-RED queue (docs/queues/ered.md) at `rate_bps` with 1040-byte packets."""
    from aqmlab.queues import Ered

    resolved = Ered(alpha=alpha, mean_packet_size=f"{PACKET_BYTES}B", delay_scale=delay_scale).resolved(0)
    capacity = rate_bps / (8 * PACKET_BYTES)
    return alpha / (capacity * resolved["delay_scale_ns"] * 1e-9)


def redvq_queue(rate_bps: float, scale: float, gamma: float = 0.95) -> dict[str, Any]:
    """RED's Section V parameters on the virtual queue; thresholds `scale` times larger."""
    low, high = red_thresholds(buffer_packets(rate_bps), scale)
    return {
        "kind": "red_vq",
        "gamma": gamma,
        "limit": f"{buffer_packets(rate_bps)}p",
        "min_th": low,
        "max_th": high,
        "max_p": 0.1,
        "q_weight": -1,
        "ecn": True,
        "mean_packet_size": f"{PACKET_BYTES}B",
    }


def with_marking(results: Results) -> dict[str, float]:
    """`measures` plus the mean traced marking probability over the window."""
    samples = results.link_samples()
    keep = samples["time_s"] >= results.measure_start_s
    return {**measures(results), "mark_probability": float(np.nanmean(samples["drop_probability"][keep]))}


REDVQ_SCALE = {True: 0.1, False: 1.0}


def redvq_runs(quick: bool) -> list[Run]:
    scale = REDVQ_SCALE[quick]
    rate, flows, duration = 1e9 * scale, round(2000 * scale), 40.0

    def scenario(name: str, queue: dict[str, Any]) -> dict[str, Any]:
        return dumbbell(name, rate, queue, [reno_group(flows, "24ms", "100ms")], duration=duration, measure_start=20.0)

    return [
        Run("redvq", scenario("redvq", redvq_queue(rate, 1.0)), with_marking, keep=True),
        Run("redvq120", scenario("redvq120", redvq_queue(rate, 120.0)), with_marking, keep=True),
        Run(
            "ered",
            scenario(
                "ered", ered_queue(rate, gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale=LC_DELAY_SCALE)
            ),
            with_marking,
            keep=True,
        ),
    ]


def redvq_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Section V-A's chain at the paper's b̃* = 27 000 with aqmlab's E-RED gain (the same for
    every seed), E-RED's equilibrium virtual queue at full scale, and the chain there."""
    kappa = ered_gain_per_packet(1e9)
    paper = redvq_chain(kappa)
    virtual = m["ered"]["virtual_mean"] / REDVQ_SCALE[quick]
    ours = redvq_chain(kappa, virtual)
    return {
        "chain_p_star": paper["p_star"],
        "chain_slope_bound": paper["slope_bound"],
        "chain_red_span_needed": paper["red_span_needed"],
        "ered_virtual_queue_1gbps": virtual,
        "red_span_needed_at_ours": ours["red_span_needed"],
    }


def redvq_figures(out: Path, evidence: Evidence) -> list[str]:
    labels = {"redvq": "REDvq, RED's thresholds", "redvq120": "REDvq, 120-fold thresholds", "ered": "E-RED"}
    fig, axes = plt.subplots(len(labels), 1, figsize=(10, 7), sharex=True, constrained_layout=True)
    for axis, (name, label) in zip(axes, labels.items(), strict=True):
        samples = evidence.kept[name].link_samples()
        axis.plot(samples["time_s"], samples["virtual_queue"], lw=0.7)
        axis.set(ylabel="virtual queue (packets)", title=f"{label} (seed 1)")
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    return saved(fig, out, "redvq.png")


declare(
    "seed002-redvq",
    runs=redvq_runs,
    derive=redvq_derive,
    figures=redvq_figures,
    notes=lambda quick: (
        "Section V-A: "
        + LC_NOTE
        + " REDvq: RED(buffer/5, 3·buffer/5), max_p 0.1, automatic q_weight, ECN, on the virtual queue "
        "at γ = 0.95; "
        "the 120-fold run multiplies both thresholds by 120. 40 s per run, statistics over 20-40 s (the 120-fold "
        "virtual queue takes longer than E-RED's to fill)."
        + (" Quick version scaled by 1/10 in capacity and flows (the same rate per flow)." if quick else "")
    ),
)


GAMMAS_FULL = tuple(round(0.90 + 0.01 * i, 2) for i in range(10))
GAMMAS_QUICK = (0.91, 0.95, 0.99)
GAMMA_FLOWS = {100: 0.93, 250: 0.97}


def gamma_scenario(flows: int, gamma: float, quick: bool) -> dict[str, Any]:
    rate, duration = 150e6, 30.0 if quick else 40.0
    queue = ered_queue(rate, gamma=gamma, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale="100ms")
    return dumbbell(
        f"gamma-{flows}-{gamma:.2f}",
        rate,
        queue,
        [reno_group(flows, "20ms", "100ms")],
        duration=duration,
        measure_start=duration / 3,
        bottleneck_delay="5ms",
    )


def gamma_key(flows: int, gamma: float) -> str:
    return f"n{flows}-g{round(100 * gamma)}"


def gamma_runs(quick: bool) -> list[Run]:
    gammas = GAMMAS_QUICK if quick else GAMMAS_FULL
    return [
        Run(gamma_key(flows, g), gamma_scenario(flows, g, quick), measures, keep=g == gammas[0])
        for flows in GAMMA_FLOWS
        for g in gammas
    ]


def gamma_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Per seed and number of flows: the threshold (`gamma_threshold`; one grid step below the
    smallest γ when even that is unstable)."""
    gammas = GAMMAS_QUICK if quick else GAMMAS_FULL
    out = {}
    for flows in GAMMA_FLOWS:
        stable = {g: m[gamma_key(flows, g)]["virtual_cv"] <= STABLE_CV for g in gammas}
        threshold = gamma_threshold(stable)
        out[f"threshold_n{flows}"] = threshold if threshold is not None else gammas[0] - 0.01
    out["threshold_rise"] = out["threshold_n250"] - out["threshold_n100"]
    return out


def gamma_figures(out: Path, evidence: Evidence) -> list[str]:
    gammas = GAMMAS_QUICK if evidence.quick else GAMMAS_FULL
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    for flows, paper in GAMMA_FLOWS.items():
        keys = [f"{gamma_key(flows, g)}.virtual_cv" for g in gammas]
        means = [evidence.mean(k) for k in keys]
        intervals = [evidence.interval(k) for k in keys]
        errors = [
            [m - lo for m, (lo, _) in zip(means, intervals, strict=True)],
            [hi - m for m, (_, hi) in zip(means, intervals, strict=True)],
        ]
        axis.errorbar(gammas, means, yerr=errors, marker="o", capsize=3, label=f"{flows} flows (paper: {paper})")
    axis.axhline(STABLE_CV, color="k", ls="--", lw=0.8, label="stable below")
    axis.set(xlabel="γ", ylabel="virtual queue CV", yscale="log", title="150 Mb/s, E-RED-iq, α = 1")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    return saved(fig, out, "gamma.png")


declare(
    "seed002-gamma",
    runs=gamma_runs,
    derive=gamma_derive,
    figures=gamma_figures,
    notes=lambda quick: (
        "Section V-D: 150 Mb/s, 100 or 250 Reno flows, RTTs uniform in [20, 100] ms, 5 ms "
        "bottleneck, E-RED-iq α = 1, p_min 0.0005, p_max 0.1 (ours: the text keeps only C, N and the thresholds), "
        f"{'30' if quick else '40'} s per run, statistics over the last two thirds; γ in "
        f"{list(GAMMAS_QUICK if quick else GAMMAS_FULL)}."
        + (" Quick version: three γ values, so the thresholds are checked in the full version only." if quick else "")
    ),
)


# --- Section V-D: "p_min only changes the initial setup time" --------------------------------

#: The smaller p_min, a tenth of the paper's (still below the equilibrium price).
PMIN_FACTOR = 0.1


def pmin_scenario(factor: float, quick: bool) -> dict[str, Any]:
    """Section V-A's large-capacity network under E-RED-iq with p_min scaled by `factor`."""
    scenario = network("lc", "ered", quick)
    queue = scenario["topology"]["bottleneck"]["queue"]
    queue["p_min"] = queue["p_min"] * factor
    scenario["name"] = f"lc-ered-pmin{factor:g}"
    return scenario


def setup_measures(results: Results) -> dict[str, float]:
    """`measures` and the setup time: the first time the virtual queue reaches 90 % of its mean
    over the measurement window, s."""
    out = measures(results)
    samples = results.link_samples()
    reached = samples["time_s"][samples["virtual_queue"] >= 0.9 * out["virtual_mean"]]
    out["setup_s"] = float(reached[0]) if reached.size else float("nan")
    return out


def pmin_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """The smaller p_min's setup time minus the paper's p_min's, s."""
    return {"setup_longer_s": m["pmin-tenth"]["setup_s"] - m["pmin-paper"]["setup_s"]}


declare(
    "seed002-pmin",
    runs=lambda quick: [
        Run("pmin-paper", pmin_scenario(1.0, quick), setup_measures),
        Run("pmin-tenth", pmin_scenario(PMIN_FACTOR, quick), setup_measures),
    ],
    derive=pmin_derive,
    notes=lambda quick: (
        LC_NOTE
        + f" Run again with p_min = {PMIN_FACTOR:g} × 0.0005 (below the equilibrium price: both runs settle); the "
        "setup time is the first time the virtual queue reaches 90 % of its mean over 10-39 s."
        + (SCALED if quick else "")
    ),
)
