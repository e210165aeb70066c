"""Seed 000 Section VI-C: the threshold policy (q_th = 15) against RED(8, 15), as declarations:
Fig. 15 (queue and utilisation at RTT 10 and 200 ms), and against the RTT (10-200 ms) the
mean queueing delay, loss, throughput and average flow completion time (AFCT) on the single
bottleneck with homogeneous (Fig. 18) and heterogeneous traffic, and in the parking lot
(Figs. 16-17 and the parking-lot curves of Figs. 18-19).

Which curve is in which figure: the captions of Figs. 18-19 were damaged in the extraction. The
text plots delay, loss, throughput and AFCT against the RTT for the single bottleneck with
homogeneous traffic ("Figures 18 and 19", AFCT "also presented in Figure 18"), then with the
heterogeneous mix, then for the parking lot "for both homogeneous and heterogeneous traffic".

Parking lot (Section VI-C2, Fig. 16): two 100 Mbps links in series, buffers of 2084 packets,
1500-byte packets, 2 Mbps access links. Homogeneous: 30 Compound flows cross both links
(SA1-30), 30 the first only (SA31-60), 30 the second only (SB1-30). Heterogeneous: SA1-30 send
13 Compound + 14 CUBIC long-lived flows, 8 UDP flows of 1 Mbps and 50 HTTP flows/s; SA31-60 and
SB1-30 each 14 Compound + 14 CUBIC.

Ours, where the paper is silent: each link takes 2 ms of the one-way delay, every flow has the
stated RTT whatever its path; UDP and HTTP as in seed000_mixed.py. Measures over the last 25 s
(`link_measures`): queueing delay = the sum over the links of their mean queueing delay (the
paper's definition for the parking lot); loss = packets dropped at the links over packets
arriving at them (pooled: "the probability that a packet is dropped at either of the two
links"); throughput = data departing the links (summed: "the total throughput observed at both
links"). AFCT (`afct_measures`) = mean completion time of the long-lived flows in separate
runs where each transfers a fixed size and stops (the paper: 500 MB), unfinished transfers
counted with the time they had (a lower bound).

Criteria for the paper's words without numbers (ours, stated in each claim): "almost equal" /
"approximately same" loss is a ratio within [0.9, 1.1] at every RTT; "equal" / "the same"
throughput within 1 % at every RTT; "lower" / "shorter" is strictly lower at every RTT. Per
seed the worst RTT decides (the largest gap, the extreme ratio), and the verdict is on the
mean of that over the seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import (  # noqa: E402
    Evidence,
    Run,
)
from aqmlab.reproduce.figures import saved
from aqmlab.reproduce.scenarios import parking_lot as parking_lot_scenario
from aqmlab.reproduce.seed000_mixed import (  # noqa: E402
    RED_8_15,
    THRESHOLD_15,
    heterogeneous,
    homogeneous,
    long_lived,
    udp,
    web,
)
from aqmlab.results import Results  # noqa: E402

PAPER = "seed 000 (Compound TCP with RED)"
POLICIES = {"red": RED_8_15, "threshold": THRESHOLD_15}
LABELS = {"red": "RED(8, 15)", "threshold": "threshold 15"}
HALF = [{"share": 0.5, "cc": "compound"}, {"share": 0.5, "cc": "cubic"}]
#: A scenario builder: (name, rtt, queue, duration_s, transfer or None, quick) -> scenario dict.
Builder = Callable[[str, str, dict[str, Any], float, dict[str, Any] | None, bool], dict[str, Any]]


# --- scenarios -----------------------------------------------------------------------------


def crossing(group: dict[str, Any], *links: str) -> dict[str, Any]:
    return {**group, "crosses": list(links)}


def parking_lot(traffic: str) -> Builder:
    """Seed 000 Fig. 16 with `traffic` = 'homogeneous' or 'heterogeneous' (Section VI-C2)."""

    def build(
        name: str, rtt: str, queue: dict[str, Any], duration: float, transfer: dict[str, Any] | None, quick: bool
    ) -> dict[str, Any]:
        if traffic == "homogeneous":
            groups = [
                crossing(long_lived("SA1-30", 30, rtt, transfer=transfer), "link1", "link2"),
                crossing(long_lived("SA31-60", 30, rtt, transfer=transfer), "link1"),
                crossing(long_lived("SB1-30", 30, rtt, transfer=transfer), "link2"),
            ]
        else:
            first = [{"share": 13 / 27, "cc": "compound"}, {"share": 14 / 27, "cc": "cubic"}]
            groups = [
                crossing(long_lived("SA1-30", 27, rtt, first, transfer), "link1", "link2"),
                crossing(udp("SA1-30 udp", 8, rtt), "link1", "link2"),
                crossing(web("SA1-30 http", 50.0, rtt), "link1", "link2"),
                crossing(long_lived("SA31-60", 28, rtt, HALF, transfer), "link1"),
                crossing(long_lived("SB1-30", 28, rtt, HALF, transfer), "link2"),
            ]
        links = [{"name": link, "rate": "100Mbps", "delay": "2ms", "queue": dict(queue)} for link in ("link1", "link2")]
        return parking_lot_scenario(
            name, links, groups, duration=duration, measure_start=max(duration - 25.0, 0.0), trace_interval="10ms"
        )

    return build


def single(traffic: str) -> Builder:
    """The Section V dumbbell: 60 Compound flows (homogeneous) or the Section V-B mix."""

    def build(
        name: str, rtt: str, queue: dict[str, Any], duration: float, transfer: dict[str, Any] | None, quick: bool
    ) -> dict[str, Any]:
        if traffic == "homogeneous":
            scenario = homogeneous(name, rtt, queue, quick=quick)
            if transfer is not None:
                scenario["topology"]["groups"][0]["transfer"] = transfer
        else:
            scenario = heterogeneous(name, rtt, queue, quick=quick, transfer=transfer)
        scenario["duration"], scenario["measure_start"] = f"{duration}s", f"{max(duration - 25.0, 0.0)}s"
        scenario["trace"] = {"interval": "10ms", "flows": 0}
        return scenario

    return build


# --- measures ------------------------------------------------------------------------------


def forward_links(results: Results) -> list[str]:
    return [link for link in results.traced_links if not link.endswith("_reverse")]


def link_measures(results: Results) -> dict[str, float]:
    """Delay (sum over the links, ms), pooled loss (%), throughput (sum, Mb/s), largest queue
    (packets), smallest 1 s utilisation and mean utilisation of the first link (%)."""
    start, end = results.measure_start_s, results.end_s
    delay = drops = arrivals = departed = 0.0
    largest = 0.0
    for link in forward_links(results):
        summary = results.summary(link)
        samples = results.link_samples(link)
        rows = samples["time_s"] > start + 1e-12
        delay += 1000.0 * summary["queueing_delay_mean_s"]
        drops += samples["drops"][rows].sum()
        arrivals += samples["arrivals"][rows].sum()
        departed += samples["departed_bytes"][rows].sum()
        largest = max(largest, summary["queue_max_packets"])
    first = results.summary(forward_links(results)[0])
    return {
        "utilisation_min_100ms": smallest_bin(results, forward_links(results)[0], 0.1),
        "delay_ms": delay,
        "loss_percent": 100.0 * drops / arrivals,
        "throughput_mbps": departed * 8e-6 / (end - start),
        "queue_max": largest,
        "utilisation_min": 100.0 * first["utilisation_min"],
        "utilisation_mean": 100.0 * first["utilisation_mean"],
    }


def smallest_bin(results: Results, link: str, bin_s: float) -> float:
    """The smallest utilisation (%) of `link` in bins of `bin_s` over the measurement window
    (the link is sampled every 10 ms)."""
    samples = results.link_samples(link)
    start = results.measure_start_s
    rows = samples["time_s"] > start + 1e-12
    index = np.floor((samples["time_s"][rows] - start - 1e-9) / bin_s).astype(np.int64)
    rate = float(results.links.column("rate_bps")[results.link_id(link)].as_py())
    per_bin = np.bincount(index, weights=samples["departed_bytes"][rows]) * 8.0 / (rate * bin_s)
    return 100.0 * float(per_bin.min())


def afct_measures(results: Results) -> dict[str, float]:
    """Mean completion time of the finite long-lived transfers (s; unfinished ones count with
    the time they had) and the share of them that completed."""
    flows = results.flows.to_pandas()
    finite = flows[flows["kind"] == "tcp"]
    fct = finite["fct_s"].fillna(results.end_s - finite["start_s"])
    return {"afct_s": float(fct.mean()), "completed": float(finite["fct_s"].notna().mean())}


# --- Fig. 15 -------------------------------------------------------------------------------


def fig15_runs(quick: bool) -> list[Run]:
    duration = 100.0 if quick else 500.0
    build = single("homogeneous")
    return [
        Run(
            f"{policy}-rtt{rtt}",
            build(f"{policy}-rtt{rtt}", f"{rtt}ms", queue, duration, None, quick),
            link_measures,
            keep=True,
        )
        for rtt in (10, 200)
        for policy, queue in POLICIES.items()
    ]


def fig15_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    return {
        "red_queue_largest": max(m["red-rtt10"]["queue_max"], m["red-rtt200"]["queue_max"]),
        "gain_rtt10": m["threshold-rtt10"]["utilisation_min"] - m["red-rtt10"]["utilisation_min"],
        "gain_rtt200": m["threshold-rtt200"]["utilisation_min"] - m["red-rtt200"]["utilisation_min"],
    }


def plot_queues(out: Path, evidence: Evidence, name: str, links: tuple[str, ...] = ("bottleneck",)) -> list[str]:
    """Fig. 15's and 17's layout: the queue of each link over the window, one column per run
    (first seed), with q_th = 15 dashed."""
    runs = evidence.kept
    fig, axes = plt.subplots(
        len(links),
        len(runs),
        figsize=(4 * len(runs), 2.8 * len(links)),
        sharey=True,
        squeeze=False,
        constrained_layout=True,
    )
    for column, (label, results) in enumerate(runs.items()):
        for row, link in enumerate(links):
            samples = results.link_samples(None if link == "bottleneck" else link)
            shown = samples["time_s"] >= results.measure_start_s
            axes[row, column].plot(samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6)
            axes[row, column].axhline(15, color="k", ls="--", lw=0.8)
            axes[row, column].set_title(f"{label}: {link}", fontsize=9)
            axes[row, column].grid(alpha=0.3)
        axes[-1, column].set_xlabel("time (s)")
    for row in range(len(links)):
        axes[row, 0].set_ylabel("queue (packets)")
    return saved(fig, out, name)


declare(
    "seed000-fig15",
    runs=fig15_runs,
    derive=fig15_derive,
    figures=lambda out, evidence: plot_queues(out, evidence, "fig15.png"),
    notes=lambda quick: (
        f"60 Compound TCP flows (Section VI-C1, homogeneous traffic); "
        f"{'100 s (quick)' if quick else '500 s'} runs measured over the last 25 s; utilisation in 1 s bins."
    ),
)


# --- Figs. 17-19: against the RTT ----------------------------------------------------------


def settings(quick: bool) -> dict[str, Any]:
    """RTT grids, run lengths and transfer sizes (quick: 2 MB transfers, 40 s runs)."""
    if quick:
        return {"rtts": [10, 200], "afct_rtts": [10, 200], "duration": 40.0, "size_mb": 2.0, "afct_duration": 60.0}
    return {
        "rtts": [10, 25, 50, 75, 100, 125, 150, 175, 200],
        "afct_rtts": [10, 100, 200],
        "duration": 500.0,
        "size_mb": 500.0,
        "afct_duration": 4000.0,
    }


def sweep_runs(build: Builder, keep: tuple[int, ...] = ()) -> Callable[[bool], list[Run]]:
    """Both policies against the RTT: long-lived runs, then fixed-transfer runs."""

    def runs(quick: bool) -> list[Run]:
        s = settings(quick)
        transfer = {"kind": "finite", "size": f"{s['size_mb']:g}MB"}
        listed = []
        for policy, queue in POLICIES.items():
            listed += [
                Run(
                    f"{policy}-rtt{rtt}",
                    build(f"{policy}-rtt{rtt}", f"{rtt}ms", queue, s["duration"], None, quick),
                    link_measures,
                    keep=rtt in keep,
                )
                for rtt in s["rtts"]
            ]
            listed += [
                Run(
                    f"{policy}-afct{rtt}",
                    build(f"{policy}-afct{rtt}", f"{rtt}ms", queue, s["afct_duration"], transfer, quick),
                    afct_measures,
                )
                for rtt in s["afct_rtts"]
            ]
        return listed

    return runs


def sweep_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Per seed: threshold against RED at each RTT and the worst RTT of each comparison."""
    s = settings(quick)
    out: dict[str, float] = {}
    for rtt in s["rtts"]:
        red, threshold = m[f"red-rtt{rtt}"], m[f"threshold-rtt{rtt}"]
        out[f"delay_gap_rtt{rtt}"] = threshold["delay_ms"] - red["delay_ms"]
        out[f"loss_ratio_rtt{rtt}"] = threshold["loss_percent"] / red["loss_percent"]
        out[f"throughput_ratio_rtt{rtt}"] = threshold["throughput_mbps"] / red["throughput_mbps"]
    for rtt in s["afct_rtts"]:
        out[f"afct_gap_rtt{rtt}"] = m[f"threshold-afct{rtt}"]["afct_s"] - m[f"red-afct{rtt}"]["afct_s"]
    ratios = [out[f"loss_ratio_rtt{rtt}"] for rtt in s["rtts"]]
    first, last = s["rtts"][0], s["rtts"][-1]
    out.update(
        delay_gap_largest=max(out[f"delay_gap_rtt{rtt}"] for rtt in s["rtts"]),
        loss_ratio_lowest=min(ratios),
        loss_ratio_highest=max(ratios),
        throughput_deviation_largest=100.0 * max(abs(out[f"throughput_ratio_rtt{rtt}"] - 1) for rtt in s["rtts"]),
        afct_gap_largest=max(out[f"afct_gap_rtt{rtt}"] for rtt in s["afct_rtts"]),
        loss_ratio_first=out[f"loss_ratio_rtt{first}"],
        loss_ratio_last=out[f"loss_ratio_rtt{last}"],
        loss_convergence=abs(out[f"loss_ratio_rtt{first}"] - 1) - abs(out[f"loss_ratio_rtt{last}"] - 1),
        afct_rise_red=m[f"red-afct{s['afct_rtts'][-1]}"]["afct_s"] - m[f"red-afct{s['afct_rtts'][0]}"]["afct_s"],
        afct_rise_threshold=m[f"threshold-afct{s['afct_rtts'][-1]}"]["afct_s"]
        - m[f"threshold-afct{s['afct_rtts'][0]}"]["afct_s"],
        afct_red_minus_threshold_last=-out[f"afct_gap_rtt{s['afct_rtts'][-1]}"],
    )
    out["afct_steeper_with_red"] = out["afct_rise_red"] - out["afct_rise_threshold"]
    return out


def plot_sweep(out: Path, evidence: Evidence, name: str, title: str) -> list[str]:
    """Delay, loss, throughput and AFCT against the RTT: mean and 95 % interval per policy."""
    s = settings(evidence.quick)
    panels = [
        ("delay_ms", "rtt", "queueing delay, summed over links (ms)", s["rtts"]),
        ("loss_percent", "rtt", "loss (%)", s["rtts"]),
        ("throughput_mbps", "rtt", "throughput (Mb/s)", s["rtts"]),
        ("afct_s", "afct", f"AFCT of {s['size_mb']:g} MB transfers (s)", s["afct_rtts"]),
    ]
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), constrained_layout=True)
    for axis, (key, kind, label, x) in zip(axes, panels, strict=True):
        for policy, marker in (("red", "o-"), ("threshold", "s-")):
            keys = [f"{policy}-{kind}{rtt}.{key}" for rtt in x]
            means = np.array([evidence.mean(k) for k in keys])
            low, high = np.array([evidence.interval(k) for k in keys]).T
            axis.errorbar(x, means, yerr=[means - low, high - means], fmt=marker, capsize=3, label=LABELS[policy])
        axis.set_xlabel("RTT (ms)")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    fig.suptitle(f"{title} (mean and 95 % interval over the seeds)", fontsize=10)
    return saved(fig, out, name)


def describe(quick: bool) -> str:
    s = settings(quick)
    length = f"{s['duration']:.0f} s runs measured over the last 25 s" + (" (quick)" if quick else "")
    return (
        f"{length}, RTTs {s['rtts']} ms; AFCT from separate runs of {s['size_mb']:g} MB transfers (the paper: "
        f"500 MB) capped at {s['afct_duration']:.0f} s, at RTTs {s['afct_rtts']} ms. Each link takes 2 ms of the "
        "one-way delay (ours). Measures and criteria: aqmlab/reproduce/seed000_threshold.py."
    )


declare(
    "seed000-fig18-homogeneous",
    runs=sweep_runs(single("homogeneous")),
    derive=sweep_derive,
    figures=lambda out, evidence: plot_sweep(out, evidence, "fig18-single.png", "single bottleneck, 60 Compound"),
    notes=describe,
)

declare(
    "seed000-fig18",
    runs=sweep_runs(single("heterogeneous")),
    derive=sweep_derive,
    figures=lambda out, evidence: plot_sweep(out, evidence, "fig18.png", "single bottleneck, heterogeneous"),
    notes=lambda quick: (
        describe(quick) + " Delay, loss and throughput count every packet at the bottleneck (long-lived, UDP and HTTP)."
    ),
)


#: The parking lot's two traffic mixes (Section VI-C2); the quick version runs the heterogeneous only.
KINDS = ("homogeneous", "heterogeneous")


def parking_lot_runs(quick: bool, kinds: tuple[str, ...] | None = None) -> list[Run]:
    """The runs of each traffic mix in `kinds` (default: both, the quick version the
    heterogeneous only) at the full or the quick size."""
    kinds = kinds or (("heterogeneous",) if quick else KINDS)
    runs = []
    for kind in kinds:
        for run in sweep_runs(parking_lot(kind), keep=(10, 200) if kind == "heterogeneous" else ())(quick):
            runs.append(Run(f"{kind}-{run.name}", run.scenario, run.measure, run.keep))
    return runs


def parking_lot_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Each traffic mix's sweep (the mixes whose runs are in `m`) and the largest queues."""
    kinds = [kind for kind in KINDS if any(name.startswith(f"{kind}-") for name in m)]
    out: dict[str, float] = {}
    for kind in kinds:
        part = {name.removeprefix(f"{kind}-"): row for name, row in m.items() if name.startswith(f"{kind}-")}
        out.update({f"{kind}_{key}": value for key, value in sweep_derive(part, quick).items()})
    out["threshold_queue_largest"] = max(m[f"heterogeneous-threshold-rtt{rtt}"]["queue_max"] for rtt in (10, 200))
    out["red_queue_largest"] = max(m[f"heterogeneous-red-rtt{rtt}"]["queue_max"] for rtt in (10, 200))
    return out


def parking_lot_figures(out: Path, evidence: Evidence) -> list[str]:
    traces = Evidence(
        {f"{LABELS[name.split('-')[1]]}, RTT {name.rsplit('rtt', 1)[1]} ms": r for name, r in evidence.kept.items()},
        evidence.values,
        evidence.quick,
    )
    figures = plot_queues(out, traces, "fig17.png", links=("link1", "link2"))
    kinds = ["heterogeneous"] if evidence.quick else ["homogeneous", "heterogeneous"]
    for kind in kinds:
        prefix = f"{kind}-"
        part = Evidence(
            {},
            {key.removeprefix(prefix): v for key, v in evidence.values.items() if key.startswith(prefix)},
            evidence.quick,
        )
        figures += plot_sweep(
            out, part, f"fig{18 if kind == 'homogeneous' else 19}-parking-lot.png", f"parking lot, {kind} traffic"
        )
    return figures


declare(
    "seed000-fig17",
    runs=parking_lot_runs,
    derive=parking_lot_derive,
    figures=parking_lot_figures,
    notes=lambda quick: (
        ("Quick: heterogeneous traffic only. " if quick else "")
        + describe(quick)
        + " Fig. 17 is the heterogeneous traffic at RTT 10 and 200 ms (run directories beside it)."
    ),
)
