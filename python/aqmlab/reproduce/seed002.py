"""Seed 002 (general primal-dual congestion control and E-RED), Section V: the simulations.

Common settings (Section V): TCP-Reno sources, all ECN-capable, maximum window 1000 packets,
1040-byte packets; real buffer C·2.5 ms (C in Mb/s: 2.5·C/8.32 packets of 1040 B); RED with
min_th = 1/5 of the buffer, max_th = 3·min_th, ECN marking, other parameters at the ns-2
defaults (q_weight = -1, the automatic weight, max_p = 0.1, gentle, mark_p 0.1); E-RED with b_min = 1/5 of the buffer.

Ours, where the paper is silent or its symbols were lost (see docs/queues/ered.md for E-RED's
reconstruction, including κ = α/(C·D) with D the largest RTT of each scenario): round-trip
times uniform over the range the text gives (the paper draws each of the two edge-link delays
uniformly, so its RTTs are triangular); 10 Mb/s access links (the paper's Fig. 11 value), flows
starting uniformly in the first 5 s; the Fig. 7 UDP source at 30 Mb/s (the text keeps only "a
fixed rate of 3"); Fig. 9's three HighSpeed TCP users share 30 Mb/s (10 Mb/s per user) with a 60-packet buffer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.reproduce.registry import Claim, Outcome, reproduction
from aqmlab.results import Results
from aqmlab.simulation import simulate

PAPER = "seed 002 (general primal-dual congestion control and E-RED)"
PACKET_BYTES = 1040
#: "Stable" virtual queue: coefficient of variation after the transient at most this (ours).
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


def red_against_ered(
    out: Path,
    label: str,
    rate: float,
    flows: int,
    rtt: tuple[str, str],
    p_min: float,
    *,
    duration: float,
    measure_start: float,
) -> tuple[list[Claim], dict[str, Any]]:
    """Section V-A: one scenario under RED and under E-RED-iq (α = 1, γ = 0.95, p_max = 0.1)."""
    runs = {}
    for name, queue in (
        ("RED", red_queue(rate)),
        ("E-RED", ered_queue(rate, gamma=0.95, alpha=1.0, p_min=p_min, p_max=0.1, delay_scale=rtt[1])),
    ):
        runs[name] = simulate(
            dumbbell(
                f"{label}-{name}",
                rate,
                queue,
                [reno_group(flows, *rtt)],
                duration=duration,
                measure_start=measure_start,
            )
        )
    stats = {name: queue_stats(results) for name, results in runs.items()}
    plot_runs(runs, out / f"{label}.png")
    red, ered = stats["RED"], stats["E-RED"]
    claims = [
        Claim(
            f"{label}: RED is unstable, its queue hits zero and the full buffer frequently",
            "queue and throughput oscillate; queue hits 0 and the buffer (Figs. 2, 4)",
            f"RED queue empty {100 * red['empty']:.0f} % and within 10 % of its maximum {100 * red['near_full']:.0f} % "
            f"of the 0.1 s samples, std {red['queue_std']:.1f} packets (criterion: each at least 5 %)",
            bool(red["empty"] >= 0.05 and red["near_full"] >= 0.05),
        ),
        Claim(
            f"{label}: E-RED's virtual queue oscillates only slightly around its equilibrium",
            "virtual queue stable after the transient (Figs. 3, 5)",
            f"virtual queue mean {ered['virtual_mean']:.0f} packets, coefficient of variation "
            f"{ered['virtual_cv']:.3f} (criterion: at most {STABLE_CV})",
            bool(ered["virtual_cv"] <= STABLE_CV),
        ),
        Claim(
            f"{label}: E-RED keeps a smaller real queue than RED",
            "smaller Avg(qlen) and Std(qlen) (Table I)",
            f"Avg/Std(qlen) E-RED {ered['queue_mean']:.1f}/{ered['queue_std']:.1f}, RED "
            f"{red['queue_mean']:.1f}/{red['queue_std']:.1f} packets",
            bool(ered["queue_mean"] < red["queue_mean"] and ered["queue_std"] < red["queue_std"]),
        ),
        Claim(
            f"{label}: E-RED's throughput is less oscillatory",
            "throughput less oscillatory than RED's (Figs. 2-5)",
            f"std of 0.1 s throughput E-RED {100 * ered['throughput_share_std']:.1f} % of C, RED "
            f"{100 * red['throughput_share_std']:.1f} %; mean {100 * ered['throughput_share_mean']:.1f} % against "
            f"{100 * red['throughput_share_mean']:.1f} %",
            bool(ered["throughput_share_std"] < red["throughput_share_std"]),
        ),
    ]
    return claims, {"table": stats, "rate_bps": rate, "flows": flows, "rtt": list(rtt)}


LC_NOTE = (
    "Large capacity (Section V-A): 1 Gb/s, 2000 Reno flows, bottleneck 10 ms, other links 1-20 ms (RTTs "
    "uniform in [24, 100] ms), p_min = 0.0005, 40 s, statistics over 10-39 s (the paper's interval)."
)
LD_NOTE = (
    "Large delay (Section V-A): 300 Mb/s, 1000 Reno flows, bottleneck 10 ms, other links 45-95 ms (RTTs "
    "uniform in [200, 400] ms), p_min = 0.00067."
)


def quick_note(quick: bool, text: str) -> str:
    return (
        (text + " Quick version scaled by 1/10 in capacity and flows (the same rate per flow), shorter runs.")
        if quick
        else text
    )


@reproduction(
    "seed002-fig2-5",
    PAPER,
    "Figs. 2-5 and Table I: RED against E-RED, large capacity and large delay",
    "RED oscillates (queue hits 0 and the buffer) where E-RED holds its virtual queue steady, with a "
    "smaller real queue and steadier throughput; Table I's averages for both.",
    "≈3 min",
)
def fig2_5(out: Path, quick: bool) -> Outcome:
    scale = 0.1 if quick else 1.0
    claims, data = [], {}
    lc, data["large_capacity"] = red_against_ered(
        out,
        "large-capacity",
        1e9 * scale,
        round(2000 * scale),
        ("24ms", "100ms"),
        0.0005,
        duration=25.0 if quick else 40.0,
        measure_start=10.0,
    )
    ld, data["large_delay"] = red_against_ered(
        out,
        "large-delay",
        300e6 * scale,
        round(1000 * scale),
        ("200ms", "400ms"),
        0.00067,
        duration=40.0 if quick else 60.0,
        measure_start=20.0,
    )
    claims = lc + ld
    note = quick_note(
        quick,
        LC_NOTE + " " + LD_NOTE + " Large delay: 60 s, statistics over 20-60 s (ours). "
        "Table I's numbers did not survive the text extraction; the data holds ours.",
    )
    return Outcome(claims, ["large-capacity.png", "large-delay.png"], note, data)


@reproduction(
    "seed002-fig6",
    PAPER,
    "Fig. 6: E-RED-aq in the large-capacity and large-delay networks",
    "E-RED on the averaged virtual queue (w = 0.001, γ = 0.9) also stabilises TCP-Reno.",
    "≈2 min",
)
def fig6(out: Path, quick: bool) -> Outcome:
    scale = 0.1 if quick else 1.0
    claims, runs, data = [], {}, {}
    for label, rate, flows, rtt, p_min, duration, start in (
        ("large capacity", 1e9, 2000, ("24ms", "100ms"), 0.0005, 40.0, 10.0),
        ("large delay", 300e6, 1000, ("200ms", "400ms"), 0.00067, 60.0, 20.0),
    ):
        queue = ered_queue(
            rate * scale, gamma=0.9, alpha=1.0, p_min=p_min, p_max=0.1, variant="aq", q_weight=0.001, delay_scale=rtt[1]
        )
        results = simulate(
            dumbbell(
                f"ered-aq-{label}",
                rate * scale,
                queue,
                [reno_group(round(flows * scale), *rtt)],
                duration=duration if not quick else min(duration, 40.0),
                measure_start=start,
            )
        )
        runs[label] = results
        stats = data[label] = queue_stats(results)
        claims.append(
            Claim(
                f"{label}: E-RED-aq's virtual queue is stable",
                "virtual queue settles and oscillates slightly (Fig. 6)",
                f"virtual queue mean {stats['virtual_mean']:.0f} packets, coefficient of variation "
                f"{stats['virtual_cv']:.3f} (criterion: at most {STABLE_CV}); real queue mean "
                f"{stats['queue_mean']:.1f} packets, throughput {100 * stats['throughput_share_mean']:.1f} % of C",
                bool(stats["virtual_cv"] <= STABLE_CV),
            )
        )
    plot_runs(runs, out / "ered-aq.png")
    return Outcome(claims, ["ered-aq.png"], quick_note(quick, "Section V-B: " + LC_NOTE + " " + LD_NOTE), data)


@reproduction(
    "seed002-fig7",
    PAPER,
    "Fig. 7: a UDP flow joins at 50 s and leaves at 70 s",
    "100 Mb/s, 200 Reno flows, RTTs 20-100 ms, E-RED: the virtual queue's transient response to the UDP flow is fast.",
    "≈15 s",
)
def fig7(out: Path, quick: bool) -> Outcome:
    rate = 100e6
    udp = {
        "name": "udp",
        "kind": "udp",
        "count": 1,
        "rate": "30Mbps",
        "rtt": "60ms",
        "access_rate": "1Gbps",
        "packet_size": f"{PACKET_BYTES}B",
        "start": {"kind": "fixed", "at": "50s"},
        "stop": {"kind": "fixed", "at": "70s"},
    }
    queue = ered_queue(rate, gamma=0.95, alpha=1.0, p_min=0.0005, p_max=0.1, delay_scale="100ms")
    results = simulate(
        dumbbell(
            "udp-in-out",
            rate,
            queue,
            [reno_group(200, "20ms", "100ms"), udp],
            duration=100.0,
            measure_start=20.0,
            bottleneck_delay="5ms",
        )
    )
    samples = results.link_samples()
    time, virtual = samples["time_s"], samples["virtual_queue"]

    smoothed = np.convolve(virtual, np.ones(5) / 5, mode="same")  # 0.5 s moving mean of 0.1 s samples

    def settle(event: float, before: tuple[float, float], after: tuple[float, float]) -> float:
        """Seconds from `event` until the smoothed virtual queue has made 90 % of its step between the
        median levels over `before` and `after`."""
        old = np.median(virtual[(time >= before[0]) & (time < before[1])])
        new = np.median(virtual[(time >= after[0]) & (time < after[1])])
        progress = (smoothed - old) / (new - old)
        reached = np.nonzero((time >= event) & (progress >= 0.9))[0]
        return float(time[reached[0]] - event) if reached.size else float("inf")

    joined, left = settle(50.0, (35.0, 50.0), (60.0, 70.0)), settle(70.0, (60.0, 70.0), (85.0, 100.0))
    levels = {
        span: float(np.median(virtual[(time >= span[0]) & (time < span[1])]))
        for span in ((35.0, 50.0), (60.0, 70.0), (85.0, 100.0))
    }
    fig, axis = plt.subplots(figsize=(10, 3.5), constrained_layout=True)
    axis.plot(time, virtual, lw=0.8)
    for event in (50, 70):
        axis.axvline(event, color="grey", ls="--", lw=0.8)
    axis.set(xlabel="time (s)", ylabel="virtual queue (packets)", title="UDP 30 Mb/s in at 50 s, out at 70 s")
    axis.grid(alpha=0.3)
    fig.savefig(out / "udp-in-out.png", dpi=110)
    plt.close(fig)
    claim = Claim(
        "the transient response is fast when the available bandwidth changes suddenly",
        "virtual queue settles quickly after the UDP flow joins and leaves (Fig. 7)",
        f"the virtual queue (0.5 s moving mean) makes 90 % of its step {joined:.1f} s after the join and "
        f"{left:.1f} s after the leave (median levels {levels[(35.0, 50.0)]:.0f}, "
        f"{levels[(60.0, 70.0)]:.0f}, {levels[(85.0, 100.0)]:.0f} packets) (criterion: within 2 s, "
        "about 30 mean RTTs)",
        bool(joined <= 2.0 and left <= 2.0),
    )
    note = (
        "Section V-C: 100 Mb/s, 200 Reno flows, RTTs uniform in [20, 100] ms, E-RED-iq (α = 1, γ = 0.95, "
        "p_min = 0.0005); the UDP rate is ours (30 Mb/s: the text keeps only 'a fixed rate of 3'). Quick and "
        "full versions are the same 100 s run."
    )
    return Outcome(
        [claim],
        ["udp-in-out.png"],
        note,
        {
            "settle_after_join_s": joined,
            "settle_after_leave_s": left,
            "levels": {f"{a:g}-{b:g}": v for (a, b), v in levels.items()},
        },
    )


@reproduction(
    "seed002-fig8",
    PAPER,
    "Fig. 8: the adaptation gain α = 2, 4, 8",
    "200 Mb/s, 200 Reno flows, RTTs 20-100 ms, E-RED (p_min 0.0005, p_max 0.1, γ = 0.9): the virtual "
    "queue oscillates more as α grows, and the system is unstable at α = 8.",
    "≈1 min",
)
def fig8(out: Path, quick: bool) -> Outcome:
    rate, flows = (100e6, 100) if quick else (200e6, 200)
    duration = 40.0 if quick else 60.0
    alphas = (1.0, 2.0, 4.0, 8.0)
    runs, stats = {}, {}
    for alpha in alphas:
        queue = ered_queue(rate, gamma=0.9, alpha=alpha, p_min=0.0005, p_max=0.1, delay_scale="100ms")
        runs[f"α = {alpha:g}"] = simulate(
            dumbbell(
                f"alpha-{alpha:g}",
                rate,
                queue,
                [reno_group(flows, "20ms", "100ms")],
                duration=duration,
                measure_start=20.0,
                bottleneck_delay="5ms",
            )
        )
        stats[alpha] = queue_stats(runs[f"α = {alpha:g}"])
    fig, axes = plt.subplots(len(alphas), 1, figsize=(10, 8), sharex=True, constrained_layout=True)
    for axis, (label, results) in zip(axes, runs.items(), strict=True):
        samples = results.link_samples()
        axis.plot(samples["time_s"], samples["virtual_queue"], lw=0.8)
        axis.set(ylabel="virtual queue", title=label)
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    fig.savefig(out / "alpha.png", dpi=110)
    plt.close(fig)
    cv = [stats[a]["virtual_cv"] for a in alphas]
    claims = [
        Claim(
            "the virtual queue oscillates more as α increases",
            "higher oscillation for α = 2, 4, 8 in turn (Fig. 8)",
            "coefficient of variation of the virtual queue "
            + ", ".join(f"α = {a:g}: {c:.3f}" for a, c in zip(alphas, cv, strict=True))
            + " (criterion: increasing from α = 2 to 8)",
            bool(cv[1] < cv[2] < cv[3]),
        ),
        Claim(
            "α = 8 is unstable",
            "the system is unstable at α = 8 (Fig. 8)",
            f"virtual queue CV {cv[3]:.3f} at α = 8 against {cv[0]:.3f} at α = 1; real queue empty "
            f"{100 * stats[8.0]['empty']:.0f} % of the time, throughput "
            f"{100 * stats[8.0]['throughput_share_mean']:.1f} "
            f"% of C (criterion: CV above {STABLE_CV} and at least three times α = 1's)",
            bool(cv[3] > STABLE_CV and cv[3] >= 3 * cv[0]),
        ),
    ]
    note = quick_note(
        False,
        "Section V-D: RTTs uniform in [20, 100] ms; statistics over 20 s to the end. α = 1 is "
        "added as the reference the paper calls stable (Section V-A).",
    )
    if quick:
        note += " Quick version: 100 Mb/s and 100 flows (the same rate per flow), 40 s."
    return Outcome(claims, ["alpha.png"], note, {f"{a:g}": stats[a] for a in alphas})


@reproduction(
    "seed002-fig9",
    PAPER,
    "Fig. 9: three HighSpeed TCP flows with E-RED",
    "3 users, 10 Mb/s of capacity per user, RTT 200 ms: the average throughput per user over 75 s is "
    "about 0.8 of the per-user capacity.",
    "≈10 s",
)
def fig9(out: Path, quick: bool) -> Outcome:
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
    results = simulate(scenario)
    goodput = results.flows.column("goodput_bps").to_numpy()
    share = goodput / 10e6
    trace = results.flow_trace
    fig, axis = plt.subplots(figsize=(10, 3.5), constrained_layout=True)
    flow_ids = trace.column("flow").to_numpy()
    for flow in np.unique(flow_ids):
        rows = flow_ids == flow
        axis.plot(
            trace.column("time_s").to_numpy()[rows], trace.column("cwnd").to_numpy()[rows], lw=0.8, label=f"user {flow}"
        )
    axis.set(xlabel="time (s)", ylabel="window (packets)", title="HighSpeed TCP over E-RED, 3 users")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    fig.savefig(out / "hstcp-windows.png", dpi=110)
    plt.close(fig)
    claim = Claim(
        "E-RED with HighSpeed TCP gives a reasonably high throughput",
        "average throughput per user over 75 s: 0.8 of the per-user capacity",
        "throughput per user "
        + ", ".join(f"{s:.2f}" for s in share)
        + f" of 10 Mb/s, mean {share.mean():.2f} (criterion: mean within 0.7-0.9)",
        bool(0.7 <= share.mean() <= 0.9),
    )
    note = (
        "Section V-E: the per-user capacity and RTT are the paper's; the buffer (60 packets, 2.5 ms of 30 Mb/s "
        "is only 9) and access links are ours; measured over the last 75 s of 100 s. Quick and full versions "
        "are the same run."
    )
    return Outcome([claim], ["hstcp-windows.png"], note, {"share_of_per_user_capacity": share.tolist()})


@reproduction(
    "seed002-fig12",
    PAPER,
    "Figs. 11-12: E-RED in the six-router, 500-flow network",
    "Five paths of 100 Reno flows each over 100 Mb/s inter-router links: E-RED stabilises every link; "
    "the virtual queue of R2-R4 settles.",
    "≈1 min",
)
def fig12(out: Path, quick: bool) -> Outcome:
    results = simulate(network_from_example(quick))
    links = [name for name in results.traced_links if "-" in name and not name.endswith("reverse")]
    stats = {name: queue_stats(results, name) for name in links}
    # Links where E-RED acts: the virtual queue above b_min (6 packets) on average.
    loaded = {name: s for name, s in stats.items() if s["virtual_mean"] > 6}
    plot_runs({"R2-R4": results}, out / "r2-r4.png", link="R2-R4")
    worst = max(loaded.items(), key=lambda item: item[1]["virtual_cv"])
    claims = [
        Claim(
            "the virtual queue of R2-R4 is stable",
            "virtual queue settles; throughput high (Fig. 12)",
            f"R2-R4 virtual queue mean {stats['R2-R4']['virtual_mean']:.0f} packets, CV "
            f"{stats['R2-R4']['virtual_cv']:.3f}, throughput {100 * stats['R2-R4']['throughput_share_mean']:.1f} % "
            f"of C (criterion: CV at most {STABLE_CV})",
            bool(stats["R2-R4"]["virtual_cv"] <= STABLE_CV),
        ),
        Claim(
            "the other inter-router links behave alike",
            "similar behaviour on every inter-router link",
            f"{len(loaded)} links where E-RED acts (virtual queue mean above b_min): "
            + ", ".join(f"{name} {s['virtual_mean']:.0f} packets" for name, s in loaded.items())
            + f"; the least steady is {worst[0]} with CV "
            f"{worst[1]['virtual_cv']:.3f} (criterion: every loaded link at most {STABLE_CV})",
            bool(all(s["virtual_cv"] <= STABLE_CV for s in loaded.values())),
        ),
    ]
    note = (
        "Section V-F with the topology and paths of examples/seed002-fig11-network.toml (paths read from the "
        "garbled text), every inter-router link running E-RED-iq (α = 1, γ = 0.95, p_min = 0.0005, buffer "
        "2.5 ms = 30 packets, ECN), Reno with ECN and max window 1000, 1040-byte packets; 60 s, statistics over "
        "20-60 s." + (" Quick version: 30 s, statistics over 15-30 s." if quick else "")
    )
    return Outcome(claims, ["r2-r4.png"], note, stats)


NETWORK_EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "seed002-fig11-network.toml"


def network_from_example(quick: bool) -> dict[str, Any]:
    """The Fig. 11 network of the example file with E-RED on every inter-router link (both directions)."""
    from aqmlab import _toml as tomllib

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


@reproduction(
    "seed002-fig10",
    PAPER,
    "Fig. 10: Scalable TCP with E-RED in the fluid model, α = 1 against 0.9",
    "The paper's Matlab (fluid) simulation: with α = 1 the source rates oscillate without growing or "
    "decaying, with α = 0.9 they converge, so α = 1 is the critical point.",
    "≈20 s",
)
def fig10(out: Path, quick: bool) -> Outcome:
    from aqmlab.fluid import get_model, integrate
    from aqmlab.stability import find_hopf

    # Section V-E: 3 users, 10 Mb/s of capacity each, RTT 200 ms; Scalable TCP is the window law
    # a·w^n / b·w^m of Section IV-A with n = 0, m = 1 (Kelly's a = 0.01, b = 0.125: ours).
    capacity = 3 * 10e6 / (8 * PACKET_BYTES)
    options = {"link": "ered-iq", "rtts": "0.2,0.2,0.2", "capacities": f"{capacity:.1f}"}
    params = {"a": 0.01, "n": 0.0, "b": 0.125, "m": 1.0, "gamma": 0.95, "p_min": 1e-4}
    hopf = find_hopf("primal-dual", "alpha", 0.05, 100.0, params, options=options)
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
    claims = [
        Claim(
            "α = 1 is the critical point between stability and instability for Scalable TCP",
            "rates oscillate at α = 1 and converge at α = 0.9 (Fig. 10)",
            f"the fluid model's Hopf point is α = {hopf.value:.2f} (ω = {hopf.omega:.3f} rad/s); relative amplitude "
            f"of the rate over the last quarter {relative[0]:.2e} at α = 0.9, {relative[1]:.2e} at α = 1, "
            f"{relative[2]:.2e} at α*/2, {relative[3]:.2e} at 2 α* (criterion: Hopf point within 0.9-1.1)",
            bool(0.9 <= hopf.value <= 1.1),
        ),
        Claim(
            "the boundary separates converging from oscillating rates",
            "converge below, oscillate above",
            "swing of the last quarter over the second quarter of the run: "
            + ", ".join(f"{g:.2f} at α = {a:.3g}" for a, g in zip(alphas, growth, strict=True))
            + " (criterion: below 0.7 at α*/2, decaying; at least 0.9 at 2 α*, sustained)",
            bool(growth[2] < 0.7 and growth[3] >= 0.9),
        ),
    ]
    note = (
        "Fluid model `primal-dual` (docs/fluid.md) with the E-RED-iq link law (eqs. 34-35) with time in "
        "units of the round-trip time, ṗ = (α/(c·T))·p·(y − γc) (docs/queues/ered.md); Scalable TCP's a = 0.01 "
        "and b = 0.125 and p_min = 1e-4 are ours (the paper's values were lost; p_min = 0.0005 lies above this "
        "network's equilibrium price 3.5e-4). Scalable TCP sits in the slow-source limit of the loop, where "
        "the Hopf α is (1 − p*)/γ times a factor between 1 and π/2 that a and b barely move. "
        f"Integrated for {t_end:.0f} s from a 10 % perturbation of the equilibrium."
    )
    return Outcome(
        claims,
        ["scalable-rates.png"],
        note,
        {
            "hopf_alpha": hopf.value,
            "omega": hopf.omega,
            "alphas": alphas,
            "relative_amplitude": relative.tolist(),
            "swing_late_over_early": growth.tolist(),
        },
    )
