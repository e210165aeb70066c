"""Seed 000 Section V-B (heterogeneous traffic over RED, Figs. 10-13) and Section VI-C1 (the
threshold policy against RED on the dumbbell, Figs. 15 and 18-19).

Heterogeneous traffic (Section V-B): 55 long-lived TCP flows with 2 Mbps access links —
27 Compound TCP and 28 CUBIC — plus 8 UDP flows of 1 Mbps and HTTP flows arriving at 50 per
second (about 2 Mbps) running TCP Tahoe, on the Section V dumbbell (100 Mbps, buffer 2084
packets, RED with ns-2 defaults). The paper's PackMime-HTTP model is replaced by Poisson
arrivals with Pareto sizes (mean 5 kB, shape 1.2: 50/s × 5 kB = 2 Mbps), the engine's
documented stand-in. Compound and CUBIC run with their default parameters (Compound:
α = 0.125, β = 0.5, k = 0.75, the paper's values; CUBIC: RFC 9438). UDP and HTTP flows have
the same RTT as the long-lived flows and a 10 Mbps (UDP) or 100 Mbps (shared HTTP) access link
(ours: the paper does not say).

Section VI-C1 (Fig. 15) runs 60 Compound TCP flows (homogeneous traffic); Figs. 18-19 repeat
the comparison against RTT with the heterogeneous mix, and the average flow completion time
(AFCT) from runs where each long-lived flow transfers a fixed amount (500 MB in the paper)
and stops.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.demo import demo_scenario  # noqa: E402
from aqmlab.plots import plot_side_by_side  # noqa: E402
from aqmlab.reproduce.registry import Claim, Outcome, reproduction  # noqa: E402
from aqmlab.reproduce.seed000_packet import average_band, oscillation, run_all, stable_against_unstable  # noqa: E402
from aqmlab.results import Results  # noqa: E402
from aqmlab.simulation import simulate  # noqa: E402

PAPER = "seed 000 (Compound TCP with RED)"
RED_50_100 = {"kind": "red", "limit": "2084p", "min_th": 50, "max_th": 100, "max_p": 0.1, "q_weight": -1}
RED_8_15 = {"kind": "red", "limit": "2084p", "min_th": 8, "max_th": 15, "max_p": 0.1, "q_weight": -1}
THRESHOLD_15 = {"kind": "threshold", "limit": "2084p", "q_th": 15}
MIX = [{"share": 27 / 55, "cc": "compound"}, {"share": 28 / 55, "cc": "cubic"}]


def long_lived(
    name: str, count: int, rtt: str, mix: list[dict[str, Any]] | None = None, transfer: dict[str, Any] | None = None
) -> dict[str, Any]:
    group = {
        "name": name,
        "count": count,
        "rtt": rtt,
        "access_rate": "2Mbps",
        "tcp": {"packet_size": "1500B"},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    if mix is None:
        group["tcp"]["cc"] = {"kind": "compound"}
    else:
        group["mix"] = mix
    if transfer is not None:
        group["transfer"] = transfer
    return group


def udp(name: str, count: int, rtt: str) -> dict[str, Any]:
    return {"name": name, "kind": "udp", "count": count, "rate": "1Mbps", "rtt": rtt, "access_rate": "10Mbps"}


def web(name: str, rate: float, rtt: str) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "web",
        "arrival_rate": rate,
        "size": {"kind": "pareto", "mean": "5kB", "shape": 1.2},
        "rtt": rtt,
        "access_rate": "100Mbps",
    }


def scenario(
    name: str, groups: list[dict[str, Any]], queue: dict[str, Any], *, quick: bool, duration: float | None = None
) -> dict[str, Any]:
    """The Section V dumbbell with these groups and this bottleneck queue; 500 s measured over
    the last 25 s (quick: 100 s)."""
    base = demo_scenario("seed000-fig6-rtt10").model_dump(mode="json")
    base["name"] = name
    base["topology"]["groups"] = groups
    base["topology"]["bottleneck"]["queue"] = copy.deepcopy(queue)
    length = duration if duration is not None else (100.0 if quick else 500.0)
    base["duration"] = f"{length}s"
    base["measure_start"] = f"{length - 25.0}s"
    base["trace"] = {"interval": "10ms", "flows": 15}
    return base


def heterogeneous(
    name: str,
    rtt: str,
    queue: dict[str, Any],
    *,
    quick: bool,
    transfer: dict[str, Any] | None = None,
    duration: float | None = None,
) -> dict[str, Any]:
    """Section V-B: 27 Compound + 28 CUBIC long-lived flows, 8 UDP flows, 50 HTTP flows/s."""
    groups = [long_lived("ftp", 55, rtt, MIX, transfer), udp("udp", 8, rtt), web("http", 50.0, rtt)]
    return scenario(name, groups, queue, quick=quick, duration=duration)


def heterogeneous_two_rtts(name: str, rtt1: str, rtt2: str, *, quick: bool) -> dict[str, Any]:
    """Fig. 11: the traffic in two bunches with RTT1 and RTT2 (13 Compound + 14 CUBIC, 4 UDP and
    25 HTTP flows/s in the first; 14 + 14, 4 UDP and 25 HTTP flows/s in the second)."""
    groups = [
        long_lived("ftp-rtt1", 27, rtt1, [{"share": 13 / 27, "cc": "compound"}, {"share": 14 / 27, "cc": "cubic"}]),
        long_lived("ftp-rtt2", 28, rtt2, [{"share": 0.5, "cc": "compound"}, {"share": 0.5, "cc": "cubic"}]),
        udp("udp-rtt1", 4, rtt1),
        udp("udp-rtt2", 4, rtt2),
        web("http-rtt1", 25.0, rtt1),
        web("http-rtt2", 25.0, rtt2),
    ]
    return scenario(name, groups, RED_50_100, quick=quick)


def homogeneous(name: str, rtt: str, queue: dict[str, Any], *, quick: bool) -> dict[str, Any]:
    """Section V-A: 60 long-lived Compound TCP flows."""
    return scenario(name, [long_lived("compound", 60, rtt)], queue, quick=quick)


def with_queue(queue: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**queue, **changes}


def note(quick: bool) -> str:
    length = "100 s runs measured over the last 25 s (quick)" if quick else "500 s runs measured over the last 25 s"
    return (
        f"Heterogeneous traffic: 27 Compound + 28 CUBIC long-lived flows, 8 × 1 Mbps UDP, 50 HTTP flows/s (TCP "
        f"Tahoe, Poisson arrivals and Pareto sizes, mean 5 kB, for PackMime-HTTP); {length}. The bottleneck "
        "takes 2 ms of the one-way delay (not given in the paper)."
    )


def save(fig, out: Path, name: str) -> str:
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


# --- Figs. 10-13: heterogeneous traffic over RED -----------------------------------------------


@reproduction(
    "seed000-fig10",
    PAPER,
    "Fig. 10: heterogeneous traffic, RTT 10 ms against 200 ms, RED(50, 100)",
    "Compound, CUBIC, UDP and HTTP flows over RED(50, 100): as with Compound alone (Fig. 6), the "
    "average queue stays between the thresholds at RTT 10 ms and oscillates at 200 ms, costing "
    "utilisation.",
    "≈15 s",
)
def fig10(out: Path, quick: bool) -> Outcome:
    runs = run_all(
        out,
        {
            "RTT 10 ms": heterogeneous("rtt10", "10ms", RED_50_100, quick=quick),
            "RTT 200 ms": heterogeneous("rtt200", "200ms", RED_50_100, quick=quick),
        },
    )
    plot_side_by_side(runs, out / "fig10.png")
    return Outcome(stable_against_unstable(runs, "RTT 10 ms", "RTT 200 ms", "RTT 200 ms"), ["fig10.png"], note(quick))


@reproduction(
    "seed000-fig11",
    PAPER,
    "Fig. 11: heterogeneous traffic in two RTT bunches, (5, 15) against (100, 300) ms",
    "The heterogeneous mix split into two bunches with different RTTs: the same change as Fig. 10.",
    "≈15 s",
)
def fig11(out: Path, quick: bool) -> Outcome:
    runs = run_all(
        out,
        {
            "RTTs 5 and 15 ms": heterogeneous_two_rtts("rtt5-15", "5ms", "15ms", quick=quick),
            "RTTs 100 and 300 ms": heterogeneous_two_rtts("rtt100-300", "100ms", "300ms", quick=quick),
        },
    )
    plot_side_by_side(runs, out / "fig11.png")
    claims = stable_against_unstable(runs, "RTTs 5 and 15 ms", "RTTs 100 and 300 ms", "RTTs 100 and 300 ms")
    return Outcome(
        claims,
        ["fig11.png"],
        note(quick) + " Each bunch: half the long-lived flows (13 Compound + 14 "
        "CUBIC, then 14 + 14), 4 UDP flows and 25 HTTP flows/s.",
    )


@reproduction(
    "seed000-fig12",
    PAPER,
    "Fig. 12: heterogeneous traffic, RED with and without queue averaging",
    "RTT 25 ms: deciding on the instantaneous queue keeps the queue below the upper threshold; the "
    "minimum utilisation falls with the RTT in both regimes and stays higher without averaging.",
    "≈2 min",
)
def fig12(out: Path, quick: bool) -> Outcome:
    runs = run_all(
        out,
        {
            "with averaging": heterogeneous("averaging", "25ms", RED_50_100, quick=quick),
            "without averaging": heterogeneous(
                "instantaneous", "25ms", with_queue(RED_50_100, instantaneous=True), quick=quick
            ),
        },
    )
    plot_side_by_side(runs, out / "fig12a.png")
    averaged, instantaneous = runs["with averaging"].summary(), runs["without averaging"].summary()
    rtts = [10, 100, 200] if quick else [10, 25, 50, 75, 100, 125, 150, 175, 200]
    minimum: dict[bool, list[float]] = {False: [], True: []}
    for flag in (False, True):
        for rtt in rtts:
            queue = with_queue(RED_50_100, instantaneous=flag)
            minimum[flag].append(
                simulate(heterogeneous(f"rtt{rtt}", f"{rtt}ms", queue, quick=quick)).summary()["utilisation_min"]
            )
    fig, axis = plt.subplots(figsize=(6, 4), constrained_layout=True)
    axis.plot(rtts, 100 * np.array(minimum[False]), "o-", label="with averaging")
    axis.plot(rtts, 100 * np.array(minimum[True]), "s-", label="without averaging")
    axis.set_xlabel("RTT (ms)")
    axis.set_ylabel("minimum utilisation, last 25 s (%)")
    axis.grid(alpha=0.3)
    axis.legend()
    figure = save(fig, out, "fig12b.png")
    avg, inst = np.array(minimum[False]), np.array(minimum[True])
    higher = int(np.sum(inst >= avg))
    claims = [
        Claim(
            "RTT 25 ms: without averaging the queue does not exceed the upper threshold",
            "queue ≤ 100 packets",
            f"maximum queue {instantaneous['queue_max_packets']:.0f} packets (with averaging: "
            f"{averaged['queue_max_packets']:.0f})",
            bool(instantaneous["queue_max_packets"] <= 101),
        ),
        Claim(
            "minimum utilisation falls as the RTT grows (both regimes)",
            "falls from 10 to 200 ms",
            f"with averaging {100 * avg[0]:.1f} % → {100 * avg[-1]:.1f} %; without {100 * inst[0]:.1f} % → "
            f"{100 * inst[-1]:.1f} %",
            bool(avg[-1] < avg[0] and inst[-1] < inst[0]),
        ),
        Claim(
            "minimum utilisation is higher without averaging",
            "higher at every RTT",
            f"higher or equal at {higher} of {len(rtts)} RTTs "
            f"({', '.join(f'{r}: {100 * a:.1f}/{100 * i:.1f} %' for r, a, i in zip(rtts, avg, inst, strict=True))}"
            " with/without)",
            bool(higher == len(rtts)),
        ),
    ]
    data = {"rtt_ms": rtts, "min_utilisation_averaging": avg.tolist(), "min_utilisation_instantaneous": inst.tolist()}
    return Outcome(claims, ["fig12a.png", figure], note(quick), data)


@reproduction(
    "seed000-fig13",
    PAPER,
    "Fig. 13: heterogeneous traffic, small against large RED thresholds (RTT 100 ms)",
    "With thresholds (8, 15) the queue varies randomly; with (100, 200) it oscillates.",
    "≈15 s",
)
def fig13(out: Path, quick: bool) -> Outcome:
    runs = run_all(
        out,
        {
            "RED(8, 15)": heterogeneous("red8-15", "100ms", RED_8_15, quick=quick),
            "RED(100, 200)": heterogeneous(
                "red100-200", "100ms", with_queue(RED_50_100, min_th=100, max_th=200), quick=quick
            ),
        },
    )
    plot_side_by_side(runs, out / "fig13.png")
    small, large = oscillation(runs["RED(8, 15)"]), oscillation(runs["RED(100, 200)"])
    low, high = average_band(runs["RED(100, 200)"])
    low_s, high_s = average_band(runs["RED(8, 15)"])
    claims = [
        Claim(
            "larger thresholds make the queue oscillate",
            "random variation at (8, 15), oscillation at (100, 200)",
            f"oscillation share of the average queue {small:.2f} at (8, 15), {large:.2f} at (100, 200) "
            f"(criterion: at least twice); swing of the average {high_s - low_s:.1f} against "
            f"{high - low:.1f} packets",
            bool(large >= 2 * small),
        )
    ]
    return Outcome(claims, ["fig13.png"], note(quick))


# --- Fig. 15 and Figs. 18-19: the threshold policy against RED(8, 15) --------------------------


def plot_queues(runs: dict[str, Results], path: Path) -> None:
    """Fig. 15's layout: queue and utilisation (0.1 s bins) per run over the window."""
    from aqmlab.plots import binned_utilisation

    fig, axes = plt.subplots(
        2, len(runs), figsize=(4.2 * len(runs), 5.5), sharex="col", sharey="row", constrained_layout=True, squeeze=False
    )
    for column, (label, results) in enumerate(runs.items()):
        samples = results.link_samples()
        shown = samples["time_s"] >= results.measure_start_s
        axes[0, column].plot(samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6)
        axes[0, column].axhline(15, color="k", ls="--", lw=0.8)
        times, utilisation = binned_utilisation(results)
        keep = times > results.measure_start_s
        axes[1, column].plot(times[keep], 100 * utilisation[keep], lw=0.8, color="tab:red")
        axes[0, column].set_title(label, fontsize=10)
        axes[1, column].set_xlabel("time (s)")
    axes[0, 0].set_ylabel("queue (pkts)")
    axes[1, 0].set_ylabel("utilisation (%)")
    for axis in axes.flat:
        axis.grid(alpha=0.3)
    fig.savefig(path, dpi=110)
    plt.close(fig)


@reproduction(
    "seed000-fig15",
    PAPER,
    "Fig. 15: threshold policy (q_th = 15) against RED(8, 15), RTT 10 and 200 ms",
    "60 Compound TCP flows: the threshold policy keeps the queue at or below 15 packets at both RTTs "
    "where RED(8, 15) overshoots (bursts up to 60 packets), and keeps the link busier (at 200 ms: "
    "minimum 79 % against 38 %).",
    "≈20 s",
)
def fig15(out: Path, quick: bool) -> Outcome:
    scenarios = {
        f"{policy}, RTT {rtt} ms": homogeneous(f"{name}-rtt{rtt}", f"{rtt}ms", queue, quick=quick)
        for rtt in (10, 200)
        for policy, name, queue in (("RED(8, 15)", "red", RED_8_15), ("threshold 15", "threshold", THRESHOLD_15))
    }
    runs = run_all(out, scenarios)
    plot_queues(runs, out / "fig15.png")
    s = {label: results.summary() for label, results in runs.items()}
    claims = []
    for rtt in (10, 200):
        red, threshold = s[f"RED(8, 15), RTT {rtt} ms"], s[f"threshold 15, RTT {rtt} ms"]
        claims.append(
            Claim(
                f"RTT {rtt} ms: the threshold policy keeps the queue at most 15 packets; RED overshoots",
                "threshold: queue ≤ 15; RED(8, 15): bursts above 15 (up to about 60)",
                f"maximum queue {threshold['queue_max_packets']:.0f} (threshold) against "
                f"{red['queue_max_packets']:.0f} packets (RED)",
                bool(threshold["queue_max_packets"] <= 15 and red["queue_max_packets"] > 15),
            )
        )
        claims.append(
            Claim(
                f"RTT {rtt} ms: the threshold policy keeps the link busier",
                "higher minimum utilisation with the threshold policy" + (" (79 % against 38 %)" if rtt == 200 else ""),
                f"minimum 1 s utilisation {100 * threshold['utilisation_min']:.1f} % against "
                f"{100 * red['utilisation_min']:.1f} %; mean {100 * threshold['utilisation_mean']:.1f} % "
                f"against {100 * red['utilisation_mean']:.1f} % (criterion: minimum ≥ RED's)",
                bool(threshold["utilisation_min"] >= red["utilisation_min"]),
            )
        )
    length = "100 s (quick)" if quick else "500 s"
    text = (
        f"60 Compound TCP flows (Section VI-C1, homogeneous traffic); {length} runs measured over the last 25 s; "
        "utilisation in 1 s bins (the paper's minima come from its own, unstated, trace resolution)."
    )
    return Outcome(
        claims, ["fig15.png"], text, {label: {k: v for k, v in summary.items()} for label, summary in s.items()}
    )


@reproduction(
    "seed000-fig18",
    PAPER,
    "Figs. 18-19: threshold policy against RED(8, 15) over RTT, heterogeneous traffic",
    "Compound, CUBIC, UDP and HTTP flows: against RTT (10-200 ms) the threshold policy gives lower "
    "queueing delay, about the same loss and the same throughput as RED(8, 15), and a shorter average "
    "flow completion time of fixed transfers.",
    "≈10 min (500 MB transfers)",
)
def fig18(out: Path, quick: bool) -> Outcome:
    rtts = [10, 100, 200] if quick else [10, 25, 50, 75, 100, 125, 150, 175, 200]
    afct_rtts = rtts if quick else [10, 50, 100, 150, 200]
    size_mb = 5 if quick else 500
    afct_duration = 200.0 if quick else 4000.0
    policies = {"RED(8, 15)": RED_8_15, "threshold 15": THRESHOLD_15}
    rows: dict[str, dict[str, list[float]]] = {
        p: {"delay_ms": [], "loss_percent": [], "throughput_mbps": [], "http_fct_s": [], "afct_s": [], "completed": []}
        for p in policies
    }
    for policy, queue in policies.items():
        for rtt in rtts:
            results = simulate(heterogeneous(f"rtt{rtt}", f"{rtt}ms", queue, quick=quick))
            summary = results.summary()
            flows = results.flows.to_pandas()
            http = flows[(flows["kind"] == "web") & flows["fct_s"].notna()]
            rows[policy]["delay_ms"].append(1000 * summary["queueing_delay_mean_s"])
            rows[policy]["loss_percent"].append(float(summary["loss_percent"]))
            rows[policy]["throughput_mbps"].append(summary["throughput_bps"] / 1e6)
            rows[policy]["http_fct_s"].append(float(http["fct_s"].mean()))
        for rtt in afct_rtts:
            transfer = {"kind": "finite", "size": f"{size_mb}MB"}
            results = simulate(
                heterogeneous(
                    f"afct-rtt{rtt}", f"{rtt}ms", queue, quick=quick, transfer=transfer, duration=afct_duration
                )
            )
            flows = results.flows.to_pandas()
            finite = flows[flows["kind"] == "tcp"]
            # Unfinished transfers count with the time they had (a lower bound on their FCT).
            fct = finite["fct_s"].fillna(results.end_s - finite["start_s"])
            rows[policy]["afct_s"].append(float(fct.mean()))
            rows[policy]["completed"].append(int(finite["fct_s"].notna().sum()))
    red, threshold = rows["RED(8, 15)"], rows["threshold 15"]
    fig, axes = plt.subplots(2, 3, figsize=(14, 7), constrained_layout=True)
    panels = [
        ("delay_ms", "mean queueing delay (ms)", rtts),
        ("loss_percent", "loss (%)", rtts),
        ("throughput_mbps", "throughput (Mb/s)", rtts),
        ("afct_s", f"AFCT of {size_mb} MB transfers (s)", afct_rtts),
        ("http_fct_s", "mean completion time of HTTP flows (s)", rtts),
    ]
    for axis, (key, label, x) in zip(axes.flat, panels, strict=False):
        for policy, marker in (("RED(8, 15)", "o-"), ("threshold 15", "s-")):
            axis.plot(x, rows[policy][key], marker, label=policy)
        axis.set_xlabel("RTT (ms)")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    axes.flat[-1].axis("off")
    figure = save(fig, out, "fig18.png")

    def pairs(key: str, x: list[int], fmt: str = ".1f") -> str:
        return ", ".join(f"{r}: {a:{fmt}}/{b:{fmt}}" for r, a, b in zip(x, threshold[key], red[key], strict=True))

    delay_lower = sum(t < r for t, r in zip(threshold["delay_ms"], red["delay_ms"], strict=True))
    loss_ratio = [
        t / r if r > 0 else float("inf") for t, r in zip(threshold["loss_percent"], red["loss_percent"], strict=True)
    ]
    throughput_ratio = [t / r for t, r in zip(threshold["throughput_mbps"], red["throughput_mbps"], strict=True)]
    afct_lower = sum(t <= r for t, r in zip(threshold["afct_s"], red["afct_s"], strict=True))
    claims = [
        Claim(
            "the threshold policy gives a smaller queueing delay",
            "lower mean queueing delay at every RTT",
            f"threshold/RED (ms) at RTT (ms) {pairs('delay_ms', rtts, '.2f')}; lower at {delay_lower} of {len(rtts)}",
            bool(delay_lower == len(rtts)),
        ),
        Claim(
            "both policies lose about the same fraction of packets",
            "packet loss almost equal; at large RTTs the threshold policy's falls below RED's",
            f"threshold/RED (%) {pairs('loss_percent', rtts, '.2f')}; ratios {min(loss_ratio):.2f}-"
            f"{max(loss_ratio):.2f} (criterion: within 0.67-1.5 at every RTT)",
            bool(all(0.67 <= value <= 1.5 for value in loss_ratio)),
        ),
        Claim(
            "both policies give the same throughput",
            "mean throughput equal",
            f"threshold/RED (Mb/s) {pairs('throughput_mbps', rtts)}; ratios {min(throughput_ratio):.3f}-"
            f"{max(throughput_ratio):.3f} (criterion: within 5 %)",
            bool(all(abs(value - 1) <= 0.05 for value in throughput_ratio)),
        ),
        Claim(
            f"flows complete sooner with the threshold policy ({size_mb} MB each)",
            "lower AFCT at every RTT, the gap growing with the RTT (about 5 min at 200 ms for 500 MB)",
            f"threshold/RED AFCT (s) {pairs('afct_s', afct_rtts)}; lower or equal at {afct_lower} of "
            f"{len(afct_rtts)}; transfers completed {threshold['completed']} / {red['completed']} of 55",
            bool(afct_lower == len(afct_rtts)),
        ),
    ]
    length = "100 s runs (quick)" if quick else "500 s runs"
    text = (
        note(quick).split(";")[0] + f"; {length} measured over the last 25 s for delay, loss and throughput "
        f"(the long-lived and UDP flows' goodput through the bottleneck). AFCT: separate runs in which each of "
        f"the 55 long-lived flows transfers {size_mb} MB and stops (the paper: 500 MB), with the UDP and HTTP "
        f"traffic running; {afct_duration:.0f} s at most, unfinished transfers count with the time they had. The "
        "mean completion time of the HTTP flows is shown as well (no claim in the paper). The paper's Fig. 19 "
        "(parking lot) is not run here."
    )
    data = {"rtt_ms": rtts, "afct_rtt_ms": afct_rtts, **{policy: values for policy, values in rows.items()}}
    return Outcome(claims, [figure], text, data)
