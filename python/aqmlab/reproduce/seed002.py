"""Seed 002 (general primal-dual congestion control and E-RED), Section V: the simulations.

Common settings (Section V): TCP-Reno sources, all ECN-capable, maximum window 1000 packets,
1040-byte packets; real buffer C·2.5 ms (C in Mb/s: 2.5·C/8.32 packets of 1040 B); RED with
min_th = 1/5 of the buffer, max_th = 3·min_th, ECN marking, other parameters at the ns-2
defaults (q_weight = -1, the automatic weight, max_p = 0.1, gentle, mark_p 0.1); E-RED with
b_min = 1/5 of the buffer.

Ours, where the paper is silent or its symbols were lost (see docs/queues/ered.md for E-RED's
reconstruction, including κ = α/(C·D) with D the largest RTT of each scenario): round-trip
times uniform over the range the text gives (the paper draws each of the two edge-link delays
uniformly, so its RTTs are triangular); 10 Mb/s access links (the paper's Fig. 11 value), flows
starting uniformly in the first 5 s; the Fig. 7 UDP source at 30 Mb/s (the text keeps only "a
fixed rate of 3"); Fig. 9's three HighSpeed TCP users share 30 Mb/s (10 Mb/s per user) with a
60-packet buffer.
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
from aqmlab.results import Results

PAPER = "seed 002 (general primal-dual congestion control and E-RED)"
PACKET_BYTES = 1040
#: "Stable" virtual queue: coefficient of variation after the transient at most this (ours: the
#: paper's "oscillates around its equilibrium very slightly" has no number).
STABLE_CV = 0.05


def buffer_packets(rate_bps: float) -> int:
    """Section V: the real buffer holds 2.5 ms of the link's capacity."""
    return max(10, round(rate_bps * 0.0025 / (8 * PACKET_BYTES)))


def red_queue(rate_bps: float) -> dict[str, Any]:
    """Section V: RED with min_th = buffer/5, max_th = 3 min_th, ECN, ns-2 defaults otherwise."""
    limit = buffer_packets(rate_bps)
    return {
        "kind": "red",
        "limit": f"{limit}p",
        "min_th": limit / 5,
        "max_th": 3 * limit / 5,
        "max_p": 0.1,
        "q_weight": -1,
        "ecn": True,
        "mean_packet_size": f"{PACKET_BYTES}B",
    }


def ered_queue(rate_bps: float, **params: Any) -> dict[str, Any]:
    """Section V: E-RED on a virtual queue, b_min = buffer/5 (the queue's default), ECN marking;
    `delay_scale` is the largest RTT of the scenario (the normalisation of docs/queues/ered.md)."""
    return {
        "kind": "ered",
        "limit": f"{buffer_packets(rate_bps)}p",
        "ecn": True,
        "mean_packet_size": f"{PACKET_BYTES}B",
        **params,
    }


def reno_group(count: int, rtt_low: str, rtt_high: str, **extra: Any) -> dict[str, Any]:
    group = {
        "name": "reno",
        "count": count,
        "rtt": {"kind": "uniform", "low": rtt_low, "high": rtt_high},
        "access_rate": "10Mbps",
        "start": {"kind": "uniform", "low": "0s", "high": "5s"},
        "tcp": {"cc": "reno", "packet_size": f"{PACKET_BYTES}B", "ecn": True, "max_window": 1000},
    }
    group.update(extra)
    return group


def dumbbell(
    name: str,
    rate_bps: float,
    queue: dict[str, Any],
    groups: list[dict[str, Any]],
    *,
    duration: float,
    measure_start: float,
    bottleneck_delay: str = "10ms",
) -> dict[str, Any]:
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{measure_start}s",
        "seed": 1,
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"rate": rate_bps, "delay": bottleneck_delay, "queue": queue},
            "groups": groups,
        },
        "trace": {"interval": "100ms", "flows": 0},
    }


def window(samples: dict[str, np.ndarray], start: float, end: float = np.inf) -> dict[str, np.ndarray]:
    keep = (samples["time_s"] >= start) & (samples["time_s"] < end)
    return {key: value[keep] for key, value in samples.items()}


def queue_stats(results: Results, link: str | None = None) -> dict[str, float]:
    """Table I's Avg(qlen), Std(qlen), Avg(thr) over the measurement window, plus what we judge by."""
    samples = window(results.link_samples(link), results.measure_start_s)
    queue, virtual = samples["queue_packets"], samples["virtual_queue"]
    limit = results.summary(link)
    rate = float(samples["utilisation"].mean())
    has_virtual = bool(np.isfinite(virtual).all() and virtual.size and virtual.max() > 0)
    return {
        "queue_mean": float(queue.mean()),
        "queue_std": float(queue.std()),
        "throughput_share_mean": rate,
        "throughput_share_std": float(samples["utilisation"].std()),
        "empty": float(np.mean(queue <= 0.5)),
        "near_full": float(np.mean(queue >= 0.9 * queue.max())),
        "queue_max": float(queue.max()),
        "virtual_mean": float(virtual.mean()) if has_virtual else float("nan"),
        "virtual_cv": float(virtual.std() / virtual.mean()) if has_virtual else float("nan"),
        "loss_percent": float(limit["loss_percent"]),
    }


def measures(results: Results, link: str | None = None) -> dict[str, float]:
    """`queue_stats` in the paper's units: queue (packets), empty / near-full shares and
    throughput (% of C in 0.1 s samples), virtual queue (packets) and its coefficient of
    variation (E-RED only), loss (%)."""
    stats = queue_stats(results, link)
    out = {
        "queue_mean": stats["queue_mean"],
        "queue_std": stats["queue_std"],
        "empty": 100.0 * stats["empty"],
        "near_full": 100.0 * stats["near_full"],
        "throughput_mean": 100.0 * stats["throughput_share_mean"],
        "throughput_std": 100.0 * stats["throughput_share_std"],
        "loss": stats["loss_percent"],
    }
    if np.isfinite(stats["virtual_mean"]):
        out["virtual_mean"] = stats["virtual_mean"]
        out["virtual_cv"] = stats["virtual_cv"]
    return out


LC_NOTE = (
    "Large capacity (Section V-A): 1 Gb/s, 2000 Reno flows, bottleneck 10 ms, other links 1-20 ms (RTTs "
    "uniform in [24, 100] ms), p_min = 0.0005, 40 s, statistics over 10-39 s (the paper's interval)."
)
LD_NOTE = (
    "Large delay (Section V-A): 300 Mb/s, 1000 Reno flows, bottleneck 10 ms, other links 45-95 ms (RTTs "
    "uniform in [200, 400] ms), p_min = 0.00067."
)
SCALED = " Quick version scaled by 1/10 in capacity and flows (the same rate per flow), shorter runs."

#: Section V-A's two networks: capacity (b/s), flows, RTT range, p_min, duration, measure start.
NETWORKS = {
    "lc": (1e9, 2000, ("24ms", "100ms"), 0.0005, 40.0, 10.0),
    "ld": (300e6, 1000, ("200ms", "400ms"), 0.00067, 60.0, 20.0),
}
NETWORK_NAMES = {"lc": "large capacity", "ld": "large delay"}


def network(key: str, queue_kind: str, quick: bool) -> dict[str, Any]:
    """Section V-A's network `key` under RED, E-RED-iq (α = 1, γ = 0.95) or E-RED-aq (γ = 0.9,
    w = 0.001, Section V-B); quick: 1/10 of the capacity and flows, at most 25 s (lc) / 40 s."""
    rate, flows, rtt, p_min, duration, start = NETWORKS[key]
    scale = 0.1 if quick else 1.0
    rate, flows = rate * scale, round(flows * scale)
    if quick:
        duration = 25.0 if key == "lc" else 40.0
    if queue_kind == "red":
        queue = red_queue(rate)
    elif queue_kind == "ered":
        queue = ered_queue(rate, gamma=0.95, alpha=1.0, p_min=p_min, p_max=0.1, delay_scale=rtt[1])
    else:
        queue = ered_queue(
            rate, gamma=0.9, alpha=1.0, p_min=p_min, p_max=0.1, variant="aq", q_weight=0.001, delay_scale=rtt[1]
        )
    return dumbbell(
        f"{key}-{queue_kind}", rate, queue, [reno_group(flows, *rtt)], duration=duration, measure_start=start
    )


def red_against_ered_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Per network: RED's Avg/Std(qlen) and throughput std minus E-RED's, E-RED's mean
    throughput minus RED's (positive where E-RED is better)."""
    out = {}
    for key in NETWORKS:
        red, ered = m[f"{key}-red"], m[f"{key}-ered"]
        out[f"{key}_queue_mean_reduction"] = red["queue_mean"] - ered["queue_mean"]
        out[f"{key}_queue_std_reduction"] = red["queue_std"] - ered["queue_std"]
        out[f"{key}_throughput_std_reduction"] = red["throughput_std"] - ered["throughput_std"]
        out[f"{key}_throughput_gain"] = ered["throughput_mean"] - red["throughput_mean"]
    return out


def plot_runs(runs: dict[str, Results], path: Path, *, virtual: bool = True, link: str | None = None) -> None:
    rows = 3 if virtual else 2
    fig, axes = plt.subplots(rows, 1, figsize=(10, 2.3 * rows + 0.5), sharex=True, constrained_layout=True)
    for label, results in runs.items():
        samples = results.link_samples(link)
        axes[0].plot(samples["time_s"], samples["queue_packets"], lw=0.7, label=label)
        axes[-1].plot(samples["time_s"], samples["utilisation"], lw=0.7, label=label)
        if virtual and np.nanmax(samples["virtual_queue"], initial=0) > 0:
            axes[1].plot(samples["time_s"], samples["virtual_queue"], lw=0.8, label=label)
    axes[0].set_ylabel("real queue (packets)")
    if virtual:
        axes[1].set_ylabel("virtual queue (packets)")
    axes[-1].set_ylabel("throughput / C (0.1 s)")
    axes[-1].set_xlabel("time (s)")
    for axis in axes:
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8, loc="upper right")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig2_5_figures(out: Path, evidence: Evidence) -> list[str]:
    names = []
    for key in NETWORKS:
        plot_runs({"RED": evidence.kept[f"{key}-red"], "E-RED": evidence.kept[f"{key}-ered"]}, out / f"{key}.png")
        names.append(f"{key}.png")
    return names


declare(
    "seed002-fig2-5",
    runs=lambda quick: [
        Run(f"{key}-{kind}", network(key, kind, quick), measures, keep=True)
        for key in NETWORKS
        for kind in ("red", "ered")
    ],
    derive=red_against_ered_derive,
    figures=fig2_5_figures,
    notes=lambda quick: (
        LC_NOTE + " " + LD_NOTE + " Large delay: 60 s, statistics over 20-60 s (ours). "
        "Table I's numbers did not survive the text extraction; the data holds ours." + (SCALED if quick else "")
    ),
)


def fig6_figures(out: Path, evidence: Evidence) -> list[str]:
    plot_runs({NETWORK_NAMES[key]: evidence.kept[f"{key}-aq"] for key in NETWORKS}, out / "ered-aq.png")
    return ["ered-aq.png"]


declare(
    "seed002-fig6",
    runs=lambda quick: [Run(f"{key}-aq", network(key, "aq", quick), measures, keep=True) for key in NETWORKS],
    figures=fig6_figures,
    notes=lambda quick: "Section V-B: " + LC_NOTE + " " + LD_NOTE + (SCALED if quick else ""),
)
