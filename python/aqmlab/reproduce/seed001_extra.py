"""Seed 001 (Cx-TCP): the homogeneous features of Fig. 4, scalability (Fig. 6), the RED
comparison of Section V-A (Fig. 11) and the HighSpeed-TCP variant of Section V-B (Figs. 12-15).

The common settings and our choices where the paper is silent are those of seed001.py (its
docstring and `NOTE`): DropTail, 1-BDP buffers taken at RTT 100 ms, 10 ms of the RTT on the
bottleneck, 100 Mb/s access links, long-lived flows starting in [0, 10] s, web traffic as
Poisson arrivals of Reno transfers. Added here, also ours:

* Fig. 4(c): the "selected flow" has RTT 80 ms (the mean of Table I's [30, 130] ms), so that its
  fair share is about C/N; the other flows' RTTs are uniform in [30, 130] ms.
* Fig. 6: 100 web transfers per second for Table I's "100 flows" (ten times Fig. 5's).
* Fig. 11: "all flows RED" is Reno over RED with Cx-TCP's parameters (Section V-A: "adjusted to
  be the same as ... δmin, δth and pmax"): min_th = δmin·C, max_th = δth·C in packets, max_p =
  pmax = 0.05; gentle (ours: above max_th the drop probability rises to 1 at 2·max_th instead
  of jumping to 1), q_weight automatic (ns-2's −1).
* Figs. 12-15 use Table I's settings (Section V-B: "with the same parameters as specified in
  Section III-A"): delay-based HS-TCP is `cx_highspeed` (docs/congestion/cx.md), standard HS-TCP
  `highspeed` (RFC 3649, Low_Window 38). At 25 Mb/s with 30 flows the windows (about 10 packets)
  stay below Low_Window, where HighSpeed TCP is Reno; Fig. 12 therefore adds (full version only)
  a 250 Mb/s bottleneck with 30 flows (windows ≈ 100 packets), where HighSpeed's law is active.
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
from aqmlab.reproduce.seed001 import (
    CX,
    DELTA_TH_MS,
    NOTE,
    PACKET_BITS,
    RENO,
    RTT_SPREAD,
    bdp_packets,
    both,
    delay_ms,
    dumbbell,
    fairness_figure,
    fairness_measures,
    flow_throughput,
    loss_figure,
    loss_measures,
    loss_ratio_derive,
    parking_lot,
    save,
    second,
    tcp_group,
    web_group,
)
from aqmlab.reproduce.seed001_switching import (
    phase_measures,
    timeline,
)
from aqmlab.results import Results

CX_HS = {"kind": "cx_highspeed"}
HS = {"kind": "highspeed"}


def utilisation_bins(results: Results, bin_s: float) -> tuple[np.ndarray, np.ndarray]:
    samples = results.link_samples()
    rate = float(results.links.column("rate_bps")[results.link_id()].as_py())
    index = np.floor((samples["time_s"] - 1e-9) / bin_s).astype(np.int64)
    per_bin = np.bincount(index, weights=samples["departed_bytes"]) * 8.0 / (rate * bin_s)
    return (np.arange(per_bin.size) + 1) * bin_s, per_bin


def mean_windows(results: Results, start: float) -> np.ndarray:
    """Mean cwnd (packets) of every traced flow from `start` on."""
    trace = results.flow_trace.to_pandas()
    trace = trace[(trace["time_s"] > start) & trace["cwnd"].notna()]
    return trace.groupby("flow")["cwnd"].mean().to_numpy()


def jain(values: np.ndarray) -> float:
    return float(values.sum() ** 2 / (values.size * (values**2).sum()))


# --- Fig. 4: utilisation, window fairness, convergence ------------------------------------------

CONVERGENCE = {True: (60.0, 120.0, 180.0), False: (200.0, 400.0, 500.0)}


def homogeneous(quick: bool) -> dict[str, Any]:
    """Fig. 4(a)-(b): 30 Cx-TCP flows at 50 Mb/s, RTTs uniform in [30, 130] ms."""
    rate = 50e6
    scenario = dumbbell(
        "homogeneous",
        rate,
        bdp_packets(rate, 0.1),
        [tcp_group("cx", 30, CX, RTT_SPREAD)],
        duration=200.0 if quick else 500.0,
    )
    scenario["trace"] = {"interval": "50ms", "flows": 30}
    return scenario


def homogeneous_measures(results: Results) -> dict[str, float]:
    summary = results.summary()
    windows = mean_windows(results, results.measure_start_s)
    return {
        "utilisation": 100.0 * float(summary["utilisation_mean"]),
        "utilisation_min": 100.0 * float(summary["utilisation_min"]),
        "delay_ms": delay_ms(results),
        "window_jain": jain(windows),
        "window_min": float(windows.min()),
        "window_max": float(windows.max()),
    }


def convergence(quick: bool) -> dict[str, Any]:
    """Fig. 4(c): 31 Cx-TCP flows at 50 Mb/s, 20 more enter at 200 s, 30 leave at 400 s (quick:
    at 60 and 120 s of 180); the selected flow (traced) has RTT 80 ms (ours)."""
    rate = 50e6
    join_at, leave_at, end = CONVERGENCE[quick]
    groups = [
        tcp_group("selected", 1, CX, "80ms"),
        tcp_group("leaving", 30, CX, RTT_SPREAD, stop={"kind": "fixed", "at": f"{leave_at}s"}),
        tcp_group("joining", 20, CX, RTT_SPREAD, start={"kind": "fixed", "at": f"{join_at}s"}),
    ]
    scenario = dumbbell("convergence", rate, bdp_packets(rate, 0.1), groups, duration=end, measure_start=0.0)
    scenario["trace"] = {"interval": "100ms", "flows": 1}
    return scenario


def selected_rate(results: Results) -> tuple[np.ndarray, np.ndarray]:
    trace = results.flow_trace.to_pandas()
    trace = trace[(trace["flow"] == 0) & trace["cwnd"].notna()]
    return trace["time_s"].to_numpy(), (trace["cwnd"] * PACKET_BITS / trace["srtt_s"]).to_numpy()


def convergence_measures(quick: bool):
    join_at, leave_at, _ = CONVERGENCE[quick]

    def measure(results: Results) -> dict[str, float]:
        """The selected flow's rate over C/N in each phase, and its mean 2-12 s after each change
        over the rest of that phase."""
        t, rate = selected_rate(results)
        out = {}
        for n, (low, high) in {31: (20.0, join_at), 51: (join_at, leave_at), 21: (leave_at, results.end_s)}.items():
            rows = (t > low + 15.0) & (t <= high)
            out[f"share_n{n}"] = float(rate[rows].mean() / (50e6 / n))
            if low > 20.0:
                early = (t > low + 2.0) & (t <= low + 12.0)
                out[f"settled_n{n}"] = float(rate[early].mean() / rate[rows].mean())
        return out

    return measure


def fig4_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    c = m["convergence"]
    shares = [c["share_n31"], c["share_n51"], c["share_n21"]]
    settled = [c["settled_n51"], c["settled_n21"]]
    return {
        "share_min": min(shares),
        "share_max": max(shares),
        "settled_min": min(settled),
        "settled_max": max(settled),
    }


def fig4_figures(out: Path, evidence: Evidence) -> list[str]:
    results = evidence.kept["homogeneous"]
    times, instantaneous = utilisation_bins(results, 0.5)
    average = np.cumsum(instantaneous) / np.arange(1, instantaneous.size + 1)
    windows = mean_windows(results, results.measure_start_s)
    rtts = results.flows.to_pandas()["rtt_mean_s"].to_numpy()
    t, rate = selected_rate(evidence.kept["convergence"])
    join_at, leave_at, end = CONVERGENCE[evidence.quick]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4), constrained_layout=True)
    axes[0].plot(times, 100 * instantaneous, lw=0.5, label="0.5 s bins")
    axes[0].plot(times, 100 * average, lw=1.5, label="running average")
    axes[0].set(xlabel="time (s)", ylabel="utilisation (%)", ylim=(0, 105), title="(a) 30 flows, 50 Mb/s")
    axes[1].scatter(1000 * rtts[: windows.size], windows, s=12)
    axes[1].set(
        xlabel="mean RTT of the flow (ms)",
        ylabel="mean cwnd, second half (packets)",
        title="(b) average window per flow",
    )
    axes[2].plot(t, rate / 1e6, lw=0.6, label="selected flow (cwnd/srtt)")
    for n, (low, high) in {31: (0, join_at), 51: (join_at, leave_at), 21: (leave_at, end)}.items():
        axes[2].hlines(50 / n, low, high, colors="k", linestyles="--", lw=1)
    axes[2].set(xlabel="time (s)", ylabel="rate (Mb/s)", title="(c) 31 → 51 → 21 flows; dashed: C/N")
    for axis in axes:
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    return [save(fig, out, "fig4.png")]


declare(
    "seed001-fig4",
    runs=lambda quick: [
        Run("homogeneous", homogeneous(quick), homogeneous_measures, keep=True),
        Run("convergence", convergence(quick), convergence_measures(quick), keep=True),
    ],
    derive=fig4_derive,
    figures=fig4_figures,
    notes=lambda quick: (
        NOTE
        + f" (a)-(b): one {200 if quick else 500} s run of 30 Cx-TCP flows per seed, buffer "
        "625 packets (1 BDP at 100 ms); (c): 31 flows, 20 more at {0:.0f} s, 30 leaving at {1:.0f} s, {2:.0f} s; "
        "the selected flow has RTT 80 ms (ours) and its rate is estimated as cwnd/srtt every 100 ms.".format(
            *CONVERGENCE[quick]
        )
    ),
)


# --- Fairness of two kinds of flows (Figs. 6 and 13) --------------------------------------------


def two_kinds(
    name: str,
    counts: dict[str, int],
    *,
    rate: float,
    duration: float,
    web_rate: float | None,
) -> dict[str, Any]:
    """`counts` flows per congestion control (`kind` names) at `rate`, RTTs uniform in [30, 130]
    ms, 1-BDP buffer at 100 ms, web transfers at `web_rate` per second."""
    groups = [tcp_group(kind, count, {"kind": kind}, RTT_SPREAD) for kind, count in counts.items() if count]
    if web_rate:
        groups.append(web_group(arrival_rate=web_rate))
    return dumbbell(name, rate, bdp_packets(rate, 0.1), groups, duration=duration)


def fig6_size(quick: bool) -> tuple[float, int, int, float]:
    """Rate, Cx-TCP and Reno flows, duration; quick: a fifth of the size (same C/N), 60 s."""
    scale, duration = (0.2, 60.0) if quick else (1.0, 500.0)
    return 500e6 * scale, round(400 * scale), round(200 * scale), duration


def fig6_runs(quick: bool) -> list[Run]:
    rate, cx, reno, duration = fig6_size(quick)
    scenario = two_kinds("mix", {"cx": cx, "reno": reno}, rate=rate, duration=duration, web_rate=rate / 5e6)
    return [Run("mix", scenario, fairness_measures, keep=True)]


declare(
    "seed001-fig6",
    runs=fig6_runs,
    figures=lambda out, evidence: fairness_figure(out, evidence, ["mix"], "fig6.png", ("Cx-TCP", "Reno")),
    notes=lambda quick: (
        NOTE
        + " {0:.0f} Mb/s, ({1}, {2}) flows, {4:.0f} web transfers/s, buffer 1 BDP at 100 ms, {3:.0f} s; throughput "
        "per flow over its life, normalised by the largest.".format(*fig6_size(quick), fig6_size(quick)[0] / 5e6)
        + (" Quick: a fifth of the paper's size, same C/N." if quick else "")
    ),
)


# --- Fig. 11: Cx-TCP against RED in the parking lot ----------------------------------------------


def red_like_cx(rate_bps: float, limit: int) -> dict[str, Any]:
    """RED with Cx-TCP's δmin = 5 ms, δth = 20 ms and pmax = 0.05 in packets at `rate_bps`."""
    per_second = rate_bps / PACKET_BITS
    return {
        "kind": "red",
        "limit": f"{limit}p",
        "min_th": 0.005 * per_second,
        "max_th": 0.020 * per_second,
        "max_p": 0.05,
        "q_weight": -1,
        "gentle": True,
        "mean_packet_size": "1000B",
    }


def fig11_runs(quick: bool) -> list[Run]:
    duration = 200.0 if quick else 500.0
    cx = [both(tcp_group("both", 15, CX, RTT_SPREAD)), second(tcp_group("second", 15, CX, RTT_SPREAD))]
    reno = [both(tcp_group("both", 15, RENO, RTT_SPREAD)), second(tcp_group("second", 15, RENO, RTT_SPREAD))]
    red = parking_lot("red", reno, duration=duration)
    for link, rate, limit in zip(red["topology"]["links"], (12.5e6, 25e6), (155, 310), strict=True):
        link["queue"] = red_like_cx(rate, limit)
    return [
        Run("cx", parking_lot("cx", cx, duration=duration), path_measures, keep=True),
        Run("red", red, path_measures, keep=True),
    ]


def path_measures(results: Results) -> dict[str, float]:
    throughput = flow_throughput(results)
    return {
        "both_mbps": float(throughput["both"].mean() / 1e6),
        "second_mbps": float(throughput["second"].mean() / 1e6),
        "split": float(throughput["both"].mean() / throughput["second"].mean()),
        "link1_delay_ms": delay_ms(results, "link1"),
        "link2_delay_ms": delay_ms(results, "link2"),
    }


def fig11_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    cx, red = m["cx"], m["red"]
    return {
        "ratio_both": cx["both_mbps"] / red["both_mbps"],
        "ratio_second": cx["second_mbps"] / red["second_mbps"],
        "split_ratio": cx["split"] / red["split"],
        "cx_delay_worst": max(cx["link1_delay_ms"], cx["link2_delay_ms"]),
    }


def fig11_figures(out: Path, evidence: Evidence) -> list[str]:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True, sharey=True)
    for axis, (name, label) in zip(
        axes, (("cx", "Cx-TCP, DropTail"), ("red", "Reno, RED(δmin, δth, pmax)")), strict=True
    ):
        values = flow_throughput(evidence.kept[name])
        position = 0
        for path, color in (("both", "tab:purple"), ("second", "tab:green")):
            axis.bar(
                np.arange(position, position + values[path].size),
                values[path] / 1e6,
                color=color,
                width=1.0,
                label=f"{path} (mean {values[path].mean() / 1e6:.2f} Mb/s)",
            )
            position += values[path].size
        axis.set_title(f"{label} (seed 1)", fontsize=10)
        axis.set_xlabel("flow")
        axis.legend(fontsize=8)
        axis.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("average throughput (Mb/s)")
    return [save(fig, out, "fig11.png")]


declare(
    "seed001-fig11",
    runs=fig11_runs,
    derive=fig11_derive,
    figures=fig11_figures,
    notes=lambda quick: (
        NOTE + " Parking lot of seed001-fig9 (12.5 Mb/s with 155 packets, 25 Mb/s with 310, 5 ms each), 15 flows "
        "crossing "
        f"both links and 15 the second only, no web traffic, {200 if quick else 500} s. RED: min_th/max_th = 5/20 "
        f"ms "
        "of the link rate (7.8/31.3 and 15.6/62.5 packets), max_p 0.05, gentle, automatic q_weight."
    ),
)


# --- Figs. 12-15: the HighSpeed-TCP variant ---------------------------------------------------------


def hs_homogeneous(rate: float, kind: str, duration: float) -> dict[str, Any]:
    """30 flows of `kind` alone at `rate` (RTT 100 ms, 1-BDP buffer), their windows traced."""
    scenario = dumbbell(
        f"hs-{kind}", rate, bdp_packets(rate, 0.1), [tcp_group("flows", 30, {"kind": kind})], duration=duration
    )
    scenario["trace"] = {"interval": "100ms", "flows": 30}
    return scenario


def hs_measures(results: Results) -> dict[str, float]:
    summary = results.summary()
    return {
        "delay_ms": delay_ms(results),
        "loss": float(summary["loss_percent"]),
        "utilisation": 100.0 * float(summary["utilisation_mean"]),
        "window": float(mean_windows(results, results.measure_start_s).mean()),
    }


def fig12_rates(quick: bool) -> list[float]:
    return [25e6] if quick else [25e6, 250e6]


def fig12_figures(out: Path, evidence: Evidence) -> list[str]:
    rates = fig12_rates(evidence.quick)
    labels = [(f"{r / 1e6:g}", kind) for r in rates for kind in ("cx", "hs")]
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    axis.bar(
        np.arange(len(labels)),
        [evidence.mean(f"{kind}{rate}.delay_ms") for rate, kind in labels],
        color=["tab:blue" if kind == "cx" else "tab:red" for _, kind in labels],
    )
    axis.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="δth")
    axis.set_xticks(
        np.arange(len(labels)),
        [f"{'delay-based' if k == 'cx' else 'standard'}\n{r} Mb/s" for r, k in labels],
        fontsize=8,
    )
    axis.set_ylabel("mean queueing delay (ms), mean over seeds")
    axis.legend(fontsize=8)
    axis.grid(alpha=0.3, axis="y")
    return [save(fig, out, "fig12.png")]


declare(
    "seed001-fig12",
    runs=lambda quick: [
        Run(f"{name}{rate / 1e6:g}", hs_homogeneous(rate, kind, 100.0 if quick else 500.0), hs_measures)
        for rate in fig12_rates(quick)
        for name, kind in (("cx", "cx_highspeed"), ("hs", "highspeed"))
    ],
    figures=fig12_figures,
    notes=lambda quick: (
        NOTE + f" 30 flows, RTT 100 ms, buffer 1 BDP, {100 if quick else 500} s, measured over the second half. HS-TCP "
        "(RFC 3649) is Reno below a window of 38 packets: at 25 Mb/s the windows are about 10 packets"
        + ("." if quick else "; the 250 Mb/s runs (ours) put them near 100, where its law is active.")
    ),
)


declare(
    "seed001-fig13",
    runs=lambda quick: [
        Run(
            f"mix{a}-{b}",
            two_kinds(
                f"mix{a}-{b}",
                {"cx_highspeed": a, "highspeed": b},
                rate=25e6,
                duration=100.0 if quick else 500.0,
                web_rate=10.0,
            ),
            fairness_measures,
            keep=True,
        )
        for a, b in ((20, 10), (10, 20))
    ],
    figures=lambda out, evidence: fairness_figure(
        out, evidence, ["mix20-10", "mix10-20"], "fig13.png", ("delay-based HS-TCP", "HS-TCP")
    ),
    notes=lambda quick: (
        NOTE + f" As seed001-fig5 with HS-TCP: {100 if quick else 500} s, buffer 313 packets; "
        "the caption names two mixes (the text says three; the third is not given)."
    ),
)


def fig14_rates(quick: bool) -> list[float]:
    return [10e6, 25e6] if quick else [10e6, 25e6, 50e6, 75e6, 100e6]


declare(
    "seed001-fig14",
    runs=lambda quick: [
        Run(
            f"{label}{rate / 1e6:g}",
            two_kinds(label, counts, rate=rate, duration=100.0 if quick else 500.0, web_rate=10.0),
            loss_measures,
        )
        for rate in fig14_rates(quick)
        for label, counts in (("mix", {"cx_highspeed": 20, "highspeed": 10}), ("alone", {"highspeed": 30}))
    ],
    derive=loss_ratio_derive(fig14_rates),
    figures=lambda out, evidence: loss_figure(
        out,
        evidence,
        fig14_rates(evidence.quick),
        "fig14.png",
        ("20 delay-based + 10 standard HS-TCP", "30 standard HS-TCP"),
    ),
    notes=lambda quick: (
        NOTE + f" As seed001-fig7 with HS-TCP: {100 if quick else 500} s runs measured over the "
        "second half, buffer 1 BDP."
    ),
)


def fig15_scenario() -> dict[str, Any]:
    """Table I's timing: 10 HS-TCP flows enter 0.5 s apart from 100 s and leave 5 s apart from
    250 s, with 20 delay-based HS-TCP flows, 500 s."""
    rate = 25e6
    intermittent = tcp_group(
        "hs",
        10,
        HS,
        RTT_SPREAD,
        start={"kind": "staggered", "first": "100s", "spacing": "0.5s"},
        stop={"kind": "staggered", "first": "250s", "spacing": "5s"},
    )
    return dumbbell(
        "on-off",
        rate,
        bdp_packets(rate, 0.1),
        [tcp_group("cx_hs", 20, CX_HS, RTT_SPREAD), intermittent],
        duration=500.0,
        measure_start=0.0,
    )


declare(
    "seed001-fig15",
    runs=lambda quick: [Run("onoff", fig15_scenario(), phase_measures(), keep=True)],
    figures=lambda out, evidence: timeline(out, {"seed 1": evidence.kept["onoff"]}, "fig15.png", [None]),
    notes=NOTE + " One 500 s run per seed (quick and full are the same; quick: 2 seeds): 10 HS-TCP flows enter "
    "0.5 s apart from 100 s and leave 5 s apart from 250 s; phases 50-100, 110-250 and 350-500 s; buffer 313 "
    "packets.",
)
