"""Seed 004 Section III (Feedback, transport protocols and buffer sizing): packet-level
simulations of CUBIC and Compound TCP in small and large DropTail buffers (Figs. 2-6).

Setting (Section III): 60 long-lived flows, 80 % Compound TCP and 20 % CUBIC (48 and 12),
bottleneck C = 100 Mb/s, RTT 10 and 200 ms, 1500-byte packets, DropTail buffers of 15, 100,
C·RTT/sqrt(N) and C·RTT packets; the single-bottleneck dumbbell (Fig. 1a) and a
multi-bottleneck topology (Fig. 1b). The figures show queue, utilisation and packet loss
(packets/s) over 200-250 s, so full runs last 250 s and are measured over [200, 250] s.

Ours, where the paper is silent (stated in every outcome and in docs/reproduction/seed004.md):
- Fig. 3's buffers are the values on its axes, 278 and 2084 packets, at both RTTs: 2084 is
  C × 250 ms (the rule of thumb of Section I-A with its 250 ms), 278 ≈ 2084/7.5 (the formula
  with N = 60 gives 269). C·RTT with the run's own RTT would give 83 and 11 packets at 10 ms,
  smaller than the "small" buffers, which is not what Fig. 3 shows.
- The captions of Figs. 2-5 say "round-trip times of 15, 100 ms"; the panels and the text say
  10 and 200 ms, which we use.
- TCP: SACK loss recovery (RFC 6675) for both algorithms. ns-2's CUBIC and Compound come with
  its Linux TCP agent (Agent/TCP/Linux), which recovers with SACK. Without SACK the engine's
  NewReno recovery repairs one hole per round trip, and with the large windows of the
  C·RTT buffer a flow can stay in recovery for minutes (see the docs).
- Compound: α = 0.125, β = 0.5, k = 0.75, γ = 30, ζ = 0.5 (seed 000's values; seed 004 calls
  them tunable without values); CUBIC: C = 0.4, β = 0.7 (RFC 9438; the paper's eqs. 1-5 give no
  values). Access links 1 Gb/s (Fig. 6's windows of hundreds of packets need fast access
  links), bottleneck delay 2 ms one way, start times uniform in [0, 10] s, no delayed ACKs.
- Fig. 4's "20 % short-lived HTTP flows": HTTP transfers offering 20 % of the capacity
  (Poisson arrivals, Pareto sizes with mean 5 kB and shape 1.2, 500 transfers/s, TCP Tahoe:
  the engine's web stand-in, as in seed 000 Section V-B), with the long-lived flows' RTT.
- Fig. 1b (multi-bottleneck, not in the text we have): a parking lot of two 100 Mb/s links,
  30 flows crossing both, 30 on each link alone (seed 000 Fig. 16's layout, same group of
  authors), every group 80 % Compound / 20 % CUBIC; each link carries N = 60 flows. Fig. 5
  shows link 2.

Criteria (ours, the paper gives no numbers): a queue "oscillates" (deterministic non-linear
oscillation, limit cycle) when its strongest frequency holds at least twice the share of its
variance that it holds in the case the paper calls stable (`metrics.oscillation_share`, also
used for seed 000 Fig. 9); utilisation is the mean over the window, and its minimum over 1 s
bins. Each run is repeated over 5 seeds (quick: 2 seeds of 100 s runs measured over the last
50 s); the verdict is on the mean over the seeds, with its 95 % interval (`reproduce.runner`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from aqmlab.analysis.metrics import oscillation_share
from aqmlab.plots import binned_utilisation
from aqmlab.reproduce.claims import declare
from aqmlab.reproduce.declare import Evidence, Run, Seeds
from aqmlab.results import Results, jain_index

PAPER = "seed 004 (Feedback, transport protocols and buffer sizing)"
RTTS_MS = (10, 200)
#: Section III: 80 % Compound, 20 % CUBIC.
MIX = [{"share": 0.8, "cc": "compound"}, {"share": 0.2, "cc": "cubic"}]
#: Fig. 3's axes (see the module docstring): C·RTT/sqrt(N) and C·RTT.
STANFORD_BUFFER, RULE_OF_THUMB_BUFFER = 278, 2084
#: Fig. 4: HTTP transfers offering this share of the 100 Mb/s bottleneck.
HTTP_LOAD, HTTP_MEAN_BYTES = 0.2, 5000
#: A trace bin for the figures' utilisation and loss panels, s.
PLOT_BIN_S = 0.5


def timing(quick: bool) -> tuple[float, float]:
    """Duration and start of the measurement window, s: the paper's 200-250 s, or 50-100 s."""
    return (100.0, 50.0) if quick else (250.0, 200.0)


def long_lived(name: str, rtt_ms: float, count: int = 60, **extra: Any) -> dict[str, Any]:
    group = {
        "name": name,
        "count": count,
        "rtt": f"{rtt_ms}ms",
        "access_rate": "1Gbps",
        "mix": MIX,
        "tcp": {"sack": True},
        "start": {"kind": "uniform", "low": "0s", "high": "10s"},
    }
    group.update(extra)
    return group


def http(rtt_ms: float) -> dict[str, Any]:
    rate = HTTP_LOAD * 100e6 / (8 * HTTP_MEAN_BYTES)
    return {
        "name": "http",
        "kind": "web",
        "arrival_rate": rate,
        "rtt": f"{rtt_ms}ms",
        "access_rate": "1Gbps",
        "size": {"kind": "pareto", "mean": f"{HTTP_MEAN_BYTES}B", "shape": 1.2},
    }


def drop_tail(buffer: int) -> dict[str, Any]:
    return {"kind": "drop_tail", "limit": f"{buffer}p"}


def envelope(name: str, topology: dict[str, Any], quick: bool, traced_flows: int = 0) -> dict[str, Any]:
    duration, start = timing(quick)
    return {
        "name": name,
        "duration": f"{duration}s",
        "measure_start": f"{start}s",
        "topology": topology,
        "trace": {"interval": "10ms", "flows": traced_flows},
    }


def dumbbell(
    buffer: int, rtt_ms: float, quick: bool, *, with_http: bool = False, traced_flows: int = 0
) -> dict[str, Any]:
    """Fig. 1a: the 60 flows on one 100 Mb/s DropTail bottleneck (with HTTP traffic: Fig. 4)."""
    groups = [long_lived("mix", rtt_ms)] + ([http(rtt_ms)] if with_http else [])
    topology = {
        "kind": "dumbbell",
        "bottleneck": {"rate": "100Mbps", "delay": "2ms", "queue": drop_tail(buffer)},
        "groups": groups,
    }
    return envelope(f"b{buffer}-rtt{rtt_ms}{'-http' if with_http else ''}", topology, quick, traced_flows)


def parking_lot(buffer: int, rtt_ms: float, quick: bool) -> dict[str, Any]:
    """Fig. 1b as a parking lot: 30 flows over both links, 30 over each one alone."""
    links = [
        {"name": name, "rate": "100Mbps", "delay": "2ms", "queue": drop_tail(buffer)} for name in ("link1", "link2")
    ]
    groups = [
        long_lived("both", rtt_ms, 30, crosses=["link1", "link2"]),
        long_lived("first", rtt_ms, 30, crosses=["link1"]),
        long_lived("second", rtt_ms, 30, crosses=["link2"]),
    ]
    return envelope(
        f"parking-lot-b{buffer}-rtt{rtt_ms}", {"kind": "parking_lot", "links": links, "groups": groups}, quick
    )


# --- Running and measuring -----------------------------------------------------------------


def run_name(buffer: int, rtt_ms: float) -> str:
    """A case's run name: `b15-rtt10`."""
    return f"b{buffer}-rtt{rtt_ms}"


def label(buffer: int, rtt_ms: float) -> str:
    """A case's label in the record and figures: `B = 15, RTT 10 ms`."""
    return f"B = {buffer}, RTT {rtt_ms} ms"


def measures_on(link: str | None):
    """The measure of Figs. 2-5 on `link` (None: the main link): the queue's oscillation share
    (variance share of its strongest frequency, `metrics.oscillation_share`) and that frequency
    (Hz), utilisation (mean and smallest 1 s bin, %), loss (packets/s and %), mean queue."""

    def measure(results: Results) -> dict[str, float]:
        samples = results.link_samples(link)
        window = samples["time_s"] > results.measure_start_s
        interval = results.scenario.resolved()["trace"]["interval_ns"] / 1e9
        share, frequency = oscillation_share(samples["queue_packets"][window], interval)
        summary = results.summary(link)
        return {
            "oscillation_share": share,
            "frequency_hz": frequency,
            "utilisation_mean": 100.0 * summary["utilisation_mean"],
            "utilisation_min": 100.0 * summary["utilisation_min"],
            "loss_per_s": float(samples["drops"][window].sum()) / summary["window_s"],
            "loss_percent": summary["loss_percent"],
            "queue_mean": summary["queue_mean_packets"],
        }

    return measure


def grid_runs(
    buffers: tuple[int, ...], build: Callable[[int, float], dict[str, Any]], link: str | None = None, keep: bool = True
) -> list[Run]:
    return [Run(run_name(b, r), build(b, r), measures_on(link), keep=keep) for b in buffers for r in RTTS_MS]


def oscillation_ratio(measured: dict[str, dict[str, float]], unstable: str, stable: list[str]) -> float:
    """`unstable`'s oscillation share over the largest of the `stable` cases'."""
    reference = max(measured[s]["oscillation_share"] for s in stable)
    return measured[unstable]["oscillation_share"] / max(reference, 1e-12)


#: "Oscillates" (ours, no number in the paper): the strongest frequency holds at least twice the
#: variance share it holds in the case the paper calls stable.
OSCILLATION_RATIO = 2.0


def small_buffer_derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    """Figs. 2, 4, 5: oscillation ratios and the utilisation cost of the longer RTT."""
    out = {
        "ratio-b100-rtt200-vs-b15": oscillation_ratio(measured, run_name(100, 200), [run_name(15, r) for r in RTTS_MS]),
        "ratio-b100-rtt200-vs-rtt10": oscillation_ratio(measured, run_name(100, 200), [run_name(100, 10)]),
        "ratio-b100-rtt10-vs-b15": oscillation_ratio(measured, run_name(100, 10), [run_name(15, 10)]),
    }
    for buffer in (15, 100):
        out[f"rtt-cost-b{buffer}"] = (
            measured[run_name(buffer, 10)]["utilisation_mean"] - measured[run_name(buffer, 200)]["utilisation_mean"]
        )
    return out


# --- Figures -------------------------------------------------------------------------------------


def binned_loss(results: Results, link: str | None, bin_s: float) -> tuple[np.ndarray, np.ndarray]:
    samples = results.link_samples(link)
    index = np.floor((samples["time_s"] - 1e-12) / bin_s).astype(np.int64)
    drops = np.bincount(index, weights=samples["drops"])
    return (np.arange(drops.size) + 1) * bin_s, drops / bin_s


def plot_panels(shown: dict[str, Results], path: Path, title: str, link: str | None = None) -> str:
    """The paper's layout: queue (packets), utilisation (%) and packet loss (packets/s) over
    the measurement window, one column per case."""
    fig, axes = plt.subplots(
        3, len(shown), figsize=(3.6 * len(shown), 7), sharex="col", sharey="row", constrained_layout=True, squeeze=False
    )
    for column, (case, results) in enumerate(shown.items()):
        start = results.measure_start_s
        samples = results.link_samples(link)
        keep = samples["time_s"] > start
        axes[0, column].plot(samples["time_s"][keep], samples["queue_packets"][keep], lw=0.4)
        times, utilisation = binned_utilisation(results, bin_s=PLOT_BIN_S, link=link)
        axes[1, column].plot(times[times > start], 100 * utilisation[times > start], lw=0.8, color="tab:green")
        times, loss = binned_loss(results, link, PLOT_BIN_S)
        axes[2, column].plot(times[times > start], loss[times > start], lw=0.8, color="tab:red")
        axes[0, column].set_title(case, fontsize=9)
        axes[2, column].set_xlabel("time (s)")
    for row, text in enumerate(
        ("queue size (pkts)", f"utilisation (%)\n{PLOT_BIN_S:g} s bins", f"packet loss (pkts/s)\n{PLOT_BIN_S:g} s bins")
    ):
        axes[row, 0].set_ylabel(text)
        for axis in axes[row]:
            axis.grid(alpha=0.3)
    axes[1, 0].set_ylim(0, 105)
    fig.suptitle(title, fontsize=10)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def panels(file: str, title: str, buffers: tuple[int, ...], link: str | None = None):
    """`figures` of a declaration: the first seed's kept runs of `buffers`, in the paper's layout."""

    def draw(out: Path, evidence: Evidence) -> list[str]:
        shown = {label(b, r): evidence.kept[run_name(b, r)] for b in buffers for r in RTTS_MS}
        return [plot_panels(shown, out / file, title, link=link)]

    return draw


def note(quick: bool, extra: str = "") -> str:
    duration, start = timing(quick)
    return (
        f"{duration:.0f} s runs measured over [{start:.0f}, {duration:.0f}] s{' (quick)' if quick else ''}; "
        f"{SEEDS.count(quick)} seeds (figures: seed 1). 60 flows, 48 Compound + 12 CUBIC, SACK, 1 Gb/s access "
        "links, bottleneck delay 2 ms one way, DropTail. See docs/reproduction/seed004.md for the choices."
        f"{(' ' + extra) if extra else ''}"
    )


# --- Fig. 2 and Fig. 4: small buffers (15 and 100 packets) ---------------------------------------

SEEDS = Seeds(full=5, quick=2)

declare(
    "seed004-fig2",
    runs=lambda quick: grid_runs((15, 100), lambda b, r: dumbbell(b, r, quick)),
    derive=small_buffer_derive,
    figures=panels("fig2.png", "Fig. 2: single bottleneck, 48 Compound + 12 CUBIC flows", (15, 100)),
    notes=note,
    seeds=SEEDS,
)


declare(
    "seed004-fig4",
    runs=lambda quick: grid_runs((15, 100), lambda b, r: dumbbell(b, r, quick, with_http=True)),
    derive=small_buffer_derive,
    figures=panels("fig4.png", "Fig. 4: single bottleneck, long-lived flows and HTTP transfers", (15, 100)),
    notes=lambda quick: note(
        quick,
        f"HTTP: {HTTP_LOAD * 100:.0f} % of the capacity as Poisson arrivals of Pareto-sized transfers (mean "
        f"{HTTP_MEAN_BYTES / 1000:g} kB, shape 1.2; TCP Tahoe), the paper's '20 % short-lived HTTP flows' read as "
        "a share of the load.",
    ),
    seeds=SEEDS,
)


# --- Fig. 3: large buffers -------------------------------------------------------------------------

LARGE = (STANFORD_BUFFER, RULE_OF_THUMB_BUFFER)


def large_buffer_derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    out = {
        f"ratio-b{b}-rtt{r}-vs-b15": oscillation_ratio(measured, run_name(b, r), [run_name(15, r)])
        for b in LARGE
        for r in RTTS_MS
    }
    out["lowest-utilisation"] = min(measured[run_name(b, r)]["utilisation_mean"] for b in LARGE for r in RTTS_MS)
    return out


declare(
    "seed004-fig3",
    runs=lambda quick: (
        grid_runs(LARGE, lambda b, r: dumbbell(b, r, quick))
        + grid_runs((15,), lambda b, r: dumbbell(b, r, quick), keep=False)
    ),
    derive=large_buffer_derive,
    figures=panels(
        "fig3.png", "Fig. 3: single bottleneck, buffers C·RTT/sqrt(N) = 278 and C·RTT = 2084 packets", LARGE
    ),
    notes=lambda quick: note(
        quick,
        "Buffers as on Fig. 3's axes: 278 and 2084 packets at both RTTs (C × 250 ms = 2084; the formula "
        "C·RTT/sqrt(60) with it gives 269). The 15-packet runs are the stable reference of the criterion.",
    ),
    seeds=SEEDS,
)


# --- Fig. 5: multiple bottlenecks ---------------------------------------------------------------------


def parking_lot_derive(measured: dict[str, dict[str, float]], quick: bool) -> dict[str, float]:
    out = small_buffer_derive(measured, quick)
    out["ratio-b100-rtt10-vs-b15"] = oscillation_ratio(measured, run_name(100, 10), [run_name(15, 10)])
    out["ratio-b100-rtt200-vs-b15-rtt200"] = oscillation_ratio(measured, run_name(100, 200), [run_name(15, 200)])
    return out


declare(
    "seed004-fig5",
    runs=lambda quick: grid_runs((15, 100), lambda b, r: parking_lot(b, r, quick), link="link2"),
    derive=parking_lot_derive,
    figures=panels("fig5.png", "Fig. 5: parking lot, bottleneck link 2", (15, 100), link="link2"),
    notes=lambda quick: note(
        quick,
        "Fig. 1b as a parking lot of two 100 Mb/s links (2 ms each): 30 flows over both, 30 over link 1 alone, "
        "30 over link 2 alone, each group 80 % Compound / 20 % CUBIC; measured on link 2.",
    ),
    seeds=SEEDS,
)


# --- Fig. 6: windows and fairness -----------------------------------------------------------------------


def per_flow_goodput(results: Results) -> dict[str, np.ndarray]:
    flows = results.to_pandas("flows")
    return {
        algorithm: flows.loc[flows["group_name"] == f"mix/{algorithm}", "goodput_bps"].to_numpy()
        for algorithm in ("compound", "cubic")
    }


def plot_windows(results: Results, path: Path) -> str:
    """Every flow's window (cwnd + dwnd for Compound) over the window, one panel per algorithm,
    and each flow's goodput."""
    flows = results.to_pandas("flows")
    trace = results.to_pandas("flow_trace")
    trace = trace[trace["time_s"] > results.measure_start_s]
    fig, axes = plt.subplots(3, 1, figsize=(8, 9), constrained_layout=True)
    for axis, algorithm, colour in ((axes[0], "compound", "tab:blue"), (axes[1], "cubic", "tab:orange")):
        ids = flows.loc[flows["group_name"] == f"mix/{algorithm}", "flow"]
        for flow in ids:
            one = trace[trace["flow"] == flow]
            axis.plot(one["time_s"], one["cwnd"], lw=0.5, color=colour, alpha=0.5)
        axis.set_title(
            f"{'Compound' if algorithm == 'compound' else 'CUBIC'} TCP: windows of all {ids.size} flows", fontsize=9
        )
        axis.set_ylabel("window size (packets)")
        axis.set_xlabel("time (s)")
        axis.grid(alpha=0.3)
    goodput = per_flow_goodput(results)
    start = 0
    for algorithm, colour in (("compound", "tab:blue"), ("cubic", "tab:orange")):
        values = np.sort(goodput[algorithm])[::-1] / 1e6
        axes[2].bar(np.arange(start, start + values.size), values, color=colour, label=algorithm)
        start += values.size
    axes[2].set_ylabel("goodput over the window (Mb/s)")
    axes[2].set_xlabel("flows, sorted within each algorithm")
    axes[2].legend(fontsize=8)
    axes[2].grid(alpha=0.3, axis="y")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def fairness_measures(results: Results) -> dict[str, float]:
    """Per-flow goodput of each algorithm over the window (Mb/s), the CUBIC spread and Jain's
    indices, and each algorithm's largest window (packets)."""
    goodput = per_flow_goodput(results)
    trace = results.to_pandas("flow_trace")
    trace = trace[trace["time_s"] > results.measure_start_s]
    flows = results.to_pandas("flows")
    out = {
        "cubic_mbps": float(goodput["cubic"].mean()) / 1e6,
        "compound_mbps": float(goodput["compound"].mean()) / 1e6,
        "cubic_over_compound": float(goodput["cubic"].mean() / goodput["compound"].mean()),
        "cubic_spread": float(goodput["cubic"].max() / goodput["cubic"].min()),
        "jain_cubic": jain_index(goodput["cubic"]),
        "jain_compound": jain_index(goodput["compound"]),
    }
    for algorithm in ("compound", "cubic"):
        ids = flows.loc[flows["group_name"] == f"mix/{algorithm}", "flow"]
        out[f"largest_window_{algorithm}"] = float(trace[trace["flow"].isin(ids)]["cwnd"].max())
    return out


def fig6_figures(out: Path, evidence: Evidence) -> list[str]:
    return [plot_windows(evidence.kept["b15-rtt200"], out / "fig6.png")]


declare(
    "seed004-fig6",
    runs=lambda quick: [Run("b15-rtt200", dumbbell(15, 200, quick, traced_flows=60), fairness_measures, keep=True)],
    figures=fig6_figures,
    notes=lambda quick: note(
        quick, "The paper's window axis reaches 800; the fair share of the 1667-packet pipe is 28 packets per flow."
    ),
    seeds=SEEDS,
)
