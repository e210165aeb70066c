"""Seed 002 Sections V-C to V-F at packet level, as declarations: a UDP flow joining and leaving
(Fig. 7), the adaptation gain α (Fig. 8), HighSpeed TCP (Fig. 9) and the six-router network
(Figs. 11-12). Settings and our choices as seed002.py (its docstring); each reproduction's notes
say what is added. Every run is repeated over 5 seeds (quick: 2); verdicts on the mean.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

from aqmlab import _toml as tomllib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run
from aqmlab.reproduce.figures import saved
from aqmlab.reproduce.seed002 import (
    PACKET_BYTES,
    dumbbell,
    ered_queue,
    measures,
    plot_runs,
    reno_group,
)
from aqmlab.results import Results

# --- Fig. 7: UDP in and out --------------------------------------------------------------------

JOIN, LEAVE = 50.0, 70.0
SPANS = {"before": (35.0, 50.0), "during": (60.0, 70.0), "after": (85.0, 100.0)}


def udp_scenario() -> dict[str, Any]:
    """Section V-C: 100 Mb/s, 200 Reno flows, RTTs 20-100 ms, E-RED-iq; a 30 Mb/s UDP flow
    (ours: the text keeps only 'a fixed rate of 3') from 50 to 70 s."""
    rate = 100e6
    udp = {
        "name": "udp",
        "kind": "udp",
        "count": 1,
        "rate": "30Mbps",
        "rtt": "60ms",
        "access_rate": "1Gbps",
        "packet_size": f"{PACKET_BYTES}B",
        "start": {"kind": "fixed", "at": f"{JOIN}s"},
        "stop": {"kind": "fixed", "at": f"{LEAVE}s"},
    }
    queue = ered_queue(rate, gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale="100ms")
    return dumbbell(
        "udp-in-out",
        rate,
        queue,
        [reno_group(200, "20ms", "100ms"), udp],
        duration=100.0,
        measure_start=20.0,
        bottleneck_delay="5ms",
    )


def settling(results: Results) -> dict[str, float]:
    """Seconds from the join (leave) until the virtual queue's 0.5 s moving mean has made 90 %
    of its step between the median levels before and after; the median levels (packets)."""
    samples = results.link_samples()
    time, virtual = samples["time_s"], samples["virtual_queue"]
    smoothed = np.convolve(virtual, np.ones(5) / 5, mode="same")  # 0.5 s of 0.1 s samples
    levels = {name: float(np.median(virtual[(time >= a) & (time < b)])) for name, (a, b) in SPANS.items()}

    def settle(event: float, old: float, new: float) -> float:
        progress = (smoothed - old) / (new - old)
        reached = np.nonzero((time >= event) & (progress >= 0.9))[0]
        return float(time[reached[0]] - event) if reached.size else float("inf")

    return {
        "settle_join": settle(JOIN, levels["before"], levels["during"]),
        "settle_leave": settle(LEAVE, levels["during"], levels["after"]),
        **{f"level_{name}": value for name, value in levels.items()},
    }


def fig7_figures(out: Path, evidence: Evidence) -> list[str]:
    samples = evidence.kept["udp"].link_samples()
    fig, axis = plt.subplots(figsize=(10, 3.5), constrained_layout=True)
    axis.plot(samples["time_s"], samples["virtual_queue"], lw=0.8)
    for event in (JOIN, LEAVE):
        axis.axvline(event, color="grey", ls="--", lw=0.8)
    axis.set(xlabel="time (s)", ylabel="virtual queue (packets)", title="UDP 30 Mb/s in at 50 s, out at 70 s (seed 1)")
    axis.grid(alpha=0.3)
    return saved(fig, out, "udp-in-out.png")


declare(
    "seed002-fig7",
    runs=lambda quick: [Run("udp", udp_scenario(), settling, keep=True)],
    figures=fig7_figures,
    notes="Section V-C: 100 Mb/s, 200 Reno flows, RTTs uniform in [20, 100] ms, E-RED-iq (α = 1, γ = 0.95, "
    "p_min = 0.0005); the UDP rate is ours (30 Mb/s: the text keeps only 'a fixed rate of 3'). Quick and full "
    "versions are the same 100 s run (quick: 2 seeds).",
)

# --- Fig. 8: the adaptation gain -----------------------------------------------------------------

ALPHAS = (1.0, 2.0, 4.0, 8.0)


def alpha_scenario(alpha: float, quick: bool) -> dict[str, Any]:
    """Section V-D: 200 Mb/s, 200 flows, RTTs 20-100 ms, p_min 0.0005, p_max 0.1, γ = 0.9
    (quick: 100 Mb/s and 100 flows, 40 s)."""
    rate, flows = (100e6, 100) if quick else (200e6, 200)
    queue = ered_queue(rate, gamma=0.9, alpha=alpha, p_min=0.0005, p_max=0.1, delay_scale="100ms")
    return dumbbell(
        f"alpha-{alpha:g}",
        rate,
        queue,
        [reno_group(flows, "20ms", "100ms")],
        duration=40.0 if quick else 60.0,
        measure_start=20.0,
        bottleneck_delay="5ms",
    )


def alpha_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    cv = {a: m[f"alpha{a:g}"]["virtual_cv"] for a in ALPHAS}
    return {
        "cv_rise_2_to_4": cv[4.0] - cv[2.0],
        "cv_rise_4_to_8": cv[8.0] - cv[4.0],
        "cv_8_over_1": cv[8.0] / cv[1.0],
    }


def fig8_figures(out: Path, evidence: Evidence) -> list[str]:
    fig, axes = plt.subplots(len(ALPHAS), 1, figsize=(10, 8), sharex=True, constrained_layout=True)
    for axis, alpha in zip(axes, ALPHAS, strict=True):
        samples = evidence.kept[f"alpha{alpha:g}"].link_samples()
        axis.plot(samples["time_s"], samples["virtual_queue"], lw=0.8)
        axis.set(ylabel="virtual queue", title=f"α = {alpha:g} (seed 1)")
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    return saved(fig, out, "alpha.png")


declare(
    "seed002-fig8",
    runs=lambda quick: [Run(f"alpha{alpha:g}", alpha_scenario(alpha, quick), measures, keep=True) for alpha in ALPHAS],
    derive=alpha_derive,
    figures=fig8_figures,
    notes=lambda quick: (
        "Section V-D: RTTs uniform in [20, 100] ms; statistics over 20 s to the end. α = 1 is "
        "added as the reference the paper calls stable (Sections V-A, V-D)."
        + (" Quick version: 100 Mb/s and 100 flows (the same rate per flow), 40 s." if quick else "")
    ),
)

# --- Fig. 9: HighSpeed TCP -------------------------------------------------------------------------


def highspeed_scenario() -> dict[str, Any]:
    """Section V-E: 3 HighSpeed TCP users, 10 Mb/s of capacity each, RTT 200 ms; buffer 60
    packets (ours: 2.5 ms of 30 Mb/s is only 9)."""
    rate = 30e6
    group = {
        "name": "hstcp",
        "count": 3,
        "rtt": "200ms",
        "access_rate": "1Gbps",
        "start": {"kind": "uniform", "low": "0s", "high": "1s"},
        "tcp": {"cc": "highspeed", "packet_size": f"{PACKET_BYTES}B", "ecn": True, "max_window": 100000},
    }
    queue = ered_queue(rate, limit="60p", gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale="200ms")
    scenario = dumbbell("hstcp-ered", rate, queue, [group], duration=100.0, measure_start=25.0)
    scenario["trace"]["flows"] = 3
    return scenario


def per_user_share(results: Results) -> dict[str, float]:
    share = results.flows.column("goodput_bps").to_numpy() / 10e6
    return {"share_mean": float(share.mean()), "share_min": float(share.min()), "share_max": float(share.max())}


def fig9_figures(out: Path, evidence: Evidence) -> list[str]:
    trace = evidence.kept["hstcp"].flow_trace
    flows = trace.column("flow").to_numpy()
    fig, axis = plt.subplots(figsize=(10, 3.5), constrained_layout=True)
    for flow in np.unique(flows):
        rows = flows == flow
        axis.plot(trace.column("time_s").to_numpy()[rows], trace.column("cwnd").to_numpy()[rows], lw=0.8)
    axis.set(xlabel="time (s)", ylabel="window (packets)", title="HighSpeed TCP over E-RED, 3 users (seed 1)")
    axis.grid(alpha=0.3)
    return saved(fig, out, "hstcp-windows.png")


declare(
    "seed002-fig9",
    runs=lambda quick: [Run("hstcp", highspeed_scenario(), per_user_share, keep=True)],
    figures=fig9_figures,
    notes="Section V-E: the per-user capacity and RTT are the paper's; the buffer (60 packets, 2.5 ms of 30 Mb/s "
    "is only 9) and access links are ours; measured over the last 75 s of 100 s. Quick and full versions are the "
    "same run (quick: 2 seeds).",
)

# --- Figs. 11-12: the six-router network ----------------------------------------------------------

NETWORK_EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "seed002-fig11-network.toml"


def network_from_example(quick: bool) -> dict[str, Any]:
    """The Fig. 11 network of the example file with E-RED on every inter-router link (both directions)."""
    if not NETWORK_EXAMPLE.is_file():
        raise FileNotFoundError(f"seed002-fig12 builds on {NETWORK_EXAMPLE}; run it from a checkout of aqmlab")
    scenario = tomllib.loads(NETWORK_EXAMPLE.read_text())
    for link in scenario["topology"]["links"]:
        link["queue"] = ered_queue(100e6, gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale="100ms")
        link["reverse_queue"] = dict(link["queue"])
    for group in scenario["topology"]["groups"]:
        group.setdefault("tcp", {}).update({"packet_size": f"{PACKET_BYTES}B", "ecn": True, "max_window": 1000})
    scenario["duration"], scenario["measure_start"] = ("30s", "15s") if quick else ("60s", "20s")
    scenario["trace"] = {"interval": "100ms", "flows": 0}
    return scenario


def network_measures(results: Results) -> dict[str, float]:
    """R2-R4's virtual queue and throughput; over the links where E-RED acts (virtual queue
    mean above b_min = 6 packets), the largest CV and their number."""
    links = [name for name in results.traced_links if "-" in name and not name.endswith("reverse")]
    stats = {name: measures(results, name) for name in links}
    loaded = [s["virtual_cv"] for s in stats.values() if s.get("virtual_mean", 0.0) > 6]
    r24 = stats["R2-R4"]
    return {
        "r2r4_virtual_cv": r24["virtual_cv"],
        "r2r4_virtual_mean": r24["virtual_mean"],
        "r2r4_throughput": r24["throughput_mean"],
        "loaded_links": float(len(loaded)),
        "worst_loaded_cv": float(max(loaded)),
    }


def fig12_figures(out: Path, evidence: Evidence) -> list[str]:
    plot_runs({"R2-R4": evidence.kept["network"]}, out / "r2-r4.png", link="R2-R4")
    return ["r2-r4.png"]


declare(
    "seed002-fig12",
    runs=lambda quick: [Run("network", network_from_example(quick), network_measures, keep=True)],
    figures=fig12_figures,
    notes=lambda quick: (
        "Section V-F with the topology and paths of examples/seed002-fig11-network.toml (paths "
        "read from the garbled text), every inter-router link running E-RED-iq (α = 1, γ = 0.95, p_min = 0.0005, "
        "buffer 2.5 ms = 30 packets, ECN), Reno with ECN and max window 1000, 1040-byte packets; 60 s, statistics "
        "over 20-60 s." + (" Quick version: 30 s, statistics over 15-30 s." if quick else "")
    ),
)
