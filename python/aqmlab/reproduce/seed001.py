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

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from aqmlab.reproduce.registry import Claim, Outcome, reproduction  # noqa: E402
from aqmlab.results import Results  # noqa: E402
from aqmlab.simulation import simulate  # noqa: E402

PAPER = "seed 001 (Cx-TCP: fair coexistence of loss- and delay-based TCP)"
PACKET_BITS = 8000.0
DELTA_TH_MS = 20.0
#: Section III-A3: "the average link utilization has been kept at very high level of 95%-97%"
#: in all reported experiments; printed in whole percent, so 94.5-97.5 %.
UTILISATION_BAND = (0.945, 0.975)
#: Section III (objective 4) and III-A6: the mix's loss rate is "not worse than that of just
#: loss-based flows": a ratio of at most 1.
LOSS_RATIO_MAX = 1.0
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
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{duration / 2 if measure_start is None else measure_start}s",
        "seed": 1,
        "topology": {"kind": "dumbbell", "bottleneck": bottleneck, "groups": groups},
        "trace": {"interval": interval, "flows": 0},
    }


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


# --- Fig. 2 and Fig. 3: queueing delay against the number of flows ---------------------------


def delay_sweep(
    counts: list[int], *, duration: float, reverse: int = 0, cc: dict[str, Any] = CX
) -> list[dict[str, float]]:
    rate, rtt = 25e6, 0.1
    buffer = bdp_packets(rate, rtt)
    rows = []
    for n in counts:
        groups = [tcp_group("forward", n, cc)]
        if reverse:
            groups.append(tcp_group("reverse", reverse, CX, direction="reverse"))
        results = simulate(
            dumbbell(f"n{n}", rate, buffer, groups, duration=duration, reverse_buffer=buffer if reverse else None)
        )
        summary = results.summary()
        rows.append(
            {
                "flows": n,
                "delay_ms": delay_ms(results),
                "loss_percent": float(summary["loss_percent"]),
                "utilisation": float(summary["utilisation_mean"]),
                "reverse_delay_ms": delay_ms(results, "bottleneck_reverse"),
            }
        )
    return rows


def switch_point(rows: list[dict[str, float]]) -> int | None:
    """The smallest number of flows whose mean queueing delay exceeds δth."""
    above = [row["flows"] for row in rows if row["delay_ms"] > DELTA_TH_MS]
    return min(above) if above else None


def plot_delay(curves: dict[str, list[dict[str, float]]], path: Path, title: str) -> None:
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(6.5, 6), sharex=True, constrained_layout=True)
    for label, rows in curves.items():
        upper.plot([r["flows"] for r in rows], [r["delay_ms"] for r in rows], "o-", label=label)
        lower.plot([r["flows"] for r in rows], [r["loss_percent"] for r in rows], "o-", label=label)
    upper.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="threshold δth = 20 ms")
    upper.set_ylabel("average queueing delay (ms)")
    lower.set_ylabel("loss (%)")
    lower.set_xlabel("number of forward-path Cx-TCP flows")
    for axis in (upper, lower):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    upper.set_title(title)
    fig.savefig(path, dpi=110)
    plt.close(fig)


@reproduction(
    "seed001-fig2",
    PAPER,
    "Fig. 2: low delay with Cx-TCP flows only, delay against the number of flows",
    "25 Mb/s, RTT 100 ms, 1-BDP buffer (312 packets of 1000 B): Cx-TCP flows alone keep the average "
    "queueing delay below δth = 20 ms with 95-97 % utilisation, and the network reverts to loss-based "
    "operation between 50 and 55 flows.",
    "≈30 s",
)
def fig2(out: Path, quick: bool) -> Outcome:
    counts = [10, 30, 50, 70] if quick else [1, 5, 10, 20, 30, 40, 50, 55, 60, 65, 70]
    duration = 200.0 if quick else 500.0
    cx = delay_sweep(counts, duration=duration)
    reno = delay_sweep([30], duration=duration, cc=RENO)
    plot_delay({"Cx-TCP": cx, "Reno (30 flows)": reno}, out / "fig2.png", "Cx-TCP alone, 25 Mb/s, RTT 100 ms")
    by_n = {row["flows"]: row for row in cx}
    low = [row for row in cx if row["flows"] <= 50]
    worst = max(low, key=lambda row: row["delay_ms"])
    switch = switch_point(cx)
    loaded = [row for row in cx if 20 <= row["flows"] <= 50]
    largest = by_n[max(counts)]
    claims = [
        Claim(
            "up to 50 flows the average queueing delay stays below δth",
            "below 20 ms (Fig. 2)",
            f"largest delay at ≤ 50 flows: {worst['delay_ms']:.1f} ms at {worst['flows']} flows "
            f"(30 flows: {by_n[30]['delay_ms']:.1f} ms; 30 Reno flows: {reno[0]['delay_ms']:.1f} ms)",
            bool(worst["delay_ms"] < DELTA_TH_MS),
        ),
        Claim(
            "the link stays busy while the delay is low",
            "utilisation 95-97 % in all experiments (Section III-A3)",
            "mean utilisation "
            + ", ".join(f"{r['utilisation'] * 100:.1f} % ({r['flows']})" for r in loaded)
            + " (criterion: 94.5-97.5 % from 20 to 50 flows, the printed 95-97 % in whole percent)",
            bool(all(UTILISATION_BAND[0] <= r["utilisation"] <= UTILISATION_BAND[1] for r in loaded)),
        ),
        Claim(
            "with very many flows the network reverts to loss-based operation",
            "delay above δth and losses when the needed backoff rate exceeds pmax",
            f"{largest['flows']} flows: {largest['delay_ms']:.1f} ms, loss {largest['loss_percent']:.2f} % "
            "(criterion: delay > 20 ms and loss > 0)",
            bool(largest["delay_ms"] > DELTA_TH_MS and largest["loss_percent"] > 0),
        ),
        Claim(
            "where the switch happens",
            "between 50 and 55 flows at 25 Mb/s",
            f"first count above δth: {switch} flows (counts run: {counts}; 55 flows: {by_n[55]['delay_ms']:.1f} ms)"
            if 55 in by_n
            else f"first count above δth: {switch} flows (counts run: {counts})",
            bool(switch is not None and 50 < switch <= 55),
        ),
    ]
    return Outcome(
        claims,
        ["fig2.png"],
        NOTE + f" Runs of {duration:.0f} s measured over the second half.",
        {"cx": cx, "reno": reno},
    )


@reproduction(
    "seed001-fig3",
    PAPER,
    "Fig. 3: Cx-TCP with 20 Cx-TCP flows on the reverse path",
    "As Fig. 2 with 20 long-lived Cx-TCP flows on the reverse path (their data competes with the "
    "forward ACKs): the delay stays low, and the number of flows at which the network turns "
    "loss-based decreases.",
    "≈30 s",
)
def fig3(out: Path, quick: bool) -> Outcome:
    counts = [10, 30, 50, 60, 70] if quick else [1, 5, 10, 20, 30, 40, 50, 55, 60, 65, 70]
    duration = 200.0 if quick else 500.0
    alone = delay_sweep(counts, duration=duration)
    reverse = delay_sweep(counts, duration=duration, reverse=20)
    plot_delay(
        {"no reverse traffic": alone, "20 Cx-TCP flows on the reverse path": reverse},
        out / "fig3.png",
        "forward Cx-TCP flows, 25 Mb/s, RTT 100 ms",
    )
    switch_alone, switch_reverse = switch_point(alone), switch_point(reverse)
    small = [row for row in reverse if row["flows"] <= 30]
    higher = sum(r["delay_ms"] >= a["delay_ms"] for r, a in zip(reverse, alone, strict=True))
    claims = [
        Claim(
            "with reverse traffic the delay stays below δth for moderate numbers of flows",
            "below 20 ms (Fig. 3)",
            "delay with reverse traffic "
            + ", ".join(f"{r['delay_ms']:.1f} ms ({r['flows']})" for r in small)
            + " (criterion: < 20 ms up to 30 flows)",
            bool(all(r["delay_ms"] < DELTA_TH_MS for r in small)),
        ),
        Claim(
            "the limit of delay-based operation decreases with reverse traffic",
            "the switch to loss-based operation comes at fewer flows",
            f"first count above δth (forward bottleneck): {switch_reverse} with reverse traffic, {switch_alone} "
            f"without; forward delay higher with reverse traffic at {higher} of {len(counts)} counts; queueing "
            "delay forward + reverse with reverse traffic: "
            + ", ".join(f"{r['delay_ms'] + r['reverse_delay_ms']:.1f} ms ({r['flows']})" for r in reverse),
            bool(switch_reverse is not None and (switch_alone is None or switch_reverse < switch_alone)),
        ),
    ]
    note = NOTE + (
        f" Runs of {duration:.0f} s measured over the second half; the reverse bottleneck has its own "
        "1-BDP DropTail buffer (312 packets). The forward flows' RTT, and so their delay estimate δ, "
        "includes the reverse bottleneck's queue (the reverse Cx-TCP flows' data delays their ACKs)."
    )
    return Outcome(claims, ["fig3.png"], note, {"no_reverse": alone, "reverse": reverse})


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


@reproduction(
    "seed001-fig5",
    PAPER,
    "Fig. 5: fairness of the (20, 10) and (10, 20) mixes of Cx-TCP and Reno",
    "25 Mb/s, RTTs uniform in [30, 130] ms, 10 web flows: the normalised average throughput of Cx-TCP "
    "flows is close to that of Reno flows, with a small bias in favour of the loss-based flows.",
    "≈25 s",
)
def fig5(out: Path, quick: bool) -> Outcome:
    duration = 200.0 if quick else 500.0
    claims, data, explanations = [], {}, []
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True, sharey=True)
    for axis, (cx, reno) in zip(axes, [(20, 10), (10, 20)], strict=True):
        results = simulate(mix(f"mix{cx}-{reno}", cx, reno, duration=duration))
        throughput = flow_throughput(results)
        top = max(values.max() for values in throughput.values())
        normalised = {name: values / top for name, values in throughput.items()}
        ratio = throughput["cx"].mean() / throughput["reno"].mean()
        summary = results.summary()
        # Why: the backoff probability of Fig. 1 over the measured queueing delays (δ ≈ the
        # queue: the flows' averaging time is one RTT), against the loss rate Reno reacts to.
        delays = queue_delays_ms(results)
        low, high = np.percentile(delays, [10, 90])
        backoff = float(backoff_probability(delays).mean())
        # Sensitivity: δmax = each flow's observed RTTmax − RTTmin (Section II's assumption
        # that both can be estimated; `delta_max = "observed"`) instead of the fixed 100 ms.
        observed = flow_throughput(
            simulate(mix(f"mix{cx}-{reno}-observed", cx, reno, duration=duration, cx_cc=OBSERVED))
        )
        observed_ratio = float(observed["cx"].mean() / observed["reno"].mean())
        explanations.append(
            f"({cx}, {reno}): queueing delay mean {1000 * summary['queueing_delay_mean_s']:.0f} ms, "
            f"10-90 % {low:.0f}-{high:.0f} ms, where Fig. 1 backs off with p = {100 * backoff:.1f} % "
            f"per ACK on average against a loss rate of {summary['loss_percent']:.2f} %; with "
            f"δmax observed the Cx/Reno ratio is {observed_ratio:.2f}"
        )
        position = 0
        for name, color in (("cx", "tab:blue"), ("reno", "tab:red")):
            values = normalised[name]
            axis.bar(
                np.arange(position, position + values.size),
                values,
                color=color,
                label=f"{'Cx-TCP' if name == 'cx' else 'Reno'} (mean {values.mean():.2f})",
            )
            position += values.size
        axis.set_title(f"({cx}, {reno}) mix: Cx/Reno mean throughput {ratio:.2f}")
        axis.set_xlabel("flow")
        axis.legend(fontsize=8)
        axis.grid(alpha=0.3, axis="y")
        data[f"{cx},{reno}"] = {name: values.tolist() for name, values in normalised.items()}
        data[f"{cx},{reno}"]["ratio"] = float(ratio)
        data[f"{cx},{reno}"]["mean_backoff_probability"] = backoff
        data[f"{cx},{reno}"]["queueing_delay_p10_p90_ms"] = [float(low), float(high)]
        data[f"{cx},{reno}"]["ratio_delta_max_observed"] = observed_ratio
        claims.append(
            Claim(
                f"({cx}, {reno}) mix: reasonably fair coexistence, small bias towards Reno",
                "normalised throughput of Cx-TCP close to, and slightly below, Reno's (Fig. 5)",
                f"mean normalised throughput Cx-TCP {normalised['cx'].mean():.2f}, Reno "
                f"{normalised['reno'].mean():.2f}; ratio {ratio:.2f} (criterion: 0.7 ≤ ratio ≤ 1.05)",
                bool(0.7 <= ratio <= 1.05),
            )
        )
    axes[0].set_ylabel("normalised average throughput")
    figure = save(fig, out, "fig5.png")
    note = NOTE + (
        f" Runs of {duration:.0f} s; throughput of each flow over its whole life, normalised by the "
        "largest (the paper's definition). Cx-TCP with the fixed δmax = 100 ms (Section IV's example; "
        "the claims); the sensitivity runs use δmax = each flow's observed RTTmax − RTTmin "
        '(`delta_max = "observed"`, Section II), which here is the buffer\'s 99.8 ms drain time. '
        "Buffer 1 BDP at RTT 100 ms (312 packets); web traffic as "
        "Poisson arrivals of 10 Reno transfers/s, Pareto sizes (mean 10 kB). Why Cx-TCP gets less: "
        + "; ".join(explanations)
        + " — a Cx-TCP flow backs off several times more often than a Reno "
        "flow loses a packet: the Reno sawtooth keeps the queue below the top of a buffer whose drain "
        "time is δmax, inside Region B, where the paper's argument (Section II, property (ii)) needs it "
        "at δmax; an observed δmax is the same drain time, so it changes nothing here "
        "(docs/congestion/cx.md)."
    )
    return Outcome(claims, [figure], note, data)


@reproduction(
    "seed001-fig7",
    PAPER,
    "Fig. 7: loss rate of the (20, 10) mix against 30 Reno flows",
    "Capacities 10-100 Mb/s, RTTs uniform in [30, 130] ms, 10 web flows: 20 Cx-TCP flows with 10 Reno "
    "flows do not raise the loss rate above that of 30 Reno flows.",
    "≈1 min",
)
def fig7(out: Path, quick: bool) -> Outcome:
    rates = [10e6, 25e6, 50e6] if quick else [10e6, 25e6, 50e6, 75e6, 100e6]
    duration = 200.0 if quick else 500.0
    rows = []
    for rate in rates:
        mixed = simulate(mix("mix", 20, 10, rate=rate, duration=duration)).summary()
        reno = simulate(mix("reno", 0, 30, rate=rate, duration=duration)).summary()
        rows.append(
            {
                "rate_mbps": rate / 1e6,
                "mix_loss_percent": float(mixed["loss_percent"]),
                "reno_loss_percent": float(reno["loss_percent"]),
                "mix_delay_ms": 1000 * mixed["queueing_delay_mean_s"],
                "reno_delay_ms": 1000 * reno["queueing_delay_mean_s"],
            }
        )
    fig, axis = plt.subplots(figsize=(6, 4), constrained_layout=True)
    x = [r["rate_mbps"] for r in rows]
    axis.plot(x, [r["mix_loss_percent"] for r in rows], "o-", label="20 Cx-TCP + 10 Reno")
    axis.plot(x, [r["reno_loss_percent"] for r in rows], "s-", label="30 Reno")
    axis.set_xlabel("bottleneck capacity (Mb/s)")
    axis.set_ylabel("loss rate (%)")
    axis.grid(alpha=0.3)
    axis.legend()
    figure = save(fig, out, "fig7.png")
    worst = max(r["mix_loss_percent"] / r["reno_loss_percent"] for r in rows)
    claims = [
        Claim(
            "Cx-TCP does not significantly increase the loss rate in the presence of Reno",
            "the (20, 10) mix's loss rate is not worse than that of 30 Reno flows (Fig. 7)",
            "loss mix / all-Reno: "
            + ", ".join(
                f"{r['mix_loss_percent']:.2f} / {r['reno_loss_percent']:.2f} % ({r['rate_mbps']:g} Mb/s)" for r in rows
            )
            + f"; largest ratio {worst:.2f} (criterion: ≤ {LOSS_RATIO_MAX:g} at every capacity, 'not worse')",
            bool(worst <= LOSS_RATIO_MAX),
        )
    ]
    note = NOTE + (
        f" Runs of {duration:.0f} s measured over the second half; buffer 1 BDP at the mean RTT; web "
        "traffic as in Fig. 5."
    )
    return Outcome(claims, [figure], note, {"rows": rows})


# --- Fig. 8: on/off switching ----------------------------------------------------------------


def on_off() -> dict[str, Any]:
    """Table I: 20 Cx-TCP flows; 10 Reno flows enter 0.5 s apart from 100 s and leave 5 s
    apart from 250 s."""
    rate = 25e6
    intermittent = tcp_group(
        "reno",
        10,
        RENO,
        RTT_SPREAD,
        start={"kind": "staggered", "first": "100s", "spacing": "0.5s"},
        stop={"kind": "staggered", "first": "250s", "spacing": "5s"},
    )
    groups = [tcp_group("cx", 20, CX, RTT_SPREAD), intermittent]
    return dumbbell("on-off", rate, bdp_packets(rate, 0.1), groups, duration=500.0, measure_start=0.0)


@reproduction(
    "seed001-fig8",
    PAPER,
    "Fig. 8: on/off switching, 20 Cx-TCP flows and 10 intermittent Reno flows",
    "25 Mb/s, RTTs uniform in [30, 130] ms: while the Reno flows are present (100-300 s) the Cx-TCP "
    "flows behave as loss-based TCP (high queueing delay, losses); before and after, they keep the "
    "delay below δth without loss.",
    "≈5 s",
)
def fig8(out: Path, quick: bool) -> Outcome:
    results = simulate(on_off())
    times, delay, loss = binned(results, 1.0)
    phases = {
        "before (50-100 s)": (50.0, 100.0),
        "with Reno (110-250 s)": (110.0, 250.0),
        "after (350-500 s)": (350.0, 500.0),
    }
    measured = {label: phase(results, *span) for label, span in phases.items()}
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, constrained_layout=True)
    upper.plot(times, delay, lw=0.8)
    upper.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8, label="δth")
    upper.axvspan(100, 300, color="tab:red", alpha=0.08, label="Reno flows present")
    upper.set_ylabel("queueing delay (ms), 1 s bins")
    upper.legend(fontsize=8)
    lower.plot(times, loss, lw=0.8, color="tab:red")
    lower.axvspan(100, 300, color="tab:red", alpha=0.08)
    lower.set_ylabel("loss (%), 1 s bins")
    lower.set_xlabel("time (s)")
    for axis in (upper, lower):
        axis.grid(alpha=0.3)
    figure = save(fig, out, "fig8.png")
    (d0, l0), (d1, l1), (d2, l2) = measured.values()
    claims = [
        Claim(
            "without Reno flows the Cx-TCP flows keep the delay low",
            "queueing delay below δth, no loss",
            f"before: {d0:.1f} ms, loss {l0:.3f} %; after: {d2:.1f} ms, loss {l2:.3f} % (criterion: < 20 ms, "
            "loss < 0.01 %)",
            bool(d0 < DELTA_TH_MS and d2 < DELTA_TH_MS and l0 < 0.01 and l2 < 0.01),
        ),
        Claim(
            "with Reno flows present the Cx-TCP flows switch to loss-based operation",
            "high queueing delay and losses between 100 and 300 s",
            f"110-250 s: {d1:.1f} ms (full buffer: 100 ms), loss {l1:.3f} % (criterion: loss-based operation, "
            "i.e. Region B: delay > δth, and loss > 0)",
            bool(d1 > DELTA_TH_MS and l1 > 0),
        ),
        Claim(
            "the switch back happens by itself after the Reno flows leave",
            "delay-based operation resumes after 300 s",
            f"mean delay 300-350 s {phase(results, 300.0, 350.0)[0]:.1f} ms, 350-500 s {d2:.1f} ms",
            bool(d2 < DELTA_TH_MS),
        ),
    ]
    note = NOTE + (
        " One 500 s run (quick and full are the same). Phases: 50-100 s before the Reno flows, 110-250 s "
        "with all of them, 350-500 s after; buffer 1 BDP at RTT 100 ms (312 packets). With 250 packets "
        "(1 BDP at the mean RTT) the 20 Cx-TCP flows alone spent about 40-80 s at 70 ms before returning to "
        "Region A, so the before-phase claim depends on this choice."
    )
    data = {label: {"delay_ms": d, "loss_percent": lo} for label, (d, lo) in measured.items()}
    return Outcome(claims, [figure], note, data)


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
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{duration / 2 if measure_start is None else measure_start}s",
        "seed": 1,
        "topology": {"kind": "parking_lot", "links": links, "groups": groups},
        "trace": {"interval": "50ms", "flows": 0},
    }


def both(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link1", "link2"]}


def second(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link2"]}


def first(group: dict[str, Any]) -> dict[str, Any]:
    return {**group, "crosses": ["link1"]}


@reproduction(
    "seed001-fig9",
    PAPER,
    "Fig. 9: two bottlenecks, 30 Cx-TCP flows against the (20, 10) mix",
    "Parking lot (12.5 Mb/s, 155 packets; 25 Mb/s, 310 packets; 5 ms each), half the flows crossing "
    "both links and half the second only: Cx-TCP alone keeps the delay below δth at both bottlenecks; "
    "with Reno flows it fills the queues and shares fairly.",
    "≈5 s",
)
def fig9(out: Path, quick: bool) -> Outcome:
    duration = 200.0 if quick else 500.0
    alone = simulate(
        parking_lot(
            "cx-only",
            [both(tcp_group("cx-both", 15, CX, RTT_SPREAD)), second(tcp_group("cx-second", 15, CX, RTT_SPREAD))],
            duration=duration,
        )
    )
    mixed_groups = [
        both(tcp_group("cx-both", 10, CX, RTT_SPREAD)),
        both(tcp_group("reno-both", 5, RENO, RTT_SPREAD)),
        second(tcp_group("cx-second", 10, CX, RTT_SPREAD)),
        second(tcp_group("reno-second", 5, RENO, RTT_SPREAD)),
        first(web_group("mice-link1")),
        second(web_group("mice-link2")),
    ]
    mixed = simulate(parking_lot("mix", mixed_groups, duration=duration))
    links = ("link1", "link2")
    delays = {label: {link: delay_ms(run, link) for link in links} for label, run in (("cx", alone), ("mix", mixed))}
    losses = {
        label: {link: float(run.summary(link)["loss_percent"]) for link in links}
        for label, run in (("cx", alone), ("mix", mixed))
    }
    throughput = flow_throughput(mixed)
    ratios = {
        path: float(throughput[f"cx-{path}"].mean() / throughput[f"reno-{path}"].mean()) for path in ("both", "second")
    }
    fig, axes = plt.subplots(2, 2, figsize=(11, 6), sharex=True, constrained_layout=True)
    for row, (label, run) in enumerate((("30 Cx-TCP flows", alone), ("20 Cx-TCP + 10 Reno", mixed))):
        for column, link in enumerate(links):
            times, delay, _ = binned(run, 1.0, link)
            axes[row, column].plot(times, delay, lw=0.8)
            axes[row, column].axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8)
            axes[row, column].set_title(f"{label}: {link}", fontsize=10)
            axes[row, column].set_ylabel("queueing delay (ms)")
            axes[row, column].grid(alpha=0.3)
    for axis in axes[1]:
        axis.set_xlabel("time (s)")
    figure = save(fig, out, "fig9.png")
    claims = [
        Claim(
            "Cx-TCP alone keeps the delay below δth at each bottleneck",
            "below 20 ms at both (Fig. 9, upper row)",
            f"link1 {delays['cx']['link1']:.1f} ms, link2 {delays['cx']['link2']:.1f} ms; loss "
            f"{losses['cx']['link1']:.3f} / {losses['cx']['link2']:.3f} %",
            bool(max(delays["cx"].values()) < DELTA_TH_MS),
        ),
        Claim(
            "with Reno flows Cx-TCP turns loss-based and the queues fill at each bottleneck",
            "queues filled at both bottlenecks (Fig. 9, lower row)",
            f"link1 {delays['mix']['link1']:.1f} ms, link2 {delays['mix']['link2']:.1f} ms (buffers 99 and "
            f"99 ms); loss {losses['mix']['link1']:.2f} / {losses['mix']['link2']:.2f} % (criterion: loss-based "
            "operation at both, i.e. delay > δth and loss > 0)",
            bool(min(delays["mix"].values()) > DELTA_TH_MS and min(losses["mix"].values()) > 0),
        ),
        Claim(
            "the overall fairness with Reno is preserved",
            "fair shares with Reno on each path (Fig. 9(f))",
            f"Cx/Reno mean throughput {ratios['both']:.2f} on the two-link path, {ratios['second']:.2f} on the "
            "second link (criterion: 0.7-1.3 each)",
            bool(all(0.7 <= value <= 1.3 for value in ratios.values())),
        ),
    ]
    note = NOTE + (
        f" Runs of {duration:.0f} s measured over the second half. 15 flows cross both links and 15 the "
        "second only (the paper: 'half of all flows traversing both'); in the mix 10 Cx-TCP and 5 Reno "
        "on each path, plus 10 web flows per bottleneck ('10 mice flows'). Throughput per flow over its "
        "life."
    )
    return Outcome(claims, [figure], note, {"delay_ms": delays, "loss_percent": losses, "cx_over_reno": ratios})


@reproduction(
    "seed001-fig10",
    PAPER,
    "Fig. 10: two bottlenecks, 10 intermittent Reno flows at the first",
    "Parking lot of Fig. 9 with 20 Cx-TCP flows (5 crossing both links, 15 on the second) and 10 Reno "
    "flows on the first link from 100 to 300 s: only the first bottleneck turns loss-based; the second "
    "stays in low-delay operation throughout.",
    "≈5 s",
)
def fig10(out: Path, quick: bool) -> Outcome:
    intermittent = first(
        tcp_group(
            "reno-first",
            10,
            RENO,
            RTT_SPREAD,
            start={"kind": "staggered", "first": "100s", "spacing": "0.5s"},
            stop={"kind": "staggered", "first": "250s", "spacing": "5s"},
        )
    )
    groups = [
        both(tcp_group("cx-both", 5, CX, RTT_SPREAD)),
        second(tcp_group("cx-second", 15, CX, RTT_SPREAD)),
        intermittent,
    ]
    results = simulate(parking_lot("on-off", groups, measure_start=0.0))
    spans = {"before": (50.0, 100.0), "with Reno": (110.0, 250.0), "after": (350.0, 500.0)}
    measured = {
        link: {label: phase(results, *span, link=link) for label, span in spans.items()} for link in ("link1", "link2")
    }
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True, constrained_layout=True)
    for axis, link in zip(axes, ("link1", "link2"), strict=True):
        times, delay, _ = binned(results, 1.0, link)
        axis.plot(times, delay, lw=0.8)
        axis.axhline(DELTA_TH_MS, color="k", ls="--", lw=0.8)
        axis.axvspan(100, 300, color="tab:red", alpha=0.08)
        axis.set_title(link, fontsize=10)
        axis.set_ylabel("queueing delay (ms)")
        axis.grid(alpha=0.3)
    axes[1].set_xlabel("time (s)")
    figure = save(fig, out, "fig10.png")
    one, two = measured["link1"], measured["link2"]
    claims = [
        Claim(
            "the first bottleneck turns loss-based while the Reno flows are there",
            "long queueing delay and losses at the first bottleneck (100-300 s)",
            f"link1: {one['before'][0]:.1f} ms before, {one['with Reno'][0]:.1f} ms (loss "
            f"{one['with Reno'][1]:.2f} %) with Reno, {one['after'][0]:.1f} ms after (criterion: > δth with "
            "Reno, < δth before and after)",
            bool(
                one["with Reno"][0] > DELTA_TH_MS and one["before"][0] < DELTA_TH_MS and one["after"][0] < DELTA_TH_MS
            ),
        ),
        Claim(
            "the second bottleneck stays in low-delay operation",
            "low queueing delay throughout",
            f"link2: {two['before'][0]:.1f} / {two['with Reno'][0]:.1f} / {two['after'][0]:.1f} ms before / with "
            f"Reno / after, loss with Reno {two['with Reno'][1]:.3f} % (criterion: < δth in every phase)",
            bool(max(value[0] for value in two.values()) < DELTA_TH_MS),
        ),
    ]
    note = NOTE + (
        " One 500 s run (quick and full are the same). The paper's wording places 5 Cx-TCP flows at the "
        "first bottleneck and 15 at the second; we let the 5 cross both links and the Reno flows cross "
        "the first only."
    )
    data = {
        link: {label: {"delay_ms": d, "loss_percent": lo} for label, (d, lo) in values.items()}
        for link, values in measured.items()
    }
    return Outcome(claims, [figure], note, data)
