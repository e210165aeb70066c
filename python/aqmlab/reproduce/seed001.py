"""Seed 001 (Cx-TCP, fair coexistence of loss- and delay-based TCP): the packet-level
experiments of Section III and Table I.

Setting (Table I, common parameters): buffer 1 BDP on each link, 1000-byte packets, 500 s of
simulation, loss-based flows (web sessions too) run Reno. Cx-TCP parameters of Section III-A:
δmin 5 ms, δth 20 ms, pmax 5 %; δmax 100 ms (Section IV); the engine's defaults
(`docs/congestion/cx.md`, including the RTT averaging time τ = 100 ms, ours).

Ours, where the paper is silent (stated in every outcome's notes): DropTail queues; 10 ms of
the RTT on the bottleneck (one way); 100 Mb/s access links; long-lived flows start uniformly
in the first 10 s; "1 BDP" is taken at RTT 100 ms for every scenario (312 packets at 25 Mb/s,
312.5 rounded half to even: the Table I value for RTT 100 ms, and the drain time of 99.8 ms
equals δmax = 100 ms, the largest queueing delay Cx-TCP assumes, Section II; Section III-B's
155 and 310 packets are the same rule);
Table I's "web traffic: 10 flows" becomes Poisson arrivals of 10 Reno transfers per second
with Pareto sizes (mean 10 kB, shape 1.2), about 0.8 Mb/s; measurements over the second half
of each run unless stated. Fig. 2's curve is missing from the text we have; its values come
from Section III-A1 ("between 50 and 55 flows" for the switch to loss-based operation).
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
from aqmlab.reproduce.scenarios import parking_lot as parking_lot_scenario
from aqmlab.reproduce.scenarios import scenario
from aqmlab.results import Results  # noqa: E402

PAPER = "seed 001 (Cx-TCP: fair coexistence of loss- and delay-based TCP)"
PACKET_BITS = 8000.0
DELTA_TH_MS = 20.0
BOTTLENECK_DELAY = "10ms"
RTT_SPREAD = {"kind": "uniform", "low": "30ms", "high": "130ms"}
CX = {"kind": "cx"}
RENO = {"kind": "reno"}


def bdp_packets(rate_bps: float, rtt_s: float) -> int:
    return int(round(rate_bps * rtt_s / PACKET_BITS))


def tcp_group(name: str, count: int, cc: dict[str, Any], rtt: Any = "100ms", **extra: Any) -> dict[str, Any]:
    group = {
        "name": name,
        "count": count,
        "rtt": rtt,
        "access_rate": "100Mbps",
        "tcp": {"cc": cc, "packet_size": "1000B"},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    group.update(extra)
    return group


def web_group(name: str = "web", rtt: str = "80ms", **extra: Any) -> dict[str, Any]:
    """Table I's "web traffic: 10 flows" as 10 Reno transfers per second (ours)."""
    group = {
        "name": name,
        "kind": "web",
        "arrival_rate": 10.0,
        "size": {"kind": "pareto", "mean": "10kB", "shape": 1.2},
        "rtt": rtt,
        "access_rate": "100Mbps",
        "tcp": {"cc": "reno", "recovery": "new_reno", "packet_size": "1000B"},
    }
    group.update(extra)
    return group


def dumbbell(
    name: str,
    rate_bps: float,
    buffer: int,
    groups: list[dict[str, Any]],
    *,
    duration: float = 500.0,
    measure_start: float | None = None,
    reverse_buffer: int | None = None,
    interval: str = "50ms",
) -> dict[str, Any]:
    bottleneck = {"rate": rate_bps, "delay": BOTTLENECK_DELAY, "queue": {"kind": "drop_tail", "limit": f"{buffer}p"}}
    if reverse_buffer is not None:
        bottleneck["reverse_queue"] = {"kind": "drop_tail", "limit": f"{reverse_buffer}p"}
    start = duration / 2 if measure_start is None else measure_start
    topology = {"kind": "dumbbell", "bottleneck": bottleneck, "groups": groups}
    return scenario(name, topology, duration=duration, measure_start=start, trace_interval=interval)


def delay_ms(results: Results, link: str | None = None) -> float:
    return 1000.0 * results.summary(link)["queueing_delay_mean_s"]


def flow_throughput(results: Results) -> dict[str, np.ndarray]:
    """Average throughput of each long-lived TCP flow over its lifetime in the run (bit/s),
    by group name."""
    flows = results.flows.to_pandas()
    flows = flows[(flows["kind"] == "tcp") & (flows["direction"] == "forward")]
    end = flows["end_s"].fillna(results.end_s)
    rate = flows["bytes_delivered"] * 8.0 / (end - flows["start_s"]).clip(lower=1e-9)
    return {name: rate[flows["group_name"] == name].to_numpy() for name in flows["group_name"].unique()}


def phase(results: Results, low: float, high: float, link: str | None = None) -> tuple[float, float]:
    """Mean queueing delay (ms) and loss (%) of a traced link between `low` and `high` s."""
    samples = results.link_samples(link)
    rate = float(results.links.column("rate_bps")[results.link_id(link)].as_py())
    rows = (samples["time_s"] > low) & (samples["time_s"] <= high)
    delay = 1000.0 * samples["queue_bytes"][rows].mean() * 8.0 / rate
    arrivals = samples["arrivals"][rows].sum()
    loss = 100.0 * samples["drops"][rows].sum() / arrivals if arrivals else float("nan")
    return float(delay), float(loss)


def binned(results: Results, bin_s: float, link: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queueing delay (ms) and loss (%) in bins of `bin_s`: bin ends, delay, loss."""
    samples = results.link_samples(link)
    rate = float(results.links.column("rate_bps")[results.link_id(link)].as_py())
    index = np.floor((samples["time_s"] - 1e-9) / bin_s).astype(np.int64)
    count = np.bincount(index)
    delay = 1000.0 * np.bincount(index, weights=samples["queue_bytes"]) * 8.0 / rate / np.maximum(count, 1)
    arrivals = np.bincount(index, weights=samples["arrivals"])
    loss = 100.0 * np.bincount(index, weights=samples["drops"]) / np.maximum(arrivals, 1)
    return (np.arange(count.size) + 1) * bin_s, delay, loss


def save(fig, out: Path, name: str) -> str:
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


NOTE = (
    "Ours, where the paper is silent: DropTail, 10 ms of the RTT on the bottleneck, 100 Mb/s access links, "
    "long-lived flows starting uniformly in [0, 10] s, Cx-TCP's RTT averaging time τ = 100 ms "
    "(docs/congestion/cx.md), Reno with NewReno recovery for loss-based flows."
)

# --- Fig. 5 and Fig. 7: coexistence with Reno, fairness and loss rate ------------------------


def mix(
    name: str,
    cx: int,
    reno: int,
    *,
    rate: float = 25e6,
    duration: float = 500.0,
    web: bool = True,
    cx_cc: dict[str, Any] = CX,
) -> dict[str, Any]:
    groups = []
    if cx:
        groups.append(tcp_group("cx", cx, cx_cc, RTT_SPREAD))
    if reno:
        groups.append(tcp_group("reno", reno, RENO, RTT_SPREAD))
    if web:
        groups.append(web_group())
    return dumbbell(name, rate, bdp_packets(rate, 0.1), groups, duration=duration)


def backoff_probability(delay_ms: np.ndarray, delta_max_ms: float = 100.0, p_max: float = 0.05) -> np.ndarray:
    """Fig. 1 / Algorithm 1's per-ACK backoff probability at queueing delays in ms (δmin 5,
    δth 20 ms)."""
    delay = np.asarray(delay_ms, dtype=float)
    rise = p_max * (delay - 5.0) / (DELTA_TH_MS - 5.0)
    fall = p_max * (delta_max_ms - delay) / (delta_max_ms - DELTA_TH_MS)
    return np.where(delay <= 5.0, 0.0, np.where(delay <= DELTA_TH_MS, rise, np.where(delay < delta_max_ms, fall, 0.0)))


def queue_delays_ms(results: Results) -> np.ndarray:
    """The traced queueing delay (ms) of the main link over the measurement window."""
    samples = results.link_samples()
    rate = float(results.links.column("rate_bps")[results.link_id()].as_py())
    rows = samples["time_s"] > results.measure_start_s
    return 1000.0 * samples["queue_bytes"][rows] * 8.0 / rate


OBSERVED = {"kind": "cx", "delta_max": "observed"}


# --- Fig. 8: on/off switching ----------------------------------------------------------------


def on_off(delay_based: dict[str, Any] = CX) -> dict[str, Any]:
    """Table I: 20 Cx-TCP flows (or `delay_based`: PERT); 10 Reno flows enter 0.5 s apart from
    100 s and leave 5 s apart from 250 s."""
    rate = 25e6
    intermittent = tcp_group(
        "reno",
        10,
        RENO,
        RTT_SPREAD,
        start={"kind": "staggered", "first": "100s", "spacing": "0.5s"},
        stop={"kind": "staggered", "first": "250s", "spacing": "5s"},
    )
    groups = [tcp_group(delay_based["kind"], 20, delay_based, RTT_SPREAD), intermittent]
    return dumbbell("on-off", rate, bdp_packets(rate, 0.1), groups, duration=500.0, measure_start=0.0)


# --- Figs. 9-10: two bottlenecks -------------------------------------------------------------


def parking_lot(
    name: str, groups: list[dict[str, Any]], *, duration: float = 500.0, measure_start: float | None = None
) -> dict[str, Any]:
    """Section III-B: 12.5 Mb/s with a 155-packet queue, then 25 Mb/s with 310 packets,
    5 ms each, DropTail."""
    links = [
        {"name": "link1", "rate": "12.5Mbps", "delay": "5ms", "queue": {"kind": "drop_tail", "limit": "155p"}},
        {"name": "link2", "rate": "25Mbps", "delay": "5ms", "queue": {"kind": "drop_tail", "limit": "310p"}},
    ]
    start = duration / 2 if measure_start is None else measure_start
    return parking_lot_scenario(name, links, groups, duration=duration, measure_start=start, trace_interval="50ms")


def both(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link1", "link2"]}


def second(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link2"]}


def first(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link1"]}


# --- Fig. 2 and Fig. 3: queueing delay against the number of flows ---------------------------

COUNTS_FULL = [1, 5, 10, 20, 30, 40, 50, 55, 60, 65, 70]


def sweep_scenario(n: int, quick: bool, *, reverse: int = 0, cc: dict[str, Any] = CX) -> dict[str, Any]:
    """Section III-A1/2: n flows of `cc` at 25 Mb/s, RTT 100 ms, 1-BDP buffer; `reverse` Cx-TCP
    flows on the reverse path with their own 1-BDP buffer."""
    rate = 25e6
    buffer = bdp_packets(rate, 0.1)
    groups = [tcp_group("forward", n, cc)]
    if reverse:
        groups.append(tcp_group("reverse", reverse, CX, direction="reverse"))
    return dumbbell(
        f"n{n}", rate, buffer, groups, duration=200.0 if quick else 500.0, reverse_buffer=buffer if reverse else None
    )


def sweep_measures(results: Results) -> dict[str, float]:
    """Mean queueing delay (ms) forward and reverse, loss (%), utilisation (%), second half."""
    summary = results.summary()
    return {
        "delay_ms": delay_ms(results),
        "reverse_delay_ms": delay_ms(results, "bottleneck_reverse"),
        "loss": float(summary["loss_percent"]),
        "utilisation": 100.0 * float(summary["utilisation_mean"]),
    }


def first_above_threshold(m: dict[str, dict[str, float]], prefix: str, counts: list[int]) -> float:
    """The smallest count whose mean queueing delay exceeds δth (one step above the largest
    count run when none does)."""
    above = [n for n in counts if m[f"{prefix}{n}"]["delay_ms"] > DELTA_TH_MS]
    return float(min(above)) if above else float(max(counts) + 5)


def fig2_counts(quick: bool) -> list[int]:
    return [10, 30, 50, 70] if quick else COUNTS_FULL


def fig2_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    counts = fig2_counts(quick)
    loaded = [n for n in counts if 20 <= n <= 50]
    return {
        "delay_worst_up_to_50": max(m[f"cx{n}"]["delay_ms"] for n in counts if n <= 50),
        "utilisation_min_20_50": min(m[f"cx{n}"]["utilisation"] for n in loaded),
        "utilisation_max_20_50": max(m[f"cx{n}"]["utilisation"] for n in loaded),
        "switch_count": first_above_threshold(m, "cx", counts),
    }


def sweep_figure(out: Path, evidence: Evidence, curves: dict[str, tuple[str, list[int]]], name: str, title: str):
    """Mean delay and loss against the count with 95 % intervals, one curve per (prefix, counts)."""
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(6.5, 6), sharex=True, constrained_layout=True)
    for label, (prefix, counts) in curves.items():
        for axis, key in ((upper, "delay_ms"), (lower, "loss")):
            quantities = [f"{prefix}{n}.{key}" for n in counts]
            means = np.array([evidence.mean(q) for q in quantities])
            bounds = np.array([evidence.interval(q) for q in quantities])
            axis.errorbar(
                counts, means, yerr=[means - bounds[:, 0], bounds[:, 1] - means], marker="o", capsize=3, label=label
            )
    upper.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="threshold δth = 20 ms")
    upper.set_ylabel("average queueing delay (ms)")
    lower.set_ylabel("loss (%)")
    lower.set_xlabel("number of forward-path flows")
    for axis in (upper, lower):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    upper.set_title(title)
    return [save(fig, out, name)]


declare(
    "seed001-fig2",
    runs=lambda quick: (
        [Run(f"cx{n}", sweep_scenario(n, quick), sweep_measures) for n in fig2_counts(quick)]
        + [Run("reno30", sweep_scenario(30, quick, cc=RENO), sweep_measures)]
    ),
    derive=fig2_derive,
    figures=lambda out, evidence: sweep_figure(
        out,
        evidence,
        {"Cx-TCP": ("cx", fig2_counts(evidence.quick))},
        "fig2.png",
        "Cx-TCP alone, 25 Mb/s, RTT 100 ms (mean ± 95 % CI)",
    ),
    notes=lambda quick: NOTE + f" Runs of {200 if quick else 500} s measured over the second half.",
)


def fig3_counts(quick: bool) -> list[int]:
    return [10, 30, 50, 60, 70] if quick else COUNTS_FULL


def fig3_derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    counts = fig3_counts(quick)
    alone, reverse = first_above_threshold(m, "alone", counts), first_above_threshold(m, "reverse", counts)
    return {
        "delay_worst_reverse_up_to_30": max(m[f"reverse{n}"]["delay_ms"] for n in counts if n <= 30),
        "switch_alone": alone,
        "switch_reverse": reverse,
        "switch_earlier_with_reverse": alone - reverse,
    }


declare(
    "seed001-fig3",
    runs=lambda quick: (
        [Run(f"alone{n}", sweep_scenario(n, quick), sweep_measures) for n in fig3_counts(quick)]
        + [Run(f"reverse{n}", sweep_scenario(n, quick, reverse=20), sweep_measures) for n in fig3_counts(quick)]
    ),
    derive=fig3_derive,
    figures=lambda out, evidence: sweep_figure(
        out,
        evidence,
        {
            "no reverse traffic": ("alone", fig3_counts(evidence.quick)),
            "20 Cx-TCP flows on the reverse path": ("reverse", fig3_counts(evidence.quick)),
        },
        "fig3.png",
        "forward Cx-TCP flows, 25 Mb/s, RTT 100 ms",
    ),
    notes=lambda quick: (
        NOTE + f" Runs of {200 if quick else 500} s measured over the second half; the reverse bottleneck has its own "
        "1-BDP DropTail buffer (312 packets). The forward flows' RTT, and so their delay estimate δ, includes the "
        "reverse bottleneck's queue (the reverse Cx-TCP flows' data delays their ACKs)."
    ),
)


def fairness_measures(results: Results) -> dict[str, float]:
    """Seed001-fig5's measures: Cx/Reno (first/second group) mean throughput per flow over its
    life, the mean normalised throughputs (by the largest flow, the paper's definition), the
    queueing delay (mean, 10th and 90th percentiles, ms), loss (%) and the mean Fig. 1 backoff
    probability over the traced delays (%)."""
    throughput = flow_throughput(results)
    kinds = [name for name in throughput if name != "web"]
    delay = next(name for name in kinds if name.startswith("cx"))  # the delay-based group
    (loss,) = [name for name in kinds if name != delay]
    top = max(values.max() for values in throughput.values())
    delays = queue_delays_ms(results)
    low, high = np.percentile(delays, [10, 90])
    summary = results.summary()
    return {
        "ratio": float(throughput[delay].mean() / throughput[loss].mean()),
        "delay_normalised": float(throughput[delay].mean() / top),
        "loss_normalised": float(throughput[loss].mean() / top),
        "delay_ms": delay_ms(results),
        "delay_p10_ms": float(low),
        "delay_p90_ms": float(high),
        "loss": float(summary["loss_percent"]),
        "backoff": 100.0 * float(backoff_probability(delays).mean()),
    }


def fairness_figure(out: Path, evidence: Evidence, runs: list[str], name: str, labels: tuple[str, str]) -> list[str]:
    """Normalised throughput of every flow (first seed) for each mix, the paper's Fig. 5 layout."""
    fig, axes = plt.subplots(
        1, len(runs), figsize=(5.5 * len(runs), 4), constrained_layout=True, sharey=True, squeeze=False
    )
    for axis, run in zip(axes[0], runs, strict=True):
        throughput = flow_throughput(evidence.kept[run])
        top = max(values.max() for values in throughput.values())
        position = 0
        kinds = sorted((k for k in throughput if k != "web"), key=lambda k: not k.startswith("cx"))
        for kind, color, label in zip(kinds, ("tab:blue", "tab:red"), labels, strict=True):
            values = throughput[kind] / top
            axis.bar(
                np.arange(position, position + values.size),
                values,
                color=color,
                width=1.0,
                label=f"{label} (mean {values.mean():.2f})",
            )
            position += values.size
        axis.set_title(f"{run}: Cx/Reno ratio {evidence.mean(f'{run}.ratio'):.2f} (mean over seeds)", fontsize=10)
        axis.set_xlabel("flow (seed 1)")
        axis.legend(fontsize=8)
        axis.grid(alpha=0.3, axis="y")
    axes[0, 0].set_ylabel("normalised average throughput")
    return [save(fig, out, name)]


declare(
    "seed001-fig5",
    runs=lambda quick: [
        Run(
            f"mix{cx}-{reno}{suffix}",
            mix(f"mix{cx}-{reno}{suffix}", cx, reno, duration=200.0 if quick else 500.0, cx_cc=cc),
            fairness_measures,
            keep=not suffix,
        )
        for cx, reno in ((20, 10), (10, 20))
        for suffix, cc in (("", CX), ("-observed", OBSERVED))
    ],
    figures=lambda out, evidence: fairness_figure(
        out, evidence, ["mix20-10", "mix10-20"], "fig5.png", ("Cx-TCP", "Reno")
    ),
    notes=lambda quick: (
        NOTE + f" Runs of {200 if quick else 500} s; throughput of each flow over its whole life, normalised by the "
        "largest (the paper's definition). Cx-TCP with the fixed δmax = 100 ms (Section IV's example; the claims); "
        "the runs '-observed' use δmax = each flow's observed RTTmax − RTTmin (`delta_max = \"observed\"`, "
        "Section II), which here is the buffer's 99.8 ms drain time (their ratios are in the data). Buffer 1 BDP "
        "at "
        "RTT 100 ms (312 packets); web traffic as Poisson arrivals of 10 Reno transfers/s, Pareto sizes (mean "
        "10 kB). Why Cx-TCP gets less: the Reno sawtooth keeps the queue in Region B (δth < δ < δmax), where Fig. "
        "1 "
        "backs off with a probability per ACK several times the loss rate Reno reacts to (the 'backoff' and 'loss' "
        "numbers beside each claim); the paper's argument (Section II, property (ii)) needs the queue at δmax "
        "(docs/congestion/cx.md, seed001-buffer)."
    ),
)


# --- Fig. 7: loss rate ---------------------------------------------------------------------------

RATES_FULL = [10e6, 25e6, 50e6, 75e6, 100e6]


def loss_measures(results: Results) -> dict[str, float]:
    summary = results.summary()
    return {"loss": float(summary["loss_percent"]), "delay_ms": delay_ms(results)}


def fig7_rates(quick: bool) -> list[float]:
    return [10e6, 25e6, 50e6] if quick else RATES_FULL


def loss_ratio_derive(rates: Callable[[bool], list[float]]):
    def derive(m: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
        ratios = [m[f"mix{rate / 1e6:g}"]["loss"] / m[f"alone{rate / 1e6:g}"]["loss"] for rate in rates(quick)]
        return {"loss_ratio_worst": max(ratios)}

    return derive


def loss_figure(out: Path, evidence: Evidence, rates: list[float], name: str, labels: tuple[str, str]) -> list[str]:
    fig, axis = plt.subplots(figsize=(6, 4), constrained_layout=True)
    x = [rate / 1e6 for rate in rates]
    for prefix, marker, label in (("mix", "o-", labels[0]), ("alone", "s-", labels[1])):
        axis.plot(x, [evidence.mean(f"{prefix}{r:g}.loss") for r in x], marker, label=label)
    axis.set(xlabel="bottleneck capacity (Mb/s)", ylabel="loss rate (%), mean over seeds")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    return [save(fig, out, name)]


declare(
    "seed001-fig7",
    runs=lambda quick: [
        Run(
            f"{label}{rate / 1e6:g}",
            mix(label, cx, reno, rate=rate, duration=200.0 if quick else 500.0),
            loss_measures,
        )
        for rate in fig7_rates(quick)
        for label, cx, reno in (("mix", 20, 10), ("alone", 0, 30))
    ],
    derive=loss_ratio_derive(fig7_rates),
    figures=lambda out, evidence: loss_figure(
        out, evidence, fig7_rates(evidence.quick), "fig7.png", ("20 Cx-TCP + 10 Reno", "30 Reno")
    ),
    notes=lambda quick: (
        NOTE + f" Runs of {200 if quick else 500} s measured over the second half; buffer 1 BDP at RTT 100 ms; web "
        "traffic as in Fig. 5."
    ),
)
