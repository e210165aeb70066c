"""Seed 000 Section VI-C: the threshold policy against RED(8, 15) in the parking lot (Figs. 16-17
and the parking-lot curves of Figs. 18-19), and with homogeneous Compound traffic on the single
bottleneck (the homogeneous curves of Fig. 18).

Which curve is in which figure: the captions of Figs. 18-19 were damaged in the extraction. The
text plots delay, loss, throughput and AFCT against the RTT for the single bottleneck with
homogeneous traffic ("Figures 18 and 19", AFCT "also presented in Figure 18"), then with the
heterogeneous mix, then for the parking lot "for both homogeneous and heterogeneous traffic"; we
read Fig. 18 as the homogeneous and Fig. 19 as the heterogeneous traffic. `seed000-fig18`
(seed000_mixed.py) covers the heterogeneous single bottleneck; this module the rest.

Parking lot (Section VI-C1.2, Fig. 16): two 100 Mbps links in series, buffers of 2084 packets,
1500-byte packets, 2 Mbps access links. Homogeneous: 30 Compound flows cross both links
(SA1-30), 30 the first only (SA31-60), 30 the second only (SB1-30). Heterogeneous: SA1-30 send
13 Compound + 14 CUBIC long-lived flows, 8 UDP flows of 1 Mbps and 50 HTTP flows/s; SA31-60 and
SB1-30 each 14 Compound + 14 CUBIC. RED(8, 15) with ns-2 defaults against the threshold policy
at q_th = 15.

Ours, where the paper is silent: each core link takes 2 ms of the one-way delay (as the
single bottleneck of seed000_packet.py), every flow has the stated RTT whatever its path; UDP
and HTTP as in seed000_mixed.py (Poisson arrivals, Pareto sizes for PackMime-HTTP).
Measures over the last 25 s of 500 s runs: queueing delay = the sum of the mean queueing delays
of the links (the paper's definition); loss = packets dropped at the links over packets
arriving at them (pooled); throughput = data departing the links (summed, the paper's "total
throughput observed at both links"); AFCT = mean completion time of the long-lived flows in
separate runs where each transfers a fixed size and stops (the paper: 500 MB), unfinished
transfers counted with the time they had (a lower bound).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from aqmlab.cli import write_run
from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.reproduce.seed000_mixed import (
    RED_8_15,
    THRESHOLD_15,
    homogeneous,
    long_lived,
    udp,
    web,
)
from aqmlab.results import Results
from aqmlab.simulation import simulate

PAPER = "seed 000 (Compound TCP with RED)"
POLICIES = {"RED(8, 15)": RED_8_15, "threshold 15": THRESHOLD_15}
HALF = [{"share": 0.5, "cc": "compound"}, {"share": 0.5, "cc": "cubic"}]
#: A scenario builder: (name, rtt, queue, duration_s, transfer or None) -> scenario dict.
Builder = Callable[[str, str, dict[str, Any], float, dict[str, Any] | None], dict[str, Any]]


def crossing(group: dict[str, Any], *links: str) -> dict[str, Any]:
    return {**group, "crosses": list(links)}


def parking_lot(traffic: str) -> Builder:
    """Seed 000 Fig. 16 with `traffic` = 'homogeneous' or 'heterogeneous' (Section VI-C1.2)."""

    def build(
        name: str, rtt: str, queue: dict[str, Any], duration: float, transfer: dict[str, Any] | None
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
        return {
            "name": name,
            "duration": f"{duration}s",
            "measure_start": f"{max(duration - 25.0, 0.0)}s",
            "seed": 1,
            "topology": {"kind": "parking_lot", "links": links, "groups": groups},
            "trace": {"interval": "10ms", "flows": 0},
        }

    return build


def single_homogeneous(
    name: str, rtt: str, queue: dict[str, Any], duration: float, transfer: dict[str, Any] | None
) -> dict[str, Any]:
    """Section VI-C1.1: 60 Compound flows on the Section V dumbbell."""
    scenario = homogeneous(name, rtt, queue, quick=False)
    scenario["duration"], scenario["measure_start"] = f"{duration}s", f"{max(duration - 25.0, 0.0)}s"
    scenario["trace"] = {"interval": "10ms", "flows": 0}
    if transfer is not None:
        scenario["topology"]["groups"][0]["transfer"] = transfer
    return scenario


def forward_links(results: Results) -> list[str]:
    return [link for link in results.traced_links if not link.endswith("_reverse")]


def measure(results: Results) -> dict[str, float]:
    """Delay (sum over the links, ms), pooled loss (%), throughput (sum, Mb/s), largest queue."""
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
    return {
        "delay_ms": delay,
        "loss_percent": 100.0 * drops / arrivals,
        "throughput_mbps": departed * 8e-6 / (end - start),
        "queue_max_packets": largest,
    }


def afct(results: Results) -> tuple[float, int, int]:
    """Mean completion time of the finite long-lived transfers, completed count, total."""
    flows = results.flows.to_pandas()
    finite = flows[flows["kind"] == "tcp"]
    fct = finite["fct_s"].fillna(results.end_s - finite["start_s"])
    return float(fct.mean()), int(finite["fct_s"].notna().sum()), len(finite)


def sweep(
    build: Builder,
    rtts: list[int],
    afct_rtts: list[int],
    *,
    duration: float,
    size_mb: float,
    afct_duration: float,
    keep: Callable[[str, int, Results], None] | None = None,
) -> dict[str, dict[str, list]]:
    """Both policies against the RTT: the long-lived runs, then the fixed-transfer runs."""
    rows: dict[str, dict[str, list]] = {}
    for policy, queue in POLICIES.items():
        row: dict[str, list] = {
            "delay_ms": [],
            "loss_percent": [],
            "throughput_mbps": [],
            "queue_max_packets": [],
            "afct_s": [],
            "completed": [],
        }
        for rtt in rtts:
            results = simulate(build(f"rtt{rtt}", f"{rtt}ms", queue, duration, None))
            for key, value in measure(results).items():
                row[key].append(value)
            if keep is not None:
                keep(policy, rtt, results)
        for rtt in afct_rtts:
            transfer = {"kind": "finite", "size": f"{size_mb:g}MB"}
            mean, completed, total = afct(simulate(build(f"afct{rtt}", f"{rtt}ms", queue, afct_duration, transfer)))
            row["afct_s"].append(mean)
            row["completed"].append(f"{completed}/{total}")
        rows[policy] = row
    return rows


def plot_sweep(
    rows: dict[str, dict[str, list]], rtts: list[int], afct_rtts: list[int], path: Path, title: str, size_mb: float
) -> None:
    panels = [
        ("delay_ms", "queueing delay, summed over links (ms)", rtts),
        ("loss_percent", "loss (%)", rtts),
        ("throughput_mbps", "throughput (Mb/s)", rtts),
        ("afct_s", f"AFCT of {size_mb:g} MB transfers (s)", afct_rtts),
    ]
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), constrained_layout=True)
    for axis, (key, label, x) in zip(axes, panels, strict=True):
        for (policy, row), marker in zip(rows.items(), ("o-", "s-"), strict=True):
            axis.plot(x, row[key], marker, label=policy)
        axis.set_xlabel("RTT (ms)")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def sweep_claims(
    rows: dict[str, dict[str, list]], rtts: list[int], afct_rtts: list[int], where: str, size_mb: float, total: int
) -> list[Claim]:
    """The Section VI-C statements, for one topology and traffic."""
    red, threshold = rows["RED(8, 15)"], rows["threshold 15"]

    def pairs(key: str, x: list[int], digits: int = 2) -> str:
        return ", ".join(
            f"{r}: {t:.{digits}f}/{d:.{digits}f}" for r, t, d in zip(x, threshold[key], red[key], strict=True)
        )

    lower = sum(t < r for t, r in zip(threshold["delay_ms"], red["delay_ms"], strict=True))
    loss_ratio = [
        t / r if r > 0 else float("inf") for t, r in zip(threshold["loss_percent"], red["loss_percent"], strict=True)
    ]
    throughput_ratio = [t / r for t, r in zip(threshold["throughput_mbps"], red["throughput_mbps"], strict=True)]
    faster = sum(t < r for t, r in zip(threshold["afct_s"], red["afct_s"], strict=True))
    return [
        Claim(
            f"{where}: the threshold policy gives a lower queueing delay",
            "lower at every RTT",
            f"threshold/RED (ms) at RTT (ms) {pairs('delay_ms', rtts)}; lower at {lower} of {len(rtts)}",
            bool(lower == len(rtts)),
        ),
        Claim(
            f"{where}: both policies drop about the same fraction of packets",
            "loss almost equal (parking lot: marginally higher for the threshold policy at low RTTs, converging "
            "as the RTT grows)",
            f"threshold/RED (%) {pairs('loss_percent', rtts)}; ratio {loss_ratio[0]:.2f} at {rtts[0]} ms, "
            f"{loss_ratio[-1]:.2f} at {rtts[-1]} ms (criterion: within 0.67-1.5 at every RTT)",
            bool(all(0.67 <= value <= 1.5 for value in loss_ratio)),
        ),
        Claim(
            f"{where}: both policies give the same throughput",
            "throughput equal",
            f"threshold/RED (Mb/s) {pairs('throughput_mbps', rtts, 1)}; ratios {min(throughput_ratio):.3f}-"
            f"{max(throughput_ratio):.3f} (criterion: within 5 %)",
            bool(all(abs(value - 1) <= 0.05 for value in throughput_ratio)),
        ),
        Claim(
            f"{where}: flows complete sooner with the threshold policy ({size_mb:g} MB each)",
            "lower AFCT across the whole RTT range",
            f"threshold/RED AFCT (s) {pairs('afct_s', afct_rtts, 1)}; lower at {faster} of {len(afct_rtts)}; "
            f"completed (threshold, RED) {list(zip(threshold['completed'], red['completed'], strict=True))} of {total}",
            bool(faster == len(afct_rtts)),
        ),
    ]


def plot_traces(runs: dict[str, Results], path: Path) -> None:
    """Fig. 17's layout: the queue at each link over the window, one column per (policy, RTT)."""
    fig, axes = plt.subplots(
        2, len(runs), figsize=(4 * len(runs), 5.5), sharey=True, squeeze=False, constrained_layout=True
    )
    for column, (label, results) in enumerate(runs.items()):
        for row, link in enumerate(("link1", "link2")):
            samples = results.link_samples(link)
            shown = samples["time_s"] >= results.measure_start_s
            axes[row, column].plot(samples["time_s"][shown], samples["queue_packets"][shown], lw=0.6)
            axes[row, column].axhline(15, color="k", ls="--", lw=0.8)
            axes[row, column].set_title(f"{label}: {link}", fontsize=9)
            axes[row, column].grid(alpha=0.3)
        axes[1, column].set_xlabel("time (s)")
    for row in range(2):
        axes[row, 0].set_ylabel("queue (packets)")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def settings(quick: bool) -> dict[str, Any]:
    if quick:
        return {"rtts": [10, 200], "afct_rtts": [10, 200], "duration": 40.0, "size_mb": 2.0, "afct_duration": 60.0}
    return {
        "rtts": [10, 25, 50, 75, 100, 125, 150, 175, 200],
        "afct_rtts": [10, 100, 200],
        "duration": 500.0,
        "size_mb": 500.0,
        "afct_duration": 4000.0,
    }


def describe(quick: bool, s: dict[str, Any]) -> str:
    length = f"{s['duration']:.0f} s runs measured over the last 25 s" + (" (quick)" if quick else "")
    return (
        f"{length}; AFCT from separate runs of {s['size_mb']:g} MB transfers (the paper: 500 MB) capped at "
        f"{s['afct_duration']:.0f} s, at RTTs {s['afct_rtts']} ms. Each core link takes 2 ms of the one-way delay "
        "(ours). Definitions of the measures: module docstring (aqmlab/reproduce/seed000_extra.py)."
    )


@reproduction(
    "seed000-fig17",
    PAPER,
    "Figs. 16-19: threshold policy against RED(8, 15) in the parking lot",
    "Two 100 Mbps links in series: the threshold policy keeps both queues at most 15 packets where RED(8, "
    "15) lets them reach about 40; against the RTT (10-200 ms) it gives lower queueing delay, about the "
    "same loss and throughput, and shorter flow completion, with homogeneous and heterogeneous traffic.",
    "≈30 min (500 MB transfers)",
)
def fig17(out: Path, quick: bool) -> Outcome:
    s = settings(quick)
    traces: dict[str, Results] = {}

    def keep(policy: str, rtt: int, results: Results) -> None:
        if rtt in (10, 200):
            traces[f"{policy}, RTT {rtt} ms"] = results
        if rtt in (10, 200) and not quick:  # run directories (about 1 s each to write) in the full version
            write_run(
                results,
                out / f"heterogeneous-{'red' if policy.startswith('RED') else 'threshold'}-rtt{rtt}",
                force=True,
            )

    kinds = ["heterogeneous"] if quick else ["homogeneous", "heterogeneous"]
    claims, figures, data = [], [], {}
    for kind in kinds:
        rows = sweep(
            parking_lot(kind),
            s["rtts"],
            s["afct_rtts"],
            duration=s["duration"],
            size_mb=s["size_mb"],
            afct_duration=s["afct_duration"],
            keep=keep if kind == "heterogeneous" else None,
        )
        name = f"fig{18 if kind == 'homogeneous' else 19}-parking-lot.png"
        plot_sweep(rows, s["rtts"], s["afct_rtts"], out / name, f"parking lot, {kind} traffic", s["size_mb"])
        figures.append(name)
        claims += sweep_claims(
            rows, s["rtts"], s["afct_rtts"], f"parking lot, {kind}", s["size_mb"], 90 if kind == "homogeneous" else 83
        )
        data[kind] = {"rtt_ms": s["rtts"], "afct_rtt_ms": s["afct_rtts"], **rows}
    plot_traces(traces, out / "fig17.png")
    figures.insert(0, "fig17.png")
    for rtt in (10, 200):
        red = max(traces[f"RED(8, 15), RTT {rtt} ms"].summary(link)["queue_max_packets"] for link in ("link1", "link2"))
        threshold = max(
            traces[f"threshold 15, RTT {rtt} ms"].summary(link)["queue_max_packets"] for link in ("link1", "link2")
        )
        claims.insert(
            0 if rtt == 10 else 1,
            Claim(
                f"Fig. 17, RTT {rtt} ms: the threshold policy holds both queues at 15 packets; RED does not",
                "threshold: queue ≤ 15 at both links; RED(8, 15): up to about 40 packets",
                f"largest queue over both links {threshold:.0f} (threshold) against {red:.0f} packets (RED)",
                bool(threshold <= 15 and red > 15),
            ),
        )
    notes = (
        ("Quick: heterogeneous traffic only. " if quick else "")
        + describe(quick, s)
        + " Fig. 17 is the heterogeneous traffic at RTT 10 and 200 ms (full version: run directories beside it)."
    )
    return Outcome(claims, figures, notes, data)


@reproduction(
    "seed000-fig18-homogeneous",
    PAPER,
    "Fig. 18: threshold policy against RED(8, 15) over RTT, 60 Compound flows, single bottleneck",
    "The Section V dumbbell with 60 Compound flows: against the RTT (10-200 ms) the threshold policy gives "
    "lower queueing delay, about the same loss and the same throughput as RED(8, 15), and a shorter AFCT "
    "(about 5 minutes shorter at 200 ms for 500 MB).",
    "≈10 min (500 MB transfers)",
)
def fig18_homogeneous(out: Path, quick: bool) -> Outcome:
    s = settings(quick)
    rows = sweep(
        single_homogeneous,
        s["rtts"],
        s["afct_rtts"],
        duration=s["duration"],
        size_mb=s["size_mb"],
        afct_duration=s["afct_duration"],
    )
    plot_sweep(
        rows, s["rtts"], s["afct_rtts"], out / "fig18-single.png", "single bottleneck, 60 Compound flows", s["size_mb"]
    )
    claims = sweep_claims(rows, s["rtts"], s["afct_rtts"], "single bottleneck, homogeneous", s["size_mb"], 60)
    if not quick:  # the paper's number is for 500 MB transfers
        gap = rows["RED(8, 15)"]["afct_s"][-1] - rows["threshold 15"]["afct_s"][-1]
        claims.append(
            Claim(
                "the AFCT gap at RTT 200 ms",
                "about 5 minutes for 500 MB",
                f"RED − threshold = {gap:.0f} s (criterion: 150-600 s)",
                bool(150 <= gap <= 600),
            )
        )
    notes = describe(quick, s).replace(
        " Each core link takes 2 ms of the one-way delay (ours).",
        " The bottleneck takes 2 ms of the one-way delay (ours).",
    )
    return Outcome(claims, ["fig18-single.png"], notes, {"rtt_ms": s["rtts"], "afct_rtt_ms": s["afct_rtts"], **rows})
