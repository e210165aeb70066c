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

from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.reproduce.seed001 import (
    CX,
    DELTA_TH_MS,
    LOSS_RATIO_MAX,
    NOTE,
    PACKET_BITS,
    PAPER,
    RENO,
    RTT_SPREAD,
    UTILISATION_BAND,
    bdp_packets,
    binned,
    both,
    delay_ms,
    dumbbell,
    flow_throughput,
    parking_lot,
    phase,
    save,
    second,
    tcp_group,
    web_group,
)
from aqmlab.results import Results
from aqmlab.simulation import simulate

CX_HS = {"kind": "cx_highspeed"}
HS = {"kind": "highspeed"}
NAMES = {"cx": "Cx-TCP", "reno": "Reno", "cx_highspeed": "delay-based HS-TCP", "highspeed": "HS-TCP"}


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


def convergence(quick: bool) -> tuple[dict[str, Any], float, float]:
    """Fig. 4(c): 31 Cx-TCP flows at 50 Mb/s, 20 more enter at 200 s, 30 leave at 400 s (quick:
    at 60 and 120 s of 180)."""
    rate = 50e6
    join_at, leave_at, end = (60.0, 120.0, 180.0) if quick else (200.0, 400.0, 500.0)
    groups = [
        tcp_group("selected", 1, CX, "80ms"),
        tcp_group("leaving", 30, CX, RTT_SPREAD, stop={"kind": "fixed", "at": f"{leave_at}s"}),
        tcp_group("joining", 20, CX, RTT_SPREAD, start={"kind": "fixed", "at": f"{join_at}s"}),
    ]
    scenario = dumbbell("convergence", rate, bdp_packets(rate, 0.1), groups, duration=end, measure_start=0.0)
    scenario["trace"] = {"interval": "100ms", "flows": 1}
    return scenario, join_at, leave_at


@reproduction(
    "seed001-fig4",
    PAPER,
    "Fig. 4: utilisation, window fairness and convergence of Cx-TCP alone",
    "50 Mb/s, RTTs uniform in [30, 130] ms: 30 Cx-TCP flows keep the link 95-97 % utilised and reach "
    "similar average windows; when flows enter (20 at 200 s) or leave (30 at 400 s) a flow's allocation "
    "switches at once to the new equilibrium.",
    "≈10 s",
)
def fig4(out: Path, quick: bool) -> Outcome:
    rate, duration = 50e6, 200.0 if quick else 500.0
    scenario = dumbbell(
        "homogeneous", rate, bdp_packets(rate, 0.1), [tcp_group("cx", 30, CX, RTT_SPREAD)], duration=duration
    )
    scenario["trace"] = {"interval": "50ms", "flows": 30}
    results = simulate(scenario)
    summary = results.summary()
    times, instantaneous = utilisation_bins(results, 0.5)
    average = np.cumsum(instantaneous) / np.arange(1, instantaneous.size + 1)
    windows = mean_windows(results, results.measure_start_s)
    flows = results.flows.to_pandas()
    rtts = flows["rtt_mean_s"].to_numpy()
    goodput = flows["goodput_bps"].to_numpy()
    short, long = np.argmin(rtts), np.argmax(rtts)

    scenario, join_at, leave_at = convergence(quick)
    moving = simulate(scenario)
    end = moving.end_s
    trace = moving.flow_trace.to_pandas()
    trace = trace[(trace["flow"] == 0) & trace["cwnd"].notna()]
    t, selected = trace["time_s"].to_numpy(), (trace["cwnd"] * PACKET_BITS / trace["srtt_s"]).to_numpy()
    phases = {31: (20.0, join_at), 51: (join_at, leave_at), 21: (leave_at, end)}
    shares, settled = {}, {}
    for n, (low, high) in phases.items():
        rows = (t > low + 15.0) & (t <= high)
        shares[n] = float(selected[rows].mean() / (rate / n))
        if low > 20.0:  # the first 12 s after the change against the rest of the phase
            first = (t > low + 2.0) & (t <= low + 12.0)
            settled[n] = float(selected[first].mean() / selected[rows].mean())

    fig, axes = plt.subplots(1, 3, figsize=(16, 4), constrained_layout=True)
    axes[0].plot(times, 100 * instantaneous, lw=0.5, label="0.5 s bins")
    axes[0].plot(times, 100 * average, lw=1.5, label="running average")
    axes[0].set(xlabel="time (s)", ylabel="utilisation (%)", ylim=(0, 105), title="(a) 30 flows, 50 Mb/s")
    axes[1].scatter(1000 * rtts, windows, s=12)
    axes[1].set(
        xlabel="mean RTT of the flow (ms)",
        ylabel="mean cwnd, second half (packets)",
        title="(b) average window per flow",
    )
    axes[2].plot(t, selected / 1e6, lw=0.6, label="selected flow (cwnd/srtt)")
    for n, (low, high) in phases.items():
        axes[2].hlines(rate / n / 1e6, low, high, colors="k", linestyles="--", lw=1)
    axes[2].set(xlabel="time (s)", ylabel="rate (Mb/s)", title="(c) 31 → 51 → 21 flows; dashed: C/N")
    for axis in axes:
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    figure = save(fig, out, "fig4.png")
    claims = [
        Claim(
            "(a) the link stays close to fully used",
            "average utilisation 95-97 % (Section III-A3)",
            f"mean utilisation over the second half {100 * summary['utilisation_mean']:.1f} %, lowest 1 s bin "
            f"{100 * summary['utilisation_min']:.1f} %; queueing delay {delay_ms(results):.1f} ms (criterion: "
            "mean 94.5-97.5 %, as seed001-fig2)",
            bool(UTILISATION_BAND[0] <= summary["utilisation_mean"] <= UTILISATION_BAND[1]),
        ),
        Claim(
            "(b) flows with different RTTs reach similar average windows",
            "similar average cwnd (window fairness)",
            f"Jain's index of the mean windows {jain(windows):.3f}, range {windows.min():.1f}-{windows.max():.1f} "
            f"packets; goodput of the shortest-RTT flow ({1000 * rtts[short]:.0f} ms) {goodput[short] / 1e6:.2f} "
            f"against {goodput[long] / 1e6:.2f} Mb/s for the longest ({1000 * rtts[long]:.0f} ms) "
            "(criterion: Jain's index of the windows ≥ 0.95)",
            bool(jain(windows) >= 0.95),
        ),
        Claim(
            "(c) the allocation follows the number of flows",
            "the selected flow moves to the new equilibrium",
            "selected flow's rate / (C/N): "
            + ", ".join(f"{value:.2f} (N = {n})" for n, value in shares.items())
            + " (criterion: 0.75-1.25 in every phase)",
            bool(all(0.75 <= value <= 1.25 for value in shares.values())),
        ),
        Claim(
            "(c) the switch is immediate",
            "the allocation switches instantaneously",
            "mean rate 2-12 s after the change / mean over the rest of the phase: "
            + ", ".join(f"{value:.2f} (to N = {n})" for n, value in settled.items())
            + " (criterion: 0.75-1.25)",
            bool(all(0.75 <= value <= 1.25 for value in settled.values())),
        ),
    ]
    note = NOTE + (
        f" (a)-(b): one {duration:.0f} s run of 30 Cx-TCP flows, buffer 625 packets (1 BDP at 100 ms); "
        f"(c): 31 flows, 20 more at {join_at:.0f} s, 30 leaving at {leave_at:.0f} s, {end:.0f} s; the "
        "selected flow has RTT 80 ms (ours) and its rate is estimated as cwnd/srtt every 100 ms."
    )
    data = {
        "utilisation_mean": summary["utilisation_mean"],
        "window_jain": jain(windows),
        "share": shares,
        "settled": settled,
    }
    return Outcome(claims, [figure], note, data)


# --- Fairness of two kinds of flows (Figs. 6 and 13) --------------------------------------------


def mix(
    name: str,
    counts: dict[str, int],
    ccs: dict[str, dict[str, Any]],
    *,
    rate: float,
    duration: float,
    web_rate: float | None,
) -> dict[str, Any]:
    groups = [tcp_group(kind, count, ccs[kind], RTT_SPREAD) for kind, count in counts.items() if count]
    if web_rate:
        groups.append(web_group(arrival_rate=web_rate))
    return dumbbell(name, rate, bdp_packets(rate, 0.1), groups, duration=duration)


def fairness(
    out: Path,
    figure_name: str,
    mixes: list[tuple[int, int]],
    delay_kind: str,
    loss_kind: str,
    *,
    rate: float,
    duration: float,
    web_rate: float,
) -> tuple[list[Claim], dict[str, Any], str]:
    """Normalised average throughput per flow (the paper's Fig. 5 measure) for each mix."""
    ccs = {delay_kind: {"kind": delay_kind}, loss_kind: {"kind": loss_kind}}
    claims, data = [], {}
    fig, axes = plt.subplots(
        1, len(mixes), figsize=(5.5 * len(mixes), 4), constrained_layout=True, sharey=True, squeeze=False
    )
    for axis, (delay_count, loss_count) in zip(axes[0], mixes, strict=True):
        results = simulate(
            mix(
                f"mix{delay_count}-{loss_count}",
                {delay_kind: delay_count, loss_kind: loss_count},
                ccs,
                rate=rate,
                duration=duration,
                web_rate=web_rate,
            )
        )
        throughput = flow_throughput(results)
        top = max(values.max() for values in throughput.values())
        ratio = float(throughput[delay_kind].mean() / throughput[loss_kind].mean())
        position = 0
        for kind, color in ((delay_kind, "tab:blue"), (loss_kind, "tab:red")):
            values = throughput[kind] / top
            axis.bar(
                np.arange(position, position + values.size),
                values,
                color=color,
                width=1.0,
                label=f"{NAMES[kind]} (mean {values.mean():.2f})",
            )
            position += values.size
        summary = results.summary()
        axis.set_title(
            f"({delay_count}, {loss_count}): ratio {ratio:.2f}; delay {delay_ms(results):.0f} ms", fontsize=10
        )
        axis.set_xlabel("flow")
        axis.legend(fontsize=8)
        axis.grid(alpha=0.3, axis="y")
        data[f"{delay_count},{loss_count}"] = {
            "ratio": ratio,
            "delay_ms": delay_ms(results),
            "loss_percent": float(summary["loss_percent"]),
        }
        claims.append(
            Claim(
                f"({delay_count}, {loss_count}) mix: fair coexistence with a small bias to the loss-based flows",
                f"normalised throughput of {NAMES[delay_kind]} close to, slightly below, {NAMES[loss_kind]}'s",
                f"mean throughput {NAMES[delay_kind]} / {NAMES[loss_kind]} = {ratio:.2f}; queueing delay "
                f"{delay_ms(results):.0f} ms, loss {summary['loss_percent']:.2f} % (criterion: 0.7-1.05, "
                "as seed001-fig5)",
                bool(0.7 <= ratio <= 1.05),
            )
        )
    axes[0, 0].set_ylabel("normalised average throughput")
    return claims, data, save(fig, out, figure_name)


@reproduction(
    "seed001-fig6",
    PAPER,
    "Fig. 6: scalability, the (400, 200) mix of Cx-TCP and Reno at 500 Mb/s",
    "C/N as in the fairness test (25 Mb/s for 30 flows): 400 Cx-TCP and 200 Reno flows with 100 web "
    "flows on a 500 Mb/s bottleneck keep the fairness of Fig. 5, with a slight bias to the loss-based "
    "flows.",
    "≈2 min",
)
def fig6(out: Path, quick: bool) -> Outcome:
    # Quick: the same C/N at a fifth of the size (100 Mb/s, (80, 40), 20 web flows/s), 60 s.
    scale, duration = (0.2, 60.0) if quick else (1.0, 500.0)
    rate, cx, reno = 500e6 * scale, round(400 * scale), round(200 * scale)
    claims, data, figure = fairness(
        out, "fig6.png", [(cx, reno)], "cx", "reno", rate=rate, duration=duration, web_rate=100.0 * scale
    )
    note = NOTE + (
        f" {rate / 1e6:.0f} Mb/s, ({cx}, {reno}) flows, {100 * scale:.0f} web transfers/s"
        + (" (quick: a fifth of the paper's size, same C/N)" if quick else "")
        + f", buffer 1 BDP at 100 ms ({bdp_packets(rate, 0.1)} packets), {duration:.0f} s; throughput per "
        "flow over its life, normalised by the largest."
    )
    return Outcome(claims, [figure], note, data)


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


@reproduction(
    "seed001-fig11",
    PAPER,
    "Fig. 11: 30 Cx-TCP flows against 30 Reno flows over RED, two bottlenecks",
    "The parking lot of Fig. 9 (half the flows cross both links): with Cx-TCP everywhere the average "
    "throughput of the flows is similar to that of a RED network with Cx-TCP's parameters.",
    "≈5 s",
)
def fig11(out: Path, quick: bool) -> Outcome:
    duration = 200.0 if quick else 500.0
    cx_groups = [both(tcp_group("both", 15, CX, RTT_SPREAD)), second(tcp_group("second", 15, CX, RTT_SPREAD))]
    cx_run = simulate(parking_lot("cx", cx_groups, duration=duration))
    red_groups = [both(tcp_group("both", 15, RENO, RTT_SPREAD)), second(tcp_group("second", 15, RENO, RTT_SPREAD))]
    red_scenario = parking_lot("red", red_groups, duration=duration)
    for link, rate, limit in zip(red_scenario["topology"]["links"], (12.5e6, 25e6), (155, 310), strict=True):
        link["queue"] = red_like_cx(rate, limit)
    red_run = simulate(red_scenario)
    runs = {"Cx-TCP, DropTail": cx_run, "Reno, RED(δmin, δth, pmax)": red_run}
    throughput = {label: flow_throughput(run) for label, run in runs.items()}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True, sharey=True)
    for axis, (label, values) in zip(axes, throughput.items(), strict=True):
        position = 0
        for path, color in (("both", "tab:purple"), ("second", "tab:green")):
            axis.bar(
                np.arange(position, position + values[path].size),
                values[path] / 1e6,
                color=color,
                width=1.0,
                label=f"{'both links' if path == 'both' else 'second link only'} (mean "
                f"{values[path].mean() / 1e6:.2f} Mb/s)",
            )
            position += values[path].size
        axis.set_title(label, fontsize=10)
        axis.set_xlabel("flow")
        axis.legend(fontsize=8)
        axis.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("average throughput (Mb/s)")
    figure = save(fig, out, "fig11.png")
    (cx_label, red_label) = runs
    ratios = {
        path: float(throughput[cx_label][path].mean() / throughput[red_label][path].mean())
        for path in ("both", "second")
    }
    delays = {label: {link: delay_ms(run, link) for link in ("link1", "link2")} for label, run in runs.items()}
    claims = [
        Claim(
            "the average throughput with Cx-TCP is similar to that with RED",
            "similar average throughput (Fig. 11)",
            f"mean throughput Cx-TCP / RED: {ratios['both']:.2f} for the flows crossing both links, "
            f"{ratios['second']:.2f} for those on the second only (criterion: 0.8-1.25 each)",
            bool(all(0.8 <= value <= 1.25 for value in ratios.values())),
        ),
        Claim(
            "the split between the two paths is the same",
            "similar fairness properties to a RED network",
            "two-link / one-link mean throughput: "
            + ", ".join(
                f"{label} {values['both'].mean() / values['second'].mean():.2f}" for label, values in throughput.items()
            )
            + " (criterion: within 20 % of each other)",
            bool(abs(ratios["both"] / ratios["second"] - 1) <= 0.2),
        ),
        Claim(
            "with Cx-TCP the queueing delay stays low",
            "queueing delay kept at low levels",
            f"Cx-TCP: link1 {delays[cx_label]['link1']:.1f} ms, link2 {delays[cx_label]['link2']:.1f} ms; RED: "
            f"{delays[red_label]['link1']:.1f} / {delays[red_label]['link2']:.1f} ms (criterion: Cx-TCP < δth)",
            bool(max(delays[cx_label].values()) < DELTA_TH_MS),
        ),
    ]
    note = NOTE + (
        f" Parking lot of seed001-fig9 (12.5 Mb/s with 155 packets, 25 Mb/s with 310, 5 ms each), 15 flows "
        f"crossing both links and 15 the second only, no web traffic, {duration:.0f} s. RED: min_th/max_th = "
        "5/20 ms of the link rate (7.8/31.3 and 15.6/62.5 packets), max_p 0.05, gentle, automatic q_weight."
    )
    return Outcome(claims, [figure], note, {"cx_over_red": ratios, "delay_ms": delays})


# --- Figs. 12-15: the HighSpeed-TCP variant ---------------------------------------------------------


def homogeneous_delay(rate: float, cc: dict[str, Any], duration: float) -> dict[str, float]:
    """30 flows of `cc` alone at `rate` (RTT 100 ms, 1-BDP buffer), their windows traced."""
    scenario = dumbbell("hs", rate, bdp_packets(rate, 0.1), [tcp_group("flows", 30, cc)], duration=duration)
    scenario["trace"] = {"interval": "100ms", "flows": 30}
    results = simulate(scenario)
    summary = results.summary()
    return {
        "delay_ms": delay_ms(results),
        "loss_percent": float(summary["loss_percent"]),
        "utilisation": float(summary["utilisation_mean"]),
        "window": float(mean_windows(results, results.measure_start_s).mean()),
    }


@reproduction(
    "seed001-fig12",
    PAPER,
    "Fig. 12: delay-based HS-TCP keeps the queueing delay low (30 flows)",
    "30 HS-TCP flows extended with the Cx backoff on the single bottleneck of Section III-A keep the "
    "queueing delay low; standard HS-TCP fills the buffer.",
    "≈1 min",
)
def fig12(out: Path, quick: bool) -> Outcome:
    duration = 100.0 if quick else 500.0
    rates = [25e6] if quick else [25e6, 250e6]
    rows = {}
    for rate in rates:
        for cc in (CX_HS, HS):
            scenario_rate = f"{rate / 1e6:g} Mb/s"
            rows[(scenario_rate, cc["kind"])] = homogeneous_delay(rate, cc, duration)
    fig, axis = plt.subplots(figsize=(6.5, 4), constrained_layout=True)
    labels = list(rows)
    axis.bar(
        np.arange(len(labels)),
        [rows[key]["delay_ms"] for key in labels],
        color=["tab:blue" if kind == "cx_highspeed" else "tab:red" for _, kind in labels],
    )
    axis.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="δth")
    axis.set_xticks(np.arange(len(labels)), [f"{NAMES[kind]}\n{rate}" for rate, kind in labels], fontsize=8)
    axis.set_ylabel("mean queueing delay, second half (ms)")
    axis.legend(fontsize=8)
    axis.grid(alpha=0.3, axis="y")
    figure = save(fig, out, "fig12.png")
    claims = []
    for rate in rates:
        label = f"{rate / 1e6:g} Mb/s"
        cx, hs = rows[(label, "cx_highspeed")], rows[(label, "highspeed")]
        claims.append(
            Claim(
                f"{label}: delay-based HS-TCP keeps the queueing delay low",
                "low queueing delay in a homogeneous network (Fig. 12)"
                if rate == 25e6
                else "(ours: the same at a rate where HighSpeed's window law is active)",
                f"{cx['delay_ms']:.1f} ms, loss {cx['loss_percent']:.3f} %, utilisation "
                f"{100 * cx['utilisation']:.1f} %, mean cwnd {cx['window']:.0f} packets; standard HS-TCP "
                f"{hs['delay_ms']:.1f} ms, loss {hs['loss_percent']:.2f} % (criterion: < δth = 20 ms)",
                bool(cx["delay_ms"] < DELTA_TH_MS),
            )
        )
        claims.append(
            Claim(
                f"{label}: the link stays busy with delay-based HS-TCP",
                "95-97 % utilisation in all reported experiments (Section III-A3)"
                + ("" if rate == 25e6 else "; ours: asked at the higher rate"),
                f"mean utilisation {100 * cx['utilisation']:.1f} % (standard HS-TCP "
                f"{100 * hs['utilisation']:.1f} %) (criterion: 94.5-97.5 %, as seed001-fig2)",
                bool(UTILISATION_BAND[0] <= cx["utilisation"] <= UTILISATION_BAND[1]),
            )
        )
    note = NOTE + (
        f" 30 flows, RTT 100 ms, buffer 1 BDP, {duration:.0f} s, measured over the second half. HS-TCP "
        "(RFC 3649) is Reno below a window of 38 packets: at 25 Mb/s the windows are about 10 packets"
        + ("." if quick else "; the 250 Mb/s runs (ours) put them near 100, where its law is active.")
    )
    return Outcome(claims, [figure], note, {f"{rate}, {kind}": value for (rate, kind), value in rows.items()})


@reproduction(
    "seed001-fig13",
    PAPER,
    "Fig. 13: fairness of delay-based HS-TCP with standard HS-TCP",
    "25 Mb/s, RTTs uniform in [30, 130] ms, 10 web flows: the (20, 10) and (10, 20) mixes of delay-based "
    "and standard HS-TCP share fairly (normalised average throughput).",
    "≈10 s",
)
def fig13(out: Path, quick: bool) -> Outcome:
    duration = 100.0 if quick else 500.0
    claims, data, figure = fairness(
        out, "fig13.png", [(20, 10), (10, 20)], "cx_highspeed", "highspeed", rate=25e6, duration=duration, web_rate=10.0
    )
    note = NOTE + (
        f" As seed001-fig5 with HS-TCP: {duration:.0f} s, buffer 313 packets; the caption names two mixes "
        "(the text says three; the third is not given)."
    )
    return Outcome(claims, [figure], note, data)


@reproduction(
    "seed001-fig14",
    PAPER,
    "Fig. 14: loss rate of 20 delay-based + 10 standard HS-TCP against 30 HS-TCP",
    "Capacities 10-100 Mb/s, RTTs uniform in [30, 130] ms, 10 web flows: the mix's loss rate is not "
    "significantly above that of 30 standard HS-TCP flows.",
    "≈1 min",
)
def fig14(out: Path, quick: bool) -> Outcome:
    rates = [10e6, 25e6] if quick else [10e6, 25e6, 50e6, 75e6, 100e6]
    duration = 100.0 if quick else 500.0
    ccs = {"cx_highspeed": CX_HS, "highspeed": HS}
    rows = []
    for rate in rates:
        mixed = simulate(
            mix("mix", {"cx_highspeed": 20, "highspeed": 10}, ccs, rate=rate, duration=duration, web_rate=10.0)
        ).summary()
        alone = simulate(mix("hs", {"highspeed": 30}, ccs, rate=rate, duration=duration, web_rate=10.0)).summary()
        rows.append(
            {
                "rate_mbps": rate / 1e6,
                "mix_loss_percent": float(mixed["loss_percent"]),
                "hs_loss_percent": float(alone["loss_percent"]),
            }
        )
    fig, axis = plt.subplots(figsize=(6, 4), constrained_layout=True)
    x = [row["rate_mbps"] for row in rows]
    axis.plot(x, [row["mix_loss_percent"] for row in rows], "o-", label="20 delay-based + 10 standard HS-TCP")
    axis.plot(x, [row["hs_loss_percent"] for row in rows], "s-", label="30 standard HS-TCP")
    axis.set(xlabel="bottleneck capacity (Mb/s)", ylabel="loss rate (%)")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure = save(fig, out, "fig14.png")
    worst = max(row["mix_loss_percent"] / row["hs_loss_percent"] for row in rows)
    claims = [
        Claim(
            "delay-based HS-TCP does not raise the loss rate",
            "no significant difference (Fig. 14)",
            "loss mix / all HS-TCP: "
            + ", ".join(
                f"{r['mix_loss_percent']:.2f} / {r['hs_loss_percent']:.2f} % ({r['rate_mbps']:g} Mb/s)" for r in rows
            )
            + f"; largest ratio {worst:.2f} (criterion: ≤ {LOSS_RATIO_MAX:g}, as seed001-fig7)",
            bool(worst <= LOSS_RATIO_MAX),
        )
    ]
    note = NOTE + f" As seed001-fig7 with HS-TCP: {duration:.0f} s runs measured over the second half, buffer 1 BDP."
    return Outcome(claims, [figure], note, {"rows": rows})


@reproduction(
    "seed001-fig15",
    PAPER,
    "Fig. 15: on/off switching, 20 delay-based HS-TCP and 10 intermittent HS-TCP",
    "25 Mb/s, RTTs uniform in [30, 130] ms: while the standard HS-TCP flows are present the delay-based "
    "flows operate loss-based (high delay, losses); before and after, the queueing delay is low.",
    "≈5 s",
)
def fig15(out: Path, quick: bool) -> Outcome:
    # Table I's timing (enter 0.5 s apart from 100 s, leave 5 s apart from 250 s, 500 s); quick: a
    # third of it (enter from 35 s, leave from 85 s, 170 s).
    scale = 1 / 3 if quick else 1.0
    enter, leave, end = 100.0 * scale, 250.0 * scale, 500.0 * scale
    rate = 25e6
    intermittent = tcp_group(
        "hs",
        10,
        HS,
        RTT_SPREAD,
        start={"kind": "staggered", "first": f"{enter}s", "spacing": "0.5s"},
        stop={"kind": "staggered", "first": f"{leave}s", "spacing": f"{5 * scale}s"},
    )
    scenario = dumbbell(
        "on-off",
        rate,
        bdp_packets(rate, 0.1),
        [tcp_group("cx_hs", 20, CX_HS, RTT_SPREAD), intermittent],
        duration=end,
        measure_start=0.0,
    )
    results = simulate(scenario)
    gone = leave + 45 * scale  # the last standard flow leaves at leave + 9 spacings
    spans = {
        "before": (0.5 * enter, enter),
        "with HS-TCP": (enter + 10 * scale, leave),
        "after": (gone + 50 * scale, end),
    }
    measured = {label: phase(results, *span) for label, span in spans.items()}
    times, delay, loss = binned(results, 1.0)
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, constrained_layout=True)
    upper.plot(times, delay, lw=0.8)
    upper.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="δth")
    lower.plot(times, loss, lw=0.8, color="tab:red")
    for axis in (upper, lower):
        axis.axvspan(enter, gone, color="tab:red", alpha=0.08)
        axis.grid(alpha=0.3)
    upper.set_ylabel("queueing delay (ms), 1 s bins")
    upper.legend(fontsize=8)
    lower.set(xlabel="time (s)", ylabel="loss (%), 1 s bins")
    figure = save(fig, out, "fig15.png")
    (d0, l0), (d1, l1), (d2, l2) = measured.values()
    claims = [
        Claim(
            "without standard HS-TCP the delay-based flows keep the delay low",
            "low queueing delay, no loss",
            f"before: {d0:.1f} ms, loss {l0:.3f} %; after: {d2:.1f} ms, loss {l2:.3f} % (criterion: < δth, "
            "loss < 0.01 %, as seed001-fig8)",
            bool(max(d0, d2) < DELTA_TH_MS and max(l0, l2) < 0.01),
        ),
        Claim(
            "with standard HS-TCP present they operate loss-based",
            "high queueing delay and losses",
            f"with HS-TCP: {d1:.1f} ms, loss {l1:.3f} % (criterion: > δth and loss > 0)",
            bool(d1 > DELTA_TH_MS and l1 > 0),
        ),
    ]
    note = NOTE + (
        f" One run of {end:.0f} s: 10 HS-TCP flows enter 0.5 s apart from {enter:.0f} s and leave "
        f"{5 * scale:g} s apart from {leave:.0f} s; phases "
        + ", ".join(f"{label} {low:.0f}-{high:.0f} s" for label, (low, high) in spans.items())
        + "; buffer 313 packets."
    )
    return Outcome(
        claims, [figure], note, {label: {"delay_ms": d, "loss_percent": lo} for label, (d, lo) in measured.items()}
    )
